# The GPU tests at the session's end (commit.txt): render and scenes, then the app's.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
cp .gpu/s52/commit.txt .gpu/s52/gpu.sh $R/
timeout -s KILL 300 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 --timeout 280 -m "gpu and not faults_gpu" tests/render tests/scenes > $R/gpu-render-scenes.txt 2>&1; echo render rc $?; tail -3 $R/gpu-render-scenes.txt
timeout -s KILL 120 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 4 --timeout 100 -m "gpu and not faults_gpu" tests/app > $R/gpu-app.txt 2>&1; echo app rc $?; tail -2 $R/gpu-app.txt
timeout -s KILL 100 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -rs tests/render/circles/test_gpu_animation_limits.py tests/render/circles/test_numba_environment.py > $R/new-tests.txt 2>&1; echo new rc $?; tail -2 $R/new-tests.txt

# The app's GPU tests (the real-window tests skip: no Xvfb packages on this machine) and the limits' tests, after the llvmpipe fit.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
timeout 420 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 4 --timeout 250 -m "gpu and not faults_gpu and not whole_gpu_memory" tests/app > $R/app-gpu.txt 2>&1; echo app gpu rc $?; tail -3 $R/app-gpu.txt
timeout 120 python3 -m pytest -q -p no:cacheprovider -p no:benchmark tests/app/test_software_gl.py tests/render/core/test_process_room.py tests/render/core/test_blas_threads.py tests/app/test_cli_streams.py > $R/limits.txt 2>&1; echo limits rc $?; tail -3 $R/limits.txt
git log --oneline -1 > $R/commit.txt 2>/dev/null; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $R/commit.txt

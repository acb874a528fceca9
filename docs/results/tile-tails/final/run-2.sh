# GPU tests at 28f3272 (render, scenes; app), on the checkout.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
timeout -s KILL 420 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 --timeout 380 -m "gpu and not faults_gpu" tests/render tests/scenes > $R/gpu-render-scenes.txt 2>&1; echo render rc $?; tail -2 $R/gpu-render-scenes.txt
timeout -s KILL 120 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 4 --timeout 80 -m "gpu and not faults_gpu" tests/app > $R/gpu-app.txt 2>&1; echo app rc $?; tail -2 $R/gpu-app.txt
cd $OUT && tar czf r.tgz r && rm -rf r

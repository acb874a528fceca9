# Final, at 8fc2c71 (the alpha steps, 8 pixels a thread, the flat floor of 3 instructions): bench auto twice; the render and scenes GPU tests; the app GPU tests.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
for i in 1 2; do timeout -s KILL 120 python3 main.py bench --variants auto --json $R/bench-auto-$i.json > $R/bench-auto-$i.txt 2>&1; echo bench $i rc $?; tail -11 $R/bench-auto-$i.txt; done
SECONDS=0; timeout -s KILL 330 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 --timeout 300 -m "gpu and not faults_gpu" tests/render tests/scenes > $R/render-gpu.txt 2>&1; echo render rc $? ${SECONDS}s; tail -3 $R/render-gpu.txt
SECONDS=0; timeout -s KILL 80 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 4 --timeout 70 -m "gpu and not faults_gpu" tests/app > $R/app-gpu.txt 2>&1; echo app rc $? ${SECONDS}s; tail -3 $R/app-gpu.txt
cd $OUT && tar czf r.tgz r && rm -rf r

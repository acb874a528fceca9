# Final GPU tests (render and scenes; app) of the working tree.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
SECONDS=0; timeout -s KILL 400 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 --timeout 380 -m "gpu and not faults_gpu" tests/render tests/scenes > $R/render-gpu.txt 2>&1; echo render rc $? ${SECONDS}s; tail -3 $R/render-gpu.txt
SECONDS=0; timeout -s KILL 90 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 4 --timeout 80 -m "gpu and not faults_gpu" tests/app > $R/app-gpu.txt 2>&1; echo app rc $? ${SECONDS}s; tail -3 $R/app-gpu.txt
cd $OUT && tar czf r.tgz r && rm -rf r

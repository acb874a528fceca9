# The app GPU tests again after the race's row count was mended (f9cc846).
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
SECONDS=0; timeout -s KILL 80 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 4 --timeout 70 -m "gpu and not faults_gpu" tests/app > $R/app-gpu-f9cc846.txt 2>&1; echo app rc $? ${SECONDS}s; tail -3 $R/app-gpu-f9cc846.txt
cd $OUT && tar czf r.tgz r && rm -rf r

# Final, at 4f87362: the render and scenes GPU tests (-n 8), the app GPU tests (-n 4).
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
SECONDS=0; timeout -s KILL 330 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 --timeout 300 -m "gpu and not faults_gpu" tests/render tests/scenes > $R/render-gpu.txt 2>&1; echo render rc $? ${SECONDS}s; tail -1 $R/render-gpu.txt
SECONDS=0; timeout -s KILL 150 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 4 --timeout 140 -m "gpu and not faults_gpu" tests/app > $R/app-gpu.txt 2>&1; echo app rc $? ${SECONDS}s; tail -1 $R/app-gpu.txt
grep -E "FAILED|ERROR" $R/render-gpu.txt $R/app-gpu.txt | head
cd $OUT && tar czf r.tgz r && rm -rf r

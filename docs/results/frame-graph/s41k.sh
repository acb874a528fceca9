# At 33e6147 (one graph a frame, no reference cycle): the render and scenes GPU tests (-n 8), then the
# whole-GPU-memory tests (no xdist). The fault tests passed at 49231ff (4 passed).
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
SECONDS=0; timeout -s KILL 330 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 --timeout 300 -m "gpu and not faults_gpu" tests/render tests/scenes > $R/render-gpu.txt 2>&1; echo render rc $? ${SECONDS}s; tail -1 $R/render-gpu.txt
SECONDS=0; timeout -s KILL 220 python3 -m pytest -q -p no:cacheprovider -p no:benchmark --timeout 210 -m "gpu and whole_gpu_memory and not faults_gpu" tests > $R/whole-gpu-memory.txt 2>&1; echo memory rc $? ${SECONDS}s; tail -1 $R/whole-gpu-memory.txt
grep -E "FAILED|ERROR" $R/*.txt | head
cd $OUT && tar czf r.tgz r && rm -rf r

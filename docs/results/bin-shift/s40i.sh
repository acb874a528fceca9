# At 78e7e31 (4f87362's code): the whole-GPU-memory tests (no xdist) and the fault tests (last, serially), which the
# final run of s40h.sh leaves out.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
SECONDS=0; timeout -s KILL 200 python3 -m pytest -q -p no:cacheprovider -p no:benchmark --timeout 190 -m "gpu and whole_gpu_memory and not faults_gpu" tests > $R/whole-gpu-memory.txt 2>&1; echo memory rc $? ${SECONDS}s; tail -1 $R/whole-gpu-memory.txt
SECONDS=0; timeout -s KILL 250 python3 -m pytest -q -p no:cacheprovider -p no:benchmark --timeout 240 -m "gpu and faults_gpu" tests > $R/faults.txt 2>&1; echo faults rc $? ${SECONDS}s; tail -1 $R/faults.txt
grep -E "FAILED|ERROR" $R/*.txt | head
cd $OUT && tar czf r.tgz r && rm -rf r

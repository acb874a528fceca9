# At b67d031, the tidy after 99d0498 (32-pixel builds' SASS unchanged; 64-pixel flat builds back to one walk): the render and
# scenes GPU tests; check --size 1024 (every variant, then the 64-pixel warp walks).
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
SECONDS=0; timeout -s KILL 300 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 --timeout 280 -m "gpu and not faults_gpu" tests/render tests/scenes > $R/render-gpu-tidy.txt 2>&1; echo render rc $? ${SECONDS}s; tail -1 $R/render-gpu-tidy.txt
grep -E "FAILED|ERROR" $R/render-gpu-tidy.txt | head
SECONDS=0; timeout -s KILL 150 python3 main.py check --size 1024 > $R/check-1024-tidy.txt 2>&1; echo check rc $? ${SECONDS}s; tail -1 $R/check-1024-tidy.txt
SECONDS=0; timeout -s KILL 120 python3 main.py check --size 1024 --variants tile-warp:tile=64 tile-warp:tile=64,bins=off > $R/check-1024-tile64-tidy.txt 2>&1; echo check tile 64 rc $? ${SECONDS}s; tail -1 $R/check-1024-tile64-tidy.txt
cd $OUT && tar czf r.tgz r && rm -rf r

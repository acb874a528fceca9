# Final, at 89a91a3 (measured as the working tree on 5870b11 before its commit): 8 blocks an SM at 8 pixels a thread and auto's 40-pixel threshold: bench auto twice; check 1024 (every variant; the pixels=8 configurations).
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
for i in 1 2; do timeout -s KILL 120 python3 main.py bench --variants auto --json $R/bench-auto-$i.json > $R/bench-auto-$i.txt 2>&1; echo bench $i rc $?; tail -11 $R/bench-auto-$i.txt; done
SECONDS=0; timeout 250 python3 main.py check --size 1024 > $R/check-1024.txt 2>&1; echo check rc $? ${SECONDS}s; tail -1 $R/check-1024.txt
SECONDS=0; timeout 250 python3 main.py check --size 1024 --variants tile-warp:pixels=8 tile-warp:pixels=8,bins=off tile-warp:pixels=8,walk=cell tile-warp:pixels=8,walk=cell,bins=off > $R/check-1024-pixels-8.txt 2>&1; echo check8 rc $? ${SECONDS}s; tail -1 $R/check-1024-pixels-8.txt
cd $OUT && tar czf r.tgz r && rm -rf r

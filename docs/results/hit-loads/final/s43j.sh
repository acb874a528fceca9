# Final, at 99d0498: check --size 1024 (every variant, then the cell walks).
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
SECONDS=0; timeout -s KILL 200 python3 main.py check --size 1024 > $R/check-1024.txt 2>&1; echo check rc $? ${SECONDS}s; tail -1 $R/check-1024.txt
SECONDS=0; timeout -s KILL 150 python3 main.py check --size 1024 --variants tile-warp:walk=cell tile-warp:tile=64,walk=cell tile-warp:walk=cell,bins=off tile-warp:tile=64,walk=cell,bins=off > $R/check-1024-cells.txt 2>&1; echo check cells rc $? ${SECONDS}s; tail -1 $R/check-1024-cells.txt
cd $OUT && tar czf r.tgz r && rm -rf r

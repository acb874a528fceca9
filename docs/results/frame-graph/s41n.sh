# micro2M: 32-pixel tiles (auto's) against 64-pixel tiles, both walked by cells, twice.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
for i in 1 2; do
timeout -s KILL 100 python3 main.py bench --variants tile-warp:walk=cell tile-warp:tile=64,walk=cell --scenes micro2M rand1M --json $R/tiles-$i.json > $R/tiles-$i.txt 2>&1; echo $i rc $?
grep -E "^(micro|rand)" $R/tiles-$i.txt | awk '{print $1, $2, $3, $8, $9}'
done
cd $OUT && tar czf r.tgz r && rm -rf r

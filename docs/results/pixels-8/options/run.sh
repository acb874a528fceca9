# 8 pixels a thread as tile-warp's option (the working tree): the radius sweep; big-circle scenes at 512, 1024, 2048 with lists on/off at 4 and 8 pixels; check 1024 of the four pixels=8 configurations.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name --format=csv,noheader
PYTHONPATH=$PWD:$PYTHONPATH timeout 300 python3 docs/results/pixels-8/radius_sweep.py > $R/radius-sweep.txt 2>&1; echo sweep rc $?; cat $R/radius-sweep.txt
for z in 512 1024 2048; do
  timeout -s KILL 200 python3 main.py bench --size $z --variants tile-warp tile-warp:pixels=8 tile-warp:bins=off tile-warp:bins=off,pixels=8 --scenes biglittle littlebig hypnosis pattern rgby --json $R/bench-big-$z.json > $R/bench-big-$z.txt 2>&1; echo bench $z rc $?
  python3 -c "import json,sys; d=json.load(open('$R/bench-big-$z.json')); print('$z', ' '.join(f\"{r['scene']}:{r['variant'].replace('tile-warp','tw')}={r['total_ms']:.4f}/{r['stage_ms']['blending']:.4f}\" for r in d['rows']))"
done
timeout 280 python3 main.py check --size 1024 --variants tile-warp:pixels=8 tile-warp:pixels=8,bins=off tile-warp:pixels=8,walk=cell tile-warp:pixels=8,walk=cell,bins=off > $R/check-pixels-8.txt 2>&1; echo check rc $?; tail -1 $R/check-pixels-8.txt
cd $OUT && tar czf r.tgz r && rm -rf r

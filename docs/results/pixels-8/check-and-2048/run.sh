# Final figures of the working tree: bench auto twice (all scored scenes); at 2048, auto's pixels=8 against 4 pixels a thread; check 1024 (every variant, and the four pixels=8 configurations).
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name --format=csv,noheader
git log -1 --format=%h 2>/dev/null; git status --short | head -20
for i in 1 2; do timeout -s KILL 120 python3 main.py bench --variants auto --json $R/bench-auto-$i.json > $R/bench-auto-$i.txt 2>&1; echo bench $i rc $?; done
cat $R/bench-auto-1.txt
tail -12 $R/bench-auto-2.txt
timeout -s KILL 200 python3 main.py bench --size 2048 --variants auto tile-warp tile-warp:pixels=8 --scenes rand10k rand100k biglittle --json $R/bench-2048.json > $R/bench-2048.txt 2>&1; echo bench 2048 rc $?
python3 -c "import json,sys; d=json.load(open('$R/bench-2048.json')); print(' '.join(f\"{r['scene']}:{r['variant'].replace('tile-warp','tw')}->{r['resolved'].replace('tile-warp','tw')}={r['total_ms']:.4f}/{r['stage_ms']['blending']:.4f}\" for r in d['rows']))"
timeout 250 python3 main.py check --size 1024 > $R/check-1024.txt 2>&1; echo check rc $?; tail -1 $R/check-1024.txt
timeout 250 python3 main.py check --size 1024 --variants tile-warp:pixels=8 tile-warp:pixels=8,bins=off tile-warp:pixels=8,walk=cell tile-warp:pixels=8,walk=cell,bins=off > $R/check-1024-pixels-8.txt 2>&1; echo check8 rc $?; tail -1 $R/check-1024-pixels-8.txt
cd $OUT && tar czf r.tgz r && rm -rf r

# 8 pixels a thread at 8 blocks an SM (Q: 64 registers, 28 bytes spilled) against 7 (M = 5870b11): bench, interleaved, twice; ncu of Q's rand100k blend.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
for T in M Q; do rm -rf /tmp/$T; cp -r .gpu/s44/$T /tmp/$T; done
for i in 1 2; do for T in M Q; do
  (cd /tmp/$T && timeout -s KILL 150 python3 main.py bench --variants tile-warp tile-warp:pixels=8 --scenes rand10k rand100k biglittle --json $R/bench-$T-$i.json > $R/bench-$T-$i.txt 2>&1; echo $T $i rc $?)
done; done
for f in $R/bench-*.json; do
  echo $(basename $f .json) $(python3 -c "import json,sys; d=json.load(open('$f')); print(' '.join(f\"{r['scene']}:{r['variant'].replace('tile-warp','tw')}={r['total_ms']:.4f}/{r['stage_ms']['blending']:.4f}\" for r in d['rows']))")
done
(cd /tmp/Q && timeout 150 /usr/local/cuda/bin/ncu --kernel-name regex:render_tile_warp --launch-count 1 --section WarpStateStats --section InstructionStats --section Occupancy --section SchedulerStats \
    python3 main.py render --scene rand100k --size 1024 --variant tile-warp:pixels=8 --out /tmp/m.png --overwrite > $R/ncu-Q-rand100k-pixels-8.txt 2>&1; echo ncu rc $?)
grep -E "Executed Instructions  |Achieved Active|No Eligible|Block Limit|Theoretical Occ" $R/ncu-Q-rand100k-pixels-8.txt
cd $OUT && tar czf r.tgz r && rm -rf r

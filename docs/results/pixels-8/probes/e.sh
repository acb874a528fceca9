# With the alpha steps (M = 3ce6f09): lists on/off and 64-pixel tiles on the small and unbinned scenes; 8 pixels a thread in 32-pixel tiles (P2, rows in registers) at 5 and 6 blocks an SM.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
for T in M P2; do rm -rf /tmp/$T; cp -r .gpu/s44/$T /tmp/$T; done
for i in 1 2; do
  (cd /tmp/M && timeout -s KILL 150 python3 main.py bench --variants tile-warp tile-warp:bins=off tile-warp:tile=64,bins=off tile-warp:tile=64 --scenes rgb rand10k pattern biglittle --json $R/bench-M-$i.json > $R/bench-M-$i.txt 2>&1; echo M $i rc $?)
  (cd /tmp/M && timeout -s KILL 100 python3 main.py bench --variants auto --scenes rand100k biglittle rand1M --json $R/bench-Mauto-$i.json > $R/bench-Mauto-$i.txt 2>&1; echo Mauto $i rc $?)
  for mb in 5 6; do
  (cd /tmp/P2 && P32=8 MB=$mb timeout -s KILL 100 python3 main.py bench --variants auto --scenes rand100k biglittle rand1M --json $R/bench-P2-$mb-$i.json > $R/bench-P2-$mb-$i.txt 2>&1; echo P2 $mb $i rc $?)
  done
done
for f in $R/bench-*.json; do
  echo $(basename $f .json) $(python3 -c "import json,sys; d=json.load(open('$f')); print(' '.join(f\"{r['scene']}:{r['variant']}={r['total_ms']:.4f}/{r['stage_ms']['blending']:.4f}\" for r in d['rows']))")
done
cd $OUT && tar czf r.tgz r && rm -rf r

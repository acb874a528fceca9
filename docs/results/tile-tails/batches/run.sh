# Batches of 2x THREADS at 8 pixels a thread (B) against HEAD (A): bench auto, interleaved, twice; ncu full on A's rand100k blend.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
for T in A B; do rm -rf /tmp/$T; cp -r .gpu/s45/$T /tmp/$T; done
for i in 1 2 3; do for T in A B; do
  (cd /tmp/$T && timeout -s KILL 150 python3 main.py bench --variants auto --scenes rand10k rand100k biglittle --json $R/bench-$T-$i.json > $R/bench-$T-$i.txt 2>&1; echo $T $i rc $?)
done; done
for f in $R/bench-*.json; do
  echo $(basename $f .json) $(python3 -c "import json,sys; d=json.load(open('$f')); print(' '.join(f\"{r['scene']}={r['total_ms']:.4f}/{r['stage_ms']['blending']:.4f}\" for r in d['rows']))")
done
(cd /tmp/A && timeout 200 /usr/local/cuda/bin/ncu --set full --kernel-name regex:render_tile_warp --launch-count 1 \
    python3 main.py render --scene rand100k --size 1024 --variant tile-warp:pixels=8 --out /tmp/m.png --overwrite > $R/ncu-full-A-rand100k-pixels-8.txt 2>&1; echo ncu rc $?)
grep -E "stalled_[a-z_]+ +warp" $R/ncu-full-A-rand100k-pixels-8.txt | grep -v not_issued | sort -k3 -n -r | head -14
cd $OUT && tar czf r.tgz r && rm -rf r

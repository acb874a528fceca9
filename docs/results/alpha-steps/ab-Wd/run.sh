# Alpha steps counted per covering hit (Wd) against per group by a popc (W) and main (A): bench, three rounds interleaved.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
for T in A W Wd; do rm -rf /tmp/$T; cp -r .gpu/s44/$T /tmp/$T; done
for i in 1 2 3; do for T in A W Wd; do
  (cd /tmp/$T && timeout -s KILL 100 python3 main.py bench --variants auto --scenes rand10k rand100k biglittle rand1M --json $R/bench-$T-$i.json > $R/bench-$T-$i.txt 2>&1; echo $T $i rc $?)
done; done
for f in $R/bench-*.json; do
  echo $(basename $f .json) $(python3 -c "import json,sys; d=json.load(open('$f')); print(' '.join(f\"{r['scene']}={r['total_ms']:.4f}/{r['stage_ms']['blending']:.4f}\" for r in d['rows']))")
done
cd $OUT && tar czf r.tgz r && rm -rf r

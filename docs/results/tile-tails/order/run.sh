# Tiles fullest bin first in flat builds too (O), and lightest first (R), against HEAD (A): bench auto, interleaved, twice.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
for T in A O R; do rm -rf /tmp/$T; cp -r .gpu/s45/$T /tmp/$T; done
for i in 1 2; do for T in A O R; do
  (cd /tmp/$T && timeout -s KILL 150 python3 main.py bench --variants auto --scenes rand10k rand100k biglittle rand1M micro2M --json $R/bench-$T-$i.json > $R/bench-$T-$i.txt 2>&1; echo $T $i rc $?)
done; done
for f in $R/bench-*.json; do
  echo $(basename $f .json) $(python3 -c "import json,sys; d=json.load(open('$f')); print(' '.join(f\"{r['scene']}={r['total_ms']:.4f}/{r['stage_ms']['blending']:.4f}\" for r in d['rows']))")
done
cd $OUT && tar czf r.tgz r && rm -rf r

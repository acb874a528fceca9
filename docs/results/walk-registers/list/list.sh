# The warp walk over a per-group list of hits (L) against HEAD (M): check auto at 1024 on every scene, then bench auto interleaved, twice.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
for T in M L; do rm -rf /tmp/$T; cp -r .gpu/s48/$T /tmp/$T; done
(cd /tmp/L && timeout -s KILL 200 python3 main.py check --size 1024 --variants auto tile-warp tile-warp:pixels=8 tile-warp:bins=off > $R/check-L.txt 2>&1; echo check L rc $?; tail -2 $R/check-L.txt)
for i in 1 2; do for T in M L; do
  (cd /tmp/$T && timeout -s KILL 120 python3 main.py bench --variants auto --scenes rand10k rand100k pattern biglittle rand1M --json $R/bench-$T-$i.json > $R/bench-$T-$i.txt 2>&1; echo $T $i rc $?)
done; done
for f in $R/bench-*.json; do
  echo $(basename $f .json) $(python3 -c "import json,sys; d=json.load(open('$f')); print(' '.join(f\"{r['scene']}={r['total_ms']:.4f}/{r['stage_ms']['blending']:.4f}\" for r in d['rows']))")
done
cd $OUT && tar czf r.tgz r && rm -rf r

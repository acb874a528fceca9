# Probe: 8 pixels a thread in 32-pixel tiles (P, rows in registers, P32=8) against main (A): bench auto, interleaved, twice; check P.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
for T in A P; do rm -rf /tmp/$T; cp -r .gpu/s44/$T /tmp/$T; done
S="rand10k rand100k snowsingle biglittle rand1M"
run() { (cd /tmp/$1 && env $3 timeout -s KILL 100 python3 main.py bench --variants auto --scenes $S --json $R/bench-$2.json > $R/bench-$2.txt 2>&1; echo $2 rc $?); }
for i in 1 2; do
  run A A-$i ""; run P P5-$i "P32=8 MB=5"; run P P6-$i "P32=8 MB=6"
done
for f in $R/bench-*.json; do
  echo $(basename $f .json) $(python3 -c "import json,sys; d=json.load(open('$f')); print(' '.join(f\"{r['scene']}={r['total_ms']:.4f}/{r['stage_ms']['blending']:.4f}\" for r in d['rows']))")
done
(cd /tmp/P && P32=8 MB=5 timeout 240 python3 main.py check --size 1024 --variants tile-warp tile-warp:bins=off > $R/check-P5.txt 2>&1; echo check rc $?; tail -5 $R/check-P5.txt)
cd $OUT && tar czf r.tgz r && rm -rf r

# Blocks paced per SM (V: a block with fewer candidates left than another of its SM by more than M rounds sleeps) against HEAD (A): check, bench auto interleaved, twice.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
for T in A V; do rm -rf /tmp/$T; cp -r .gpu/s45/$T /tmp/$T; done
echo no check
for i in 1 2; do for T in A V0 V2 V8; do
  case $T in A) D=/tmp/A; M=2;; V2) D=/tmp/V; M=2;; V8) D=/tmp/V; M=8;; V0) D=/tmp/V; M=1000000;; esac
  (cd $D && PACE_MARGIN_ROUNDS=$M timeout -s KILL 150 python3 main.py bench --variants auto --scenes rand10k rand100k biglittle rand1M micro2M snowsingle --json $R/bench-$T-$i.json > $R/bench-$T-$i.txt 2>&1; echo $T $i rc $?)
done; done
for f in $R/bench-*.json; do
  echo $(basename $f .json) $(python3 -c "import json,sys; d=json.load(open('$f')); print(' '.join(f\"{r['scene']}={r['total_ms']:.4f}/{r['stage_ms']['blending']:.4f}\" for r in d['rows']))")
done
cd $OUT && tar czf r.tgz r && rm -rf r

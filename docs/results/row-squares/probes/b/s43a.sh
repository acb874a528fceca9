# Row squares shared by a warp's lanes (B) against main 5c70946 (A): bench --variants auto, interleaved,
# twice each; the images' digests of B against A.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
rm -rf /tmp/A /tmp/B; cp -r .gpu/s43/A /tmp/A; cp -r .gpu/s43/B /tmp/B; cp .gpu/s43/dump.py /tmp/A/; cp .gpu/s43/dump.py /tmp/B/
for i in 1 2; do
  for T in A B; do
    (cd /tmp/$T && timeout -s KILL 100 python3 main.py bench --variants auto --json $R/bench-$T-$i.json > $R/bench-$T-$i.txt 2>&1; echo $T $i rc $?)
  done
done
for f in $R/bench-A-1 $R/bench-B-1 $R/bench-A-2 $R/bench-B-2; do
  echo $(basename $f) $(python3 -c "import json,sys; d=json.load(open('$f.json')); print(' '.join(f\"{r['scene']}={r['total_ms']:.4f}/{r['stage_ms']['binning']:.4f}/{r['stage_ms']['blending']:.4f}\" for r in d['rows']))")
done
for T in A B; do (cd /tmp/$T && PYTHONPATH=$PWD:$PYTHONPATH timeout 150 python3 dump.py $R/hash-$T.json > $R/dump-$T.txt 2>&1; echo dump $T rc $?); done
python3 -c "
import json; a=json.load(open('$R/hash-A.json')); b=json.load(open('$R/hash-B.json'))
print('images', len(b), 'differ from A:', [k for k in a if a[k] != b.get(k)])"
cd $OUT && tar czf r.tgz r && rm -rf r

# Row squares: main (A), shared squares in every 32-pixel build (B), in snowflake builds only (C),
# B with a flat circle's r^2 in its paint's w (D): bench --variants auto interleaved, twice; digests of C, D against A.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
for T in A B C D; do rm -rf /tmp/$T; cp -r .gpu/s43/$T /tmp/$T; cp .gpu/s43/dump.py /tmp/$T/; done
for i in 1 2; do
  for T in A B C D; do
    (cd /tmp/$T && timeout -s KILL 100 python3 main.py bench --variants auto --json $R/bench-$T-$i.json > $R/bench-$T-$i.txt 2>&1; echo $T $i rc $?)
  done
done
for i in 1 2; do for T in A B C D; do f=$R/bench-$T-$i
  echo $(basename $f) $(python3 -c "import json,sys; d=json.load(open('$f.json')); print(' '.join(f\"{r['scene']}={r['total_ms']:.4f}/{r['stage_ms']['blending']:.4f}\" for r in d['rows']))")
done; done
for T in A C D; do (cd /tmp/$T && PYTHONPATH=$PWD:$PYTHONPATH timeout 150 python3 dump.py $R/hash-$T.json > $R/dump-$T.txt 2>&1; echo dump $T rc $?); done
python3 -c "
import json; a=json.load(open('$R/hash-A.json'))
for T in 'CD':
    b=json.load(open(f'$R/hash-{T}.json')); print(T, 'images', len(b), 'differ from A:', [k for k in a if a[k] != b.get(k)])"
cd $OUT && tar czf r.tgz r && rm -rf r

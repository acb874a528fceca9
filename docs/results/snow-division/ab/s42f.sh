# Snowflake shading divides by the staged radius's reciprocal: the division GPU test; bench --variants auto
# against 8e9bcc4 (.gpu/s42/O), interleaved, twice each; the images' digests against 68a3e98 (.gpu/s42/A).
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
cp -r .gpu/s42/A /tmp/A; cp -r .gpu/s42/O /tmp/O
SECONDS=0; timeout -s KILL 120 python3 -m pytest -q -p no:cacheprovider -p no:benchmark tests/render/circles/test_gpu_division.py > $R/division-test.txt 2>&1; echo division rc $? ${SECONDS}s; tail -1 $R/division-test.txt
grep -E "FAILED|Error|assert" $R/division-test.txt | head -5
for i in 1 2; do
  (cd /tmp/O && timeout -s KILL 100 python3 main.py bench --variants auto --json $R/bench-order-$i.json > $R/bench-order-$i.txt 2>&1; echo order $i rc $?)
  timeout -s KILL 100 python3 main.py bench --variants auto --json $R/bench-auto-$i.json > $R/bench-auto-$i.txt 2>&1; echo division $i rc $?
done
for f in $R/bench-order-1 $R/bench-auto-1 $R/bench-order-2 $R/bench-auto-2; do
  echo $(basename $f) $(python3 -c "import json,sys; d=json.load(open('$f.json')); print(' '.join(f\"{r['scene']}={r['total_ms']:.4f}/{r['stage_ms']['binning']:.4f}/{r['stage_ms']['blending']:.4f}\" for r in d['rows']))")
done
cp docs/results/tile-order/probes/dump.py /tmp/A/; cp docs/results/tile-order/probes/dump.py ./dump-here.py
(cd /tmp/A && PYTHONPATH=$PWD:$PYTHONPATH timeout 100 python3 dump.py $R/hash-main.json > $R/dump-main.txt 2>&1; echo dump main rc $?)
PYTHONPATH=$PWD:$PYTHONPATH timeout 100 python3 dump-here.py $R/hash-division.json > $R/dump-division.txt 2>&1; echo dump division rc $?
python3 -c "
import json; a=json.load(open('$R/hash-main.json')); b=json.load(open('$R/hash-division.json'))
print('images', len(b), 'differ from main:', [k for k in a if a[k] != b.get(k)])"
cd $OUT && tar czf r.tgz r && rm -rf r

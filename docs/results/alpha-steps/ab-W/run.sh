# Covering circles' alpha steps taken at the end (W) against main (A): bench auto interleaved, twice;
# W's tile-warp GPU tests and check 1024; the digests of 63 RGBA images, W against A.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
for T in A W; do rm -rf /tmp/$T; cp -r .gpu/s44/$T /tmp/$T; cp .gpu/s44/dump.py /tmp/$T/; done
for i in 1 2; do for T in A W; do
  (cd /tmp/$T && timeout -s KILL 100 python3 main.py bench --variants auto --json $R/bench-$T-$i.json > $R/bench-$T-$i.txt 2>&1; echo $T $i rc $?)
done; done
for f in $R/bench-*.json; do
  echo $(basename $f .json) $(python3 -c "import json,sys; d=json.load(open('$f')); print(' '.join(f\"{r['scene']}={r['total_ms']:.4f}/{r['stage_ms'].get('binning',0):.4f}/{r['stage_ms']['blending']:.4f}\" for r in d['rows']))")
done
(cd /tmp/W && timeout 200 python3 -m pytest -q -p no:cacheprovider tests/render/circles/test_gpu_tile_warp.py > $R/tile-warp-gpu-W.txt 2>&1; echo tests rc $?; tail -3 $R/tile-warp-gpu-W.txt)
for T in A W; do (cd /tmp/$T && PYTHONPATH=$PWD:$PYTHONPATH timeout 150 python3 dump.py $R/hash-$T.json > $R/dump-$T.txt 2>&1; echo dump $T rc $?); done
python3 -c "
import json; a=json.load(open('$R/hash-A.json')); b=json.load(open('$R/hash-W.json'))
print('images', len(b), 'differ from A:', [k for k in a if a[k] != b.get(k)])"
(cd /tmp/W && timeout 200 python3 main.py check --size 1024 > $R/check-W.txt 2>&1; echo check rc $?; tail -1 $R/check-W.txt)
cd $OUT && tar czf r.tgz r && rm -rf r

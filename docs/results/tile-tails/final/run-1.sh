# At 52babce (N: 8-pixel flat warp walks take the tile order) against f3224b0 (A): bench auto interleaved, three rounds; check 1024; tile-warp GPU tests.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
for T in A N; do rm -rf /tmp/$T; cp -r .gpu/s45/$T /tmp/$T; done
for i in 1 2 3; do for T in A N; do
  (cd /tmp/$T && timeout -s KILL 150 python3 main.py bench --variants auto --json $R/bench-$T-$i.json > $R/bench-$T-$i.txt 2>&1; echo $T $i rc $?)
done; done
for f in $R/bench-*.json; do
  echo $(basename $f .json) $(python3 -c "import json,sys; d=json.load(open('$f')); print(' '.join(f\"{r['scene']}={r['total_ms']:.4f}/{r['stage_ms'].get('blending',0):.4f}\" for r in d['rows']))")
done
(cd /tmp/N && timeout -s KILL 200 python3 main.py check --size 1024 > $R/check-1024.txt 2>&1; echo check rc $?; tail -1 $R/check-1024.txt)
timeout -s KILL 200 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 --timeout 180 -m "gpu and not faults_gpu" tests/render/circles/test_gpu_tile_warp.py > $R/gpu-tile-warp.txt 2>&1; echo tests rc $?; tail -2 $R/gpu-tile-warp.txt
cd $OUT && tar czf r.tgz r && rm -rf r

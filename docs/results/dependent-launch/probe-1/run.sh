# Session 46, call 1: tile-warp GPU tests on the checkout (binning as dependent launches);
# bench auto interleaved: A (5a2686b), P (count->scan->emit as dependent launches), PB (P + the blend too).
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
timeout -s KILL 200 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 --timeout 180 -m "gpu and not faults_gpu" tests/render/circles/test_gpu_tile_warp.py > $R/gpu-tile-warp.txt 2>&1; echo tests rc $?; tail -3 $R/gpu-tile-warp.txt
for T in A P PB; do rm -rf /tmp/$T; cp -r .gpu/s46/$T /tmp/$T; done
(cd /tmp/PB && timeout -s KILL 100 python3 main.py check --size 1024 --variants auto > $R/check-PB.txt 2>&1; echo checkPB rc $?; tail -2 $R/check-PB.txt)
for i in 1 2; do for T in A P PB; do
  (cd /tmp/$T && timeout -s KILL 120 python3 main.py bench --variants auto --json $R/bench-$T-$i.json > $R/bench-$T-$i.txt 2>&1; echo $T $i rc $? $(grep -i -m1 protocol $R/bench-$T-$i.txt | cut -c1-160))
done; done
for f in $R/bench-*.json; do
  echo $(basename $f .json) $(python3 -c "import json,sys; d=json.load(open('$f')); print(' '.join(f\"{r['scene']}={r['total_ms']:.4f}/{r['stage_ms'].get('binning',0):.4f}/{r['stage_ms'].get('blending',0):.4f}\" for r in d['rows']))")
done
cd $OUT && tar czf r.tgz r && rm -rf r

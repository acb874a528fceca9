# Session 46, final call 1, at e7a92fd (the checkout): bench auto twice (the table), check 1024 every variant,
# the dependent-launch and tile-warp GPU tests.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
for i in 1 2; do
  timeout -s KILL 120 python3 main.py bench --variants auto --json $R/bench-auto-$i.json > $R/bench-auto-$i.txt 2>&1; echo bench $i rc $? $(grep -i -m1 protocol $R/bench-auto-$i.txt | cut -c1-160)
done
for f in $R/bench-auto-*.json; do
  echo $(basename $f .json) $(python3 -c "import json,sys; d=json.load(open('$f')); print(' '.join(f\"{r['scene']}={r['total_ms']:.4f}/{r['stage_ms'].get('binning',0):.4f}/{r['stage_ms'].get('blending',0):.4f}\" for r in d['rows']))")
done
timeout -s KILL 220 python3 main.py check --size 1024 > $R/check-1024.txt 2>&1; echo check rc $?; tail -2 $R/check-1024.txt
timeout -s KILL 200 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 --timeout 180 -m "gpu and not faults_gpu" tests/render/core/test_gpu_dependent_launch.py tests/render/circles/test_gpu_tile_warp.py tests/render/circles/test_gpu_frame_graph.py > $R/gpu-dependent-tile-warp-graph.txt 2>&1; echo tests rc $?; tail -3 $R/gpu-dependent-tile-warp-graph.txt
cd $OUT && tar czf r.tgz r && rm -rf r

# Session 46, call 7: D (binning's stop and the blend's start one event, recorded beside the stream) against C (329d2d7)
# and Q1 (no events between binning and blend); the frame-graph and tile-warp GPU tests at D (the checkout); bench, three rounds.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
timeout -s KILL 200 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 --timeout 180 -m "gpu and not faults_gpu" tests/render/circles/test_gpu_frame_graph.py tests/render/circles/test_gpu_tile_warp.py tests/render/circles/test_gpu_variants.py > $R/gpu-tests-D.txt 2>&1; echo tests rc $?; tail -2 $R/gpu-tests-D.txt
for T in C D Q1; do rm -rf /tmp/$T; cp -r .gpu/s46/$T /tmp/$T; done
for i in 1 2 3; do for T in C D Q1; do
  (cd /tmp/$T && timeout -s KILL 120 python3 main.py bench --variants auto --json $R/bench-$T-$i.json > $R/bench-$T-$i.txt 2>&1; echo $T $i rc $? $(grep -i -m1 protocol $R/bench-$T-$i.txt | cut -c1-160))
done; done
for f in $R/bench-*.json; do
  echo $(basename $f .json) $(python3 -c "import json,sys; d=json.load(open('$f')); print(' '.join(f\"{r['scene']}={r['total_ms']:.4f}/{r['stage_ms'].get('binning',0):.4f}+{r['stage_ms'].get('blending',0):.4f}\" for r in d['rows']))")
done
cd $OUT && tar czf r.tgz r && rm -rf r

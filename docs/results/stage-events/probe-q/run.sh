# Session 46, call 6: at 329d2d7 (the checkout) the GPU tests of dependent launches, tile-warp and the frame graph;
# then C (329d2d7) against Q1 (no events between the binning and the blend: one stage, binning to blend's end)
# and Q2 (Q1 with the blend launched as a dependent of the emission), bench auto, three rounds interleaved.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
timeout -s KILL 200 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 --timeout 180 -m "gpu and not faults_gpu" tests/render/core/test_gpu_dependent_launch.py tests/render/circles/test_gpu_tile_warp.py tests/render/circles/test_gpu_frame_graph.py > $R/gpu-tests.txt 2>&1; echo tests rc $?; tail -2 $R/gpu-tests.txt
for T in C Q1 Q2; do rm -rf /tmp/$T; cp -r .gpu/s46/$T /tmp/$T; done
for i in 1 2 3; do for T in C Q1 Q2; do
  (cd /tmp/$T && timeout -s KILL 120 python3 main.py bench --variants auto --json $R/bench-$T-$i.json > $R/bench-$T-$i.txt 2>&1; echo $T $i rc $? $(grep -i -m1 protocol $R/bench-$T-$i.txt | cut -c1-160))
done; done
for f in $R/bench-*.json; do
  echo $(basename $f .json) $(python3 -c "import json,sys; d=json.load(open('$f')); print(' '.join(f\"{r['scene']}={r['total_ms']:.4f}/{r['stage_ms'].get('binning',0)+r['stage_ms'].get('blending',0):.4f}\" for r in d['rows'] if r['scene'] not in ('rgb','pattern')))")
done
cd $OUT && tar czf r.tgz r && rm -rf r

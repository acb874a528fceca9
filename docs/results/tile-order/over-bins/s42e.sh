# Snowflake tiles fullest bin first, the order now made over bins with the fullest count found while placing the
# lists: bench --variants auto against main (68a3e98, .gpu/s42/A), interleaved, twice each; the tile-warp, overlay
# and frame-graph GPU tests; check --size 1024.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
cp -r .gpu/s42/A /tmp/A
for i in 1 2; do
  (cd /tmp/A && timeout -s KILL 100 python3 main.py bench --variants auto --json $R/bench-main-$i.json > $R/bench-main-$i.txt 2>&1; echo main $i rc $?)
  timeout -s KILL 100 python3 main.py bench --variants auto --json $R/bench-auto-$i.json > $R/bench-auto-$i.txt 2>&1; echo order $i rc $?
done
for f in $R/bench-main-1 $R/bench-auto-1 $R/bench-main-2 $R/bench-auto-2; do
  echo $(basename $f) $(python3 -c "import json,sys; d=json.load(open('$f.json')); print(' '.join(f\"{r['scene']}={r['total_ms']:.4f}/{r['stage_ms']['binning']:.4f}/{r['stage_ms']['blending']:.4f}\" for r in d['rows']))")
done
SECONDS=0; timeout -s KILL 200 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 --timeout 180 tests/render/circles/test_gpu_tile_warp.py tests/render/circles/test_gpu_overlays.py tests/render/circles/test_gpu_frame_graph.py > $R/tests.txt 2>&1; echo tests rc $? ${SECONDS}s; tail -1 $R/tests.txt
grep -E "FAILED|ERROR" $R/tests.txt | head
SECONDS=0; timeout -s KILL 150 python3 main.py check --size 1024 > $R/check-1024.txt 2>&1; echo check rc $? ${SECONDS}s; tail -1 $R/check-1024.txt
cd $OUT && tar czf r.tgz r && rm -rf r

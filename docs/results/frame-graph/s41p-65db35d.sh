# At the tidy commit: the frame-graph GPU tests and tile-warp's (a shared shorten_lists fixture).
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
SECONDS=0; timeout -s KILL 200 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 --timeout 180 tests/render/core/test_frame_graph.py tests/render/circles/test_gpu_frame_graph.py tests/render/circles/test_gpu_tile_warp.py > $R/frame-graph-tests.txt 2>&1; echo fg rc $? ${SECONDS}s; tail -1 $R/frame-graph-tests.txt
grep -E "FAILED|ERROR" $R/*.txt | head
cd $OUT && tar czf r.tgz r && rm -rf r

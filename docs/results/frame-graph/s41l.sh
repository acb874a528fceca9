# At HEAD (captures and device synchronizes take turns; fallback): the frame-graph and tile-warp GPU tests,
# bench --variants auto twice, the render and scenes GPU tests (-n 8), the app GPU tests (-n 4).
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
SECONDS=0; timeout -s KILL 200 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 --timeout 180 tests/render/core/test_frame_graph.py tests/render/circles/test_gpu_frame_graph.py tests/render/circles/test_gpu_tile_warp.py > $R/frame-graph-tests.txt 2>&1; echo fg rc $? ${SECONDS}s; tail -1 $R/frame-graph-tests.txt
for i in 1 2; do
timeout -s KILL 100 python3 main.py bench --variants auto --json $R/bench-auto-$i.json > $R/bench-auto-$i.txt 2>&1; echo bench $i rc $?
grep -E "^(rgb|rand|pattern|snow|big|micro)" $R/bench-auto-$i.txt | awk '{print $1, $3, $8, $9, $14}' | tr '\n' ';'; echo
done
SECONDS=0; timeout -s KILL 300 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 --timeout 280 -m "gpu and not faults_gpu" tests/render tests/scenes > $R/render-gpu.txt 2>&1; echo render rc $? ${SECONDS}s; tail -1 $R/render-gpu.txt
SECONDS=0; timeout -s KILL 100 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 4 --timeout 90 -m "gpu and not faults_gpu" tests/app > $R/app-gpu.txt 2>&1; echo app rc $? ${SECONDS}s; tail -1 $R/app-gpu.txt
grep -E "FAILED|ERROR" $R/*.txt | head
cd $OUT && tar czf r.tgz r && rm -rf r

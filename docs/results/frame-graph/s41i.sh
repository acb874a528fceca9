# One graph a frame (branch frame-graph): its GPU tests and tile-warp's, then bench auto against main's four
# files (.gpu/s41/M), interleaved, twice each.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
rm -rf /tmp/M && mkdir /tmp/M && cp -r main.py app render scenes shaders pyproject.toml /tmp/M/ && cp -r .gpu/s41/M/render /tmp/M/
SECONDS=0; timeout -s KILL 240 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 tests/render/core/test_frame_graph.py tests/render/circles/test_gpu_frame_graph.py tests/render/circles/test_gpu_tile_warp.py > $R/tests.txt 2>&1; echo tests rc $? ${SECONDS}s; tail -1 $R/tests.txt
for i in 1 2; do
(cd /tmp/M && timeout -s KILL 100 python3 main.py bench --variants auto --json $R/bench-main-$i.json > $R/bench-main-$i.txt 2>&1); echo main $i rc $?
grep -E "^(rgb|rand|pattern|snow|big|micro)" $R/bench-main-$i.txt | awk '{print $1, $3, $8, $9}' | tr '\n' ';'; echo
timeout -s KILL 100 python3 main.py bench --variants auto --json $R/bench-graph-$i.json > $R/bench-graph-$i.txt 2>&1; echo graph $i rc $?
grep -E "^(rgb|rand|pattern|snow|big|micro)" $R/bench-graph-$i.txt | awk '{print $1, $3, $8, $9}' | tr '\n' ';'; echo
done
grep -E "FAILED|ERROR" $R/tests.txt | head
cd $OUT && tar czf r.tgz r && rm -rf r

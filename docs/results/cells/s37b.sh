# Warm H100. Three trees of shaders/render_tile_warp.cu, interleaved twice: A = the cells commit (375b255),
# B = A + candidates loaded a round ahead, C = B + __launch_bounds__(THREADS, 4 blocks) at tile 32.
# Then C's exactness (GPU tests of walk=cell, check 1024) and the radius sweep.
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
for round in 1 2; do for T in A B C; do
cp .gpu/s37/$T.cu shaders/render_tile_warp.cu
timeout -s KILL 100 python3 main.py bench --variants tile-warp tile-warp:walk=cell --scenes rand10k rand100k snowsingle rand1M micro2M --json $R/bench-$T-$round.json > $R/bench-$T-$round.txt 2>&1; echo "== $T $round rc $?"
grep -E "^(rand|snow|micro)" $R/bench-$T-$round.txt | awk '{print $1, $2, $3, $9, $10}'
done; done
cp .gpu/s37/C.cu shaders/render_tile_warp.cu
timeout -s KILL 120 python3 docs/results/cells/radius_sweep.py > $R/radius-sweep.txt 2>&1; echo sweep rc $?; cat $R/radius-sweep.txt | tail -16
timeout -s KILL 150 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 --timeout 140 -m "gpu and not faults_gpu" tests/render/circles/test_gpu_variants.py tests/render/circles/test_gpu_edges.py tests/render/circles/test_gpu_tile_warp.py -k "cell or tile_warp" > $R/gpu-cell.txt 2>&1; echo gpu rc $?; tail -3 $R/gpu-cell.txt
timeout -s KILL 100 python3 main.py check --size 1024 --variants tile-warp tile-warp:walk=cell tile-warp:tile=64 tile-warp:bins=off > $R/check.txt 2>&1; echo check rc $?; tail -2 $R/check.txt
cd $OUT && tar czf r.tgz r && rm -rf r

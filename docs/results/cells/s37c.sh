# Two trees of shaders/render_tile_warp.cu, interleaved twice: C = candidates a round ahead, 4 blocks an SM
# (s37b), D = C with four threads a bin in emit_bin_entries (and snowflakes not held to 4 blocks).
# Then D's exactness (tile-warp's GPU tests, every tile-warp configuration at 256, check 1024) and the radius sweep.
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name --format=csv,noheader
for round in 1 2; do for T in C D; do
cp .gpu/s37/$T.cu shaders/render_tile_warp.cu
timeout -s KILL 100 python3 main.py bench --variants tile-warp tile-warp:walk=cell --scenes rand10k rand100k snowsingle rand1M micro2M --json $R/bench-$T-$round.json > $R/bench-$T-$round.txt 2>&1; echo "== $T $round rc $?"
grep -E "^(rand|snow|micro)" $R/bench-$T-$round.txt | awk '{print $1, $2, $3, $8, $9}'
done; done
cp .gpu/s37/D.cu shaders/render_tile_warp.cu
PYTHONPATH=. timeout -s KILL 150 python3 docs/results/cells/radius_sweep.py > $R/radius-sweep.txt 2>&1; echo sweep rc $?; tail -16 $R/radius-sweep.txt
timeout -s KILL 200 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 --timeout 190 -m "gpu and not faults_gpu" tests/render/circles/test_gpu_variants.py tests/render/circles/test_gpu_tile_warp.py -k "tile-warp or tile_warp or auto" > $R/gpu-tw.txt 2>&1; echo gpu rc $?; tail -3 $R/gpu-tw.txt
timeout -s KILL 100 python3 main.py check --size 1024 --variants tile-warp tile-warp:walk=cell tile-warp:tile=64 > $R/check.txt 2>&1; echo check rc $?; tail -2 $R/check.txt
cd $OUT && tar czf r.tgz r && rm -rf r

# Warm machine. E = 288c0cb, F = E with a staging scan of one barrier (scan_warp_ballot_alternating), interleaved twice.
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name --format=csv,noheader
for round in 1 2; do for T in E F; do
cp .gpu/s37/$T.cu shaders/render_tile_warp.cu; cp .gpu/s37/$T.cuh shaders/block_scan.cuh
timeout -s KILL 100 python3 main.py bench --variants auto --json $R/bench-$T-$round.json > $R/bench-$T-$round.txt 2>&1; echo "== $T $round rc $?"
grep -E "^(rgb|rand|pattern|snow|big|micro)" $R/bench-$T-$round.txt | awk '{print $1, $3, $8, $9}' | tr '\n' ';'; echo
done; done
cp .gpu/s37/F.cu shaders/render_tile_warp.cu; cp .gpu/s37/F.cuh shaders/block_scan.cuh
timeout -s KILL 200 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 --timeout 190 -m "gpu and not faults_gpu" tests/render/circles/test_gpu_variants.py tests/render/circles/test_gpu_tile_warp.py tests/render/circles/test_gpu_edges.py -k "tile-warp or tile_warp or auto" > $R/gpu-tw.txt 2>&1; echo gpu rc $?; tail -1 $R/gpu-tw.txt
cd $OUT && tar czf r.tgz r && rm -rf r

# E = 288c0cb against G = E + the paint made after the scan's barriers + each cell's word of filled words, interleaved twice;
# then G's exactness: tile-warp's GPU tests (every configuration at 256, edge scenes, its own paths), check 1024 of the cell walks.
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name --format=csv,noheader
for round in 1 2; do for T in E G; do
cp .gpu/s37/$T.cu shaders/render_tile_warp.cu
timeout -s KILL 100 python3 main.py bench --variants tile-warp tile-warp:walk=cell --scenes rand10k rand100k snowsingle rand1M micro2M --json $R/bench-$T-$round.json > $R/bench-$T-$round.txt 2>&1; echo "== $T $round rc $?"
grep -E "^(rand|snow|micro)" $R/bench-$T-$round.txt | awk '{print $1, $2, $3, $8, $9}' | tr '\n' ';'; echo
timeout -s KILL 60 python3 main.py bench --variants tile-warp:bins=off --scenes pattern biglittle --json $R/bench-off-$T-$round.json > $R/bench-off-$T-$round.txt 2>&1
grep -E "^(pattern|big)" $R/bench-off-$T-$round.txt | awk '{print $1, $2, $3, $8, $9}' | tr '\n' ';'; echo
done; done
cp .gpu/s37/G.cu shaders/render_tile_warp.cu
timeout -s KILL 200 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 --timeout 190 -m "gpu and not faults_gpu" tests/render/circles/test_gpu_variants.py tests/render/circles/test_gpu_tile_warp.py tests/render/circles/test_gpu_edges.py -k "tile-warp or tile_warp or auto" > $R/gpu-tw.txt 2>&1; echo gpu rc $?; tail -1 $R/gpu-tw.txt
timeout -s KILL 100 python3 main.py check --size 1024 --variants tile-warp tile-warp:walk=cell tile-warp:tile=64,walk=cell tile-warp:walk=cell,bins=off > $R/check.txt 2>&1; echo check rc $?; tail -1 $R/check.txt
cd $OUT && tar czf r.tgz r && rm -rf r

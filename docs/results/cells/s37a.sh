# Fresh H100, branch cells: tile-warp's walk=cell against walk=warp (bench, twice), then its exactness
# (GPU tests of every walk=cell configuration at 256 and the edge scenes, tile-warp's own paths, check at 1024).
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
git log --oneline -1 > $R/head.txt; git diff HEAD --stat >> $R/head.txt
for i in 1 2; do
timeout -s KILL 150 python3 main.py bench --variants tile-warp tile-warp:walk=cell --scenes rand10k rand100k snowsingle rand1M micro2M --json $R/bench-$i.json > $R/bench-$i.txt 2>&1; echo bench $i rc $?
grep -E "^\| *(rand|snow|micro)" $R/bench-$i.txt | cut -c1-200
done
timeout -s KILL 60 python3 main.py bench --variants tile-warp:bins=off tile-warp:walk=cell,bins=off --scenes rgb pattern biglittle --json $R/bench-off.json > $R/bench-off.txt 2>&1; echo bench off rc $?
grep -E "^\| *(rgb|pattern|big)" $R/bench-off.txt | cut -c1-200
timeout -s KILL 200 python3 -m pytest -q -p no:cacheprovider -n 8 --timeout 190 -m gpu tests/render/circles/test_gpu_variants.py tests/render/circles/test_gpu_edges.py tests/render/circles/test_gpu_tile_warp.py -k "walk=cell" > $R/gpu-cell.txt 2>&1; echo gpu rc $?; tail -3 $R/gpu-cell.txt
timeout -s KILL 150 python3 main.py check --size 1024 --variants tile-warp:walk=cell tile-warp:tile=64,walk=cell tile-warp:walk=cell,bins=off > $R/check.txt 2>&1; echo check rc $?; tail -4 $R/check.txt
cd $OUT && tar czf r.tgz r && rm -rf r

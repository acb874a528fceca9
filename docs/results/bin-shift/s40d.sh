# B4 = B2 + the list starts placed by the scan's last block (no start_bin_lists launch) + the bin loops not unrolled
# (the one-bin shortcut of B3 dropped). Against M (main) and B2. ncu on micro2M's binning kernels (B4), bench interleaved twice,
# check 1024 on B4, tile-warp's GPU tests on B4 (with the new test of each frame's list starts).
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
B=.gpu/s40
tree() { cp $B/$1/render_tile_warp.cu shaders/; cp $B/$1/tile_warp.py render/circles/; }
tree B4; SECONDS=0
timeout 120 /usr/local/cuda/bin/ncu --kernel-name regex:"count_bin|emit_bin|scan_bin|start_bin" --launch-count 5 --section SpeedOfLight --section LaunchStats --metrics smsp__inst_executed.sum \
  python3 main.py render --scene micro2M --size 1024 --variant auto --out /tmp/m.png --overwrite > $R/ncu-micro2M-B4.txt 2>&1; echo ncu B4 rc $? ${SECONDS}s
grep -E "^  [a-z_]+ \(|Duration|inst_executed|Registers Per" $R/ncu-micro2M-B4.txt
for i in 1 2; do for T in M B2 B4; do tree $T
timeout -s KILL 100 python3 main.py bench --variants auto --json $R/bench-$T-$i.json > $R/bench-$T-$i.txt 2>&1; echo bench $T $i rc $?
grep -E "^(rgb|rand|pattern|snow|big|micro)" $R/bench-$T-$i.txt | awk '{print $1, $3, $8, $9}' | tr '\n' ';'; echo
done; done
tree B4; cp $B/B4/test_gpu_tile_warp.py tests/render/circles/; SECONDS=0
timeout -s KILL 200 python3 main.py check --size 1024 --variants auto tile-warp tile-warp:walk=cell tile-warp:bins=off tile-warp:tile=64 > $R/check-1024-B4.txt 2>&1; echo check B4 rc $? ${SECONDS}s; tail -1 $R/check-1024-B4.txt; grep -i fail $R/check-1024-B4.txt | head -5
SECONDS=0
timeout -s KILL 200 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 --timeout 190 -m gpu tests/render/circles/test_gpu_tile_warp.py > $R/gpu-tile-warp-B4.txt 2>&1; echo tile-warp tests rc $? ${SECONDS}s; tail -1 $R/gpu-tile-warp-B4.txt
cd $OUT && tar czf r.tgz r && rm -rf r

# At 83b17a9 on a fresh H100: 1. tile-warp's GPU tests (one of them never ran on a GPU). 2. The decider for lists per
# tile: bench --variants auto, main (M) against main with BIN_PIXELS = 32 (B: a bin is one 32-pixel tile, 1024 bins at
# 1024 px in 4 groups), interleaved, twice each. 3. ncu on micro2M's two binning kernels (main). 4. The cell-walk check
# on snow and snowsingle, cut at 100 s last time.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
cp render/circles/constants.py /tmp/constants-main.py
tree() { cp /tmp/constants-main.py render/circles/constants.py
  if [ $1 = B ]; then sed -i "s/^BIN_PIXELS = .*/BIN_PIXELS = 32/" render/circles/constants.py; fi; grep "^BIN_PIXELS" render/circles/constants.py; }
tree M
SECONDS=0
timeout -s KILL 200 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 --timeout 190 -m gpu tests/render/circles/test_gpu_tile_warp.py > $R/gpu-tile-warp.txt 2>&1; echo tile-warp tests rc $? ${SECONDS}s; tail -1 $R/gpu-tile-warp.txt
grep -E "drop_what_overflows|emit_the_lists" $R/gpu-tile-warp.txt | head -5
for i in 1 2; do for T in M B; do tree $T; SECONDS=0
timeout -s KILL 100 python3 main.py bench --variants auto --json $R/bench-$T-$i.json > $R/bench-$T-$i.txt 2>&1; echo bench $T $i rc $? ${SECONDS}s
grep -E "^(rgb|rand|pattern|snow|big|micro)" $R/bench-$T-$i.txt | awk '{print $1, $3, $8, $9}' | tr '\n' ';'; echo
done; done
tree M; SECONDS=0
timeout 120 /usr/local/cuda/bin/ncu --kernel-name regex:"count_bin|emit_bin" --launch-count 2 --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy --section LaunchStats \
  python3 main.py render --scene micro2M --size 1024 --variant tile-warp:walk=cell --out /tmp/m.png --overwrite > $R/ncu-micro2m-binning.txt 2>&1; echo ncu rc $? ${SECONDS}s
SECONDS=0
timeout -s KILL 200 python3 main.py check --size 1024 --scenes snow snowsingle --variants tile-warp:walk=cell tile-warp:tile=64,walk=cell tile-warp:walk=cell,bins=off tile-warp:tile=64,walk=cell,bins=off > $R/check-1024-cells-snow.txt 2>&1; echo check cells rc $? ${SECONDS}s; tail -2 $R/check-1024-cells-snow.txt
cd $OUT && tar czf r.tgz r && rm -rf r

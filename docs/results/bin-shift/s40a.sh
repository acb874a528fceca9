# Bins found by a shift (branch bin-shift: B) against main (M): the binning kernels' six integer divisions a circle
# taken out. 1. ncu on micro2M's count_bin_entries and emit_bin_entries, both trees (duration, warp-instructions).
# 2. bench --variants auto interleaved, twice each. 3. check 1024 (auto and the tile-warp configurations) on B.
# 4. tile-warp's GPU tests on B.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
B=.gpu/s40
tree() { cp $B/$1/render_tile_warp.cu shaders/; cp $B/$1/tile_warp.py render/circles/; }
for T in M B; do tree $T; SECONDS=0
timeout 120 /usr/local/cuda/bin/ncu --kernel-name regex:"count_bin|emit_bin" --launch-count 3 --section SpeedOfLight --section WarpStateStats --section LaunchStats --metrics smsp__inst_executed.sum \
  python3 main.py render --scene micro2M --size 1024 --variant tile-warp:walk=cell --out /tmp/m.png --overwrite > $R/ncu-micro2m-$T.txt 2>&1; echo ncu $T rc $? ${SECONDS}s
grep -E "^  [a-z_]+ \(|Duration|inst_executed|Registers Per" $R/ncu-micro2m-$T.txt
done
for i in 1 2; do for T in M B; do tree $T
timeout -s KILL 100 python3 main.py bench --variants auto --json $R/bench-$T-$i.json > $R/bench-$T-$i.txt 2>&1; echo bench $T $i rc $?
grep -E "^(rgb|rand|pattern|snow|big|micro)" $R/bench-$T-$i.txt | awk '{print $1, $3, $8, $9}' | tr '\n' ';'; echo
done; done
tree B; SECONDS=0
timeout -s KILL 200 python3 main.py check --size 1024 --variants auto tile-warp tile-warp:walk=cell tile-warp:bins=off tile-warp:tile=64 > $R/check-1024-B.txt 2>&1; echo check B rc $? ${SECONDS}s; tail -1 $R/check-1024-B.txt; grep -i fail $R/check-1024-B.txt | head -5
SECONDS=0
timeout -s KILL 200 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 --timeout 190 -m gpu tests/render/circles/test_gpu_tile_warp.py > $R/gpu-tile-warp-B.txt 2>&1; echo tile-warp tests rc $? ${SECONDS}s; tail -1 $R/gpu-tile-warp-B.txt
cd $OUT && tar czf r.tgz r && rm -rf r

# Bins found by a shift with two binning blocks an SM forced (B2: __launch_bounds__(CHUNK, 2) on the count and the
# emission, whose registers rose to 38 in B) against main (M). ncu on micro2M's binning (B2), bench interleaved twice,
# check 1024 on B2.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
B=.gpu/s40
tree() { cp $B/$1/render_tile_warp.cu shaders/; cp $B/$1/tile_warp.py render/circles/; }
for T in B2; do tree $T; SECONDS=0
for S in micro2M rand1M; do
timeout 120 /usr/local/cuda/bin/ncu --kernel-name regex:"count_bin|emit_bin" --launch-count 3 --section SpeedOfLight --section WarpStateStats --section LaunchStats --metrics smsp__inst_executed.sum \
  python3 main.py render --scene $S --size 1024 --variant auto --out /tmp/m.png --overwrite > $R/ncu-$S-$T.txt 2>&1; echo ncu $S $T rc $? ${SECONDS}s
grep -E "^  [a-z_]+ \(|Duration|inst_executed|Registers Per" $R/ncu-$S-$T.txt | tail -8
done; done
tree M; timeout 120 /usr/local/cuda/bin/ncu --kernel-name regex:"count_bin|emit_bin" --launch-count 3 --section SpeedOfLight --section WarpStateStats --section LaunchStats --metrics smsp__inst_executed.sum \
  python3 main.py render --scene rand1M --size 1024 --variant auto --out /tmp/m.png --overwrite > $R/ncu-rand1M-M.txt 2>&1; echo ncu rand1M M rc $?
grep -E "^  [a-z_]+ \(|Duration|inst_executed|Registers Per" $R/ncu-rand1M-M.txt | tail -8
for i in 1 2; do for T in M B2; do tree $T
timeout -s KILL 100 python3 main.py bench --variants auto --json $R/bench-$T-$i.json > $R/bench-$T-$i.txt 2>&1; echo bench $T $i rc $?
grep -E "^(rgb|rand|pattern|snow|big|micro)" $R/bench-$T-$i.txt | awk '{print $1, $3, $8, $9}' | tr '\n' ';'; echo
done; done
tree B2; SECONDS=0
timeout -s KILL 200 python3 main.py check --size 1024 --variants auto tile-warp tile-warp:walk=cell tile-warp:bins=off tile-warp:tile=64 > $R/check-1024-B2.txt 2>&1; echo check B2 rc $? ${SECONDS}s; tail -1 $R/check-1024-B2.txt; grep -i fail $R/check-1024-B2.txt | head -5
cd $OUT && tar czf r.tgz r && rm -rf r

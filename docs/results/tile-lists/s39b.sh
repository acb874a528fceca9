# Tile lists (branch tile-lists) against main: bench --variants auto interleaved, twice each; then in the branch:
# check 1024 (every variant), tile-warp's GPU tests, ncu on micro2M's emit_bin_entries (both trees).
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
B=.gpu/s39
tree() { if [ $1 = M ]; then d=$B/M; else d=$B; fi
  cp $d/render_tile_warp.cu shaders/; cp $d/tile_warp.py $d/overlays.py render/circles/; }
for i in 1 2; do for T in M T; do tree $T
timeout -s KILL 100 python3 main.py bench --variants auto --json $R/bench-$T-$i.json > $R/bench-$T-$i.txt 2>&1; echo bench $T $i rc $?
grep -E "^(rgb|rand|pattern|snow|big|micro)" $R/bench-$T-$i.txt | awk '{print $1, $3, $8, $9}' | tr '\n' ';'; echo
done; done
for T in M T; do tree $T
timeout 60 /usr/local/cuda/bin/ncu --kernel-name regex:"emit_bin|count_bin" --launch-count 4 --section SpeedOfLight --section WarpStateStats --section Occupancy --section LaunchStats \
  python3 main.py render --scene micro2M --size 1024 --variant tile-warp:walk=cell --out /tmp/m.png --overwrite > $R/ncu-micro2m-$T.txt 2>&1; echo ncu $T rc $?
grep -E "^  [a-z_]+ \(|Duration" $R/ncu-micro2m-$T.txt
done
tree T; SECONDS=0
timeout -s KILL 150 python3 main.py check --size 1024 > $R/check-1024.txt 2>&1; echo check rc $? ${SECONDS}s; tail -1 $R/check-1024.txt; grep -i fail $R/check-1024.txt | head
SECONDS=0
timeout -s KILL 200 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 --timeout 190 -m gpu tests/render/circles/test_gpu_tile_warp.py > $R/gpu-tile-warp.txt 2>&1; echo tile-warp tests rc $? ${SECONDS}s; tail -1 $R/gpu-tile-warp.txt
grep -E "^FAILED|Error" $R/gpu-tile-warp.txt | head -20
cd $OUT && tar czf r.tgz r && rm -rf r

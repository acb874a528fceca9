# Circles loaded a chunk ahead in count_bin_entries and emit_bin_entries (branch prefetch-chunk: P; P2 = P with two
# blocks an SM forced on both kernels) against main (M0): bench --variants auto interleaved, twice each; ncu on
# micro2M's binning kernels in each; check 1024 in P and P2.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
B=.gpu/s39
tree() { cp $B/$1/render_tile_warp.cu shaders/; }
for i in 1 2; do for T in M0 P P2; do tree $T
timeout -s KILL 100 python3 main.py bench --variants auto --json $R/bench-$T-$i.json > $R/bench-$T-$i.txt 2>&1; echo bench $T $i rc $?
grep -E "^(rgb|rand|pattern|snow|big|micro)" $R/bench-$T-$i.txt | awk '{print $1, $3, $8, $9}' | tr '\n' ';'; echo
done; done
for T in M0 P P2; do tree $T
timeout 60 /usr/local/cuda/bin/ncu --kernel-name regex:"emit_bin|count_bin" --launch-count 3 --section SpeedOfLight --section WarpStateStats --section Occupancy --section LaunchStats \
  python3 main.py render --scene micro2M --size 1024 --variant tile-warp:walk=cell --out /tmp/m.png --overwrite > $R/ncu-micro2m-$T.txt 2>&1; echo ncu $T rc $?
grep -E "^  [a-z_]+ \(|Duration|Registers Per" $R/ncu-micro2m-$T.txt | paste - - - | awk '{print $1, $2, $(NF-4), $NF}'
done
for T in P P2; do tree $T; SECONDS=0
timeout -s KILL 150 python3 main.py check --size 1024 > $R/check-1024-$T.txt 2>&1; echo check $T rc $? ${SECONDS}s; tail -1 $R/check-1024-$T.txt
done
cd $OUT && tar czf r.tgz r && rm -rf r

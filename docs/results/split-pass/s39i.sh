# A split pass (branch split-pass: S; S2 = S with two blocks an SM forced on count and split): bin lists emitted as
# on main, then a block a bin splits its list into its 2 x 2 tiles' lists (tile totals counted by count_bin_entries),
# and the blend reads a tile's own list with no staging test. Against main (M0): bench interleaved twice; check 1024.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
B=.gpu/s39
tree() { cp $B/$1/render_tile_warp.cu shaders/; cp $B/$1/tile_warp.py render/circles/; }
tree S
timeout -s KILL 100 python3 main.py render --scene micro2M --size 1024 --variant tile-warp:walk=cell --out /tmp/m.png --overwrite 2>&1 | tail -3
for i in 1 2; do for T in M0 S S2; do tree $T
timeout -s KILL 100 python3 main.py bench --variants auto --json $R/bench-$T-$i.json > $R/bench-$T-$i.txt 2>&1; echo bench $T $i rc $?
grep -E "^(rgb|rand|pattern|snow|big|micro)" $R/bench-$T-$i.txt | awk '{print $1, $3, $8, $9}' | tr '\n' ';'; echo
done; done
for T in S S2; do tree $T; SECONDS=0
timeout -s KILL 150 python3 main.py check --size 1024 --variants auto tile-warp tile-warp:walk=cell > $R/check-1024-$T.txt 2>&1; echo check $T rc $? ${SECONDS}s; tail -1 $R/check-1024-$T.txt; grep -i fail $R/check-1024-$T.txt | head -3
done
cd $OUT && tar czf r.tgz r && rm -rf r

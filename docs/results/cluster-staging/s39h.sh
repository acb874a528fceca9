# Cluster staging (branch cluster-staging: C): the 2 x 2 tiles of a bin as one thread-block cluster reading the bin's
# list once between them, hits written into each tile's staging through distributed shared memory; against main (M0).
# bench --variants auto interleaved, twice each; check 1024 of the tile-32 configurations in C.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
B=.gpu/s39
tree() { cp $B/$1/render_tile_warp.cu shaders/; cp $B/$1/variants.py render/circles/; }
tree C
timeout -s KILL 100 python3 main.py render --scene micro2M --size 1024 --variant tile-warp:walk=cell --out /tmp/m.png --overwrite 2>&1 | tail -5
for i in 1 2; do for T in M0 C; do tree $T
timeout -s KILL 100 python3 main.py bench --variants auto --json $R/bench-$T-$i.json > $R/bench-$T-$i.txt 2>&1; echo bench $T $i rc $?
grep -E "^(rgb|rand|pattern|snow|big|micro)" $R/bench-$T-$i.txt | awk '{print $1, $3, $8, $9}' | tr '\n' ';'; echo
done; done
tree C; SECONDS=0
timeout -s KILL 200 python3 main.py check --size 1024 --variants auto tile-warp tile-warp:walk=cell tile-warp:bins=off > $R/check-1024-C.txt 2>&1; echo check C rc $? ${SECONDS}s; tail -1 $R/check-1024-C.txt; grep -i fail $R/check-1024-C.txt | head -5
cd $OUT && tar czf r.tgz r && rm -rf r

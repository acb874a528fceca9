# Two candidates a thread a round at 32-pixel tiles (one scan, two barriers, per two candidates), against the branch
# sparse-emit (2c528b9). Trees (shaders/render_tile_warp.cu and shaders/block_scan.cuh from .gpu/s38/X): B = 2c528b9;
# Q = two a round, loaded a round ahead; R = two a round, loaded at the round's start; I = B with index entries from
# 2^20 circles (INDEX_ENTRIES_FROM). bench --variants auto, interleaved, twice each; then check 1024 of tile-warp's
# walks and auto in Q and R.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
B=.gpu/s38
tree() {  # B | Q | R | I
  cp $B/B/constants.py render/circles/
  case $1 in I) d=B;; *) d=$1;; esac
  cp $B/$d/render_tile_warp.cu $B/$d/block_scan.cuh shaders/
  if [ $1 = I ]; then sed -i "s/^INDEX_ENTRIES_FROM = .*/INDEX_ENTRIES_FROM = 1 << 20/" render/circles/constants.py; fi
}
for i in 1 2; do for T in B Q R I; do tree $T
timeout -s KILL 100 python3 main.py bench --variants auto --json $R/bench-$T-$i.json > $R/bench-$T-$i.txt 2>&1; echo bench $T $i rc $?
grep -E "^(rgb|rand|pattern|snow|big|micro)" $R/bench-$T-$i.txt | awk '{print $1, $3, $8, $9}' | tr '\n' ';'; echo
done; done
for T in Q R; do tree $T
timeout -s KILL 100 python3 main.py check --size 1024 --variants auto tile-warp tile-warp:walk=cell > $R/check-1024-$T.txt 2>&1; echo check $T rc $?; tail -1 $R/check-1024-$T.txt
done
tree B
cd $OUT && tar czf r.tgz r && rm -rf r

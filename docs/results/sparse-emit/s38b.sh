# Sparse emission against main, on one machine. Trees: M = main (a7dfe25's binning), W = this branch with a warp a bin
# everywhere (SPARSE_BIN_ENTRIES = 0), S = four threads a bin everywhere (1 << 30), T = the branch's threshold (12).
# bench --variants auto, interleaved, twice each; then the new GPU test and tile-warp's GPU tests in tree T, check 1024.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader; git log --oneline -1 | tee $R/head.txt
B=.gpu/s38
tree() {  # M | W | S | T
  if [ $1 = M ]; then cp $B/main/render_tile_warp.cu shaders/; cp $B/main/tile_warp.py $B/main/constants.py render/circles/
  else cp $B/render_tile_warp.cu shaders/; cp $B/tile_warp.py $B/constants.py render/circles/
    case $1 in W) n=0;; S) n='1 << 30';; T) n=12;; esac
    sed -i "s/^SPARSE_BIN_ENTRIES = .*/SPARSE_BIN_ENTRIES = $n/" render/circles/constants.py; fi
}
for i in 1 2; do for T in M W S T; do tree $T
timeout -s KILL 100 python3 main.py bench --variants auto --json $R/bench-$T-$i.json > $R/bench-$T-$i.txt 2>&1; echo bench $T $i rc $?
grep -E "^(rgb|rand|pattern|snow|big|micro)" $R/bench-$T-$i.txt | awk '{print $1, $3, $8, $9}' | tr '\n' ';'; echo
done; done
tree T
timeout -s KILL 200 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 --timeout 190 -m gpu tests/render/circles/test_gpu_tile_warp.py > $R/gpu-tile-warp.txt 2>&1; echo tile-warp tests rc $?; tail -1 $R/gpu-tile-warp.txt
timeout -s KILL 120 python3 main.py check --size 1024 > $R/check-1024.txt 2>&1; echo check rc $?; tail -1 $R/check-1024.txt
cd $OUT && tar czf r.tgz r && rm -rf r

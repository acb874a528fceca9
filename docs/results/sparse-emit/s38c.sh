# Bins found by shifts (no integer division per circle) and the sparse flag as a template, against main and against
# the sparse emission alone. Trees: M = main (a7dfe25), P = sparse emission (s38b's T), N = P with the shifts and the
# template, D = N with a warp a bin everywhere (SPARSE_BIN_ENTRIES = 0). bench --variants auto, interleaved, twice each;
# then tile-warp's GPU tests and check 1024 in tree N.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader; git log --oneline -1 | tee $R/head.txt
B=.gpu/s38
tree() {  # M | P | N | D
  case $1 in M) d=main;; P) d=prev;; N|D) d=new;; esac
  cp $B/$d/render_tile_warp.cu shaders/; cp $B/$d/tile_warp.py $B/$d/constants.py render/circles/
  if [ $1 = D ]; then sed -i "s/^SPARSE_BIN_ENTRIES = .*/SPARSE_BIN_ENTRIES = 0/" render/circles/constants.py; fi
}
for i in 1 2; do for T in M P N D; do tree $T
timeout -s KILL 100 python3 main.py bench --variants auto --json $R/bench-$T-$i.json > $R/bench-$T-$i.txt 2>&1; echo bench $T $i rc $?
grep -E "^(rgb|rand|pattern|snow|big|micro)" $R/bench-$T-$i.txt | awk '{print $1, $3, $8, $9}' | tr '\n' ';'; echo
done; done
tree N
timeout -s KILL 200 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 --timeout 190 -m gpu tests/render/circles/test_gpu_tile_warp.py > $R/gpu-tile-warp.txt 2>&1; echo tile-warp tests rc $?; tail -1 $R/gpu-tile-warp.txt
timeout -s KILL 120 python3 main.py check --size 1024 > $R/check-1024.txt 2>&1; echo check rc $?; tail -1 $R/check-1024.txt
cd $OUT && tar czf r.tgz r && rm -rf r

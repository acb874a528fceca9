# The GPU path under ulimit -v between where CUDA starts and where it ran (8,000,000-16,000,000 KB), each run compiling its kernels anew (an empty CuPy cache).
source .gpu/setup.sh
REPO=$PWD; R=$OUT/r; mkdir -p $R
cd /tmp && mkdir -p lim && cd lim
for v in $(seq 8000000 500000 16000000); do
  for c in "render --scene rand10k --out r.png --overwrite" "render --scene rand1M --out m.png --overwrite" "gui --headless --no-settings --frames 3 --scene rand100k --screenshot g.png --overwrite"; do
    rm -rf /tmp/cc; ( ulimit -v $v; CUPY_CACHE_DIR=/tmp/cc timeout 180 python3 $REPO/main.py $c > o.txt 2> e.txt; echo "== $v :: $c :: rc=$?"; cat e.txt | cut -c1-600 ) >> $R/gpu-ulimit-v.txt 2>&1
  done
done
grep -c "rc=0" $R/gpu-ulimit-v.txt; grep "rc=[^0]" $R/gpu-ulimit-v.txt | head -20; grep -l "Traceback\|Abort\|terminate" $R/gpu-ulimit-v.txt

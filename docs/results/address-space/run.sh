# The limit on address space on the GPU machine: CUDA's own reservations under ulimit -v, and the GPU tests of app/ and render/core/.
source .gpu/setup.sh
REPO=$PWD; R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
git log --oneline -1 > $R/commit.txt 2>/dev/null; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $R/commit.txt
NUMBA_CACHE_DIR=$(mktemp -d) python3 .gpu/s51/diag.py > $R/diag-fresh.txt 2>&1; python3 .gpu/s51/diag.py > $R/diag-cached.txt 2>&1; python3 .gpu/s51/diag.py > $R/diag-cached.txt 2>&1
cd /tmp && mkdir -p lim && cd lim
for v in 1000000 4000000 14000000 14500000 15000000 15500000 16000000 unlimited; do
  for c in "render --scene rand10k --out r.png --overwrite" "render --scene rand10k --backend cpu --out c.png --overwrite" "gui --headless --no-settings --frames 3 --scene rand10k"; do
    ( ulimit -v $v; CUPY_CACHE_DIR=$(mktemp -d) timeout 120 python3 $REPO/main.py $c > o.txt 2> e.txt; echo "== $v :: $c :: rc=$?"; cat e.txt ) >> $R/ulimit-v.txt 2>&1
  done
done
cd $REPO
timeout 300 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -rs tests/app/test_address_space.py tests/render/core/test_address_space.py tests/app/test_missing_package.py tests/app/test_cli_errors.py tests/render/core/test_gpu_problem.py tests/render/core/test_blas_threads.py tests/render/core/test_kernel_builds.py > $R/new-tests.txt 2>&1; echo new rc $?; tail -3 $R/new-tests.txt
timeout 300 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 4 --timeout 250 -m "gpu and not faults_gpu and not whole_gpu_memory" tests/app tests/render/core > $R/gpu.txt 2>&1; echo gpu rc $?; tail -3 $R/gpu.txt

# The alpha-steps GPU test with NaN and subnormal start alphas added.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
SECONDS=0; timeout -s KILL 200 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 4 --timeout 180 tests/render/circles/test_gpu_tile_warp.py -k alpha_steps > $R/alpha-steps-gpu.txt 2>&1; echo rc $? ${SECONDS}s; tail -15 $R/alpha-steps-gpu.txt
cd $OUT && tar czf r.tgz r && rm -rf r

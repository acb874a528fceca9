# Session 46, call 8, at the checkout: the GPU tests of the frame graph, dependent launches and tile-warp.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
timeout -s KILL 220 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 --timeout 200 -m "gpu and not faults_gpu" tests/render/circles/test_gpu_frame_graph.py tests/render/core/test_gpu_dependent_launch.py tests/render/circles/test_gpu_tile_warp.py > $R/gpu-tests.txt 2>&1; echo tests rc $?; tail -15 $R/gpu-tests.txt
cd $OUT && tar czf r.tgz r && rm -rf r

# Session 46, call 3, at f961630 (the checkout): the dependent-launch GPU tests; ncu durations of the binning's kernels.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
timeout -s KILL 100 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -m "gpu and not faults_gpu" tests/render/core/test_gpu_dependent_launch.py > $R/gpu-dependent.txt 2>&1; echo tests rc $?; tail -2 $R/gpu-dependent.txt
for S in rand10k:auto rand100k:auto biglittle:auto snowsingle:auto pattern:tile-warp micro2M:auto rand1M:auto; do
  scene=${S%%:*}; v=${S#*:}
  timeout 120 /usr/local/cuda/bin/ncu --metrics gpu__time_duration.sum --kernel-name regex:"count_bin|scan_bin|emit_bin|render_tile_warp" \
    python3 main.py render --scene $scene --size 1024 --variant $v --out /tmp/m.png --overwrite > $R/ncu-$scene.txt 2>&1; echo $scene rc $?
  grep -E "^\s+(count_bin|scan_bin|emit_bin|render_tile)|gpu__time_duration" $R/ncu-$scene.txt | paste - - | awk '{print $1, $(NF)}' | tail -4
done
cd $OUT && tar czf r.tgz r && rm -rf r

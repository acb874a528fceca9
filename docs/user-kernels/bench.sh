#!/bin/bash
# On the lent H100, from the repository root: the figures of docs/user-kernels.md. The bench
# protocol (CS149's: frames 0-3, best of 3 runs, CUDA events per stage) for the tile-scan template
# and each step on the 8 scored scenes, auto beside them; the per-pixel template on the scenes where
# a frame of it takes less than a second.
source .gpu/setup.sh
steps="file:shaders/user/tile_scan.cu file:docs/user-kernels/step2_warp_scan.cu file:docs/user-kernels/step3_exact_test.cu"
steps="$steps file:docs/user-kernels/step4_four_pixels.cu file:docs/user-kernels/step5_bins.cu auto"
python3 main.py bench --variants $steps --json $OUT/bench-steps.json --overwrite > $OUT/bench-steps.txt 2>&1
python3 main.py bench --variants file:shaders/user/per_pixel.cu --scenes rgb rand10k rand100k pattern snowsingle biglittle \
  --json $OUT/bench-per-pixel.json --overwrite > $OUT/bench-per-pixel.txt 2>&1
cat $OUT/bench-steps.txt $OUT/bench-per-pixel.txt

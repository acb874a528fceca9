# The app's frame on rand100k (headless EGL, interop), main's tile-warp kernel (M, 4fa32c7) against the branch's (H, 288c0cb),
# interleaved, three each; then the whole-GPU-memory tests alone, then the render fault test last.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
for i in 1 2; do for T in M H; do cp .gpu/s37/$T.cu shaders/render_tile_warp.cu
timeout 60 python3 main.py gui --headless --scene rand100k --size 1024 --frames 1000 --vsync off --window 1280x800 --no-settings --stats $R/gui-$T-$i.json > $R/gui-$T-$i.txt 2>&1; python3 -c "import json;r=json.load(open('$R/gui-$T-$i.json'));print('gui $T',r['display_path'],round(r['fps_median']),round(r['overhead_ms_median'],3), r['stage_ms_median'], round(r['wall_ms_median'],3))"
done; done
cp .gpu/s37/H.cu shaders/render_tile_warp.cu
timeout -s KILL 450 python3 -m pytest -q -p no:cacheprovider -p no:benchmark --timeout 440 -m whole_gpu_memory tests/app > $R/whole-gpu-memory.txt 2>&1; echo alone rc $?; tail -1 $R/whole-gpu-memory.txt ; grep -E "passed|failed|Error|assert" $R/whole-gpu-memory.txt | tail -5
cd $OUT && tar czf r.tgz r && rm -rf r

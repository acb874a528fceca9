# At 288c0cb: app GPU tests (-n 4), the whole-GPU-memory tests alone, the app's frame on rand100k twice, then the fault tests last.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
timeout -s KILL 300 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 4 --timeout 250 -m "gpu and not faults_gpu" tests/app > $R/app-gpu.txt 2>&1; echo app rc $?; tail -1 $R/app-gpu.txt
timeout -s KILL 120 python3 -m pytest -q -p no:cacheprovider -p no:benchmark --timeout 110 -m whole_gpu_memory tests/app > $R/whole-gpu-memory.txt 2>&1; echo alone rc $?; tail -1 $R/whole-gpu-memory.txt
for i in 1 2; do timeout 60 python3 main.py gui --headless --scene rand100k --size 1024 --frames 1000 --vsync off --window 1280x800 --no-settings --stats $R/gui-$i.json > $R/gui-$i.txt 2>&1; python3 -c "import json;r=json.load(open('$R/gui-$i.json'));print('gui',r['display_path'],round(r['fps_median']),round(r['overhead_ms_median'],3))"; done
timeout -s KILL 150 python3 -m pytest -q -p no:cacheprovider -p no:benchmark --timeout 140 -m faults_gpu tests/app > $R/faults.txt 2>&1; echo faults rc $?; tail -1 $R/faults.txt
cd $OUT && tar czf r.tgz r && rm -rf r

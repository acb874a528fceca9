# At HEAD (commit.txt): bench auto twice (the table), check 1024 every variant, the GPU tests
# (render and scenes; app).
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
cp .gpu/s52/commit.txt .gpu/s52/final.sh $R/; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt
for i in 1 2; do
  timeout -s KILL 120 python3 main.py bench --variants auto --json $R/bench-auto-$i.json > $R/bench-auto-$i.txt 2>&1; echo bench $i rc $? $(grep -i -m1 protocol $R/bench-auto-$i.txt | cut -c1-160)
done
for f in $R/bench-auto-*.json; do
  echo $(basename $f .json) $(python3 -c "import json,sys; d=json.load(open('$f')); print(' '.join(f\"{r['scene']}={r['total_ms']:.4f}/{r['stage_ms'].get('binning',0):.4f}/{r['stage_ms'].get('blending',0):.4f}\" for r in d['rows']))")
done
timeout -s KILL 150 python3 main.py check --size 1024 > $R/check-1024.txt 2>&1; echo check rc $?; tail -1 $R/check-1024.txt
timeout -s KILL 290 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 --timeout 280 -m "gpu and not faults_gpu" tests/render tests/scenes > $R/gpu-render-scenes.txt 2>&1; echo render rc $?; tail -4 $R/gpu-render-scenes.txt
timeout -s KILL 100 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 4 --timeout 80 -m "gpu and not faults_gpu" tests/app > $R/gpu-app.txt 2>&1; echo app rc $?; tail -2 $R/gpu-app.txt

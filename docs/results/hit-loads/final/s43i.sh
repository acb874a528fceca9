# Final, at 99d0498 (two walks of a group's hits): bench --variants auto twice; the render and scenes GPU tests;
# the app GPU tests; ncu on the blend of rand1M and rand100k.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
for i in 1 2; do
  timeout -s KILL 100 python3 main.py bench --variants auto --json $R/bench-auto-$i.json > $R/bench-auto-$i.txt 2>&1; echo bench $i rc $?
  echo $(python3 -c "import json,sys; d=json.load(open('$R/bench-auto-$i.json')); print(d['limits']); print(' '.join(f\"{r['scene']}={r['total_ms']:.4f}/{r['stage_ms']['binning']:.4f}/{r['stage_ms']['blending']:.4f}\" for r in d['rows']))")
done
SECONDS=0; timeout -s KILL 300 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 --timeout 280 -m "gpu and not faults_gpu" tests/render tests/scenes > $R/render-gpu.txt 2>&1; echo render rc $? ${SECONDS}s; tail -1 $R/render-gpu.txt
grep -E "FAILED|ERROR" $R/render-gpu.txt | head
SECONDS=0; timeout -s KILL 60 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 4 --timeout 50 -m "gpu and not faults_gpu" tests/app > $R/app-gpu.txt 2>&1; echo app rc $? ${SECONDS}s; tail -1 $R/app-gpu.txt
grep -E "FAILED|ERROR" $R/app-gpu.txt | head
for s in rand1M rand100k; do
  timeout 120 /usr/local/cuda/bin/ncu --kernel-name regex:render_tile_warp --launch-count 1 --section WarpStateStats --section InstructionStats \
    --section SpeedOfLight --section SchedulerStats --print-details all \
    python3 main.py render --scene $s --size 1024 --variant tile-warp --out /tmp/m.png --overwrite > $R/ncu-$s.txt 2>&1; echo ncu $s rc $?
  grep -E "^    Duration|Executed Instructions  |Issued Warp Per Scheduler  " $R/ncu-$s.txt | head -3
done
cd $OUT && tar czf r.tgz r && rm -rf r

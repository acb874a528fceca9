# Fresh H100 at the branch's head. 1. bench --variants auto twice. 2. check 1024 (every variant) and the cell walks at 1024.
# 3. ncu on micro2M's blend, walked by warps and by cells (stalls). 4. the overlay GPU tests.
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader; git log --oneline -1 | tee $R/head.txt; git status --short | head -5
for i in 1 2; do
timeout -s KILL 120 python3 main.py bench --variants auto --json $R/bench-auto-$i.json > $R/bench-auto-$i.txt 2>&1; echo bench $i rc $?
grep -E "^(rgb|rand|pattern|snow|big|micro)" $R/bench-auto-$i.txt | awk '{print $1, $2, $3, $8, $9, $14, $15}'
done
timeout -s KILL 150 python3 main.py check --size 1024 > $R/check-1024.txt 2>&1; echo check rc $?; tail -1 $R/check-1024.txt
timeout -s KILL 120 python3 main.py check --size 1024 --variants tile-warp:walk=cell tile-warp:tile=64,walk=cell tile-warp:walk=cell,bins=off tile-warp:tile=64,walk=cell,bins=off > $R/check-1024-cells.txt 2>&1; echo check cells rc $?; tail -1 $R/check-1024-cells.txt
for v in tile-warp tile-warp:walk=cell; do
  timeout 120 /usr/local/cuda/bin/ncu --kernel-name regex:render_tile_warp --launch-count 1 --section WarpStateStats --section InstructionStats \
    --section Occupancy --section SpeedOfLight --section SchedulerStats --print-details all \
    python3 main.py render --scene micro2M --size 1024 --variant $v --out /tmp/m.png --overwrite > $R/ncu-micro2m-blend-${v#tile-warp}.txt 2>&1; echo ncu $v rc $?
  grep -E "^    Duration|Issue Slots Busy|Executed Instructions  |Registers Per Thread  |Achieved Occupancy  |Stall (Wait|Short|Barrier|MIO|Long|Branch|Not Sel)|Warp Cycles Per Issued" $R/ncu-micro2m-blend-${v#tile-warp}.txt | head -14
done
timeout -s KILL 150 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 --timeout 140 -m "gpu and not faults_gpu" tests/render/circles/test_gpu_overlays.py > $R/gpu-overlays.txt 2>&1; echo overlays rc $?; tail -1 $R/gpu-overlays.txt
cd $OUT && tar czf r.tgz r && rm -rf r

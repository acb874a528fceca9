# ncu on the blend at 4 and 8 pixels a thread (main 5870b11): rand100k and biglittle, with lists.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
for s in rand100k biglittle; do for v in tile-warp tile-warp:pixels=8; do
  n=$s-$(echo $v | tr ':=' '--')
  timeout 150 /usr/local/cuda/bin/ncu --kernel-name regex:render_tile_warp --launch-count 1 --section WarpStateStats --section InstructionStats --section Occupancy --section SchedulerStats \
    python3 main.py render --scene $s --size 1024 --variant $v --out /tmp/m.png --overwrite > $R/ncu-$n.txt 2>&1; echo ncu $n rc $?
  grep -E "^    Duration|Issue Slots Busy|Executed Instructions  |Warp Cycles Per Issued|Achieved Occupancy|Eligible Warps|Active Warps Per|No Eligible|Stall (Barrier|Short|Long|Wait|Not Sel|Math|MIO|Branch)" $R/ncu-$n.txt | head -14
done; done
cd $OUT && tar czf r.tgz r && rm -rf r

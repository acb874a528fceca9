# Fresh H100: ncu on snowsingle's blend, main (working tree, c4c1d67) and the snow-queues branch (.gpu/sq).
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; top=$PWD
for t in main queues; do d=$top; [ $t = queues ] && d=$top/.gpu/sq
  (cd $d && timeout 150 /usr/local/cuda/bin/ncu --kernel-name regex:render_tile_warp --launch-count 1 --section WarpStateStats --section SourceCounters \
    --section InstructionStats --section ComputeWorkloadAnalysis --section Occupancy --section SpeedOfLight --print-details all \
    python3 main.py render --scene snowsingle --size 1024 --variant tile-warp --out /tmp/s.png --overwrite > $R/ncu-snowsingle-blend-$t.txt 2>&1; echo ncu $t rc $?)
  grep -E "^    Duration|Issue Slots Busy|Active Threads|Executed Instructions  |Registers Per Thread  |Achieved Occupancy  |Stall (Wait|Short|Barrier|MIO|Long|Branch|Not Sel)" $R/ncu-snowsingle-blend-$t.txt | head -16
done

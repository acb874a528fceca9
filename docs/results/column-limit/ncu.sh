# ncu on the blend of M (d85c24b) and L (column limits): rand100k and rand1M, auto.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
for T in M L; do rm -rf /tmp/$T; cp -r .gpu/s50/$T /tmp/$T; done
for s in rand100k rand1M; do for T in M L; do
  (cd /tmp/$T && timeout 150 /usr/local/cuda/bin/ncu --kernel-name regex:render_tile_warp --launch-count 1 --section WarpStateStats --section InstructionStats --section SchedulerStats --section ComputeWorkloadAnalysis \
    python3 main.py render --scene $s --size 1024 --variant auto --out /tmp/m.png --overwrite > $R/ncu-$s-$T.txt 2>&1; echo ncu $s $T rc $?)
  grep -E "^    Duration|Issue Slots Busy|Executed Instructions  |Warp Cycles Per Issued|No Eligible|Stall (Barrier|Short|Long|Wait|Not Sel|Math|MIO|Branch)|FP64|pipe" $R/ncu-$s-$T.txt | head -16
done; done

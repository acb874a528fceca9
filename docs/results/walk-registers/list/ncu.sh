# ncu on the blend of rand1M and rand100k (auto), HEAD (M) against the list walk (L): instructions, issue, stalls.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
for T in M L; do rm -rf /tmp/$T; cp -r .gpu/s48/$T /tmp/$T; done
for T in M L; do for sc in rand1M rand100k; do
  (cd /tmp/$T && timeout 200 /usr/local/cuda/bin/ncu --kernel-name regex:render_tile_warp --launch-count 1 --section SpeedOfLight --section ComputeWorkloadAnalysis --section InstructionStats --section WarpStateStats --section LaunchStats --section Occupancy --section SchedulerStats python3 main.py render --scene $sc --size 1024 --variant auto --out /tmp/$sc.png --overwrite > $R/ncu-$T-$sc.txt 2>&1; echo $T $sc rc $?)
  grep -E "Executed Instructions |Issue Slots Busy|Registers Per|Local Memory Spill|Duration|No Eligible|Active Warps Per" $R/ncu-$T-$sc.txt | head -12
done; done
cd $OUT && tar czf r.tgz r && rm -rf r

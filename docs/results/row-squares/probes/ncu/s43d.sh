# ncu on the blend of rand1M and rand100k (tile-warp, 1024), main (A) against D (row squares shared per warp).
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
for T in A D; do rm -rf /tmp/$T; cp -r .gpu/s43/$T /tmp/$T; done
for s in rand1M rand100k; do for T in A D; do
  (cd /tmp/$T && timeout 120 /usr/local/cuda/bin/ncu --kernel-name regex:render_tile_warp --launch-count 1 --section WarpStateStats --section InstructionStats \
    --section SpeedOfLight --section SchedulerStats --section MemoryWorkloadAnalysis_Tables --print-details all \
    python3 main.py render --scene $s --size 1024 --variant tile-warp --out /tmp/m.png --overwrite > $R/ncu-$s-$T.txt 2>&1; echo ncu $s $T rc $?)
  grep -E "^    Duration|Issue Slots Busy|Executed Instructions  |Warp Cycles Per Issued|Stall (Wait|Short|Barrier|MIO|Long|Branch|Not Sel|Math|LG|Dispatch)|Shared.*Wavefronts|Bank Conflicts" $R/ncu-$s-$T.txt | head -24
done; done
cd $OUT && tar czf r.tgz r && rm -rf r

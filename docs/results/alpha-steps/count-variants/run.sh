# rand1M's regression: ncu on the blend of rand1M (and rand100k) for A, W, Wa (count in the walk), Wc (count at the group's head); bench three scenes, two rounds.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
for T in A W Wa Wc; do rm -rf /tmp/$T; cp -r .gpu/s44/$T /tmp/$T; done
for i in 1 2; do for T in A W Wa Wc; do
  (cd /tmp/$T && timeout -s KILL 100 python3 main.py bench --variants auto --scenes rand100k biglittle rand1M --json $R/bench-$T-$i.json > $R/bench-$T-$i.txt 2>&1; echo $T $i rc $?)
done; done
for f in $R/bench-*.json; do
  echo $(basename $f .json) $(python3 -c "import json,sys; d=json.load(open('$f')); print(' '.join(f\"{r['scene']}={r['total_ms']:.4f}/{r['stage_ms']['blending']:.4f}\" for r in d['rows']))")
done
for s in rand1M rand100k; do for T in A W Wa Wc; do
  (cd /tmp/$T && timeout 120 /usr/local/cuda/bin/ncu --kernel-name regex:render_tile_warp --launch-count 1 --section WarpStateStats --section InstructionStats --section ComputeWorkloadAnalysis \
    python3 main.py render --scene $s --size 1024 --variant tile-warp --out /tmp/m.png --overwrite > $R/ncu-$s-$T.txt 2>&1; echo ncu $s $T rc $?)
  grep -E "^    Duration|Issue Slots Busy|Executed Instructions  |Warp Cycles Per Issued|Issued Ipc" $R/ncu-$s-$T.txt | head -8
done; done
cd $OUT && tar czf r.tgz r && rm -rf r

#!/bin/bash
# On the lent H100, from the repository root, with the tree of 1833400 (before the measuring builds
# existed) unpacked in .gpu/old: the bench of auto and each tiled variant's default before and after,
# in one call, old / new / (every configuration's cycles and warp-skip, and the heatmaps) / new / old.

source .gpu/setup.sh
mkdir -p /tmp/run
variants="auto tile-scan tile-sort tile-warp"
bench() { (cd "$1" && python3 main.py bench --variants $variants) > /tmp/run/bench-$2.txt 2>&1; }
bench .gpu/old old-1
bench . new-1
python3 docs/results/overlays/measure_overlays.py rand100k biglittle rand10k > /tmp/run/measure-overlays.txt 2>&1
for scene in biglittle rand100k; do
  for overlay in cycles warp-skip; do
    python3 main.py render --scene $scene --size 1024 --variant tile-warp --overlay $overlay \
      --out /tmp/run/$scene-$overlay.png >> /tmp/run/renders.txt 2>&1
  done
done
bench . new-2
bench .gpu/old old-2
tar czf $OUT/cycles-bench.tgz -C /tmp/run .
cat /tmp/run/bench-*.txt /tmp/run/measure-overlays.txt /tmp/run/renders.txt

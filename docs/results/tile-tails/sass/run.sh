# Per-SASS-instruction counts and stall samples of the blend, rand100k (8 pixels a thread) and rand1M (auto), at HEAD f3224b0.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R
rm -rf /tmp/A; cp -r .gpu/s45/A /tmp/A; cd /tmp/A
for s in rand100k:tile-warp:pixels=8 rand1M:tile-warp; do sc=${s%%:*}; v=${s#*:}
  timeout 250 /usr/local/cuda/bin/ncu --kernel-name regex:render_tile_warp --launch-count 1 --section SourceCounters --section WarpStateStats \
    --page source --csv --print-source sass python3 main.py render --scene $sc --size 1024 --variant $v --out /tmp/$sc.png --overwrite > $R/sass-$sc.csv 2>&1; echo $sc rc $?; wc -l $R/sass-$sc.csv
done
gzip -9 $R/sass-*.csv; cd $OUT && tar czf r.tgz r && rm -rf r

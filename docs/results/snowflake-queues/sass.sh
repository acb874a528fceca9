# Fresh H100: per-SASS-instruction counts and stall samples of the blend on snowsingle and rand100k (main d29f9da).
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R
for s in snowsingle rand100k; do
  timeout 200 /usr/local/cuda/bin/ncu --kernel-name regex:render_tile_warp --launch-count 1 --section SourceCounters --section WarpStateStats \
    --page source --csv --print-source sass python3 main.py render --scene $s --size 1024 --variant tile-warp --out /tmp/$s.png --overwrite > $R/sass-$s.csv 2>&1; echo $s rc $?; wc -l $R/sass-$s.csv; head -c 600 $R/sass-$s.csv | head -5
done
gzip -9 $R/sass-*.csv

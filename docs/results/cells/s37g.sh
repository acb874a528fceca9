# At 288c0cb: 1. the render and scenes GPU tests (-n 8). 2. ncu per SASS instruction on micro2M's blend walked by cells.
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
timeout -s KILL 420 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 --timeout 400 -m "gpu and not faults_gpu" tests/render tests/scenes > $R/render-gpu.txt 2>&1; echo render rc $?; tail -1 $R/render-gpu.txt
timeout 150 /usr/local/cuda/bin/ncu --kernel-name regex:render_tile_warp --launch-count 1 --section SourceCounters --section WarpStateStats \
  --page source --csv --print-source sass python3 main.py render --scene micro2M --size 1024 --variant tile-warp:walk=cell --out /tmp/m.png --overwrite > $R/sass-micro2m-cell.csv 2>&1; echo sass rc $?; wc -l $R/sass-micro2m-cell.csv
gzip -9 $R/sass-*.csv
cd $OUT && tar czf r.tgz r && rm -rf r

# ncu per SASS instruction on micro2M's emit_bin_entries at 1024: main (M) against bins of one tile in two parts (H).
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
B=.gpu/s39
tree() { cp $B/$1/render_tile_warp.cu shaders/; cp $B/$1/tile_warp.py $B/$1/overlays.py $B/$1/constants.py render/circles/; }
for T in M H; do tree $T
timeout 200 /usr/local/cuda/bin/ncu --kernel-name regex:emit_bin --launch-count 1 --section SourceCounters --section WarpStateStats --section InstructionStats \
  --page source --csv --print-source sass python3 main.py render --scene micro2M --size 1024 --variant tile-warp:walk=cell --out /tmp/m.png --overwrite > $R/sass-emit-micro2m-$T.csv 2>&1; echo sass $T rc $?; wc -l $R/sass-emit-micro2m-$T.csv
timeout 100 /usr/local/cuda/bin/ncu --kernel-name regex:emit_bin --launch-count 1 --section WarpStateStats --section InstructionStats --section SchedulerStats --section MemoryWorkloadAnalysis_Tables \
  python3 main.py render --scene micro2M --size 1024 --variant tile-warp:walk=cell --out /tmp/m.png --overwrite > $R/ncu-emit-micro2m-$T.txt 2>&1; echo ncu $T rc $?
done
gzip -9 $R/sass-*.csv
cd $OUT && tar czf r.tgz r && rm -rf r

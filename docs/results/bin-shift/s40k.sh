# SASS profiles at 4f87362 (main's code), micro2M at 1024, auto: emit_bin_entries, count_bin_entries and the blend
# (render_tile_warp), per instruction (executed count, stall samples), to find what the binning and blend wait on now.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
for K in emit_bin count_bin render_tile_warp; do SECONDS=0
timeout 200 /usr/local/cuda/bin/ncu --kernel-name regex:$K --launch-count 1 --section SourceCounters --section WarpStateStats --section InstructionStats \
  --page source --csv --print-source sass python3 main.py render --scene micro2M --size 1024 --variant auto --out /tmp/m.png --overwrite > $R/sass-$K-micro2m.csv 2>&1; echo sass $K rc $? ${SECONDS}s; wc -l $R/sass-$K-micro2m.csv
timeout 200 /usr/local/cuda/bin/ncu --kernel-name regex:$K --launch-count 1 --section WarpStateStats --section SpeedOfLight --section MemoryWorkloadAnalysis_Tables python3 main.py render --scene micro2M --size 1024 --variant auto --out /tmp/m.png --overwrite > $R/ncu-$K-micro2m.txt 2>&1; echo ncu $K rc $?
done
cd $R && gzip *.csv && cd $OUT && tar czf r.tgz r && rm -rf r

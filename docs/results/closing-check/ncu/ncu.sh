# The frame's kernels of `auto` at 1024 under ncu: warp-instructions executed, active and elapsed cycles,
# issue per active cycle per scheduler (one frame: the render command's).
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
cp .gpu/s52/commit.txt .gpu/s52/ncu.sh $R/
M=smsp__inst_executed.sum,sm__cycles_active.avg,sm__cycles_elapsed.max,smsp__issue_active.avg.per_cycle_active,gpu__time_duration.sum,sm__warps_active.avg.per_cycle_active
for s in rand10k rand100k snowsingle biglittle rand1M micro2M; do
  timeout 150 /usr/local/cuda/bin/ncu --kernel-name regex:'render_tile_warp|count_bin_entries|scan_bin_counts|emit_bin_entries' --metrics $M \
    python3 main.py render --scene $s --size 1024 --out /tmp/n.png --overwrite > $R/ncu-$s.txt 2>&1; echo $s rc $?
  grep -E "^  [a-z_]+\(|inst_executed.sum|cycles_active.avg|cycles_elapsed.max|per_cycle_active|duration" $R/ncu-$s.txt | sed 's/  */ /g' | head -40
done

# C1 = 4f87362 + sparse bins written by their circles (each after what its bins list before it), two chunks' marks.
# ncu on micro2M and rand1M (C1), shared-memory wavefronts of emit on micro2M (B4, C1); bench interleaved with B4
# twice each; check 1024 and tile-warp's GPU tests on C1.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
B=.gpu/s40
tree() { cp $B/$1/render_tile_warp.cu shaders/; cp $B/$1/tile_warp.py $B/$1/constants.py render/circles/; }
tree C1; SECONDS=0
for S in micro2M rand1M; do
timeout 120 /usr/local/cuda/bin/ncu --kernel-name regex:"count_bin|emit_bin|scan_bin" --launch-count 5 --section SpeedOfLight --section LaunchStats --metrics smsp__inst_executed.sum \
  python3 main.py render --scene $S --size 1024 --variant auto --out /tmp/m.png --overwrite > $R/ncu-$S-C1.txt 2>&1; echo ncu $S C1 rc $? ${SECONDS}s
grep -E "^  [a-z_]+ \(|Duration|inst_executed|Registers Per" $R/ncu-$S-C1.txt | tail -4
done
for T in B4 C1; do tree $T
timeout 120 /usr/local/cuda/bin/ncu --kernel-name regex:"emit_bin" --launch-count 1 --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,gpu__time_duration.sum \
  python3 main.py render --scene micro2M --size 1024 --variant auto --out /tmp/m.png --overwrite > $R/ncu-shared-micro2M-$T.txt 2>&1; echo ncu shared $T rc $?
grep -E "wavefronts|duration" $R/ncu-shared-micro2M-$T.txt
done
for i in 1 2; do for T in B4 C1; do tree $T
timeout -s KILL 100 python3 main.py bench --variants auto --json $R/bench-$T-$i.json > $R/bench-$T-$i.txt 2>&1; echo bench $T $i rc $?
grep -E "^(rgb|rand|pattern|snow|big|micro)" $R/bench-$T-$i.txt | awk '{print $1, $3, $8, $9}' | tr '\n' ';'; echo
done; done
tree C1; SECONDS=0
timeout -s KILL 200 python3 main.py check --size 1024 --variants auto tile-warp tile-warp:walk=cell tile-warp:bins=off tile-warp:tile=64 > $R/check-1024-C1.txt 2>&1; echo check C1 rc $? ${SECONDS}s; tail -1 $R/check-1024-C1.txt
SECONDS=0
timeout -s KILL 200 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 --timeout 190 -m gpu tests/render/circles/test_gpu_tile_warp.py > $R/gpu-tile-warp-C1.txt 2>&1; echo tile-warp tests rc $? ${SECONDS}s; tail -1 $R/gpu-tile-warp-C1.txt
cd $OUT && tar czf r.tgz r && rm -rf r

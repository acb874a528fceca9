# C2 = C1 + mask words turned by their bin (word_slot): a warp's reads of its own word in its circles' bins, and its
# marks, reach different banks. ncu on micro2M and rand1M (C2), emit's shared-memory wavefronts on micro2M (C2);
# bench interleaved with B4 twice each.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
B=.gpu/s40
tree() { cp $B/$1/render_tile_warp.cu shaders/; cp $B/$1/tile_warp.py $B/$1/constants.py render/circles/; }
tree C2; SECONDS=0
for S in micro2M rand1M; do
timeout 120 /usr/local/cuda/bin/ncu --kernel-name regex:"count_bin|emit_bin|scan_bin" --launch-count 5 --section SpeedOfLight --section LaunchStats --metrics smsp__inst_executed.sum \
  python3 main.py render --scene $S --size 1024 --variant auto --out /tmp/m.png --overwrite > $R/ncu-$S-C2.txt 2>&1; echo ncu $S C2 rc $? ${SECONDS}s
grep -E "^  [a-z_]+ \(|Duration|inst_executed|Registers Per" $R/ncu-$S-C2.txt | tail -4
done
timeout 120 /usr/local/cuda/bin/ncu --kernel-name regex:"emit_bin" --launch-count 1 --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,gpu__time_duration.sum \
  python3 main.py render --scene micro2M --size 1024 --variant auto --out /tmp/m.png --overwrite > $R/ncu-shared-micro2M-C2.txt 2>&1; echo ncu shared C2 rc $?
grep -E "wavefronts|duration" $R/ncu-shared-micro2M-C2.txt
for i in 1 2; do for T in B4 C2; do tree $T
timeout -s KILL 100 python3 main.py bench --variants auto --json $R/bench-$T-$i.json > $R/bench-$T-$i.txt 2>&1; echo bench $T $i rc $?
grep -E "^(rgb|rand|pattern|snow|big|micro)" $R/bench-$T-$i.txt | awk '{print $1, $3, $8, $9}' | tr '\n' ';'; echo
done; done
cd $OUT && tar czf r.tgz r && rm -rf r

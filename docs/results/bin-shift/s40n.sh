# D1 = 4f87362 + two chunks' marks in dynamic shared memory (one barrier a chunk; B6) + mask words turned by their bin
# (B7). ncu on micro2M's emission (D1, B4); bench interleaved with B4, three times each.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
B=.gpu/s40
tree() { cp $B/$1/render_tile_warp.cu shaders/; cp $B/$1/tile_warp.py $B/$1/constants.py render/circles/; }
for T in B4 D1; do tree $T
timeout 120 /usr/local/cuda/bin/ncu --kernel-name regex:"count_bin|emit_bin" --launch-count 3 --section SpeedOfLight --section LaunchStats --metrics smsp__inst_executed.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum \
  python3 main.py render --scene micro2M --size 1024 --variant auto --out /tmp/m.png --overwrite > $R/ncu-micro2M-$T.txt 2>&1; echo ncu $T rc $?
grep -E "^  [a-z_]+ \(|Duration|inst_executed|wavefronts|Registers Per" $R/ncu-micro2M-$T.txt | tail -5
done
for i in 1 2 3; do for T in B4 D1; do tree $T
timeout -s KILL 100 python3 main.py bench --variants auto --json $R/bench-$T-$i.json > $R/bench-$T-$i.txt 2>&1; echo bench $T $i rc $?
grep -E "^(rgb|rand|pattern|snow|big|micro)" $R/bench-$T-$i.txt | awk '{print $1, $3, $8, $9}' | tr '\n' ';'; echo
done; done
cd $OUT && tar czf r.tgz r && rm -rf r

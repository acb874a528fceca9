# 1. nsys on B4 (committed 4f87362): the binning graph's kernels node by node at the bench's clocks, micro2M, to see
# the gaps between them. 2. B5 = B4 + each binning kernel's first circle loaded before its set-up barrier + the host's
# view of the entry count made once; bench interleaved with B4, twice each.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
B=.gpu/s40
tree() { cp $B/$1/render_tile_warp.cu shaders/; cp $B/$1/tile_warp.py render/circles/; }
tree B4; SECONDS=0
N=$(ls /usr/local/cuda/bin/nsys 2>/dev/null || which nsys); echo nsys at $N
timeout 150 $N profile -t cuda --cuda-graph-trace=node -o /tmp/b4 --force-overwrite true python3 main.py bench --variants auto --scenes micro2M --json /tmp/n.json > $R/nsys-B4.txt 2>&1; echo nsys rc $? ${SECONDS}s
timeout 100 $N stats -r cuda_gpu_trace -f csv -o /tmp/b4trace /tmp/b4.nsys-rep >> $R/nsys-B4.txt 2>&1; echo stats rc $?
ls /tmp/b4trace* ; cp /tmp/b4trace*.csv $R/nsys-trace-micro2m-B4.csv 2>/dev/null
python3 - <<'PY' $R/nsys-trace-micro2m-B4.csv
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
keys = list(rows[0].keys()); print(keys[:6])
start = [k for k in keys if k.startswith('Start')][0]; dur = [k for k in keys if k.startswith('Duration')][0]; name = 'Name'
ks = [r for r in rows if any(n in r[name] for n in ('count_bin', 'scan_bin', 'emit_bin', 'render_tile_warp'))]
last = ks[-12:]
prev_end = None
for r in last:
    s = int(r[start]); d = int(r[dur])
    print(r[name][:24].ljust(24), 'dur us %.2f' % (d / 1e3), 'gap us %.2f' % ((s - prev_end) / 1e3) if prev_end else '')
    prev_end = s + d
PY
for i in 1 2; do for T in B4 B5; do tree $T
timeout -s KILL 100 python3 main.py bench --variants auto --json $R/bench-$T-$i.json > $R/bench-$T-$i.txt 2>&1; echo bench $T $i rc $?
grep -E "^(rgb|rand|pattern|snow|big|micro)" $R/bench-$T-$i.txt | awk '{print $1, $3, $8, $9}' | tr '\n' ';'; echo
done; done
cd $OUT && tar czf r.tgz r && rm -rf r

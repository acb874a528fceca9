# Row squares: main (A), D (shared squares, r^2 in a flat paint's w, py/region/span in shared), E (D with
# py/region/span in registers, 12 bytes spilled in staging): bench --variants auto on five scenes, interleaved, three rounds.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
for T in A D E; do rm -rf /tmp/$T; cp -r .gpu/s43/$T /tmp/$T; done
for i in 1 2 3; do
  for T in A D E; do
    (cd /tmp/$T && timeout -s KILL 100 python3 main.py bench --variants auto --scenes rand10k rand100k snowsingle biglittle rand1M --json $R/bench-$T-$i.json > $R/bench-$T-$i.txt 2>&1; echo $T $i rc $?)
  done
done
for i in 1 2 3; do for T in A D E; do f=$R/bench-$T-$i
  echo $(basename $f) $(python3 -c "import json,sys; d=json.load(open('$f.json')); print(' '.join(f\"{r['scene']}={r['total_ms']:.4f}/{r['stage_ms']['blending']:.4f}\" for r in d['rows']))")
done; done
cd $OUT && tar czf r.tgz r && rm -rf r

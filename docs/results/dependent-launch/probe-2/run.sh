# Session 46, call 2: bench auto interleaved, three rounds: A (5a2686b), P (count->scan->emit as dependent
# launches, every block letting the next start at its top), P2 (scan's last block alone lets emit start).
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
for T in A P P2; do rm -rf /tmp/$T; cp -r .gpu/s46/$T /tmp/$T; done
for i in 1 2 3; do for T in A P2 P; do
  (cd /tmp/$T && timeout -s KILL 120 python3 main.py bench --variants auto --json $R/bench-$T-$i.json > $R/bench-$T-$i.txt 2>&1; echo $T $i rc $? $(grep -i -m1 protocol $R/bench-$T-$i.txt | cut -c1-160))
done; done
for f in $R/bench-*.json; do
  echo $(basename $f .json) $(python3 -c "import json,sys; d=json.load(open('$f')); print(' '.join(f\"{r['scene']}={r['total_ms']:.4f}/{r['stage_ms'].get('binning',0):.4f}/{r['stage_ms'].get('blending',0):.4f}\" for r in d['rows']))")
done
cd $OUT && tar czf r.tgz r && rm -rf r

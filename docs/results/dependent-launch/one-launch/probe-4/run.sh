# Session 46, call 5: P4 (one-launch binning, the counts summed by warps, loaded at once) and P5 (P4 spinning
# without a sleep) against B (f961630): check at P4 (the checkout), bench auto interleaved, three rounds.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
timeout -s KILL 200 python3 main.py check --size 1024 --variants auto > $R/check-P4.txt 2>&1; echo check rc $?; tail -1 $R/check-P4.txt
for T in B P4 P5; do rm -rf /tmp/$T; cp -r .gpu/s46/$T /tmp/$T; done
for i in 1 2 3; do for T in B P4 P5; do
  (cd /tmp/$T && timeout -s KILL 120 python3 main.py bench --variants auto --json $R/bench-$T-$i.json > $R/bench-$T-$i.txt 2>&1; echo $T $i rc $? $(grep -i -m1 protocol $R/bench-$T-$i.txt | cut -c1-160))
done; done
for f in $R/bench-*.json; do
  echo $(basename $f .json) $(python3 -c "import json,sys; d=json.load(open('$f')); print(' '.join(f\"{r['scene']}={r['total_ms']:.4f}/{r['stage_ms'].get('binning',0):.4f}\" for r in d['rows'] if r['scene'] not in ('rgb','pattern','rand1M','micro2M')))")
done
cd $OUT && tar czf r.tgz r && rm -rf r

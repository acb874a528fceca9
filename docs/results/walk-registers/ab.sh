# Packed alpha counts (A: 4 registers freed, same instructions) and A with the next hit's paint loaded ahead (AP), against HEAD (M): check at 1024, then bench auto interleaved, twice.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
for T in M A AP; do rm -rf /tmp/$T; cp -r .gpu/s48/$T /tmp/$T; done
for T in A AP; do (cd /tmp/$T && timeout -s KILL 150 python3 main.py check --size 1024 --scenes rand10k rand100k biglittle --variants auto > $R/check-$T.txt 2>&1; echo check $T rc $?; tail -2 $R/check-$T.txt); done
for i in 1 2; do for T in M A AP; do
  (cd /tmp/$T && timeout -s KILL 120 python3 main.py bench --variants auto --scenes rand10k rand100k biglittle --json $R/bench-$T-$i.json > $R/bench-$T-$i.txt 2>&1; echo $T $i rc $?)
done; done
for f in $R/bench-*.json; do
  echo $(basename $f .json) $(python3 -c "import json,sys; d=json.load(open('$f')); print(' '.join(f\"{r['scene']}={r['total_ms']:.4f}/{r['stage_ms']['blending']:.4f}\" for r in d['rows']))")
done
cd $OUT && tar czf r.tgz r && rm -rf r

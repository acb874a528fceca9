# G: the walk chosen per group (tested hits loaded ahead where no hit covers), F (always ahead), against ca2f855 (A2):
# bench --variants auto on six scenes, interleaved, three rounds.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
for T in A2 G F; do rm -rf /tmp/$T; cp -r .gpu/s43/$T /tmp/$T; done
for i in 1 2 3; do
  for T in A2 G F; do
    (cd /tmp/$T && timeout -s KILL 100 python3 main.py bench --variants auto --scenes rand10k rand100k snowsingle biglittle rand1M micro2M --json $R/bench-$T-$i.json > $R/bench-$T-$i.txt 2>&1; echo $T $i rc $?)
  done
done
for i in 1 2 3; do for T in A2 G F; do f=$R/bench-$T-$i
  echo $(basename $f) $(python3 -c "import json,sys; d=json.load(open('$f.json')); print(' '.join(f\"{r['scene']}={r['total_ms']:.4f}/{r['stage_ms']['blending']:.4f}\" for r in d['rows']))")
done; done
cd $OUT && tar czf r.tgz r && rm -rf r

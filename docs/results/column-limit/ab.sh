# Column limits (L) against d85c24b (M): the limit's exactness test, bench auto interleaved, check 1024 on L.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
for T in M L; do rm -rf /tmp/$T; cp -r .gpu/s50/$T /tmp/$T; done
timeout -s KILL 120 python3 -m pytest -q -p no:cacheprovider -p no:benchmark tests/render/circles/test_gpu_coverage_limit.py > $R/limit-test.txt 2>&1; echo limit test rc $?; tail -3 $R/limit-test.txt
for i in 1; do for T in M L; do
  (cd /tmp/$T && timeout -s KILL 150 python3 main.py bench --variants auto --scenes rand10k rand100k biglittle rand1M micro2M --json $R/bench-$T-$i.json > $R/bench-$T-$i.txt 2>&1; echo $T $i rc $?)
done; done
for f in $R/bench-*.json; do
  echo $(basename $f .json) $(python3 -c "import json,sys; d=json.load(open('$f')); print(' '.join(f\"{r['scene']}={r['total_ms']:.4f}/{r['stage_ms']['blending']:.4f}\" for r in d['rows']))")
done
(cd /tmp/L && timeout -s KILL 200 python3 main.py check --size 1024 > $R/check-L.txt 2>&1; echo check L rc $?; tail -3 $R/check-L.txt)

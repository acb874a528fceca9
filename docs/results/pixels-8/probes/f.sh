# 8 pixels a thread in 32-pixel tiles with the rows' squares in the warp's desk (P3) at 6 and 7 blocks an SM, against main with the alpha steps (M): two rounds.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
for T in M P3; do rm -rf /tmp/$T; cp -r .gpu/s44/$T /tmp/$T; done
b() { (cd /tmp/$1 && env $3 timeout -s KILL 150 python3 main.py bench --variants tile-warp tile-warp:bins=off --scenes rand10k rand100k snowsingle biglittle littlebig rand1M --json $R/bench-$2.json > $R/bench-$2.txt 2>&1; echo $2 rc $?); }
for i in 1 2; do b M M-$i ""; b P3 P3-6-$i "P32=8 MB=6"; b P3 P3-7-$i "P32=8 MB=7"; done
for f in $R/bench-*.json; do
  echo $(basename $f .json) $(python3 -c "import json,sys; d=json.load(open('$f')); print(' '.join(f\"{r['scene']}:{r['variant'].replace('tile-warp','tw')}={r['total_ms']:.4f}/{r['stage_ms']['blending']:.4f}\" for r in d['rows']))")
done
(cd /tmp/P3 && P32=8 MB=7 timeout 250 python3 main.py check --size 1024 --variants tile-warp tile-warp:bins=off > $R/check-P3-7.txt 2>&1; echo check rc $?; tail -1 $R/check-P3-7.txt)
cd $OUT && tar czf r.tgz r && rm -rf r

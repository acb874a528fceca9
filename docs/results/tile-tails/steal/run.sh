# Slices of tiles taken over by blocks that finished theirs (W, SLICE_ROUNDS 4 and 2) against HEAD (A): check, bench auto interleaved, twice.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
for T in A W; do rm -rf /tmp/$T; cp -r .gpu/s45/$T /tmp/$T; done
(cd /tmp/W && SLICE_ROUNDS=1 timeout -s KILL 200 python3 main.py check --size 1024 --scenes rand10k rand100k biglittle snowsingle micro2M pattern --variants auto tile-warp tile-warp:pixels=8 tile-warp:walk=cell tile-warp:bins=off --against tile-sort > $R/check-W.txt 2>&1; echo check rc $?; grep -c pass $R/check-W.txt; tail -2 $R/check-W.txt)
for i in 1 2; do for T in A W4 W2; do
  case $T in A) D=/tmp/A; S=4;; W4) D=/tmp/W; S=4;; W2) D=/tmp/W; S=2;; esac
  (cd $D && SLICE_ROUNDS=$S timeout -s KILL 150 python3 main.py bench --variants auto --scenes rand10k rand100k biglittle rand1M micro2M snowsingle --json $R/bench-$T-$i.json > $R/bench-$T-$i.txt 2>&1; echo $T $i rc $?)
done; done
for f in $R/bench-*.json; do
  echo $(basename $f .json) $(python3 -c "import json,sys; d=json.load(open('$f')); print(' '.join(f\"{r['scene']}={r['total_ms']:.4f}/{r['stage_ms']['blending']:.4f}\" for r in d['rows']))")
done
cd $OUT && tar czf r.tgz r && rm -rf r

# The table's figures at 28f3272: bench auto, twice in one call.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
for i in 1 2; do timeout -s KILL 150 python3 main.py bench --variants auto --json $R/bench-auto-$i.json > $R/bench-auto-$i.txt 2>&1; echo $i rc $?; sed -n 2p $R/bench-auto-$i.txt; done
grep -h "auto " $R/bench-auto-*.txt | awk '{print $1, $3, $9}'
cd $OUT && tar czf r.tgz r && rm -rf r

# The radius sweep (8 pixels a thread against 4, lists on and off), twice.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
for i in 1 2; do PYTHONPATH=$PWD:$PYTHONPATH timeout 280 python3 docs/results/pixels-8/radius_sweep.py > $R/radius-sweep-$i.txt 2>&1; echo sweep rc $?; cat $R/radius-sweep-$i.txt; done
cd $OUT && tar czf r.tgz r && rm -rf r

# The radius sweep at 8 blocks an SM for 8 pixels a thread (Q), twice.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
rm -rf /tmp/Q; cp -r .gpu/s44/Q /tmp/Q; mkdir -p /tmp/Q/docs/results/pixels-8; cp docs/results/pixels-8/radius_sweep.py /tmp/Q/docs/results/pixels-8/
for i in 1 2; do (cd /tmp/Q && PYTHONPATH=$PWD:$PYTHONPATH timeout 280 python3 docs/results/pixels-8/radius_sweep.py > $R/radius-sweep-8-blocks-$i.txt 2>&1; echo sweep rc $?; cat $R/radius-sweep-8-blocks-$i.txt); done
cd $OUT && tar czf r.tgz r && rm -rf r

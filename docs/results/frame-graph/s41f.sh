# Frame 0's lost time against the pool's release before each run (keep: no gc.collect / free_all_blocks).
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1 PYTHONPATH=$PWD:$PYTHONPATH
S=micro2M,rand10k,rgb
for round in 1 2; do
for m in main keep graph graph,keep; do
  timeout -s KILL 150 python3 .gpu/s41/frames.py $m $S 8 4 >> $R/frames.txt 2>&1; echo $round $m rc $?
done
done
cd $OUT && tar czf r.tgz r && rm -rf r

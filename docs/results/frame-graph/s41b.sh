# Frame 0's steps one by one: where its extra time goes (GC, idle, the graph's upload).
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1 PYTHONPATH=$PWD:$PYTHONPATH
S=micro2M,rand10k,snowsingle,rgb
for round in 1 2; do
for m in main gc upload gc,upload sleep gc,upload,sleep; do
  timeout -s KILL 150 python3 .gpu/s41/frames.py $m $S 8 3 >> $R/frames.txt 2>&1; echo $round $m rc $?
done
done
cd $OUT && tar czf r.tgz r && rm -rf r

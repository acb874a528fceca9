# Frame 0's host steps: thread CPU time against wall time; a 2 ms spin, or a first call of clear/advance, before it.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1 PYTHONPATH=$PWD:$PYTHONPATH
grep MHz /proc/cpuinfo | head -3; grep -E "^cpu " /proc/stat
S=micro2M,rand10k,rgb
for round in 1 2; do
for m in main spin call graph graph,spin; do
  timeout -s KILL 150 python3 .gpu/s41/frames.py $m $S 8 3 >> $R/frames.txt 2>&1; echo $round $m rc $?
done
done
grep -E "^cpu " /proc/stat
cd $OUT && tar czf r.tgz r && rm -rf r

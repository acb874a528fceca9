# Lean whole-frame graph (a cheap key before the launch) and a binning graph holding its own events, against
# main and main with the binning graph uploaded at load.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1 PYTHONPATH=$PWD:$PYTHONPATH
S=micro2M,rand10k,snowsingle,rgb
for round in 1 2; do
for m in main upload graph bingraph; do
  timeout -s KILL 150 python3 .gpu/s41/frames.py $m $S 8 5 >> $R/frames.txt 2>&1; echo $round $m rc $?
done
done
grep -iE "error|assert" $R/frames.txt | head -5
cd $OUT && tar czf r.tgz r && rm -rf r

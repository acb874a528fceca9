# A whole frame (events, binning, blend) as one CUDA graph, captured and uploaded at load, against main; and
# the image against main's.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1 PYTHONPATH=$PWD:$PYTHONPATH
S=micro2M,rand10k,snowsingle,rand100k,rgb,pattern
for round in 1 2 3; do
for m in main graph; do
  timeout -s KILL 150 python3 .gpu/s41/frames.py $m $S 8 3 >> $R/frames.txt 2>&1; echo $round $m rc $?
done
done
grep -E "Error|assert" $R/frames.txt | head
cd $OUT && tar czf r.tgz r && rm -rf r

# Per-frame wall times of auto's protocol frames: what frame 0 pays (graph upload, lazy module loading).
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1 PYTHONPATH=$PWD:$PYTHONPATH
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
S=micro2M,rand10k,snowsingle,rand100k,rgb,rand1M
for round in 1 2; do
for m in main upload; do
  for L in LAZY EAGER; do
    CUDA_MODULE_LOADING=$L timeout -s KILL 150 python3 .gpu/s41/frames.py $m $S 8 3 >> $R/frames.txt 2>&1; echo $round $m $L rc $?
  done
done
done
cd $OUT && tar czf r.tgz r && rm -rf r

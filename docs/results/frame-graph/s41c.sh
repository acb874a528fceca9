# Frame 0's host path: page faults and context switches per step; a trivial call timed right after load.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1 PYTHONPATH=$PWD:$PYTHONPATH
python3 -c "import sys; print(sys.version)"; cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor 2>&1 | head -1; nproc
S=micro2M,rand10k
for m in main poke main,gc poke,upload; do
  timeout -s KILL 150 python3 .gpu/s41/frames.py $m $S 8 3 >> $R/frames.txt 2>&1; echo $m rc $?
done
cd $OUT && tar czf r.tgz r && rm -rf r

# Fresh H100. T4 = branch texture-interop with the background cleared around the frame (working tree), T1 = the branch
# before (.gpu/t1), main 65ad34b (.gpu/m65): gui rand100k x3 alternating; T4's timeline; T4's app GPU tests; faults last.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONFAULTHANDLER=1; top=$PWD
for i in 1 2 3; do for t in main t1 t4; do
  d=$top; [ $t = main ] && d=$top/.gpu/m65; [ $t = t1 ] && d=$top/.gpu/t1
  (cd $d && timeout 60 python3 main.py gui --headless --scene rand100k --size 1024 --frames 1000 --vsync off --window 1280x800 --no-settings --stats $R/gui-$t-$i.json > /dev/null 2>&1)
  python3 -c "import json;r=json.load(open('$R/gui-$t-$i.json'));h=r['host_ms_median'];print('$t',r['display_path'],round(r['fps_median']),round(r['overhead_ms_median'],3),{k:round(v,3) for k,v in h.items()},round(r['stage_ms_median']['display copy'],4))" 2>&1 | cut -c1-300
done; done
(cd $R && tar -cf gui.tar gui-*.json && rm gui-*.json)
timeout 120 python3 docs/results/app-overhead/gpu_timeline.py > $R/tl-t4.txt 2>&1; echo t4 timeline rc $?; tail -1 $R/tl-t4.txt | cut -c1-800
timeout -s KILL 200 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 4 --timeout 150 -m "gpu and not faults_gpu" tests/app > $R/app-gpu.txt 2>&1; echo app rc $?; tail -1 $R/app-gpu.txt
timeout -s KILL 300 python3 -m pytest -v -p no:cacheprovider -p no:benchmark --timeout 240 -m faults_gpu tests > $R/gpu-faults.txt 2>&1; echo faults rc $?; grep -E "PASSED|FAILED|passed|failed" $R/gpu-faults.txt | cut -c1-160

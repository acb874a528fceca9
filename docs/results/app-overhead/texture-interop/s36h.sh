# Fresh H100. Branch texture-interop (working tree) against main 65ad34b (.gpu/m65): gui rand100k x3 alternating, the
# GPU timeline twice on the branch, then the branch's app GPU tests (-n 4) and the whole-GPU-memory ones alone.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONFAULTHANDLER=1; top=$PWD
for i in 1 2 3; do for t in main tex; do
  d=$top; [ $t = main ] && d=$top/.gpu/m65
  (cd $d && timeout 60 python3 main.py gui --headless --scene rand100k --size 1024 --frames 1000 --vsync off --window 1280x800 --no-settings --stats $R/gui-$t-$i.json > $R/gui-$t-$i.txt 2>&1)
  python3 -c "import json;r=json.load(open('$R/gui-$t-$i.json'));print('$t',r['display_path'],round(r['fps_median']),round(r['overhead_ms_median'],3),r['host_ms_median'],r.get('stage_ms_median'))" 2>&1 | cut -c1-300
done; done
for i in 1 2; do timeout 120 python3 docs/results/app-overhead/gpu_timeline.py > $R/tl-$i.txt 2>&1; echo timeline rc $?; tail -1 $R/tl-$i.txt | cut -c1-700; done
timeout -s KILL 200 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 4 --timeout 150 -m "gpu and not faults_gpu" tests/app > $R/app-gpu.txt 2>&1; echo app rc $?; tail -3 $R/app-gpu.txt
timeout -s KILL 200 python3 -m pytest -q -p no:cacheprovider -p no:benchmark --timeout 190 -m whole_gpu_memory tests/app > $R/whole.txt 2>&1; echo alone rc $?; tail -1 $R/whole.txt
rm -f $R/gui-*.txt; (cd $R && tar -cf gui.tar gui-*.json && rm gui-*.json)

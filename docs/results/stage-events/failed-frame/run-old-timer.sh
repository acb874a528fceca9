# Session 46, call 9: the failure-path test against the timer of 0f66259 (tree E: HEAD's tests, 0f66259's timing.py): it should fail there.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
cd .gpu/s46/E && timeout -s KILL 120 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -m "gpu and not faults_gpu" tests/render/circles/test_gpu_frame_graph.py -k "fails_after_the_switch or stop_is_the_blends_start" > $R/gpu-tests-E.txt 2>&1; echo tests rc $?; grep -E "passed|failed|Error|assert" $R/gpu-tests-E.txt | tail -8
cd $OUT && tar czf r.tgz r && rm -rf r

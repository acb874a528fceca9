# Session's final GPU checks at HEAD: check 1024 (CPU reference in bands as the oracle), then the render and scenes GPU tests.
source .gpu/setup.sh
R=$OUT
git log --oneline -1 > $R/commit.txt 2>/dev/null || true
( time python3 main.py check --size 1024 ) > $R/check-1024.txt 2>&1; echo check rc $?; tail -4 $R/check-1024.txt
timeout -s KILL 330 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 --timeout 280 -m "gpu and not faults_gpu" tests/render tests/scenes > $R/gpu-render-scenes.txt 2>&1; echo render rc $?; tail -2 $R/gpu-render-scenes.txt

source .gpu/setup.sh
R=$OUT/r; mkdir -p $R
cp .gpu/s52/commit.txt $R/
timeout -s KILL 100 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -rs tests/render/circles/test_numba_environment.py tests/render/circles/test_gpu_animation_limits.py > $R/new-tests-2.txt 2>&1; echo new rc $?; tail -2 $R/new-tests-2.txt
cd /tmp && NUMBA_OPT=x timeout 60 python3 $OLDPWD/main.py render --scene rand1M --size 256 --backend cpu --out /tmp/x.png --overwrite 2>&1 | head -4 | tee $R/numba-opt-by-hand.txt

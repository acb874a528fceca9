source .gpu/setup.sh
R=$OUT/r; mkdir -p $R
cp .gpu/s52/commit.txt $R/
timeout -s KILL 400 python3 docs/results/first-frame/probe.py bench collect gcoff frame bench collect gcoff > $R/probe-gc.txt 2>&1; echo rc $?
grep -v "^  " $R/probe-gc.txt

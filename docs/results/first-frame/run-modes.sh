source .gpu/setup.sh
R=$OUT/r; mkdir -p $R
cp .gpu/s52/commit.txt $R/
timeout -s KILL 400 python3 docs/results/first-frame/probe.py > $R/probe-head.txt 2>&1; echo rc $?
grep -v "^  " $R/probe-head.txt

# The lock's cost: bench --variants auto at HEAD (captures and synchronizes take turns) against 33e6147's
# render files (.gpu/s41/P), interleaved, three times each, on one machine.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
rm -rf /tmp/P && mkdir /tmp/P && cp -r main.py app render scenes shaders pyproject.toml /tmp/P/ && cp -r .gpu/s41/P/render /tmp/P/
for i in 1 2 3; do
(cd /tmp/P && timeout -s KILL 100 python3 main.py bench --variants auto --json $R/bench-33e6147-$i.json > $R/bench-33e6147-$i.txt 2>&1); echo 33e6147 $i rc $?
head -2 $R/bench-33e6147-$i.txt | tail -1 | cut -c1-90
grep -E "^(rgb|rand|pattern|snow|big|micro)" $R/bench-33e6147-$i.txt | awk '{print $1, $3}' | tr '\n' ';'; echo
timeout -s KILL 100 python3 main.py bench --variants auto --json $R/bench-head-$i.json > $R/bench-head-$i.txt 2>&1; echo head $i rc $?
head -2 $R/bench-head-$i.txt | tail -1 | cut -c1-90
grep -E "^(rgb|rand|pattern|snow|big|micro)" $R/bench-head-$i.txt | awk '{print $1, $3}' | tr '\n' ';'; echo
done
cd $OUT && tar czf r.tgz r && rm -rf r

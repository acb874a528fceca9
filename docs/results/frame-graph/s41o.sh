# rgb, pattern and rand10k: HEAD against 33e6147's render files (.gpu/s41/P) and against HEAD without the lock in
# synchronize_device (.gpu/s41/L), interleaved, four rounds.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1
nvidia-smi --query-gpu=name --format=csv,noheader
for t in P L; do rm -rf /tmp/$t && mkdir /tmp/$t && cp -r main.py app render scenes shaders pyproject.toml /tmp/$t/ && cp -r .gpu/s41/$t/render /tmp/$t/; done
for i in 1 2 3 4; do
for t in P L H; do
d=/tmp/$t; [ $t = H ] && d=$PWD
(cd $d && timeout -s KILL 100 python3 main.py bench --variants auto --scenes rgb pattern rand10k micro2M --json $R/bench-$t-$i.json > $R/bench-$t-$i.txt 2>&1)
echo "$t $i $(head -2 $R/bench-$t-$i.txt | tail -1 | grep -o 'protocol [0-9.]* us') $(grep -E '^(rgb|rand|pattern|micro)' $R/bench-$t-$i.txt | awk '{print $1, $3}' | tr '\n' ' ')"
done
done
cd $OUT && tar czf r.tgz r && rm -rf r

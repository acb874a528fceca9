# Fresh H100: snowflake shading variants (.gpu/sn/A main a048eda, B ramp by selects, C paint of the 4 pixels before
# their blends, D = B + C, E = D with 4 blocks an SM). bench snowsingle alternating, two rounds; then check snow scenes.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; top=$PWD
for r in 1 2 3; do for v in A B C D E; do
  (cd .gpu/sn/$v && timeout 100 python3 main.py bench --variants auto --scenes snowsingle --json $R/snow-$v-$r.json > $R/snow-$v-$r.txt 2>&1)
  echo "$v $r $(grep -E '^snowsingle ' $R/snow-$v-$r.txt | cut -c1-100)"
done; done
for v in B C D E; do (cd .gpu/sn/$v && timeout 200 python3 main.py check --size 1024 --scenes snowsingle snow > $R/check-snow-$v.txt 2>&1; echo check $v rc $? $(tail -1 $R/check-snow-$v.txt)); done

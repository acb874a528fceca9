# Fresh H100. Snowflake queues (working tree, branch snow-queues) against main 65ad34b (.gpu/m65): bench snowsingle x3
# alternating, then check the snow scenes at 1024, 513 and 200 on the branch.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; top=$PWD
for r in 1 2 3; do for t in main queues; do
  d=$top; [ $t = main ] && d=$top/.gpu/m65
  (cd $d && timeout 100 python3 main.py bench --variants auto --scenes snowsingle > $R/snow-$t-$r.txt 2>&1)
  echo "$t $r $(grep -E '^snowsingle ' $R/snow-$t-$r.txt | cut -c1-100)"
done; done
for size in 1024 513 200; do timeout 200 python3 main.py check --size $size --scenes snowsingle snow > $R/check-snow-$size.txt 2>&1; echo check $size rc $? $(tail -1 $R/check-snow-$size.txt); done
(cd $R && tar -cf snow.tar snow-*.txt && rm snow-*.txt)

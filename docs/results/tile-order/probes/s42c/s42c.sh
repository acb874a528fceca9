# A = main; F = whole-region hits' alpha steps counted in a register (no spills in flat builds) + snowflake tiles heaviest bin first.
source .gpu/setup.sh
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R; export PYTHONUNBUFFERED=1
for T in A F; do cp -r .gpu/s42/$T /tmp/$T; cp .gpu/s42/probe/dump.py /tmp/$T/; done

nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader
SC="rgb rand10k rand100k pattern snowsingle biglittle rand1M micro2M"
SECONDS=0
for round in 1 2 3; do for T in A F; do
  ord=0; case $T in F) ord=1;; esac
  (cd /tmp/$T && TILE_ORDER=$ord timeout 120 python3 main.py bench --variants auto --scenes $SC --json $R/bench-$T-$round.json > $R/bench-$T-$round.txt 2>&1; echo "$T $round rc $? ${SECONDS}s")
done; done
for T in A F; do
  ord=0; case $T in F) ord=1;; esac
  (cd /tmp/$T && TILE_ORDER=$ord PYTHONPATH=$PWD:$PYTHONPATH timeout 170 python3 dump.py $R/hash-$T.json > $R/dump-$T.txt 2>&1; echo "dump $T rc $? ${SECONDS}s"; tail -2 $R/dump-$T.txt)
done
python3 - $R <<'PY'
import json, sys, glob
R = sys.argv[1]
a = json.load(open(f"{R}/hash-A.json"))
for T in ["F"]:
    try: h = json.load(open(f"{R}/hash-{T}.json"))
    except Exception as e: print(T, "no hashes", e); continue
    diff = [k for k in a if h.get(k) != a[k]]
    print(T, "images", len(h), "differ from A:", len(diff), diff[:8])
rows = {}
for f in sorted(glob.glob(f"{R}/bench-*.json")):
    T, rnd = f.split("bench-")[1][:-5].rsplit("-", 1)
    d = json.load(open(f))
    for row in d["rows"]:
        rows.setdefault(row["scene"], {}).setdefault(T, []).append((row["total_ms"], row["stage_ms"]["blending"]))
for s, v in rows.items():
    print(f"{s:11s}", " ".join(f"{T}:" + ",".join(f"{t:.4f}/{b:.4f}" for t, b in v[T]) for T in ("A", "F") if T in v))
PY
cd $OUT && tar czf r.tgz r && rm -rf r

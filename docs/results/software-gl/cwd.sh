# A removed working folder under `render --backend cpu`, d85c24b (M) and the working tree, on the GPU machine.
source .gpu/setup.sh
REPO=$PWD
rm -rf /tmp/M; cp -r .gpu/s50/M /tmp/M
for T in /tmp/M $REPO; do
  mkdir -p /tmp/gone && cd /tmp/gone && rmdir /tmp/gone
  python3 $T/main.py render --scene rgb --size 8 --backend cpu --out x.png; echo "$T rc $?"
  cd /
done
mkdir -p /tmp/g2 && cd /tmp/g2 && rmdir /tmp/g2
python3 - "$REPO" <<'PY' 2>&1 | tail -25
import sys, traceback
sys.path.insert(0, sys.argv[1])
import app.cli as cli
orig = cli._host_failure
def spy(error):
    traceback.print_exception(error)
    return orig(error)
cli._host_failure = spy
print(cli.main(["render", "--scene", "rgb", "--size", "8", "--backend", "cpu", "--out", "x.png"]))
PY

"""The script that timed Onesweep variants against cupy.sort for docs/performance.md (a record, not
part of the product): from the project's root on a GPU machine,

    python3 docs/results/sorts/tuning/tune_onesweep.py docs/results/sorts/tuning/variants-32bit-a.json [64]

Each variant is a kernel source, ``-D`` overrides and text patches; the ``old16`` variants read the
kernel before the rework from /tmp (``git show 6757f4c:shaders/sort_onesweep.cu`` written there).
The host side below mirrors ``OnesweepSort`` as it was then. It ran against the working tree that
became 404b0e5, whose kernel took one ``ONESWEEP_ITEMS`` for both key widths; the kernel now takes
``ONESWEEP_ITEMS_32`` and ``ONESWEEP_ITEMS_64``, so a rerun of the current source must define them.
"""

import json
import statistics
import sys
from pathlib import Path

import cupy
import numpy as np

SHADERS = Path("shaders").resolve()
BASE = dict(ONESWEEP_THREADS=256, ONESWEEP_ITEMS=16, ONESWEEP_RING=4096, ONESWEEP_MAX_LOOK_BACK=64)


def build(path, defines, patches=(), key="unsigned int"):
    code = Path(path).read_text()
    for a, b in patches:
        assert a in code, a
        code = code.replace(a, b)
    opts = (
        "-std=c++17",
        "--fmad=false",
        "--ftz=true",
        f"-I{SHADERS}",
        f"-DKEY_T={key}",
        *[f"-D{k}={v}" for k, v in defines.items()],
    )
    m = cupy.RawModule(code=code, options=opts)
    return m


class Sorter:
    def __init__(self, path, over=None, patches=(), key=32):
        self.d = {**BASE, **(over or {})}
        self.key = key
        m = build(path, self.d, patches, "unsigned int" if key == 32 else "unsigned long long")
        self.h, self.o, self.p = (
            m.get_function(n) for n in ("onesweep_histogram", "onesweep_offsets", "onesweep_pass")
        )
        self.p.compile() if hasattr(self.p, "compile") else None
        self.nregs = self.p.attributes.get("num_regs") if hasattr(self.p, "attributes") else None

    def __call__(self, keys, times=None):
        count = len(keys)
        total = np.int64(count)
        T = self.d["ONESWEEP_THREADS"]
        passes = self.key // 8
        counts = cupy.zeros(passes * 256, cupy.uint32)
        self.h((min(-(-count // T), 4096),), (T,), (keys, total, np.int32(passes), counts))
        self.o((passes,), (256,), (counts,))
        parts = -(-count // (T * self.d["ONESWEEP_ITEMS"]))
        slots = min(parts, self.d["ONESWEEP_RING"])
        ring = cupy.empty(slots * 256, cupy.uint64)
        marks = cupy.empty(slots, cupy.int32)
        ticket = cupy.empty(1, cupy.int32)
        bufs = [cupy.empty(count, keys.dtype), cupy.empty(count, keys.dtype)]
        src = keys
        for step in range(passes):
            for z in (ring, marks, ticket):
                z.data.memset_async(0, z.nbytes)
            tgt = bufs[step % 2]
            if times is not None:
                e0 = cupy.cuda.Event()
                e0.record()
            self.p(
                (parts,),
                (T,),
                (src, tgt, total, np.int32(8 * step), counts[step * 256 :], ring, marks, np.int32(slots), ticket),
            )
            if times is not None:
                e1 = cupy.cuda.Event()
                e1.record()
                times.append((e0, e1))
            src = tgt
        return src


def ms(f, keys, runs=15):
    f(keys)
    cupy.cuda.Device().synchronize()
    a, b = cupy.cuda.Event(), cupy.cuda.Event()
    out = []
    for _ in range(runs):
        a.record()
        f(keys)
        b.record()
        b.synchronize()
        out.append(cupy.cuda.get_elapsed_time(a, b))
    return statistics.median(out)


def main():
    variants = json.loads(Path(sys.argv[1]).read_text())
    rng = np.random.default_rng(1)
    sizes = [2**24, 2**26]
    key = int(sys.argv[2]) if len(sys.argv) > 2 else 32
    dt = np.uint32 if key == 32 else np.uint64
    data = {n: cupy.asarray(rng.integers(0, 2**63, n, dtype=np.uint64).astype(dt) * 2 + 1) for n in sizes}
    odd = cupy.asarray(rng.integers(0, 2**63, 2**20 + 3, dtype=np.uint64).astype(dt))
    sorters = {}
    for v in variants:
        s = Sorter(v["path"], v.get("defines"), [tuple(p) for p in v.get("patches", [])], key)
        ok = all(bool((s(k) == cupy.sort(k)).all()) for k in (odd, data[2**24]))
        sorters[v["name"]] = s
        print(f"{v['name']:<28} regs={s.nregs} correct={ok}", flush=True)
    for rep in range(2):
        for n in sizes:
            k = data[n]
            cub = ms(cupy.sort, k)
            line = f"rep{rep} 2^{n.bit_length() - 1} cub {cub:.3f}"
            for name, s in sorters.items():
                t = ms(s, k)
                line += f" | {name} {t:.3f} ({cub / t:.2f}x)"
            print(line, flush=True)
    # per-kernel pass times for each variant at 2^26
    k = data[2**26]
    for name, s in sorters.items():
        times = []
        s(k, times)
        cupy.cuda.Device().synchronize()
        print(name, "passes ms:", " ".join(f"{cupy.cuda.get_elapsed_time(a, b):.3f}" for a, b in times), flush=True)


main()

# ruff: noqa: E401, E402, I001, F401  (a probe run as it stands: each import is timed where it is)
import re, sys

sys.path.insert(0, ".")


def st(k):
    return int(re.search(k + r":\s+(\d+)", open("/proc/self/status").read()).group(1))


def maps():
    out = {}
    for line in open("/proc/self/maps"):
        p = line.split()
        a, b = (int(x, 16) for x in p[0].split("-"))
        out[p[0]] = (b - a, p[5] if len(p) > 5 else "[anon]")
    return out


a = st("VmSize")
import numba, llvmlite

b = st("VmSize")
print("versions", numba.__version__, llvmlite.__version__)
import llvmlite.binding as llvm

m0 = maps()
import numba.np.arraymath

c = st("VmSize")
m1 = maps()
from render.circles import flat_blend

d = st("VmSize")
flat_blend.compile_now()
e = st("VmSize")
f = st("VmPeak")
m2 = maps()
print(
    "KB: start",
    a,
    "import numba",
    b,
    "arraymath",
    c,
    "flat_blend",
    d,
    "compiled",
    e,
    "peak",
    f,
    "need after arraymath",
    f - d,
)
for name, (m_a, m_b) in (("arraymath", (m0, m1)), ("compile", (m1, m2))):
    new = sorted(((size, path) for k, (size, path) in m_b.items() if k not in m_a), reverse=True)
    print(name, "new mappings:", sum(s for s, _ in new) >> 10, "KB;", [(s >> 10, p) for s, p in new[:8]])

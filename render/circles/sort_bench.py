"""``sortbench``: tile-sort's sorts timed on their own (CUDA events).

Keys: uniform random 32-bit keys of 2^16 ... 2^26, and the real (tile, circle) keys that tile-sort
bins for scenes at 1024x1024 (rand100k, rand1M and micro2M by default), unsorted, as each frame
sorts them, with the sort told their bit width. Per sort and key set: one untimed call (kernels
loaded), then RUNS timed calls; the figure is the median, in milliseconds and keys per second.
Beside it, the sort's extra device memory: the most it held at once during a call, beyond its input.
"""

from __future__ import annotations

import dataclasses
import statistics
from collections.abc import Callable

import numpy as np

from render.circles.sorts import SORTS, make_sorter
from render.circles.variants import SORT_KEYS
from render.core.device_memory import peak_device_bytes

SORT_BENCH_COUNTS = tuple(2**k for k in range(16, 27))
SORT_BENCH_SCENES = ("rand100k", "rand1M", "micro2M")
SORT_BENCH_SIZE = 1024
RUNS = 5
HEADER = f"{'keys':<16}{'count':>11}{'bits':>6}  {'sort':<10}{'ms':>9}{'G keys/s':>10}{'extra MiB':>11}"


@dataclasses.dataclass(frozen=True)
class SortRow:
    keys: str  # "random" or the scene whose binning made them
    count: int
    bits: int
    sort: str
    ms: float
    extra_bytes: int

    @property
    def keys_per_second(self) -> float:
        return self.count / (self.ms / 1e3) if self.ms > 0 else float("inf")

    def line(self) -> str:
        giga = self.keys_per_second / 1e9
        extra = self.extra_bytes / 2**20
        keys = f"{self.keys:<16}{self.count:>11}{self.bits:>6}  {self.sort:<10}"
        return f"{keys}{self.ms:>9.3f}{giga:>10.2f}{extra:>11.1f}"


def timed_ms(sort: Callable, keys, runs: int) -> float:
    """The median of ``runs`` calls of ``sort(keys)``, CUDA events around each, after one untimed call."""
    import cupy

    sort(keys)
    start, stop = cupy.cuda.Event(), cupy.cuda.Event()
    times = []
    for _ in range(runs):
        start.record()
        sort(keys)
        stop.record()
        stop.synchronize()
        times.append(cupy.cuda.get_elapsed_time(start, stop))
    return statistics.median(times)


def peak_extra_bytes(sort: Callable, keys) -> int:
    """The most device memory ``sort(keys)`` held at once beyond what was in use before: its output
    and scratch."""
    with peak_device_bytes() as peak:
        sort(keys)
    return peak.bytes


Progress = Callable[[int, int, str], None]


def _row(name: str, keys, bits: int, sort: str, key_defines, runs: int) -> SortRow:
    sorter = make_sorter(sort, key_defines, bits)
    return SortRow(name, len(keys), bits, sort, timed_ms(sorter, keys, runs), peak_extra_bytes(sorter, keys))


def scene_keys(name: str, size: int):
    """The unsorted (tile, circle) keys tile-sort bins for scene ``name`` (built-in or a file) at
    size x size, their ``SORT_KEYS`` entry and their bit width."""
    from render.circles.kind import CIRCLES
    from render.circles.renderer import CudaRenderer
    from render.circles.strategies import TileSort
    from render.circles.variants import VARIANTS

    renderer = CudaRenderer(VARIANTS.parse("tile-sort"))
    renderer.load(CIRCLES.scene_loader(name, 0, None)(), size, size)
    strategy = renderer.strategy
    assert isinstance(strategy, TileSort)
    return strategy.emit_keys(renderer.scene, size, size), strategy.build_defines, strategy.key_bits


def run_sort_bench(
    counts=SORT_BENCH_COUNTS, scenes=SORT_BENCH_SCENES, sorts=SORTS, runs: int = RUNS, progress: Progress | None = None
) -> list[SortRow]:
    """Every sort of ``sorts`` on random 32-bit keys of each of ``counts`` and on the binning keys of
    each of ``scenes`` at SORT_BENCH_SIZE; ``progress(done, total, label)`` after each row."""
    import cupy

    rows: list[SortRow] = []
    total = (len(counts) + len(scenes)) * len(sorts)
    rng = np.random.default_rng(0)
    for count in counts:
        keys = cupy.asarray(rng.integers(0, 2**32, count, dtype=np.uint64).astype(np.uint32))
        for sort in sorts:
            rows.append(_row("random", keys, 32, sort, SORT_KEYS[0], runs))
            if progress:
                progress(len(rows), total, f"{sort} {count}")
        del keys
    for name in scenes:
        keys, key_defines, bits = scene_keys(name, SORT_BENCH_SIZE)
        for sort in sorts:
            rows.append(_row(name, keys, bits, sort, key_defines, runs))
            if progress:
                progress(len(rows), total, f"{sort} {name}")
        del keys
    return rows


def table_lines(rows: list[SortRow], gpu: str, runs: int) -> list[str]:
    lines = [f"{gpu}: tile-sort's sorts, median of {runs} calls after one untimed (CUDA events)", HEADER]
    lines.append("-" * len(HEADER))
    return lines + [row.line() for row in rows]


def payload(rows: list[SortRow], gpu: str, runs: int) -> dict:
    return {
        "gpu": gpu,
        "runs": runs,
        "scene_size": SORT_BENCH_SIZE,
        "rows": [{**dataclasses.asdict(row), "keys_per_second": row.keys_per_second} for row in rows],
    }

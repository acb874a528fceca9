"""``bench``: the CS149 timing protocol plus CUDA-event stage times and each scene's floor
(``render.circles.floor``).

Protocol (``shared/perf/peers.md``): per run, load the scene (untimed setup, kernels compiled),
then for frames 0..F-1 time clear, advance and render, each followed by a device synchronize, with
a wall clock; a run's figure is the mean per-frame total; the best (minimum) of R runs is kept.
"""

from __future__ import annotations

import dataclasses
import gc
import statistics
from collections.abc import Callable

from render.circles.floor import DeviceLimits, Floor, measure_device_limits, scene_floor
from render.circles.protocol import timed_frames
from render.circles.renderer import STAGES, CudaRenderer
from render.circles.variants import variant_to_run
from render.core.gpu import synchronize_device
from render.core.renderer import RendererUnavailable
from scenes.model import CircleScene

# Best of the CS149 staff binary and the best public full-marks solution, measured on the lent
# H100 at 1024x1024, seed 0, with this protocol (shared/perf/peers.md), in ms.
BEST_PEER_MS = {
    "rgb": 0.094,
    "rand10k": 0.507,
    "rand100k": 1.895,
    "pattern": 0.136,
    "snowsingle": 0.920,
    "biglittle": 2.371,
    "rand1M": 2.092,
    "micro2M": 1.387,
}
# What `auto` must reach on the lent H100 at 1024x1024, seed 0, in ms: rgb and pattern as fast as
# before the floor was defined, the others the goals set beside it (docs/performance.md).
TARGET_MS = {
    "rgb": 0.073,
    "rand10k": 0.09,
    "rand100k": 0.35,
    "pattern": 0.055,
    "snowsingle": 0.12,
    "biglittle": 0.45,
    "rand1M": 0.40,
    "micro2M": 0.25,
}
MAX_FLOOR_RATIO = 3.0  # every scored scene's total within this many times its floor, on the same GPU


def goal(row: BenchRow, target: float | None) -> str:
    """How a scored scene's row stands against its goals (``target`` ms, and MAX_FLOOR_RATIO times
    its floor): "met", or what is missed, "target under floor" where no kernel could meet it;
    "-" where it has none (another scene, size or seed)."""
    if target is None or row.total_ms is None or row.floor is None or row.floor_ratio is None:
        return "-"
    missed = []
    if target < row.floor.total_ms:
        missed.append("target under floor")
    elif row.total_ms > target:
        missed.append("over target")
    if row.floor_ratio > MAX_FLOOR_RATIO:
        missed.append(f"over {MAX_FLOOR_RATIO:g}x floor")
    return ", ".join(missed) or "met"


@dataclasses.dataclass
class BenchRow:
    scene: str
    variant: str
    resolved: str  # what ``auto`` picked, else the variant itself
    total_ms: float | None  # course protocol: best of runs of the mean per-frame total
    stage_ms: dict[str, float]  # median CUDA-event time per stage over all timed frames
    floor: Floor | None  # None where not asked for (a race) or not timed
    covered_pairs: int
    pool_mib: float  # largest CuPy pool size at the end of a run started from an empty pool
    note: str = ""

    @property
    def floor_ratio(self) -> float | None:
        return self.total_ms / self.floor.total_ms if self.total_ms and self.floor else None


def time_run(scene: CircleScene, variant: str, size: int, frames: int):
    """One run: returns (renderer, per-frame totals in ms, per-frame CUDA-event stage times)."""
    renderer = CudaRenderer(variant_to_run(variant))
    renderer.load(scene, size, size)
    synchronize_device()
    stages: list[dict[str, float]] = []
    steps = (renderer.clear, renderer.advance, renderer.render)
    totals = timed_frames(steps, frames, lambda: stages.append(renderer.stage_times_ms()))
    return renderer, totals, stages


def bench_one(
    scene: CircleScene, variant: str, size: int, frames: int, runs: int, limits: DeviceLimits | None = None
) -> BenchRow:
    """``variant`` timed on ``scene`` by the protocol; with the device's ``limits``, its floor too."""
    import cupy

    pool = cupy.get_default_memory_pool()
    best, renderer, peak = None, None, 0
    stage_samples: dict[str, list[float]] = {stage: [] for stage in STAGES}
    try:
        for _ in range(runs):
            # Each run starts from an empty pool (the last run's renderer released), so the pool's
            # size at its end bounds that run's peak alone.
            renderer = None
            gc.collect()
            pool.free_all_blocks()
            renderer, totals, stages = time_run(scene, variant, size, frames)
            peak = max(peak, pool.total_bytes())
            mean = sum(totals) / len(totals)
            best = mean if best is None else min(best, mean)
            for frame_stages in stages:
                for stage, ms in frame_stages.items():
                    stage_samples[stage].append(ms)
    except RendererUnavailable as error:
        return BenchRow(scene.name, variant, variant, None, {}, None, 0, 0.0, str(error))
    assert renderer is not None, "runs must be at least 1"
    pairs, floor = 0, None
    if limits is not None:
        pairs = renderer.covered_pairs()
        floor = scene_floor(pairs, scene.shading, scene.count, size, size, renderer.animated, limits)
    return BenchRow(
        scene=scene.name,
        variant=variant,
        resolved=renderer.resolved.label(),
        total_ms=best,
        stage_ms={s: statistics.median(v) for s, v in stage_samples.items() if v},
        floor=floor,
        covered_pairs=pairs,
        pool_mib=peak / 2**20,
    )


def run_bench(
    scenes: list[tuple[str, Callable[[], CircleScene]]],
    variants: list[str],
    size: int,
    frames: int,
    runs: int,
    progress: Callable[[int, int, str], None] = lambda done, total, label: None,
) -> tuple[DeviceLimits, list[BenchRow]]:
    """The device's limits, measured first, and a row per (scene, variant)."""
    progress(0, len(scenes) * len(variants), "the device's limits")
    limits = measure_device_limits(runs)
    rows, total, done = [], len(scenes) * len(variants), 0
    for name, make_scene in scenes:
        scene = make_scene()
        for variant in variants:
            progress(done, total, f"{name} {variant}")
            rows.append(bench_one(scene, variant, size, frames, runs, limits))
            done += 1
    progress(done, total, "done")
    return limits, rows


def limits_line(limits: DeviceLimits) -> str:
    """The device's limits that the floors stand on, in one line."""
    protocol = ", ".join(
        f"{ms * 1e3:.1f} us with {n} launch{'es' if n > 1 else ''}" for n, ms in limits.protocol_ms.items()
    )
    return (
        f"floors from {limits.issue_per_s / 1e12:.1f}e12 thread-instructions/s, "
        f"{limits.bytes_per_s / 1e9:.0f} GB/s copy, protocol {protocol} a frame"
    )


def table_lines(
    limits: DeviceLimits, rows: list[BenchRow], gpu: str, size: int, seed: int, frames: int, runs: int
) -> list[str]:
    """The bench's table: two heading lines, then one line per (scene, variant), with the peers' time
    and the target where they apply (1024x1024, seed 0)."""
    header = (
        f"{'scene':<11} {'variant':<24} {'total ms':>9} {'peer ms':>8} {'target':>7} {'clear':>7} {'advance':>7} "
        f"{'binning':>8} {'blending':>8} {'compute':>8} {'memory':>7} {'protocol':>8} {'floor ms':>8} "
        f"{'x floor':>7} {'pool MiB':>8}  goal"
    )
    lines = [
        f"{gpu}, {size}x{size}, seed {seed}, frames 0-{frames - 1}, best of {runs}",
        limits_line(limits),
        header,
        "-" * len(header),
    ]
    course = size == 1024 and seed == 0
    for row in rows:
        if row.total_ms is None or row.floor is None:
            lines.append(f"{row.scene:<11} {row.variant:<24} unavailable: {row.note}")
            continue
        peer = BEST_PEER_MS.get(row.scene) if course else None
        target = TARGET_MS.get(row.scene) if course else None
        st, floor = row.stage_ms, row.floor
        lines.append(
            f"{row.scene:<11} {row.variant:<24} {row.total_ms:>9.3f} {peer or '-':>8} {target or '-':>7} "
            f"{st.get('clear', 0):>7.3f} {st.get('advance', 0):>7.3f} {st.get('binning', 0):>8.3f} "
            f"{st.get('blending', 0):>8.3f} {floor.compute_ms:>8.4f} {floor.memory_ms:>7.4f} "
            f"{floor.protocol_ms:>8.4f} {floor.total_ms:>8.4f} {row.floor_ratio or 0:>7.1f} {row.pool_mib:>8.1f}"
            f"  {goal(row, target)}"
        )
    return lines


def payload(limits: DeviceLimits, rows: list[BenchRow], gpu: str, size: int, seed: int, frames: int, runs: int) -> dict:
    """Every figure of the bench, for its JSON file."""
    course = size == 1024 and seed == 0

    def row_figures(row: BenchRow) -> dict:
        figures = dataclasses.asdict(row)
        if row.floor is not None:
            figures["floor"]["total_ms"] = row.floor.total_ms
        figures["floor_ratio"] = row.floor_ratio
        figures["target_ms"] = target = TARGET_MS.get(row.scene) if course else None
        figures["goal"] = goal(row, target)
        return figures

    return {
        "gpu": gpu,
        "size": size,
        "seed": seed,
        "frames": frames,
        "runs": runs,
        "limits": dataclasses.asdict(limits),
        "rows": [row_figures(row) for row in rows],
    }

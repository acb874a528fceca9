"""``bench``: the CS149 timing protocol plus CUDA-event stage times and each scene's blend floor.

Protocol (``shared/perf/peers.md``): per run, load the scene (untimed setup, kernels compiled),
then for frames 0..F-1 time clear, advance and render, each followed by a device synchronize, with
a wall clock; a run's figure is the mean per-frame total; the best (minimum) of R runs is kept.
"""

from __future__ import annotations

import dataclasses
import gc
import statistics
import time
from collections.abc import Callable

from render.circles.renderer import STAGES, CudaRenderer
from render.circles.variants import VARIANTS
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
FLOPS_PER_PAIR = 8  # a covered (pixel, circle) pair: distance test and blend, about 8 FP32 ops


@dataclasses.dataclass
class BenchRow:
    scene: str
    variant: str
    resolved: str  # what ``auto`` picked, else the variant itself
    total_ms: float | None  # course protocol: best of runs of the mean per-frame total
    stage_ms: dict[str, float]  # median CUDA-event time per stage over all timed frames
    floor_ms: float  # covered pairs x FLOPS_PER_PAIR at the GPU's FP32 peak
    covered_pairs: int
    pool_mib: float  # largest CuPy pool size at the end of a run started from an empty pool
    note: str = ""

    @property
    def floor_ratio(self) -> float | None:
        return self.total_ms / self.floor_ms if self.total_ms and self.floor_ms else None


def fp32_peak_flops() -> float:
    """FP32 lanes x 2 (a fused multiply-add) x clock, read off the device (Hopper: 128 lanes/SM)."""
    import cupy

    props = cupy.cuda.runtime.getDeviceProperties(0)
    lanes = 128 if props["major"] >= 8 else 64
    return props["multiProcessorCount"] * lanes * 2 * props["clockRate"] * 1e3


def _sync() -> None:
    import cupy

    cupy.cuda.runtime.deviceSynchronize()


def time_run(scene: CircleScene, variant: str, size: int, frames: int):
    """One run: returns (renderer, per-frame totals in ms, per-frame CUDA-event stage times)."""
    renderer = CudaRenderer(VARIANTS.parse(variant))
    renderer.load(scene, size, size)
    _sync()
    totals, stages = [], []
    for _ in range(frames):
        start = time.perf_counter()
        for step in (renderer.clear, renderer.advance, renderer.render):
            step()
            _sync()
        totals.append((time.perf_counter() - start) * 1e3)
        stages.append(renderer.stage_times_ms())
    return renderer, totals, stages


def bench_one(scene: CircleScene, variant: str, size: int, frames: int, runs: int) -> BenchRow:
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
        return BenchRow(scene.name, variant, variant, None, {}, 0.0, 0, 0.0, str(error))
    assert renderer is not None, "runs must be at least 1"
    pairs = renderer.covered_pairs()
    return BenchRow(
        scene=scene.name,
        variant=variant,
        resolved=renderer.resolved.label(),
        total_ms=best,
        stage_ms={s: statistics.median(v) for s, v in stage_samples.items() if v},
        floor_ms=pairs * FLOPS_PER_PAIR / fp32_peak_flops() * 1e3,
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
) -> list[BenchRow]:
    rows, total, done = [], len(scenes) * len(variants), 0
    for name, make_scene in scenes:
        scene = make_scene()
        for variant in variants:
            progress(done, total, f"{name} {variant}")
            rows.append(bench_one(scene, variant, size, frames, runs))
            done += 1
    progress(done, total, "done")
    return rows


def table_lines(rows: list[BenchRow], gpu: str, size: int, seed: int, frames: int, runs: int) -> list[str]:
    """The bench's table: a heading, then one line per (scene, variant) with the peers' time where
    it applies (1024x1024, seed 0)."""
    header = (
        f"{'scene':<11} {'variant':<24} {'total ms':>9} {'peer ms':>8} {'clear':>7} {'advance':>7} "
        f"{'binning':>8} {'blending':>8} {'floor ms':>9} {'x floor':>8} {'pool MiB':>8}"
    )
    lines = [f"{gpu}, {size}x{size}, seed {seed}, frames 0-{frames - 1}, best of {runs}", header, "-" * len(header)]
    for row in rows:
        if row.total_ms is None:
            lines.append(f"{row.scene:<11} {row.variant:<24} unavailable: {row.note}")
            continue
        peer = BEST_PEER_MS.get(row.scene) if size == 1024 and seed == 0 else None
        st = row.stage_ms
        lines.append(
            f"{row.scene:<11} {row.variant:<24} {row.total_ms:>9.3f} {peer if peer else '-':>8} "
            f"{st.get('clear', 0):>7.3f} {st.get('advance', 0):>7.3f} {st.get('binning', 0):>8.3f} "
            f"{st.get('blending', 0):>8.3f} {row.floor_ms:>9.4f} {row.floor_ratio or 0:>8.1f} {row.pool_mib:>8.1f}"
        )
    return lines


def payload(rows: list[BenchRow], gpu: str, size: int, seed: int, frames: int, runs: int) -> dict:
    """Every figure of the bench, for its JSON file."""
    return {
        "gpu": gpu,
        "size": size,
        "seed": seed,
        "frames": frames,
        "runs": runs,
        "rows": [dict(row.__dict__, floor_ratio=row.floor_ratio) for row in rows],
    }

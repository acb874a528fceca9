"""``bench`` for the sphere tracer: kernel times from CUDA events over variants x sphere counts x
sizes."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from render.core.renderer import RendererUnavailable
from render.spheres.variants import VARIANTS

BENCH_COUNTS = (20, 256, 1024, 2340, 16384)
BENCH_SIZES = (512, 1024, 2048)
WARMUP_LAUNCHES = 3
TIMED_LAUNCHES = 20


def time_sphere_kernel(renderer) -> float:
    """Median kernel milliseconds over TIMED_LAUNCHES launches after WARMUP_LAUNCHES."""
    for _ in range(WARMUP_LAUNCHES):
        renderer.render()
    times = []
    for _ in range(TIMED_LAUNCHES):
        renderer.render()
        times.append(renderer.kernel_ms())
    return float(np.median(times))


def run_sphere_bench(
    variants: list[str],
    counts: tuple[int, ...],
    sizes: tuple[int, ...],
    seed: int,
    progress: Callable[[int, int, str], None],
    view: str = "classic",
) -> list[dict]:
    """One row per (variant, count, size): median kernel ms, or why the variant is unavailable."""
    from render.spheres.cuda import SphereCudaRenderer
    from scenes.spheres import random_spheres

    total, done, rows = len(variants) * len(counts) * len(sizes), 0, []
    for count in counts:
        scene = random_spheres(count, seed)
        for size in sizes:
            for variant in variants:
                progress(done, total, f"{variant} {count} spheres {size}x{size}")
                renderer = SphereCudaRenderer(VARIANTS.parse(variant), view)
                row = {"variant": variant, "count": count, "size": size}
                try:
                    renderer.load(scene, size)
                    row["kernel_ms"] = time_sphere_kernel(renderer)
                except RendererUnavailable as error:
                    row["unavailable"] = str(error)
                rows.append(row)
                done += 1
    progress(done, total, "done")
    return rows


def table_lines(rows: list[dict], variants: list[str], counts, sizes, gpu: str, view: str, seed: int) -> list[str]:
    """The bench's table: a heading, then a line per (count, size) with a column per variant."""
    timing = f"median of {TIMED_LAUNCHES} launches (CUDA events)"
    lines = [
        f"{gpu}: sphere kernels, {view} view, {timing}, seed {seed}",
        f"{'spheres':>7} {'size':>5} " + " ".join(f"{v:>18}" for v in variants),
    ]
    for count in counts:
        for size in sizes:
            cells = []
            for variant in variants:
                row = next(r for r in rows if (r["variant"], r["count"], r["size"]) == (variant, count, size))
                cells.append(f"{row['kernel_ms']:>15.4f} ms" if "kernel_ms" in row else f"{'n/a':>18}")
            lines.append(f"{count:>7} {size:>5} " + " ".join(cells))
    return lines

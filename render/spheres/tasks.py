"""``check`` and ``bench`` for the sphere tracer: every variant against the NumPy reference, and
kernel times from CUDA events over variants x sphere counts x sizes."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np

from render.core.renderer import RendererUnavailable
from render.spheres.shading import ShadeSettings, reference_image
from scenes.spheres import SphereScene

BENCH_COUNTS = (20, 256, 1024, 2340, 16384)
BENCH_SIZES = (512, 1024, 2048)
WARMUP_LAUNCHES = 3
TIMED_LAUNCHES = 20


@dataclasses.dataclass(frozen=True)
class SphereCheckRow:
    scene: str
    count: int
    variant: str
    differing_values: int | None  # 8-bit RGB values unlike the reference; None when unavailable
    note: str = ""

    @property
    def passed(self) -> bool:
        return self.differing_values == 0 or (self.differing_values is None and bool(self.note))


def run_sphere_check(
    scenes: list[SphereScene],
    variants: list[str],
    size: int,
    report: Callable[[SphereCheckRow], None],
    view: str = "classic",
) -> list[SphereCheckRow]:
    """Each variant's image in ``view`` (default shading for the shaded one) against the reference;
    a variant that cannot take a scene (constant memory past 2340 spheres) is a row saying why, not
    a failure."""
    from render.spheres.cuda import SphereCudaRenderer

    rows = []
    for scene in scenes:
        expected = reference_image(scene, size, view, ShadeSettings())
        for variant in variants:
            renderer = SphereCudaRenderer(variant, view)
            try:
                renderer.load(scene, size)
            except RendererUnavailable as error:
                row = SphereCheckRow(scene.name, scene.count, variant, None, f"unavailable: {error}")
            else:
                renderer.poison()
                renderer.render()
                differing = int(np.count_nonzero(renderer.image() != expected))
                row = SphereCheckRow(scene.name, scene.count, variant, differing)
            rows.append(row)
            report(row)
    return rows


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
                renderer = SphereCudaRenderer(variant, view)
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

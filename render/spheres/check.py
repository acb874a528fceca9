"""``check`` for the sphere tracer: every variant against the NumPy reference, byte for byte."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import numpy as np

from render.core.kind import Progress
from render.core.renderer import RendererUnavailable
from render.spheres.shading import ShadeSettings, reference_image
from render.spheres.variants import VARIANTS
from scenes.spheres import SphereScene

CHECK_COUNTS = (1, 20, 256, 2340, 3000)  # 3000: past constant memory, so that row says why


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
    view: str,
    progress: Progress,
) -> Iterator[SphereCheckRow]:
    """Each variant's image in ``view`` (default shading for the shaded one) against the reference;
    a variant that cannot take a scene (constant memory past 2340 spheres) is a row saying why, not
    a failure. ``progress`` hears of each step (a scene's CPU reference, a variant) as it starts."""
    from render.spheres.cuda import SphereCudaRenderer

    total, done = len(scenes) * len(variants), 0
    for scene in scenes:
        progress(done, total, f"{scene.name} CPU reference")
        expected = reference_image(scene, size, view, ShadeSettings())
        for variant in variants:
            progress(done, total, f"{scene.name} {variant}")
            renderer = SphereCudaRenderer(VARIANTS.parse(variant), view)
            try:
                renderer.load(scene, size)
            except RendererUnavailable as error:
                row = SphereCheckRow(scene.name, scene.count, variant, None, f"unavailable: {error}")
            else:
                renderer.poison()
                renderer.render()
                differing = int(np.count_nonzero(renderer.image() != expected))
                row = SphereCheckRow(scene.name, scene.count, variant, differing)
            yield row
            done += 1
    progress(done, total, "done")


WHAT_DIFFERS = " (8-bit RGB values unlike the reference)"
HEADER = f"{'scene':<12} {'spheres':>7} {'variant':<20} {'differing':>9}  result"


def row_line(row: SphereCheckRow) -> str:
    """One line of the ``check`` table under HEADER."""
    if row.differing_values is None:
        return f"{row.scene:<12} {row.count:>7} {row.variant:<20} {'-':>9}  {row.note}"
    verdict = "identical" if row.passed else "FAIL"
    return f"{row.scene:<12} {row.count:>7} {row.variant:<20} {row.differing_values:>9}  {verdict}"

"""``race`` for the sphere tracer: every variant on one scene, size and view, its kernel timed with
CUDA events as ``bench`` times it, and its image compared with the NumPy reference, byte for byte."""

from __future__ import annotations

import numpy as np

from render.core.kind import Progress
from render.core.race import RaceRow, ranked
from render.core.renderer import RendererUnavailable
from render.spheres.bench import time_sphere_kernel
from render.spheres.shading import ShadeSettings, reference_image
from render.spheres.variants import VARIANTS
from scenes.spheres import SphereScene


def run_race(
    scene: SphereScene, size: int, view: str, shading: ShadeSettings, progress: Progress, also: tuple[str, ...] = ()
) -> list[RaceRow]:
    """The rows of the race, fastest first; a variant that cannot take the scene says why. ``also``:
    variants raced beside the table's configurations."""
    from render.spheres.cuda import SphereCudaRenderer

    variants = [choice.label() for choice in VARIANTS.configurations()]
    labels = dict.fromkeys(VARIANTS.parse(text).label() for text in also)
    variants += [label for label in labels if label not in variants]
    stage = "trace" if view == "classic" else "shade"  # the one stage of a sphere frame, as the app names it
    total = len(variants) + 1
    progress(0, total, f"{scene.name} CPU reference")
    expected = reference_image(scene, size, view, shading)
    rows = []
    for done, variant in enumerate(variants, 1):
        progress(done, total, variant)
        renderer = SphereCudaRenderer(VARIANTS.parse(variant), view)
        renderer.shading = shading
        try:
            renderer.load(scene, size)
        except RendererUnavailable as error:
            rows.append(RaceRow(variant, variant, None, {}, None, None, str(error)))
            continue
        kernel_ms = time_sphere_kernel(renderer)
        renderer.poison()
        renderer.render()
        difference = np.abs(renderer.image().astype(np.int16) - expected.astype(np.int16)).max()
        rows.append(RaceRow(variant, variant, kernel_ms, {stage: kernel_ms}, bool(difference == 0), float(difference)))
    progress(total, total, "done")
    return ranked(rows)

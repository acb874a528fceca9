"""``race`` for the circle renderer: every configuration of the variant table and ``auto`` (and any
variant asked for beside them, a user's kernel file say) on one scene and size, each timed with the
bench protocol (``bench.bench_one``) and its frame 0 compared with the CPU reference's, rendered
once."""

from __future__ import annotations

from render.circles.bench import bench_one
from render.circles.check import gpu_image, reference_image
from render.circles.variants import VARIANTS
from render.core.compare import compare_images
from render.core.kind import Progress
from render.core.race import RaceRow, ranked
from render.core.renderer import RendererUnavailable
from scenes.model import CircleScene


def race_variants(also: tuple[str, ...] = ()) -> list[str]:
    """Every configuration of the table, then ``auto``, then those of ``also`` not among them."""
    variants = [choice.label() for choice in VARIANTS.configurations()] + ["auto"]
    labels = dict.fromkeys(VARIANTS.parse(text).label() for text in also)  # "tile-scan" is a configuration's
    return variants + [label for label in labels if label not in variants]


def run_race(
    scene: CircleScene, size: int, frames: int, runs: int, progress: Progress, also: tuple[str, ...] = ()
) -> list[RaceRow]:
    """The rows of the race, fastest first; ``also``: variants raced beside the table's."""
    variants = race_variants(also)
    total = len(variants) + 1
    progress(0, total, f"{scene.name} CPU reference")
    reference = reference_image(scene, size, 0)
    rows = []
    for done, variant in enumerate(variants, 1):
        progress(done, total, variant)
        timed = bench_one(scene, variant, size, frames, runs)
        if timed.total_ms is None:
            rows.append(RaceRow(variant, variant, None, {}, None, None, timed.note))
            continue
        try:
            comparison = compare_images(reference, gpu_image(scene, variant, size, 0))
        except RendererUnavailable as error:
            rows.append(RaceRow(variant, timed.resolved, timed.total_ms, timed.stage_ms, None, None, str(error)))
            continue
        exact = comparison.exact
        rows.append(RaceRow(variant, timed.resolved, timed.total_ms, timed.stage_ms, exact, comparison.max_abs_diff))
    progress(total, total, "done")
    return ranked(rows)

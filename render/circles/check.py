"""``check``: every CUDA variant against the CPU reference on every scene, at one size and frame; or,
where the reference would take too long (hundreds of millions of circles, 8192 pixels), against
another variant that bins the circles another way."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator

from render.circles.reference import ReferenceRenderer
from render.circles.renderer import CudaRenderer
from render.circles.variants import variant_to_run
from render.core.compare import Comparison, compare_images
from render.core.kind import Progress
from render.core.renderer import RendererUnavailable, render_frame
from scenes.model import CircleScene


@dataclasses.dataclass
class CheckRow:
    scene: str
    variant: str
    comparison: Comparison | None  # None when the variant could not run
    note: str = ""

    @property
    def passed(self) -> bool:
        return self.comparison is not None and self.comparison.passed


def reference_image(scene: CircleScene, size: int, frame: int):
    renderer = ReferenceRenderer()
    renderer.load(scene, size, size)
    return render_frame(renderer, frame)


def gpu_image(scene: CircleScene, variant: str, size: int, frame: int):
    """Frame ``frame`` from a fresh CUDA renderer whose image starts poisoned with NaN."""
    renderer = CudaRenderer(variant_to_run(variant))
    renderer.load(scene, size, size)
    renderer.poison()
    return render_frame(renderer, frame)


def run_check(
    scenes: list[tuple[str, Callable[[], CircleScene]]],
    variants: list[str],
    size: int,
    frame: int,
    progress: Progress,
    against: str | None = None,
) -> Iterator[CheckRow]:
    """Compare each variant with the reference on each (name, scene factory), or with variant
    ``against`` where given; a row per pair, as each is done. ``progress`` hears of each step (a
    scene's reference, a variant) as it starts. A scene ``against`` cannot run on gives a row per
    variant saying so."""
    total, done = len(scenes) * len(variants), 0
    for name, make_scene in scenes:
        progress(done, total, f"{name} {against or 'CPU reference'}")
        scene = make_scene()
        try:
            reference = gpu_image(scene, against, size, frame) if against else reference_image(scene, size, frame)
        except RendererUnavailable as error:
            for variant in variants:
                yield CheckRow(name, variant, None, f"{against}, the reference here, could not run: {error}")
                done += 1
            continue
        for variant in variants:
            progress(done, total, f"{name} {variant}")
            try:
                row = CheckRow(name, variant, compare_images(reference, gpu_image(scene, variant, size, frame)))
            except RendererUnavailable as error:
                row = CheckRow(name, variant, None, str(error))
            yield row
            done += 1
    progress(done, total, "done")


HEADER = f"{'scene':<14} {'variant':<40} {'max |diff|':>11} {'bad':>6}  result"


def row_line(row: CheckRow) -> str:
    """One line of the ``check`` table under HEADER."""
    if row.comparison is None:
        return f"{row.scene:<14} {row.variant:<40} {'-':>11} {'-':>6}  UNAVAILABLE: {row.note}"
    c = row.comparison
    verdict = "pass" if c.passed else "FAIL"
    return f"{row.scene:<14} {row.variant:<40} {c.max_abs_diff:>11.3g} {c.bad_values:>6}  {verdict}"

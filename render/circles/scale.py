"""``scale``: how `auto`'s time and device memory grow with the circle count and the image size.

Two families of random flat circles, uniform over the picture, for each count:

* ``fixed``: every radius FIXED_RADIUS, so the mean depth (circles over a pixel) grows with the count;
* ``depth``: the radius shrinks with the count so that the circles' total area stays MEAN_DEPTH
  pictures, and the mean depth with it (circles near the edge spill over, so a little less).

Each point: `auto` timed by bench's protocol, the most device memory held at once over its runs, and
frame 0 compared with a second variant that bins another way (``against``), where the CPU reference
would take hours. The memory beyond the scene arrays and the image, per circle, is what binning
costs as scenes grow.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from pathlib import Path

import numpy as np

from render.circles.floor import CIRCLE_BYTES, PIXEL_BYTES
from scenes.model import CircleScene, empty_arrays
from scenes.safe_write import Placement

SCALE_COUNTS = tuple(10**k for k in range(3, 9))
SCALE_SIZES = (512, 1024, 2048, 4096, 8192)
FAMILIES = ("fixed", "depth")
FIXED_RADIUS = 0.002  # 16 pixels at 8192, 1 at 512
MEAN_DEPTH = 2.0
AGAINST = "tile-sort"  # one global sort of (tile, circle) keys, where auto's tile-warp keeps bin lists
SCALE_FRAMES = 4
SCALE_RUNS = 2


def family_radius(family: str, count: int) -> float:
    """The radius (picture widths) every circle of ``family`` with ``count`` circles has."""
    if family == "fixed":
        return FIXED_RADIUS
    return math.sqrt(MEAN_DEPTH / (math.pi * count))


def family_scene(family: str, count: int, seed: int) -> CircleScene:
    """``count`` flat circles of ``family``: centers and colors uniform in [0, 1), depths uniform,
    one radius. Made in place, a field at a time, so 10^8 circles take their 4 GB once."""
    rng = np.random.default_rng(seed)
    arrays = empty_arrays(count)
    rng.random(dtype=np.float32, out=arrays["position"])
    rng.random(dtype=np.float32, out=arrays["color"])
    arrays["radius"][:] = family_radius(family, count)
    return CircleScene(name=f"{family}-{count}", shading="flat", background="white", **arrays)


@dataclasses.dataclass
class ScaleRow:
    family: str
    count: int
    size: int
    radius: float
    resolved: str  # what auto picked
    total_ms: float | None  # bench's protocol: best of runs of the mean per-frame total; None if it did not run
    stage_ms: dict[str, float]
    peak_bytes: int  # the most device memory held at once, scene and image included
    exact: bool | None  # frame 0 equal to ``against``'s; None where it was not compared
    max_abs_diff: float | None
    note: str = ""
    check_failed: bool = False  # auto ran but ``against`` could not, so nothing vouches for its frame

    @property
    def failed(self) -> bool:
        """Whether the point says the sweep failed: a frame unlike ``against``'s, or no comparison."""
        return self.exact is False or self.check_failed

    @property
    def scene_bytes(self) -> int:
        return self.count * CIRCLE_BYTES

    @property
    def image_bytes(self) -> int:
        return self.size * self.size * PIXEL_BYTES

    @property
    def extra_bytes_per_circle(self) -> float | None:
        """Device memory beyond the scene's arrays (position, radius, color) and the float4 image, per circle."""
        if self.total_ms is None:
            return None
        return (self.peak_bytes - self.scene_bytes - self.image_bytes) / self.count


Progress = Callable[[int, int, str], None]


def scale_point(scene: CircleScene, family: str, size: int, frames: int, runs: int, against: str) -> ScaleRow:
    """``auto`` on ``scene`` at ``size``: timed, its peak memory tracked, its frame 0 checked."""
    from render.circles.bench import bench_one
    from render.circles.check import gpu_image
    from render.core.compare import compare_images
    from render.core.device_memory import peak_device_bytes
    from render.core.renderer import RendererUnavailable

    radius = float(scene.radius[0])
    with peak_device_bytes() as peak:
        timed = bench_one(scene, "auto", size, frames, runs)
    if timed.total_ms is None:
        return ScaleRow(family, scene.count, size, radius, "auto", None, {}, 0, None, None, timed.note)
    row = ScaleRow(
        family, scene.count, size, radius, timed.resolved, timed.total_ms, timed.stage_ms, peak.bytes, None, None
    )
    if timed.resolved == against:
        row.note = "auto picked it: not compared with itself"
        return row
    try:
        # against's frame is the reference: pixels auto leaves unwritten (NaN, as poisoned) show as inf.
        comparison = compare_images(gpu_image(scene, against, size, 0), gpu_image(scene, "auto", size, 0))
    except RendererUnavailable as error:
        row.note, row.check_failed = f"{against} could not run: {error}", True
        return row
    row.exact, row.max_abs_diff = comparison.exact, comparison.max_abs_diff
    return row


def run_scale(
    counts: tuple[int, ...],
    sizes: tuple[int, ...],
    families: tuple[str, ...],
    frames: int,
    runs: int,
    against: str,
    seed: int,
    progress: Progress,
    report: Callable[[ScaleRow], None],
    saved: tuple[Path, Placement] | None = None,
) -> list[ScaleRow]:
    """A row per (family, count, size), sizes innermost so each scene is made once; ``report`` hears
    of each as it is done. With ``saved`` (a folder, how to place files in it), each scene is saved
    there as ``<family>-<count>.npz`` and what is timed is that file read back, as a user's scene
    file would be."""
    from scenes.files import load_scene, save_scene

    rows: list[ScaleRow] = []
    total = len(families) * len(counts) * len(sizes)
    for family in families:
        for count in counts:
            progress(len(rows), total, f"{family} {count:,} circles")
            scene = family_scene(family, count, seed)
            if saved is not None:
                path = save_scene(scene, saved[0] / f"{scene.name}.npz", saved[1])
                del scene
                scene = load_scene(path)
            for size in sizes:
                progress(len(rows), total, f"{family} {count:,} circles at {size}")
                rows.append(scale_point(scene, family, size, frames, runs, against))
                report(rows[-1])
            del scene
    progress(total, total, "done")
    return rows


HEADER = (
    f"{'family':<7}{'circles':>12}{'size':>6}{'radius px':>10}  {'auto':<22}{'total ms':>10}{'binning':>9}"
    f"{'blending':>9}{'peak MiB':>10}{'extra B/c':>10}  exact"
)


def row_line(row: ScaleRow) -> str:
    start = f"{row.family:<7}{row.count:>12,}{row.size:>6}{row.radius * row.size:>10.3g}  "
    if row.total_ms is None:
        return start + f"unavailable: {row.note}"
    stages, extra = row.stage_ms, row.extra_bytes_per_circle
    if row.exact is None:
        exact = ("NO: " if row.check_failed else "- (") + row.note + ("" if row.check_failed else ")")
    else:
        exact = "yes" if row.exact else f"NO (max |diff| {row.max_abs_diff:.3g})"
    return (
        start + f"{row.resolved:<22}{row.total_ms:>10.3f}{stages.get('binning', 0):>9.3f}"
        f"{stages.get('blending', 0):>9.3f}{row.peak_bytes / 2**20:>10.1f}{extra:>10.1f}  {exact}"
    )


def title_lines(gpu: str, frames: int, runs: int, against: str, seed: int) -> list[str]:
    """The table's title and header, printed before its rows come."""
    title = f"{gpu}: auto by circle count and size, seed {seed}, frames 0-{frames - 1}, best of {runs}"
    title += f"; exact: frame 0 against {against}"
    return [title, HEADER, "-" * len(HEADER)]


def payload(rows: list[ScaleRow], gpu: str, frames: int, runs: int, against: str, seed: int) -> dict:
    def figures(row: ScaleRow) -> dict:
        return {
            **dataclasses.asdict(row),
            "scene_bytes": row.scene_bytes,
            "image_bytes": row.image_bytes,
            "extra_bytes_per_circle": row.extra_bytes_per_circle,
        }

    about = dict(fixed_radius=FIXED_RADIUS, mean_depth=MEAN_DEPTH)
    return dict(gpu=gpu, frames=frames, runs=runs, against=against, seed=seed, **about, rows=[figures(r) for r in rows])

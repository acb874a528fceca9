"""The CPU reference renderer in NumPy: the oracle for every CUDA variant and the no-GPU backend.

For each circle in index order it visits the clamped pixel box (``shading.pixel_bounds``), tests
coverage with the inclusive float32 test and blends the covered pixels "over" the image. Rows are
independent, so large scenes are split into horizontal bands rendered by worker processes
(``band_pool``); each band still blends its circles strictly in index order, so the result does not
depend on the split. The workers start from a forkserver, so scripts that call this need the usual
``if __name__ == "__main__":`` guard (a frame rendered outside one is refused: ``main_guard``).

Progress goes to ``render.core.progress``'s listener. A frame given up while its bands render (an
exception in the caller's thread: Ctrl-C, SIGTERM, a listener that raises, a failed band) stops the
workers through a flag they read between circles, at most REPORT_SECONDS apart, so it unwinds within
a fraction of a second rather than after the bands under way.
"""

from __future__ import annotations

import os

import numpy as np

from render.circles import band_pool, flat_blend, shading
from render.core import memory_left, progress
from render.core.renderer import Renderer, host_memory
from scenes.animation import advance
from scenes.model import CircleScene

f32 = np.float32

# Under this many circles a process pool costs more than it saves.
PARALLEL_MIN_CIRCLES = 20000


def clear_image(scene: CircleScene, width: int, height: int) -> np.ndarray:
    """The cleared image, float32 (height, width, 4), row 0 = bottom of the picture."""
    image = np.empty((height, width, 4), np.float32)
    image[..., 3] = 1
    rgb = scene.background_rgb()
    if rgb is None:
        rows = np.arange(height, dtype=np.float32)
        shade = f32(0.4) + (f32(0.45) * (f32(height) - rows)) / f32(height)
        image[..., :3] = shade[:, None, None]
    else:
        image[..., :3] = np.asarray(rgb, np.float32)
    return image


def blend_rows(scene: CircleScene, planes: np.ndarray, row0: int, full_height: int, compiled: bool = True) -> None:
    """Blend all circles, in index order, into rows [row0, row0 + rows) of the picture.

    planes: float32 (4, rows, width), channel-planar RGBA, modified in place. Planar channels keep
    every NumPy pass over a circle's box contiguous along rows. Flat circles go through the
    compiled loop of ``flat_blend`` (``compiled`` False: the NumPy passes below, its oracle),
    snowflakes through the NumPy passes.
    """
    rows, width = planes.shape[1:]
    bounds = shading.pixel_bounds(scene.position, scene.radius, width, full_height)
    bounds[:, 2] = np.maximum(bounds[:, 2], row0) - row0
    bounds[:, 3] = np.minimum(bounds[:, 3], row0 + rows) - row0
    visible = np.nonzero((bounds[:, 0] < bounds[:, 1]) & (bounds[:, 2] < bounds[:, 3]))[0]
    centers_x = shading.pixel_centers(width)
    centers_y = shading.pixel_centers(full_height)[row0 : row0 + rows]
    snow = scene.shading == "snowflake"
    # A radius past ~1.8e19 squares to inf in float32, as it does in the kernels: it covers everything.
    with np.errstate(over="ignore"):
        radius2 = (scene.radius * scene.radius)[visible]
    # P = a*C + (1-a)*P, evaluated as (1-a)*P then + a*C: the same two roundings.
    alpha_color = (shading.FLAT_ALPHA * scene.color)[visible]
    one_minus = f32(1) - shading.FLAT_ALPHA
    tick = progress.ticker(len(visible))
    if compiled and not snow:
        position = np.ascontiguousarray(scene.position[visible])
        centers = (centers_x, np.ascontiguousarray(centers_y))
        flat = (one_minus, shading.FLAT_ALPHA)
        flat_blend.blend_flat(planes, bounds[visible], position, radius2, alpha_color, centers, *flat, tick)
        tick(len(visible))
        return
    pos, box, radius2_of = scene.position[visible].tolist(), bounds[visible].tolist(), radius2.tolist()
    for k, index in enumerate(visible.tolist()):
        tick(k)
        x0, x1, y0, y1 = box[k]
        px, py, pz = pos[k]
        dx = centers_x[x0:x1] - px
        dy = centers_y[y0:y1] - py
        with np.errstate(over="ignore"):  # far centres square to inf, as in the kernels
            dist2 = dx * dx + (dy * dy)[:, None]
        covered = dist2 <= radius2_of[k]
        rgb = planes[:3, y0:y1, x0:x1]
        if snow:
            color, alpha = shading.snowflake_rgba(dist2, scene.radius[index], f32(pz))
            keep = (f32(1) - alpha) * rgb
            np.add(np.moveaxis(alpha[..., None] * color, -1, 0), keep, out=rgb, where=covered)
        else:
            alpha = shading.FLAT_ALPHA
            np.multiply(rgb, one_minus, out=rgb, where=covered)
            np.add(rgb, alpha_color[k][:, None, None], out=rgb, where=covered)
        np.add(planes[3, y0:y1, x0:x1], alpha, out=planes[3, y0:y1, x0:x1], where=covered)
    tick(len(visible))


# What a worker process holds for a frame of N circles: blend_rows' arrays over every circle (pixel
# boxes, squared radii, premultiplied colors, the visible ones' copies), 0.61-0.66 GB measured per
# worker at 10^7 circles. The scene's arrays it maps are one copy shared by every worker
# (band_pool.SHARED_BYTES_PER_CIRCLE), made for the frame.
WORKER_BYTES_PER_CIRCLE = 72


def worker_count(circles: int, workers: int | None = None) -> int:
    """The worker processes of a frame of ``circles``: ``workers``, else one per core (at most 16),
    no more than the process may open descriptors for, and no more than the host memory available
    can hold beside the scene's shared copy (10^8 circles take about 7 GB each, and 2.8 GB shared).
    At least 1, which renders the frame in one thread."""
    wanted = max(1, band_pool.workers_within_descriptors(workers or min(os.cpu_count() or 1, 16)))
    available = memory_left.available_host_bytes()
    if available is None or circles == 0:
        return wanted
    room = available - band_pool.SHARED_BYTES_PER_CIRCLE * circles
    return max(1, min(wanted, room // (WORKER_BYTES_PER_CIRCLE * circles)))


def worker_bands(scene: CircleScene, height: int, workers: int) -> list[tuple[int, int]]:
    """The bands of rows [a, b) that ``workers`` processes render; none when one thread renders
    the frame (few circles, few rows, one worker)."""
    if workers <= 1 or scene.count < PARALLEL_MIN_CIRCLES or height < 2 * workers:
        return []
    # More bands than workers, so that a band crowded with big circles leaves no one idle.
    edges = np.linspace(0, height, 4 * workers + 1).astype(int)
    return [(a, b) for a, b in zip(edges[:-1], edges[1:], strict=True) if b > a]


def render_reference(scene: CircleScene, image: np.ndarray, workers: int | None = None) -> None:
    """Blend ``scene`` over ``image`` float32 (H, W, 4) in place, in parallel bands when it pays (in
    one thread where the host cannot share the scene with worker processes or start them)."""
    height = image.shape[0]
    planes = np.ascontiguousarray(np.moveaxis(image, -1, 0))
    workers = worker_count(scene.count, workers)
    rows = worker_bands(scene, height, workers)
    if not rows:
        blend_rows(scene, planes, 0, height)
    else:
        try:
            band_pool.render_bands(blend_rows, scene, planes, rows, workers)
        except band_pool.NoWorkers:
            blend_rows(scene, planes, 0, height)  # slower, the same pixels
    image[...] = np.moveaxis(planes, 0, -1)


class ReferenceRenderer(Renderer):
    """The CPU backend: exact to the spec, slow for millions of circles at large sizes."""

    name = "reference"

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers

    def load(self, scene: CircleScene, width: int, height: int) -> None:
        flat_blend.compile_now()  # the first time a few seconds (then Numba's cache): not in a frame
        with host_memory(f"{scene.name} ({scene.count} circles) at {width}x{height}"):
            # Its own copy to advance; a still scene is only read, so a scene file's arrays are not held twice.
            self.scene = scene.copy() if scene.animation != "none" else scene
            self.width, self.height = width, height
            self._image = clear_image(self.scene, width, height)

    def clear(self) -> None:
        with host_memory(f"a {self.width}x{self.height} image"):
            self._image = clear_image(self.scene, self.width, self.height)

    def advance(self) -> None:
        advance(self.scene)

    @property
    def animated(self) -> bool:
        return self.scene.animation != "none"

    def render(self) -> None:
        with host_memory(f"rendering {self.scene.name} at {self.width}x{self.height}"):
            render_reference(self.scene, self._image, self.workers)

    def image(self) -> np.ndarray:
        return self._image.copy()

    def stage_times_ms(self) -> dict[str, float]:
        """None timed: the caller times a CPU frame as a whole."""
        return {}

    def poison(self) -> None:
        self._image.fill(np.nan)

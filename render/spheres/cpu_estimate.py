"""How long the sphere tracer's CPU reference takes for a frame, on this machine as loaded now: a
random sample of the scene's spheres is traced and timed at up to SAMPLE_SIDE pixels square, then
scaled to the frame's spheres and pixels, with the rest of a frame (rays, clear, shading of the hits,
the 8-bit image) timed once on no spheres.

Above SAMPLE_SIDE the per-sphere work is scaled by the pixels; in the classic view a sphere also
costs some microseconds whatever its size, so there the estimate errs high at the largest sizes.
"""

from __future__ import annotations

import math

import numpy as np

from render.core.sampling import SAMPLE_SECONDS, seconds_per_item, timed
from render.spheres.constants import BOOK_SIZE
from render.spheres.reference import SPHERE_INF, trace_into, trace_reference
from render.spheres.shading import ShadeSettings, nearest_spheres, primary_rays, shade_reference
from scenes.spheres import SphereScene

SAMPLE_SIDE = {"classic": 1024, "shaded": 512}  # the shaded view costs every pixel for every sphere
EULER_GAMMA = 0.5772156649


def estimated_seconds(scene: SphereScene, size: int, view: str, shading: ShadeSettings | None) -> float:
    """The seconds of one CPU reference frame of ``scene`` in ``view`` (with ``shading``, None: the
    default) at ``size`` x ``size``; spends about SAMPLE_SECONDS timing."""
    side = min(size, SAMPLE_SIDE[view])
    if view == "shaded":
        shading = shading or ShadeSettings()
        params = shading.params()
        rays, eye = primary_rays(side, params), params[0:3]

        def trace(indices: np.ndarray) -> float:
            chosen = _some(scene, indices)
            return timed(lambda: nearest_spheres(chosen, rays, eye))

        per_sphere = seconds_per_item(scene.count, trace)
        rest = timed(lambda: shade_reference(_some(scene, []), side, shading))
    else:
        per_sphere = _classic_seconds_per_sphere(scene, side)
        rest = timed(lambda: trace_reference(_some(scene, []), side))
    return (per_sphere * scene.count + rest) * (size / side) ** 2


def _classic_seconds_per_sphere(scene: SphereScene, side: int) -> float:
    """A classic-view sphere's mean seconds at ``side``. Its pixels cost most where it is the nearest
    so far (they are written), and in a frame of many spheres few are: the sample is timed both ways
    and weighed by the share of its hits that are written in the frame."""
    maxz = np.empty((side, side), np.float32)
    rgb = np.ones((side, side, 3), np.float32)  # written here, not while timed

    def traced(depth: np.float32) -> float:
        def trace(indices: np.ndarray) -> float:
            chosen = _some(scene, indices)
            maxz.fill(depth)  # every hit nearer than -inf; none nearer than +inf
            return timed(lambda: trace_into(chosen, maxz, rgb))

        return seconds_per_item(scene.count, trace, SAMPLE_SECONDS / 2)

    written, hidden = traced(-SPHERE_INF), traced(SPHERE_INF)
    return hidden + written_share(scene, side) * max(written - hidden, 0.0)


def written_share(scene: SphereScene, side: int) -> float:
    """The share of the classic view's hits that are the nearest so far when traced: with spheres
    at random depths, k spheres over a pixel write it H(k) times (the harmonic number), so about
    H(k) / k for k the mean spheres per pixel."""
    scale = BOOK_SIZE / side
    radius = scene.radius.astype(np.float64) / scale
    centre = scene.center[:, :2].astype(np.float64) / scale + side / 2
    low, high = np.clip(centre - radius[:, None], 0, side), np.clip(centre + radius[:, None], 0, side)
    inside = np.prod(high - low, axis=1) / np.maximum(4 * radius * radius, 1e-12)  # the box's share in the picture
    spheres_per_pixel = float(np.sum(math.pi * radius * radius * inside)) / (side * side)
    if spheres_per_pixel <= 1:
        return 1.0
    harmonic = math.log(spheres_per_pixel) + EULER_GAMMA + 1 / (2 * spheres_per_pixel)
    return min(harmonic / spheres_per_pixel, 1.0)


def _some(scene: SphereScene, indices) -> SphereScene:
    """The spheres of ``scene`` at ``indices``, in that order."""
    indices = np.asarray(indices, np.int64)
    return SphereScene(scene.name, scene.center[indices], scene.radius[indices], scene.color[indices])

"""How long the CPU reference (``render.circles.reference``) takes for a frame, on this machine as
loaded now: a random sample of the scene's circles is blended and timed, each over a box as wide and
(up to SAMPLE_ROWS) as tall as in the frame, and the rest extrapolated; worker processes add their
start and the copies of their bands."""

from __future__ import annotations

import dataclasses

import numpy as np

from render.circles import flat_blend, shading
from render.circles.reference import blend_rows, worker_bands, worker_count
from render.core.sampling import parallel_speedup, seconds_per_item, timed
from scenes.model import CircleScene

# The sample blends into a band this tall: a circle's box taller than that is cut to it and its time
# scaled up by the pixels cut off (the reference's work on a box is in proportion to its pixels).
SAMPLE_ROWS = 256
# A circle's cost besides its pixels, as pixels, to weigh that scaling (a few microseconds).
CIRCLE_PIXELS = 4096
# The per-frame work on every circle (their boxes) is timed on at most this many and scaled.
BOUNDS_SAMPLE = 100_000
# Measured on the 2-core development machine with circles that all lie off the picture: the start of
# the worker processes and the copies of the bands to and from them, ...
POOL_START_SECONDS = 0.5
POOL_SECONDS_PER_PIXEL = 2.9e-7
# ... and, in one thread, the clear and the planar copies of the image.
SECONDS_PER_PIXEL = 1.2e-8


def estimated_seconds(scene: CircleScene, size: int, workers: int | None = None) -> float:
    """The seconds of one reference frame of ``scene`` at ``size`` x ``size`` with ``workers``
    processes (None: the reference's default); spends about SAMPLE_SECONDS timing."""
    flat_blend.compile_now()  # a compile is no part of a frame's time
    workers = worker_count(scene.count, workers)
    bands = worker_bands(scene, size, workers)
    some = min(scene.count, BOUNDS_SAMPLE)
    position, radius = scene.position[:some], scene.radius[:some]
    # Each band computes every circle's box again.
    bounds_seconds = timed(lambda: shading.pixel_bounds(position, radius, size, size)) * scene.count / max(some, 1)
    planes = np.ones((4, min(size, SAMPLE_ROWS) + 2, size), np.float32)  # written here, not while timed
    per_circle = seconds_per_item(scene.count, lambda indices: _blend_sample(scene, indices, planes))
    circles = per_circle * scene.count
    if not bands:
        return bounds_seconds + circles + SECONDS_PER_PIXEL * size * size
    parallel = (circles + bounds_seconds * len(bands)) / parallel_speedup(workers)
    return POOL_START_SECONDS + POOL_SECONDS_PER_PIXEL * size * size + parallel


def _blend_sample(scene: CircleScene, indices: np.ndarray, planes: np.ndarray) -> float:
    """Blend the circles at ``indices`` into ``planes`` float32 (4, rows, size), each moved down so
    that its box starts at row 0; the seconds it took, scaled up for the rows cut off."""
    size = planes.shape[2]
    position = scene.position[indices]
    box = shading.pixel_bounds(position, scene.radius[indices], size, size)
    width = np.maximum(box[:, 1] - box[:, 0], 0)
    height = np.maximum(box[:, 3] - box[:, 2], 0)
    lift = np.where((width > 0) & (height > 0), box[:, 2], 0)
    position[:, 1] -= (lift / np.float64(size)).astype(np.float32)
    sample = dataclasses.replace(
        scene,
        position=position,
        velocity=scene.velocity[indices],
        color=scene.color[indices],
        radius=scene.radius[indices],
    )
    seconds = timed(lambda: blend_rows(sample, planes, 0, size))
    kept = np.minimum(height, planes.shape[1] - 2)
    return seconds * float(np.sum(width * height + CIRCLE_PIXELS)) / float(np.sum(width * kept + CIRCLE_PIXELS))

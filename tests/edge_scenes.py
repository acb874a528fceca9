"""Extreme but valid circle scenes (issue 6, item 2), shared by the CPU and the GPU tests.

Each builder returns a ``CircleScene``; ``EDGE_SCENES`` maps a short name to its builder. The
scenes aim at the places where binning goes wrong: nothing to bin, one circle, circles larger than
the screen, circles wholly outside it or only just outside, circles too small to reach any pixel
centre (and tiny ones exactly on one), and thousands of circles on one tile.
"""

from __future__ import annotations

import numpy as np

from render.circles.shading import pixel_centers
from scenes.model import CircleScene, empty_arrays

EDGE_SIZES = (257, 1000, 4096)  # none is a multiple of 16 or 32, and 4096 is the app's largest


def _scene(name: str, position, radius, color, **kind) -> CircleScene:
    arrays = empty_arrays(len(radius))
    arrays["position"][:] = position
    arrays["radius"][:] = radius
    arrays["color"][:] = color
    return CircleScene(name, **arrays, **kind)


def empty() -> CircleScene:
    return _scene("edge-empty", np.zeros((0, 3)), np.zeros(0), np.zeros((0, 3)))


def one() -> CircleScene:
    return _scene("edge-one", [[0.5, 0.5, 0.0]], [0.2], [[1.0, 0.0, 0.0]])


def cover(snowflake: bool = False) -> CircleScene:
    """Three circles that each cover the whole screen (a corner is 0.71 from the centre)."""
    position = [[0.5, 0.5, 0.2], [0.0, 0.0, 0.5], [1.0, 1.0, 0.9]]
    radius = [0.75, 1.5, 40.0]
    color = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    if snowflake:
        return _scene("edge-cover-snow", position, radius, color, shading="snowflake", background="snow")
    return _scene("edge-cover", position, radius, color)


def offscreen() -> CircleScene:
    """Circles wholly outside [0, 1]^2: far away, and just beyond each edge by 1e-3."""
    rng = np.random.default_rng(6)
    far = rng.uniform(2.0, 50.0, (40, 2)) * rng.choice([-1.0, 1.0], (40, 2))
    r = 0.05
    near = [[-r - 1e-3, 0.5], [1 + r + 1e-3, 0.5], [0.5, -r - 1e-3], [0.5, 1 + r + 1e-3], [-0.1, -0.1]]
    xy = np.vstack([far, near])
    position = np.column_stack([xy, np.zeros(len(xy))])
    radius = np.full(len(xy), r)
    return _scene("edge-offscreen", position, radius, rng.uniform(0, 1, (len(xy), 3)))


def subpixel() -> CircleScene:
    """2000 circles of radius 1e-7 to 1e-6 at random places, which miss every pixel centre of the
    test sizes, then 11 of radius 1e-7 exactly on pixel centres of a 1000 x 1000 image, which the
    inclusive test counts as covering that one pixel each."""
    rng = np.random.default_rng(7)
    tiny = np.column_stack([rng.uniform(0, 1, (2000, 2)), np.zeros(2000)])
    pixels = np.arange(10, 1000, 97)
    centres = pixel_centers(1000)[pixels]
    on_centre = np.column_stack([centres, centres[::-1], np.zeros(len(centres))])
    position = np.vstack([tiny, on_centre])
    radius = np.concatenate([rng.uniform(1e-7, 1e-6, 2000), np.full(len(centres), 1e-7)])
    return _scene("edge-subpixel", position, radius, rng.uniform(0, 1, (len(radius), 3)))


def one_tile() -> CircleScene:
    """2000 overlapping circles inside one tile at size 1000, for 16- and 32-pixel tiles alike
    (pixels 304..319 each way: centres 0.307 .. 0.317, radii up to 0.002)."""
    rng = np.random.default_rng(8)
    position = np.column_stack([rng.uniform(0.307, 0.317, (2000, 2)), rng.uniform(0, 1, 2000)])
    radius = rng.uniform(1e-4, 2e-3, 2000)
    return _scene("edge-one-tile", position, radius, rng.uniform(0, 1, (2000, 3)))


EDGE_SCENES = {
    "empty": empty,
    "one": one,
    "cover": cover,
    "cover-snow": lambda: cover(snowflake=True),
    "offscreen": offscreen,
    "subpixel": subpixel,
    "one-tile": one_tile,
}


def write_many_circles(path, count: int, seed: int = 10):
    """Save ``count`` small random flat circles as an uncompressed .npz scene file; returns the
    arrays written (position (count, 3), radius (count,), color (count, 3), float32)."""
    rng = np.random.default_rng(seed)
    arrays = {
        "position": rng.random((count, 3), np.float32),
        "radius": rng.uniform(1e-4, 2e-3, count).astype(np.float32),
        "color": rng.random((count, 3), np.float32),
    }
    np.savez(path, kind=np.array("circles"), **arrays)
    return arrays

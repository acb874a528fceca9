"""The four animation rules of the course (``advanceAnimation``), float32, vectorized over circles.

These are the reference: the GPU kernels in ``shaders/animate.cu`` perform the same float32
operations in the same order (compiled without FMA contraction), so both stay bit-identical frame
after frame.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

from scenes import fireworks
from scenes.model import CircleScene

f32 = np.float32
DT = f32(1) / f32(60)

# The course's fixed noise tables (two 256-entry permutations and 256 values in [-1, 1]), taken
# from the CS149 assignment 3 starter code's noise data, as shipped to us in shared/data/.
NOISE_TABLES = Path(__file__).with_name("data") / "cs149_noise_tables.npz"


@functools.lru_cache(maxsize=1)
def noise_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(perm_x int32 (256,), perm_y int32 (256,), value1d float32 (256,))."""
    with np.load(NOISE_TABLES) as data:
        return data["perm_x"].copy(), data["perm_y"].copy(), data["value1d"].copy()


def to_int32(values: np.ndarray) -> np.ndarray:
    """float32 (N,) to int32 (N,) as CUDA converts a float to an int: toward zero, values beyond
    int32's range saturated to its ends, NaN to 0. (NumPy's own cast leaves those undefined, and
    warns.)"""
    whole = np.trunc(values.astype(np.float64))
    return np.where(np.isnan(whole), 0, np.clip(whole, -(2**31), 2**31 - 1)).astype(np.int32)


def cell_noise(a, b, c, index) -> tuple[np.ndarray, np.ndarray]:
    """The course's 2D cell noise of float32 inputs (N,) and int circle indices (N,)."""
    perm_x, perm_y, values = noise_tables()
    ia, ib, ic = (to_int32(v) for v in (a, b, c))
    hx = perm_x[(ia * index) & 255]
    hx = perm_x[(hx + ib) & 255]
    hx = perm_x[(hx + ic) & 255]
    hy = perm_y[ia & 255]
    hy = perm_y[(hy + ib) & 255]
    hy = perm_y[(hy + ic) & 255]
    return values[hx], values[hy]


def _bouncing_balls(scene: CircleScene) -> None:
    y, vy = scene.position[:, 1], scene.velocity[:, 1]
    old_v, old_p = vy.copy(), y.copy()
    moving = ~((old_v == 0) & (old_p == 0))
    bounce = moving & (y < 0) & (old_v < 0)
    vy[bounce] *= f32(-0.8)
    vy[moving] += f32(-2.8) * DT
    y[moving] += vy[moving] * DT
    eps = f32(0.001)
    rest = moving & (np.abs(vy - old_v) < eps) & (old_p < 0) & (np.abs(y - old_p) < eps)
    vy[rest] = 0
    y[rest] = 0


def _hypnosis(scene: CircleScene) -> None:
    r = scene.radius
    r[:] = np.where(r > f32(0.5), f32(0.02), r + f32(0.01))


def _fireworks(scene: CircleScene) -> None:
    sparks = slice(fireworks.CENTERS, None)
    pos, vel = scene.position[sparks], scene.velocity[sparks]
    pos[:, 0] += vel[:, 0] * DT
    pos[:, 1] += vel[:, 1] * DT
    center = np.arange(fireworks.CENTERS * fireworks.SPARKS) // fireworks.SPARKS
    dx = pos[:, 0] - scene.position[center, 0]
    dy = pos[:, 1] - scene.position[center, 1]
    far = np.sqrt(dx * dx + dy * dy) > f32(0.25)
    if far.any():
        start_pos, start_vel = fireworks.spark_start(scene.position)
        pos[far] = start_pos[far]
        vel[far] = start_vel[far]


def _snow(scene: CircleScene) -> None:
    p, v, r = scene.position, scene.velocity, scene.radius
    index = np.arange(scene.count, dtype=np.int32)
    force_scale = np.minimum(np.maximum(f32(1) - p[:, 2], f32(0.1)), f32(1))
    nx, ny = cell_noise(f32(10) * p[:, 0], f32(10) * p[:, 1], f32(255) * p[:, 2], index)
    nx = nx * f32(7.5)
    ny = ny * f32(5)
    drag_x = f32(-2) * v[:, 0]
    drag_y = f32(-2) * v[:, 1]
    p[:, 0] += v[:, 0] * DT
    p[:, 1] += v[:, 1] * DT
    p[:, 2] += v[:, 2] * DT
    v[:, 0] += force_scale * (nx + drag_x) * DT
    v[:, 1] += force_scale * ((f32(-1.8) + ny) + drag_y) * DT
    gone = (p[:, 1] + r < 0) | (p[:, 0] + r < 0) | (p[:, 0] - r > 1)
    if gone.any():
        g = np.nonzero(gone)[0]
        mx, my = cell_noise(f32(255) * p[g, 0], f32(255) * p[g, 1], f32(255) * p[g, 2], g.astype(np.int32))
        p[g, 0] = f32(0.5) + f32(0.5) * mx
        p[g, 1] = f32(1.35) + r[g]
        v[g, 0] = f32(2) * my
        v[g, 1] = 0


_RULES = {
    "none": lambda scene: None,
    "bouncingballs": _bouncing_balls,
    "hypnosis": _hypnosis,
    "fireworks": _fireworks,
    "snow": _snow,
}


def advance(scene: CircleScene) -> None:
    """One animation step (dt = 1/60) of the scene's rule, in place."""
    _RULES[scene.animation](scene)

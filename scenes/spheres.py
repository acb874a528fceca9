"""Sphere scenes of the "CUDA by Example" ray tracer (``shared/spec/spheres.md``).

The classic scene is the book's: 20 spheres drawn with glibc ``rand()`` seed 1 through
``rnd(x) = x * rand() / RAND_MAX`` in float32. ``random`` is the same recipe with any seed and count.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from scenes.glibc_rand import RAND_MAX, GlibcRand

f32 = np.float32

SPHERE_SCENES = ("classic", "random")
CLASSIC_COUNT = 20
CLASSIC_SEED = 1  # the book never calls srand(); glibc's default stream is seed 1


class UnknownSphereSceneError(ValueError):
    pass


@dataclasses.dataclass
class SphereScene:
    """Spheres in world units; arrays float32: center (N, 3), radius (N,), color (N, 3) in [0, 1]."""

    name: str
    center: np.ndarray
    radius: np.ndarray
    color: np.ndarray

    @property
    def count(self) -> int:
        return int(self.radius.shape[0])

    def records(self) -> np.ndarray:
        """float32 (N, 7): r, g, b, radius, x, y, z per sphere, the kernels' 28-byte record."""
        return np.ascontiguousarray(np.column_stack([self.color, self.radius, self.center]).astype(np.float32))


def random_spheres(count: int, seed: int, name: str = "random") -> SphereScene:
    """``count`` spheres in the book's order of draws: r, g, b, x, y, z, radius for each sphere."""
    if count < 0:
        raise ValueError(f"sphere count must be >= 0, got {count}")
    draws = GlibcRand(seed).ints(7 * count).astype(np.float32).reshape(count, 7)

    def rnd(scale: float, column: int) -> np.ndarray:
        # rnd(x) = x * rand() / RAND_MAX, all in float: rand() and RAND_MAX round to float32 first.
        return f32(scale) * draws[:, column] / f32(RAND_MAX)

    color = np.column_stack([rnd(1, 0), rnd(1, 1), rnd(1, 2)])
    center = np.column_stack([rnd(1000, 3) - f32(500), rnd(1000, 4) - f32(500), rnd(1000, 5) - f32(500)])
    radius = rnd(100, 6) + f32(20)
    return SphereScene(name, center.astype(np.float32), radius.astype(np.float32), color.astype(np.float32))


def build_sphere_scene(name: str, count: int | None = None, seed: int | None = None) -> SphereScene:
    """``classic`` (20 spheres, seed 1, unless overridden) or ``random`` (count and seed required)."""
    if name == "classic":
        chosen_count = CLASSIC_COUNT if count is None else count
        return random_spheres(chosen_count, CLASSIC_SEED if seed is None else seed, "classic")
    if name == "random":
        return random_spheres(1024 if count is None else count, 0 if seed is None else seed, "random")
    raise UnknownSphereSceneError(f"unknown sphere scene {name!r}; built-in sphere scenes are: classic, random")

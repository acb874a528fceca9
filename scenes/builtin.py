"""The 14 CS149 scenes, generated bit-identically to the course's scene loader.

All arithmetic is float32 in the order of the spec (``shared/spec/circles.md`` section 3); every
random value comes from glibc's ``rand()`` stream restarted with the scene's seed.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np

from scenes import fireworks
from scenes.animation import advance
from scenes.glibc_rand import GlibcRand
from scenes.libm import powf
from scenes.model import CircleArrays, CircleScene, empty_arrays

f32 = np.float32

RED = (1.0, 0.0, 0.0)
YELLOW = (1.0, 1.0, 0.0)


def _scene(name: str, arrays: CircleArrays, **kind) -> CircleScene:
    return CircleScene(name=name, **arrays, **kind)


def _sorted_depths(rng: GlibcRand, count: int) -> np.ndarray:
    """``count`` draws sorted farthest first (largest z first), float32 (count,)."""
    return np.sort(rng.floats(count))[::-1].copy()


def _flat_colors(count: int, draws: np.ndarray) -> np.ndarray:
    """Colors of the random generators from 3 draws per circle (count, 3); ranges depend on N."""
    r, g, b = draws[:, 0], draws[:, 1], draws[:, 2]
    if count <= 10000:
        cols = (f32(0.1) + f32(0.9) * r, f32(0.2) + f32(0.5) * g, f32(0.5) + f32(0.5) * b)
    elif count <= 100000:
        cols = (f32(0.3) + f32(0.9) * r, f32(0.1) + f32(0.9) * g, f32(0.1) + f32(0.4) * b)
    else:
        cols = (f32(0.2) + f32(0.5) * r, f32(0.5) + f32(0.5) * g, f32(0.1) + f32(0.4) * b)
    return np.stack(cols, axis=1).astype(np.float32)


def random_circles(name: str, count: int, seed: int) -> CircleScene:
    """Random radius, position and color; per circle the draws are radius, x, y, r, g, b."""
    rng = GlibcRand(seed)
    arrays = empty_arrays(count)
    depths = _sorted_depths(rng, count)
    draws = rng.floats(6 * count).reshape(count, 6)
    if count > 100000:
        arrays["radius"][:] = f32(0.009) + f32(0.005) * draws[:, 0]
    else:
        arrays["radius"][:] = f32(0.02) + f32(0.06) * draws[:, 0]
    arrays["position"][:] = np.stack([draws[:, 1], draws[:, 2], depths], axis=1)
    arrays["color"][:] = _flat_colors(count, draws[:, 3:6])
    return _scene(name, arrays)


def _fixed_size_arrays(rng: GlibcRand, count: int, radius: float) -> CircleArrays:
    """Fixed radius; per circle the draws are x, y, r, g, b."""
    arrays = empty_arrays(count)
    depths = _sorted_depths(rng, count)
    draws = rng.floats(5 * count).reshape(count, 5)
    arrays["radius"][:] = f32(radius)
    arrays["position"][:] = np.stack([draws[:, 0], draws[:, 1], depths], axis=1)
    if count > 100000:
        r, g, b = draws[:, 2], draws[:, 3], draws[:, 4]
        cols = (f32(0.3) + f32(0.9) * r, f32(0.1) + f32(0.3) * g, f32(0.2) + f32(0.2) * b)
        arrays["color"][:] = np.stack(cols, axis=1)
    else:
        arrays["color"][:] = _flat_colors(count, draws[:, 2:5])
    return arrays


def fixed_size_circles(name: str, count: int, radius: float, seed: int) -> CircleScene:
    return _scene(name, _fixed_size_arrays(GlibcRand(seed), count, radius))


def big_little(name: str, corner: float, seed: int) -> CircleScene:
    """10000 big circles whose 1000 nearest are shrunk and moved into one corner.

    corner = .85 puts the cluster at the upper left of the picture, .05 at the lower right.
    """
    rng = GlibcRand(seed)
    arrays = _fixed_size_arrays(rng, 10000, 0.25)
    small = slice(9000, 10000)
    draws = rng.floats(2 * 1000).reshape(1000, 2)
    c = f32(corner)
    arrays["radius"][small] = f32(0.05)
    arrays["position"][small, 0] = (f32(0.9) - c) + f32(0.1) * draws[:, 0]
    arrays["position"][small, 1] = c + f32(0.1) * draws[:, 1]
    return _scene(name, arrays)


def pattern(seed: int) -> CircleScene:
    """A 16x16 red grid, then a 31x31 yellow grid offset by half a cell; z is drawn, unused."""
    r = f32(0.5) * (f32(1.0) / f32(16))
    grid_a = np.arange(16, dtype=np.float32)
    grid_b = np.arange(31, dtype=np.float32)
    ax, ay = np.meshgrid(r + f32(2) * r * grid_a, r + f32(2) * r * grid_a)
    bx, by = np.meshgrid(f32(2) * r * grid_b, f32(2) * r * grid_b)
    count = 16 * 16 + 31 * 31
    arrays = empty_arrays(count)
    arrays["position"][:, 0] = np.concatenate([ax.ravel(), bx.ravel()])
    arrays["position"][:, 1] = np.concatenate([ay.ravel(), by.ravel()])
    arrays["position"][:, 2] = GlibcRand(seed).floats(count)
    arrays["radius"][:] = r
    arrays["color"][:256] = RED
    arrays["color"][256:] = YELLOW
    return _scene("pattern", arrays)


def rgb() -> CircleScene:
    arrays = empty_arrays(3)
    arrays["position"][:] = [(0.4, 0.5, 0.75), (0.5, 0.5, 0.5), (0.6, 0.5, 0.25)]
    arrays["color"][:] = np.eye(3)
    arrays["radius"][:] = 0.3
    return _scene("rgb", arrays)


def rgby() -> CircleScene:
    arrays = empty_arrays(4)
    arrays["position"][:] = [(0.25, 0.25, 0.75), (0.3, 0.3, 0.5), (0.5, 0.5, 0.25), (0.2, 0.2, 0.9)]
    arrays["color"][:] = [(1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 0)]
    arrays["radius"][:] = [0.19, 0.19, 0.25, 0.10]
    return _scene("rgby", arrays)


def bouncing_balls(seed: int) -> CircleScene:
    rng = GlibcRand(seed)
    arrays = empty_arrays(10)
    draws = rng.floats(40).reshape(10, 4)
    arrays["position"][:] = draws[:, :3]
    arrays["velocity"][:, 1] = draws[:, 3]
    arrays["radius"][:] = 0.05
    arrays["color"][:] = np.eye(3)[np.arange(10) % 3]
    return _scene("bouncingballs", arrays, animation="bouncingballs")


def hypnosis(seed: int) -> CircleScene:
    arrays = empty_arrays(25)
    arrays["position"][:] = (0.5, 0.5, 0.0)
    arrays["radius"][:] = f32(0.02) + f32(0.02) * np.arange(25, dtype=np.float32)
    arrays["color"][:] = GlibcRand(seed).floats(75).reshape(25, 3)
    return _scene("hypnosis", arrays, animation="hypnosis")


def fireworks_scene(seed: int) -> CircleScene:
    arrays = empty_arrays(fireworks.COUNT)
    centers = slice(0, fireworks.CENTERS)
    arrays["position"][centers, :2] = GlibcRand(seed).floats(2 * fireworks.CENTERS).reshape(-1, 2)
    arrays["radius"][centers] = fireworks.CENTER_RADIUS
    arrays["color"][centers] = 1.0
    sparks = slice(fireworks.CENTERS, None)
    arrays["position"][sparks], arrays["velocity"][sparks] = fireworks.spark_start(arrays["position"])
    arrays["radius"][sparks] = fireworks.SPARK_RADIUS
    center_of_spark = np.arange(fireworks.CENTERS * fireworks.SPARKS) // fireworks.SPARKS
    arrays["color"][sparks] = np.eye(3)[center_of_spark % 3]
    return _scene("fireworks", arrays, animation="fireworks")


SNOW_COUNT = 100000
SNOWSINGLE_STEPS = 751


def snow(seed: int) -> CircleScene:
    """Snowflakes above the screen, nearest last; color is never set (the shader ignores it)."""
    rng = GlibcRand(seed)
    n = SNOW_COUNT
    base = powf(np.arange(n, dtype=np.float32) / f32(n), 0.1)
    depth = base + (f32(-0.05) + f32(0.1) * rng.floats(n))
    depth = np.sort(np.clip(depth, f32(0), f32(1)))[::-1].copy()
    draws = rng.floats(3 * n).reshape(n, 3)
    size = (f32(0.08) - f32(0.0075)) + f32(0.015) * draws[:, 0]
    radius = (f32(1) - depth) * size + (depth * size) / f32(15)
    near = depth < f32(0.02)
    radius = np.where(near, radius * f32(3), np.maximum(radius, f32(0.0075)))
    arrays = empty_arrays(n)
    arrays["radius"][:] = radius
    arrays["position"][:, 0] = draws[:, 1]
    arrays["position"][:, 1] = (f32(1) + radius) + f32(2) * draws[:, 2]
    arrays["position"][:, 2] = depth
    return _scene("snow", arrays, shading="snowflake", background="snow", animation="snow")


def _through_percent_f(values: np.ndarray) -> np.ndarray:
    """What C's ``%f`` printing and float parsing do to float32 values (6 decimals)."""
    text = [f"{v:.6f}" for v in values.ravel().tolist()]
    return np.array([float(t) for t in text], dtype=np.float32).reshape(values.shape)


@functools.lru_cache(maxsize=1)
def _snowsingle_cached() -> CircleScene:
    scene = snow(0)
    for _ in range(SNOWSINGLE_STEPS):
        advance(scene)
    for field in ("position", "velocity", "radius"):
        setattr(scene, field, _through_percent_f(getattr(scene, field)))
    scene.name = "snowsingle"
    scene.animation = "none"
    return scene


def snowsingle() -> CircleScene:
    """``snow`` (seed 0) after 751 steps, as the course's ``snow.par`` stores it; static."""
    return _snowsingle_cached().copy()


_GENERATORS: dict[str, Callable[[int], CircleScene]] = {
    "rgb": lambda seed: rgb(),
    "rgby": lambda seed: rgby(),
    "rand10k": lambda seed: random_circles("rand10k", 10000, seed),
    "rand100k": lambda seed: random_circles("rand100k", 100000, seed),
    "rand1M": lambda seed: random_circles("rand1M", 1000000, seed),
    "biglittle": lambda seed: big_little("biglittle", 0.85, seed),
    "littlebig": lambda seed: big_little("littlebig", 0.05, seed),
    "pattern": pattern,
    "micro2M": lambda seed: fixed_size_circles("micro2M", 2000000, 0.001, seed),
    "bouncingballs": bouncing_balls,
    "fireworks": fireworks_scene,
    "hypnosis": hypnosis,
    "snow": snow,
    "snowsingle": lambda seed: snowsingle(),
}

SCENE_NAMES: tuple[str, ...] = tuple(_GENERATORS)
SCORED_SCENES = ("rgb", "rand10k", "rand100k", "pattern", "snowsingle", "biglittle", "rand1M", "micro2M")


class UnknownSceneError(ValueError):
    pass


def build_scene(name: str, seed: int = 0) -> CircleScene:
    """Generate the built-in scene ``name`` from ``seed``; unknown names list the valid ones."""
    try:
        generator = _GENERATORS[name]
    except KeyError:
        raise UnknownSceneError(f"unknown scene {name!r}; built-in scenes are: {', '.join(SCENE_NAMES)}") from None
    return generator(seed)

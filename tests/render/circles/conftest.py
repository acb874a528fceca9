"""Fixtures of the circle renderer's tests: the extreme but valid edge scenes, the list of CUDA
configurations, and CPU-reference and GPU frames of the built-in scenes.

A test that names ``edge_scene_name``, ``edge_size``, ``small_edge_size`` or ``circle_config`` runs
once for each value (see ``pytest_generate_tests``). The edge scenes aim at the places where binning
goes wrong: nothing to bin, one circle, circles larger than the screen, circles wholly outside it or
only just outside, circles too small to reach any pixel centre (and tiny ones exactly on one), and
thousands of circles on one tile.
"""

from __future__ import annotations

import numpy as np
import pytest

from render.circles.reference import ReferenceRenderer
from render.circles.renderer import CudaRenderer
from render.circles.shading import pixel_centers
from render.circles.variants import VARIANTS as CIRCLE_VARIANTS
from render.core.renderer import render_frame
from scenes.builtin import build_scene
from scenes.model import CircleScene, empty_arrays

POISON_BYTE = 0xA5
EDGE_SIZES = (257, 1000, 4096)  # none is a multiple of 16 or 32, and 4096 is the app's largest
CONFIGS = [choice.label() for choice in CIRCLE_VARIANTS.configurations()] + ["auto"]


def _scene(name: str, position, radius, color, **kind) -> CircleScene:
    arrays = empty_arrays(len(radius))
    arrays["position"][:] = position
    arrays["radius"][:] = radius
    arrays["color"][:] = color
    return CircleScene(name, **arrays, **kind)


def _empty() -> CircleScene:
    return _scene("edge-empty", np.zeros((0, 3)), np.zeros(0), np.zeros((0, 3)))


def _one() -> CircleScene:
    return _scene("edge-one", [[0.5, 0.5, 0.0]], [0.2], [[1.0, 0.0, 0.0]])


def _cover(snowflake: bool = False) -> CircleScene:
    """Three circles that each cover the whole screen (a corner is 0.71 from the centre)."""
    position = [[0.5, 0.5, 0.2], [0.0, 0.0, 0.5], [1.0, 1.0, 0.9]]
    radius = [0.75, 1.5, 40.0]
    color = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    if snowflake:
        return _scene("edge-cover-snow", position, radius, color, shading="snowflake", background="snow")
    return _scene("edge-cover", position, radius, color)


def _offscreen() -> CircleScene:
    """Circles wholly outside [0, 1]^2: far away, and just beyond each edge by 1e-3."""
    rng = np.random.default_rng(6)
    far = rng.uniform(2.0, 50.0, (40, 2)) * rng.choice([-1.0, 1.0], (40, 2))
    r = 0.05
    near = [[-r - 1e-3, 0.5], [1 + r + 1e-3, 0.5], [0.5, -r - 1e-3], [0.5, 1 + r + 1e-3], [-0.1, -0.1]]
    xy = np.vstack([far, near])
    position = np.column_stack([xy, np.zeros(len(xy))])
    radius = np.full(len(xy), r)
    return _scene("edge-offscreen", position, radius, rng.uniform(0, 1, (len(xy), 3)))


def _subpixel() -> CircleScene:
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


def _one_tile() -> CircleScene:
    """2000 overlapping circles inside one tile at size 1000, for 16- and 32-pixel tiles alike
    (pixels 304..319 each way: centres 0.307 .. 0.317, radii up to 0.002)."""
    rng = np.random.default_rng(8)
    position = np.column_stack([rng.uniform(0.307, 0.317, (2000, 2)), rng.uniform(0, 1, 2000)])
    radius = rng.uniform(1e-4, 2e-3, 2000)
    return _scene("edge-one-tile", position, radius, rng.uniform(0, 1, (2000, 3)))


EDGE_SCENES = {
    "empty": _empty,
    "one": _one,
    "cover": _cover,
    "cover-snow": lambda: _cover(snowflake=True),
    "offscreen": _offscreen,
    "subpixel": _subpixel,
    "one-tile": _one_tile,
}


@pytest.hookimpl(trylast=True)  # after the module's own parametrize marks, so test ids keep their order
def pytest_generate_tests(metafunc):
    if "edge_scene_name" in metafunc.fixturenames:
        metafunc.parametrize("edge_scene_name", list(EDGE_SCENES))
    if "edge_size" in metafunc.fixturenames:
        metafunc.parametrize("edge_size", EDGE_SIZES)
    if "small_edge_size" in metafunc.fixturenames:
        # The edge sizes without 4096, for checks whose CPU work at 4096 would only add seconds.
        metafunc.parametrize("small_edge_size", EDGE_SIZES[:2])
    if "circle_config" in metafunc.fixturenames:
        metafunc.parametrize("circle_config", CONFIGS)


@pytest.fixture(scope="session")
def edge_scenes() -> dict:
    """The edge scenes by short name: each value builds a new ``CircleScene`` named ``edge-<name>``."""
    return EDGE_SCENES


@pytest.fixture(scope="session")
def reference_frame():
    """``reference_frame(name, size, frame=0, seed=0)``: the CPU reference image of a built-in scene,
    kept for the whole session, since many GPU tests compare with the same one."""
    references: dict = {}

    def reference(name, size, frame=0, seed=0):
        key = (name, size, frame, seed)
        if key not in references:
            renderer = ReferenceRenderer()
            renderer.load(build_scene(name, seed), size, size)
            references[key] = render_frame(renderer, frame)
        return references[key]

    return reference


@pytest.fixture(scope="session")
def gpu_frame():
    """``gpu_frame(name, variant, size, frame=0, seed=0)``: a built-in scene rendered by a CUDA
    variant into an image poisoned with NaN first, so pixels the kernel skips cannot pass."""

    def gpu(name, variant, size, frame=0, seed=0):
        renderer = CudaRenderer(CIRCLE_VARIANTS.parse(variant))
        renderer.load(build_scene(name, seed), size, size)
        renderer.poison()
        return render_frame(renderer, frame)

    return gpu


@pytest.fixture(scope="session")
def shorten_lists():
    """``shorten_lists(strategy, capacity)``: tile-warp's lists hold ``capacity`` entries for the
    next frame, and the host forgets the count the load's scan reported, so the frame bins into
    them before any growth."""

    def shorten(strategy, capacity: int) -> None:
        strategy.capacity = capacity
        strategy._entries_seen_view[0] = 0

    return shorten


@pytest.fixture
def poisoned_allocations():
    """CuPy's allocations fill with POISON_BYTE while the test runs, so a value a kernel or a
    sort leaves unwritten cannot pass."""
    import cupy

    pool = cupy.get_default_memory_pool()

    def poisoned(size):
        memory = pool.malloc(size)
        memory.memset_async(POISON_BYTE, size)
        return memory

    with cupy.cuda.using_allocator(poisoned):
        yield

"""The overlays that measure the blend kernel from inside, on the GPU: ``cycles`` (SM clock cycles
per block) and ``warp-skip`` (per warp of tile-warp, the share of the circles it tested that missed
its region). Each runs the frame's blend again through a build of the same variant with a measuring
define (``shaders/instrument.cuh``), into a scratch image from the cleared background, as a frame
starts: the frame shown, the normal build and its timing stay as they were.
"""

from __future__ import annotations

import numpy as np

from render.circles.device_scene import DeviceScene
from render.circles.strategies import Strategy
from render.circles.tile_warp import TileWarp, warp_region
from render.core.renderer import RendererUnavailable

CYCLES_DEFINE = "BLOCK_CYCLES"
WARP_SKIP_DEFINE = "WARP_SKIP"
# The measured blend runs this many times and the last run is kept: the first after a module load
# finds the instruction cache cold.
MEASURED_RUNS = 2
ALL_ONES = np.uint64(2**64 - 1)


def block_cycles(strategy: Strategy, scene: DeviceScene, image, clear: tuple) -> np.ndarray:
    """float32 (rows, cols) over the blend's blocks, row 0 = bottom: the SM clock cycles from the
    first thread of each block starting to the last one ending. ``image``: the frame's float32
    (H, W, 4) CuPy image, for its shape; ``clear``: the clear arguments of a frame that clears."""
    import cupy

    height, width = image.shape[:2]
    grid, _, _ = strategy.blend_launch(scene, image, width, height, clear)
    clocks = cupy.empty((grid[1], grid[0], 2), cupy.uint64)

    def reset() -> None:
        clocks[..., 0] = ALL_ONES
        clocks[..., 1] = 0

    _measure(strategy, scene, image, clear, ("cycles", CYCLES_DEFINE, "block_clocks"), clocks, reset)
    return (clocks[..., 1] - clocks[..., 0]).astype(cupy.float32).get()


def warp_skips(strategy: Strategy, scene: DeviceScene, image, clear: tuple) -> np.ndarray:
    """float32 (rows, cols) over tile-warp's warp regions (``warp_region``), row 0 = bottom, cut to
    the image: per warp, the share of the staged circles (its tile's candidates that touch the tile)
    that it tested and skipped, as they missed its region (``skip_fraction``)."""
    import cupy

    if not isinstance(strategy, TileWarp):
        raise RendererUnavailable(f"warp-skip: the warps of tile-warp skip circles; {strategy.choice.label()} has none")
    if strategy.choice.option("walk") == "cell":
        raise RendererUnavailable(
            f"warp-skip: {strategy.choice.label()} walks its circles by cells of lanes, not by warps"
        )
    height, width = image.shape[:2]
    region_w, region_h = warp_region(strategy.pixels)
    per_row, per_column = strategy.tile // region_w, strategy.tile // region_h
    cols, rows = strategy.grid
    tallies = cupy.zeros((rows, cols, per_column, per_row, 2), cupy.uint64)

    def reset() -> None:
        tallies.fill(0)

    _measure(strategy, scene, image, clear, ("warp-skip", WARP_SKIP_DEFINE, "warp_tallies"), tallies, reset)
    # Warp w of a block blends region (w % per_row, w // per_row) of its tile.
    regions = tallies.transpose(0, 2, 1, 3, 4).reshape(rows * per_column, cols * per_row, 2).get()
    regions = regions[: -(-height // region_h), : -(-width // region_w)]
    return skip_fraction(regions[..., 0], regions[..., 1])


def measuring_defines(launch: str) -> tuple[str, ...]:
    """The measuring builds' defines of a blend kernel run by ``launch`` (a variant table's column)."""
    return (CYCLES_DEFINE, WARP_SKIP_DEFINE) if launch == "tile-warp" else (CYCLES_DEFINE,)


def skip_fraction(tested: np.ndarray, touched: np.ndarray) -> np.ndarray:
    """float32: 1 - touched / tested, computed in float64; 0 where a warp tested nothing."""
    tested = tested.astype(np.float64)
    share = np.divide(touched.astype(np.float64), tested, out=np.ones_like(tested), where=tested > 0)
    return (1 - share).astype(np.float32)


def _measure(strategy: Strategy, scene: DeviceScene, image, clear: tuple, build: tuple[str, str, str], counters, reset):
    """Run the blend through a measuring build, ``build`` = (overlay, define, global): the module
    built with ``define`` = 1, whose ``global`` is set to point at ``counters`` (a CuPy array that
    ``reset()`` prepares before each run), into a scratch image like ``image``."""
    import cupy

    overlay, define, name = build
    module = strategy.measuring_module(define)
    cupy.ndarray((1,), cupy.uint64, module.get_global(name)).fill(np.uint64(counters.data.ptr))
    kernel = module.get_function(strategy.spec.kernel)
    height, width = image.shape[:2]
    try:
        scratch = cupy.empty_like(image)
    except cupy.cuda.memory.OutOfMemoryError:
        raise RendererUnavailable(
            f"{overlay}: no GPU memory for a second {width}x{height} image to measure the blend in"
        ) from None
    launch = strategy.blend_launch(scene, scratch, width, height, clear)
    for _ in range(MEASURED_RUNS):
        reset()
        kernel(*launch)
    cupy.cuda.get_current_stream().synchronize()

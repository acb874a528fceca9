"""How the circle variants run: one strategy per ``launch`` of the variant table, each taking its
kernel and defines from the table row (``render.circles.variants``).

Every blend kernel takes the same leading arguments (``Strategy.scene_arguments``) and folds the
clear into its launch; a strategy adds its own trailing arguments, grid and block.
"""

from __future__ import annotations

from collections.abc import Hashable

import numpy as np

from render.circles.constants import load_circle_module
from render.circles.device_scene import DeviceScene
from render.circles.sorts import key_dtype, make_sorter, sort_builds
from render.circles.variants import SORT_KEYS, VARIANTS
from render.core.grids import BLOCK_2D, THREADS_1D, grid_1d, grid_2d
from render.core.kernels import load_module
from render.core.module_cache import Build
from render.core.renderer import RendererUnavailable
from render.core.variants import Defines, VariantChoice
from scenes.model import CircleScene

# What a build's scene-dependent defines depend on: the host scene, or the same on the GPU.
SceneFacts = CircleScene | DeviceScene


def int_define(defines: Defines, key: str) -> int:
    """The integer define ``key`` (``TILE``, ``PIXELS``) of a variant's ``defines``."""
    value = defines[key]
    assert isinstance(value, int), f"define {key} is {value!r}, not an integer"
    return value


class Strategy:
    """How one variant bins and blends; ``bin`` runs only when ``has_binning``."""

    # Whether a frame's launches (``bin``, ``blend``) may be captured once as a CUDA graph and
    # replayed: they queue GPU work only (no allocation, no host read), with arguments that stay
    # the same from frame to frame except through ``frame_key``.
    captures_frames = False

    @property
    def has_binning(self) -> bool:
        return False

    def __init__(self, choice: VariantChoice) -> None:
        self.choice = choice
        self.spec = VARIANTS[choice.name]
        self.defines = self.spec.defines(choice)

    def int_define(self, key: str) -> int:
        """The integer define ``key`` of the chosen options (``TILE``, ``PIXELS``)."""
        return int_define(self.defines, key)

    @classmethod
    def scene_defines(cls, defines: Defines, scene: SceneFacts, width: int, height: int) -> Defines:
        """The row's scene-dependent defines (one of ``spec.scene_defines``) that ``scene`` needs at
        width x height, given the chosen options' ``defines``; read from the host scene too, so the
        modules a load compiles are known before anything is uploaded."""
        return {}

    @classmethod
    def extra_builds(cls, choice: VariantChoice, scene_defines: Defines) -> list[Build]:
        """What the variant loads beside its own module (library kernels, ``kernels.LIBRARY``
        builds, or modules of its options), given its scene defines."""
        return []

    def prepare(self, scene: DeviceScene, width: int, height: int) -> None:
        """Compile and load the kernels now, so no timed frame pays for it."""
        extra = self.scene_defines(self.defines, scene, width, height)
        assert extra in self.spec.scene_defines, f"{self.spec.name}: {extra} is not a build of its table row"
        assert self.spec.source is not None, f"{self.spec.name} has no source (auto is resolved before a strategy)"
        self.build_defines = extra
        self.module = load_circle_module(self.spec.source, **self.defines, **extra)
        self.kernel = self.module.get_function(self.spec.kernel)
        for source, defines in self.extra_builds(self.choice, extra):
            load_module(source, **defines)

    def before_frame(self) -> None:
        """Host work due before each frame's launches (none here)."""

    def frame_key(self) -> Hashable:
        """What a captured frame's arguments depend on that can change between frames (nothing
        here): a frame captured under another key is captured again."""
        return ()

    def bin(self, scene: DeviceScene, width: int, height: int) -> None:
        """Queue this frame's binning on the GPU (variants with ``has_binning``)."""
        raise NotImplementedError

    def blend_launch(self, scene: DeviceScene, image, width: int, height: int, clear: tuple) -> tuple:
        """(grid, block, arguments) of the blend kernel for this frame into ``image``; ``clear`` is
        the renderer's clear arguments (folded in or not)."""
        raise NotImplementedError

    def blend(self, scene: DeviceScene, image, width: int, height: int, clear: tuple) -> None:
        """Blend every circle into ``image``, float32 (H, W, 4) on the GPU."""
        self.kernel(*self.blend_launch(scene, image, width, height, clear))

    def measuring_module(self, define: str):
        """This build of the blend kernel's module with ``define`` = 1 as well: an overlay's measuring
        build (``shaders/instrument.cuh``), loaded beside the one that renders."""
        return load_circle_module(self.spec.source, **self.defines, **self.build_defines, **{define: 1})

    def candidates(self, scene: DeviceScene, width: int, height: int):
        """CuPy int32 (rows, cols) over the blend's blocks, row 0 = bottom: how many circles the
        block of each tile tests, read from this frame's binning where the variant bins."""
        raise NotImplementedError

    @staticmethod
    def scene_arguments(
        scene: DeviceScene, image, width: int, height: int, clear: tuple, shading: bool = True
    ) -> tuple:
        """The blend kernels' leading arguments; ``shading`` False for kernels built per shading."""
        return (
            scene.position,
            scene.radius,
            scene.color,
            image,
            np.int32(width),
            np.int32(height),
            np.int32(scene.count),
            *((np.int32(scene.snowflake),) if shading else ()),
            *clear,
        )


class PerPixel(Strategy):
    """A thread per pixel, BLOCK_2D threads per block."""

    captures_frames = True

    def blend_launch(self, scene, image, width, height, clear):
        arguments = self.scene_arguments(scene, image, width, height, clear)
        return grid_2d(width, height, BLOCK_2D), BLOCK_2D, arguments

    def candidates(self, scene, width, height):
        return every_circle(scene, grid_2d(width, height, BLOCK_2D))


class TileBlock(Strategy):
    """A block of TILE x TILE threads per tile."""

    captures_frames = True

    def blend_launch(self, scene, image, width, height, clear):
        tile = self.int_define("TILE")
        arguments = self.scene_arguments(scene, image, width, height, clear)
        return grid_2d(width, height, (tile, tile)), (tile, tile), arguments

    def candidates(self, scene, width, height):
        import cupy

        tile = self.int_define("TILE")
        cols, rows = grid_2d(width, height, (tile, tile))
        counts = cupy.empty((rows, cols), cupy.int32)
        geometry = (scene.position, scene.radius, np.int32(width), np.int32(height), np.int32(scene.count))
        self.module.get_function("count_tile_candidates")((cols, rows), (tile, tile), (*geometry, counts))
        return counts


class TileSort(TileBlock):
    """Bins every frame (circles may move): counts, offsets, keys, one radix sort, tile ranges."""

    has_binning = True
    captures_frames = False  # the binning allocates its keys and reads their count on the host

    @classmethod
    def scene_defines(cls, defines, scene, width, height):
        tile = int_define(defines, "TILE")
        tiles_x, tiles_y = grid_2d(width, height, (tile, tile))
        return SORT_KEYS[int(tiles_x * tiles_y * scene.count >= 2**32)]

    @classmethod
    def extra_builds(cls, choice, scene_defines):
        return sort_builds(choice.option("sort"), scene_defines)

    def prepare(self, scene, width, height):
        tile = self.int_define("TILE")
        self.grid = grid_2d(width, height, (tile, tile))
        super().prepare(scene, width, height)
        self.key_dtype = key_dtype(self.build_defines)
        tiles = self.grid[0] * self.grid[1]
        self.key_bits = max(tiles * scene.count - 1, 1).bit_length()  # keys are tile * count + circle
        self.sort = make_sorter(self.choice.option("sort"), self.build_defines, self.key_bits)

    def emit_keys(self, scene, width: int, height: int):
        """The frame's (tile, circle) keys, unsorted: CuPy, ``KEY_T`` (pairs,), circle order."""
        import cupy

        geometry = (scene.position, scene.radius, np.int32(scene.count), np.int32(width), np.int32(height))
        counts = cupy.empty(scene.count, cupy.int32)
        self.module.get_function("count_tiles")(grid_1d(scene.count), (THREADS_1D,), (*geometry, counts))
        ends = cupy.cumsum(counts, dtype=cupy.int64)
        pairs = int(ends[-1]) if scene.count else 0
        problem = tile_sort_memory_problem(pairs, np.dtype(self.key_dtype).itemsize, usable_device_bytes())
        if problem:
            raise RendererUnavailable(problem)
        keys = cupy.empty(pairs, self.key_dtype)
        self.module.get_function("emit_tile_keys")(grid_1d(scene.count), (THREADS_1D,), (*geometry, ends, keys))
        return keys

    def bin(self, scene, width, height):
        import cupy

        tiles = self.grid[0] * self.grid[1]
        self.keys = self.sort(self.emit_keys(scene, width, height))
        pairs = len(self.keys)
        self.tile_first = cupy.empty(tiles + 1, cupy.int64)
        self.module.get_function("tile_ranges")(
            grid_1d(tiles + 1),
            (THREADS_1D,),
            (self.keys, np.int64(pairs), np.int32(scene.count), np.int32(tiles), self.tile_first),
        )

    def blend_launch(self, scene, image, width, height, clear):
        tile = self.int_define("TILE")
        arguments = (*self.scene_arguments(scene, image, width, height, clear), self.keys, self.tile_first)
        return self.grid, (tile, tile), arguments

    def candidates(self, scene, width, height):
        import cupy

        cols, rows = self.grid
        return cupy.diff(self.tile_first).astype(cupy.int32).reshape(rows, cols)


def every_circle(scene: DeviceScene, grid: tuple[int, int]):
    """CuPy int32 (rows, cols) for ``grid`` = (cols, rows) blocks that each test every circle."""
    import cupy

    return cupy.full((grid[1], grid[0]), scene.count, cupy.int32)


def usable_device_bytes() -> int:
    """Bytes CuPy can still hand out: free device memory plus the pool's cache, capped by its limit."""
    import cupy

    pool = cupy.get_default_memory_pool()
    free, _ = cupy.cuda.runtime.memGetInfo()
    usable = free + pool.free_bytes()
    if pool.get_limit():
        usable = min(usable, pool.get_limit() - pool.used_bytes())
    return max(usable, 0)


def tile_sort_memory_problem(pairs: int, key_bytes: int, usable_bytes: int) -> str | None:
    """Why tile-sort cannot bin ``pairs`` (tile, circle) keys of ``key_bytes`` each, or None if it can."""
    if pairs >= 2**31:
        return f"tile-sort: {pairs} (tile, circle) pairs exceed its 2^31 limit; use tile-scan"
    needed = 3 * pairs * key_bytes  # keys, sorted keys, sort scratch
    if needed > usable_bytes:
        return (
            f"tile-sort: {pairs} (tile, circle) pairs need about {needed / 2**20:.0f} MiB, "
            f"the GPU has {usable_bytes / 2**20:.0f} MiB free; use a smaller size or tile-scan"
        )
    return None

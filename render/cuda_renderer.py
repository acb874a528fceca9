"""The CUDA circle renderer (CuPy + ``shaders/*.cu``): GPU clear, GPU animation, and one blending
strategy per registry variant. Stage times come from CUDA events.

Device arrays mirror ``CircleScene``: position, velocity, color float32 (N*3,) interleaved;
radius float32 (N,); the image float32 (H, W, 4), row 0 = bottom.
"""

from __future__ import annotations

import numpy as np

from render.base import CircleRenderer, RendererUnavailable
from render.gpu import gpu_problem
from render.kernels import load_module
from render.variants import VariantChoice, parse_variant
from scenes import fireworks
from scenes.animation import noise_tables
from scenes.model import CircleScene

STAGES = ("clear", "advance", "binning", "blending")
_THREADS_1D = 256
_BLOCK_2D = (16, 16)


def _grid_1d(count: int) -> tuple[int]:
    return (max(1, (count + _THREADS_1D - 1) // _THREADS_1D),)


def _grid_2d(width: int, height: int, block: tuple[int, int]) -> tuple[int, int]:
    return ((width + block[0] - 1) // block[0], (height + block[1] - 1) // block[1])


class StageTimer:
    """CUDA events around each stage of the latest frame; read after the work is done."""

    def __init__(self) -> None:
        import cupy

        self._cupy = cupy
        self._events = {stage: (cupy.cuda.Event(), cupy.cuda.Event()) for stage in STAGES}
        self._recorded: set[str] = set()

    def start(self, stage: str) -> None:
        self._events[stage][0].record()

    def stop(self, stage: str) -> None:
        self._events[stage][1].record()
        self._recorded.add(stage)

    def times_ms(self) -> dict[str, float]:
        """Milliseconds per recorded stage (synchronizes with the last recorded event)."""
        times = {}
        for stage in STAGES:
            if stage in self._recorded:
                start, stop = self._events[stage]
                stop.synchronize()
                times[stage] = self._cupy.cuda.get_elapsed_time(start, stop)
        return times


class DeviceScene:
    """A scene's arrays on the GPU, plus what its animation rule needs."""

    def __init__(self, scene: CircleScene) -> None:
        import cupy

        self.count = scene.count
        self.snowflake = int(scene.shading == "snowflake")
        self.animation = scene.animation
        self.background = scene.background_rgb()
        self.position = cupy.asarray(scene.position.reshape(-1))
        self.velocity = cupy.asarray(scene.velocity.reshape(-1))
        self.color = cupy.asarray(scene.color.reshape(-1))
        self.radius = cupy.asarray(scene.radius)
        if scene.animation == "snow":
            self.noise = tuple(cupy.asarray(table) for table in noise_tables())
        if scene.animation == "fireworks":
            start_pos, start_vel = fireworks.spark_start(scene.position)
            self.spark_position = cupy.asarray(start_pos.reshape(-1))
            self.spark_velocity = cupy.asarray(start_vel.reshape(-1))

    def to_host(self, name: str) -> CircleScene:
        """The current (possibly advanced) arrays as a host scene."""
        position = self.position.get().reshape(-1, 3)
        return CircleScene(
            name=name,
            position=position,
            velocity=self.velocity.get().reshape(-1, 3),
            color=self.color.get().reshape(-1, 3),
            radius=self.radius.get(),
            shading="snowflake" if self.snowflake else "flat",
            background="snow" if self.background is None else self.background,
            animation=self.animation,
        )


def advance_on_gpu(scene: DeviceScene) -> None:
    """One animation step on the GPU, bit-identical to ``scenes.animation.advance``."""
    rule = scene.animation
    if rule == "none":
        return
    module = load_module("animate.cu")
    n = np.int32(scene.count)
    if rule == "bouncingballs":
        module.get_function("advance_bouncing_balls")(
            _grid_1d(scene.count), (_THREADS_1D,), (scene.position, scene.velocity, n)
        )
    elif rule == "hypnosis":
        module.get_function("advance_hypnosis")(_grid_1d(scene.count), (_THREADS_1D,), (scene.radius, n))
    elif rule == "fireworks":
        sparks = fireworks.CENTERS * fireworks.SPARKS
        module.get_function("advance_fireworks")(
            _grid_1d(sparks),
            (_THREADS_1D,),
            (
                scene.position,
                scene.velocity,
                scene.spark_position,
                scene.spark_velocity,
                np.int32(fireworks.CENTERS),
                np.int32(fireworks.SPARKS),
            ),
        )
    elif rule == "snow":
        module.get_function("advance_snow")(
            _grid_1d(scene.count),
            (_THREADS_1D,),
            (scene.position, scene.velocity, scene.radius, n, *scene.noise),
        )
    else:
        raise ValueError(f"unknown animation rule {rule!r}")


class _Strategy:
    """How one variant bins and blends; ``bin`` may be a no-op."""

    def __init__(self, choice: VariantChoice) -> None:
        self.choice = choice

    def prepare(self, scene: DeviceScene, width: int, height: int) -> None:
        """Compile and load the kernels now, so no timed frame pays for it."""
        self.module = self._module(scene, width, height)

    def bin(self, scene: DeviceScene, width: int, height: int) -> None:
        pass

    def blend(self, scene: DeviceScene, image, width: int, height: int, clear: tuple) -> None:
        """Blend every circle; ``clear`` is ``clear_arguments``' tuple (the clear folded in or not)."""
        raise NotImplementedError

    def _scene_args(self, scene: DeviceScene, image, width: int, height: int, clear: tuple) -> tuple:
        return (
            scene.position,
            scene.radius,
            scene.color,
            image,
            np.int32(width),
            np.int32(height),
            np.int32(scene.count),
            np.int32(scene.snowflake),
            *clear,
        )


class _PerPixel(_Strategy):
    def _module(self, scene, width, height):
        return load_module("render_per_pixel.cu")

    def blend(self, scene, image, width, height, clear):
        kernel = self.module.get_function("render_per_pixel")
        kernel(_grid_2d(width, height, _BLOCK_2D), _BLOCK_2D, self._scene_args(scene, image, width, height, clear))


_SCAN_CODES = {"hillis-steele": 0, "blelloch": 1, "warp": 2}


class _TileScan(_Strategy):
    def _module(self, scene, width, height):
        return load_module(
            "render_tile_scan.cu",
            TILE=int(self.choice.option("tile")),
            SCAN_ALGORITHM=_SCAN_CODES[self.choice.option("scan")],
            EXACT_TILE_TEST=int(self.choice.option("test") == "exact"),
        )

    def blend(self, scene, image, width, height, clear):
        tile = int(self.choice.option("tile"))
        self.module.get_function("render_tile_scan")(
            _grid_2d(width, height, (tile, tile)), (tile, tile), self._scene_args(scene, image, width, height, clear)
        )


class _TileSort(_Strategy):
    """Bins every frame (circles may move): counts, offsets, keys, one radix sort, tile ranges."""

    def _module(self, scene, width, height):
        import cupy

        tile = int(self.choice.option("tile"))
        self.grid = _grid_2d(width, height, (tile, tile))
        # Keys are tile * N + circle: 32 bits when they fit halve the bytes the sort moves.
        wide = self.grid[0] * self.grid[1] * scene.count >= 2**32
        key_type, self.key_dtype = ("unsigned long long", cupy.uint64) if wide else ("unsigned int", cupy.uint32)
        return load_module(
            "render_tile_sort.cu",
            TILE=tile,
            EXACT_TILE_TEST=int(self.choice.option("test") == "exact"),
            KEY_T=key_type,
        )

    def bin(self, scene, width, height):
        import cupy

        tiles = self.grid[0] * self.grid[1]
        key_dtype = self.key_dtype
        geometry = (scene.position, scene.radius, np.int32(scene.count), np.int32(width), np.int32(height))
        counts = cupy.empty(scene.count, cupy.int32)
        self.module.get_function("count_tiles")(_grid_1d(scene.count), (_THREADS_1D,), (*geometry, counts))
        ends = cupy.cumsum(counts, dtype=cupy.int64)
        pairs = int(ends[-1]) if scene.count else 0
        self._check_memory(pairs, np.dtype(key_dtype).itemsize)
        keys = cupy.empty(pairs, key_dtype)
        self.module.get_function("emit_tile_keys")(_grid_1d(scene.count), (_THREADS_1D,), (*geometry, ends, keys))
        self.keys = cupy.sort(keys)  # CuPy sorts integer keys with Thrust, which runs CUB's radix sort
        self.tile_first = cupy.empty(tiles + 1, cupy.int64)
        self.module.get_function("tile_ranges")(
            _grid_1d(tiles + 1),
            (_THREADS_1D,),
            (self.keys, np.int64(pairs), np.int32(scene.count), np.int32(tiles), self.tile_first),
        )
        self.pairs = pairs

    @staticmethod
    def _check_memory(pairs: int, key_bytes: int) -> None:
        problem = tile_sort_memory_problem(pairs, key_bytes, usable_device_bytes())
        if problem:
            raise RendererUnavailable(problem)

    def blend(self, scene, image, width, height, clear):
        tile = int(self.choice.option("tile"))
        arguments = (*self._scene_args(scene, image, width, height, clear), self.keys, self.tile_first)
        self.module.get_function("render_tile_sort")(self.grid, (tile, tile), arguments)


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


def choose_auto(count: int) -> VariantChoice:
    """The variant ``auto`` runs for a scene of ``count`` circles.

    From the H100 benches (docs/performance.md): a handful of circles is cheapest without
    binning; up to tens of thousands, 32x32 tiles scanning the whole list with the exact tile test
    win (rand10k, pattern, biglittle); beyond that the per-frame sort pays for itself (rand100k,
    snowsingle, rand1M, micro2M).
    """
    if count <= 16:
        return parse_variant("per-pixel")
    if count <= 20000:
        return parse_variant("tile-scan:tile=32,test=exact")
    return parse_variant("tile-sort:test=exact")


_STRATEGIES = {"per-pixel": _PerPixel, "tile-scan": _TileScan, "tile-sort": _TileSort}


class CudaRenderer(CircleRenderer):
    """One variant of the CUDA renderer; ``variant`` as accepted by ``parse_variant``."""

    def __init__(self, variant: str | VariantChoice = "auto") -> None:
        problem = gpu_problem()
        if problem:
            raise RendererUnavailable(problem)
        self.choice = parse_variant(variant) if isinstance(variant, str) else variant
        self.name = self.choice.label()
        self.timer = StageTimer()

    def load(self, scene: CircleScene, width: int, height: int) -> None:
        import cupy

        choice = choose_auto(scene.count) if self.choice.name == "auto" else self.choice
        self.resolved = choice
        self.strategy = _STRATEGIES[choice.name](choice)
        self.width, self.height = width, height
        self._clear_due = False
        try:
            self.scene = DeviceScene(scene)
            self.image_buffer = cupy.empty((height, width, 4), cupy.float32)
        except cupy.cuda.memory.OutOfMemoryError as error:
            raise RendererUnavailable(
                f"{scene.name} ({scene.count} circles) at {width}x{height} does not fit in GPU memory: {error}"
            ) from None
        self._clear_module = load_module("image_ops.cu")
        if scene.animation != "none":
            load_module("animate.cu")
        self.strategy.prepare(self.scene, width, height)

    def poison(self) -> None:
        """Fill the image with NaN, so any pixel a later stage fails to write shows up."""
        self.image_buffer.fill(np.nan)

    def clear(self) -> None:
        """Due, not done: the next ``render`` starts every pixel from the background in its blending
        launch. The stage is still recorded (near zero), so every frame reports the same stages."""
        self.timer.start("clear")
        self._clear_due = True
        self.timer.stop("clear")

    def _clear_arguments(self) -> tuple:
        """(clear, snow, red, green, blue) for the kernels: whether a clear is due, and its colors."""
        rgb = self.scene.background or (0.0, 0.0, 0.0)
        return (np.int32(self._clear_due), np.int32(self.scene.background is None), *(np.float32(c) for c in rgb))

    def _clear_now(self) -> None:
        """A clear that no render took over (``image()`` right after ``clear()``)."""
        self._clear_module.get_function("clear_image")(
            _grid_2d(self.width, self.height, _BLOCK_2D),
            _BLOCK_2D,
            (self.image_buffer, np.int32(self.width), np.int32(self.height), *self._clear_arguments()[1:]),
        )
        self._clear_due = False

    def advance(self) -> None:
        self.timer.start("advance")
        advance_on_gpu(self.scene)
        self.timer.stop("advance")

    def render(self) -> None:
        import cupy

        try:
            self.timer.start("binning")
            self.strategy.bin(self.scene, self.width, self.height)
            self.timer.stop("binning")
            self.timer.start("blending")
            self.strategy.blend(self.scene, self.image_buffer, self.width, self.height, self._clear_arguments())
            self._clear_due = False
            self.timer.stop("blending")
        except cupy.cuda.memory.OutOfMemoryError as error:
            raise RendererUnavailable(f"{self.name}: out of GPU memory while rendering ({error})") from None

    def image(self) -> np.ndarray:
        if self._clear_due:
            self._clear_now()
        return self.image_buffer.get()

    def stage_times_ms(self) -> dict[str, float]:
        return self.timer.times_ms()

    def covered_pairs(self) -> int:
        """How many (pixel, circle) pairs the current scene covers at this size."""
        import cupy

        total = cupy.zeros(1, cupy.uint64)
        self._clear_module.get_function("count_covered_pairs")(
            _grid_1d(self.scene.count),
            (_THREADS_1D,),
            (
                self.scene.position,
                self.scene.radius,
                np.int32(self.scene.count),
                np.int32(self.width),
                np.int32(self.height),
                total,
            ),
        )
        return int(total.get()[0])

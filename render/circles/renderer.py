"""The CUDA circle renderer (CuPy + ``shaders/*.cu``): GPU clear, GPU animation, and one blending
strategy per registry variant. Stage times come from CUDA events.

Device arrays mirror ``CircleScene``: position, velocity, color float32 (N*3,) interleaved;
radius float32 (N,); the image float32 (H, W, 4), row 0 = bottom.
"""

from __future__ import annotations

import numpy as np

from render.core.gpu import gpu_problem
from render.core.kernels import load_module
from render.core.renderer import CircleRenderer, RendererUnavailable
from render.core.variants import VariantChoice, parse_variant
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
    """CUDA events around each stage of the latest frame; read after the work is done.

    A stage that queues no GPU work in a frame is marked ``idle`` and reads 0 ms: its two events
    would cost about 3 us of host time and a round trip to the GPU for its synchronize, for
    nothing measured (H100 machine, docs/performance.md)."""

    def __init__(self) -> None:
        import cupy

        self._cupy = cupy
        self._events = {stage: (cupy.cuda.Event(), cupy.cuda.Event()) for stage in STAGES}
        self._recorded: set[str] = set()
        self._idle: set[str] = set()

    def start(self, stage: str) -> None:
        self._idle.discard(stage)
        self._events[stage][0].record()

    def stop(self, stage: str) -> None:
        self._events[stage][1].record()
        self._recorded.add(stage)

    def idle(self, stage: str) -> None:
        """This frame's ``stage`` queued no GPU work."""
        self._idle.add(stage)
        self._recorded.discard(stage)

    def times_ms(self) -> dict[str, float]:
        """Milliseconds per stage timed or marked idle (synchronizes with the last recorded event)."""
        times = {}
        for stage in STAGES:
            if stage in self._idle:
                times[stage] = 0.0
            elif stage in self._recorded:
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

    has_binning = False  # whether the variant bins: ``render`` calls ``bin`` only then

    def bin(self, scene: DeviceScene, width: int, height: int) -> None:
        """Queue this frame's binning on the GPU (variants with ``has_binning``)."""
        raise NotImplementedError

    def blend(self, scene: DeviceScene, image, width: int, height: int, clear: tuple) -> None:
        """Blend every circle; ``clear`` is ``clear_arguments``' tuple (the clear folded in or not)."""
        raise NotImplementedError

    def _scene_args(
        self, scene: DeviceScene, image, width: int, height: int, clear: tuple, shading: bool = True
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

    has_binning = True

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


class _TileWarp(_Strategy):
    """Several pixels per thread, warps that skip circles missing their region, and (bins on)
    candidate lists per coarse bin built without a sort or a host read (``render_tile_warp.cu``).

    The lists live in a buffer of ``capacity`` entries sized at load. A frame with more entries
    than that still renders exactly (the kernel falls back to every circle); a later frame's
    binning grows the buffer, from the count the kernel writes straight into pinned host memory
    (no copy, no wait). Kernels and their arguments are looked up once, and the binning runs as
    one CUDA graph: each CuPy launch costs about 13 us of host time on the H100 machine.
    """

    CHUNK = 1024
    BLOCKS_WANTED = 256  # about two 1024-thread binning blocks per SM of an H100; scan_bin_counts' limit

    def _module(self, scene, width, height):
        import cupy

        self.tile = int(self.choice.option("tile"))
        self.pixels = 4 if self.tile == 32 else 8
        self.grid = _grid_2d(width, height, (self.tile, self.tile))
        self.use_bins = self.choice.option("bins") == "on" and scene.count > 0
        self.tiles_per_bin, self.bins_x, bins_y = tile_warp_bins(width, height, self.tile)
        self.bins = self.bins_x * bins_y
        chunks = -(-scene.count // self.CHUNK)
        chunks_per_block = max(1, -(-chunks // self.BLOCKS_WANTED))
        self.bin_blocks = max(1, -(-chunks // chunks_per_block))
        self.counts = cupy.empty(self.bins * self.bin_blocks, cupy.int32)
        self.within = cupy.empty(self.bins * self.bin_blocks, cupy.int64)
        self.bin_total = cupy.empty(self.bins, cupy.int64)
        self.bin_start = cupy.zeros(self.bins + 1, cupy.int64)
        self.lists = cupy.empty((1, 4), cupy.float32)
        self.capacity = 0
        self._entries_seen = cupy.cuda.alloc_pinned_memory(8)
        np.frombuffer(self._entries_seen, np.int64, 1)[0] = 0
        # Unified addressing maps pinned host memory into the device's address space.
        mapped = cupy.cuda.runtime.pointerGetAttributes(self._entries_seen.ptr).devicePointer
        self._entries_seen_on_device = np.uint64(mapped)
        self._geometry = (
            scene.position,
            scene.radius,
            np.int32(scene.count),
            np.int32(width),
            np.int32(height),
            np.int32(self.tile * self.tiles_per_bin),
            np.int32(self.bins_x),
            np.int32(self.bins),
            np.int32(chunks_per_block),
        )
        self._blend_tail = (
            np.int32(self.use_bins),
            np.int32(self.tiles_per_bin),
            np.int32(self.bins_x),
            np.int32(self.bins),
        )
        return load_module(
            "render_tile_warp.cu",
            TILE=self.tile,
            PIXELS=self.pixels,
            SNOWFLAKE=scene.snowflake,
            FUSED=int(fused_blend_is_exact(scene.color)),
        )

    def prepare(self, scene, width, height):
        super().prepare(scene, width, height)
        self._kernels = {
            name: self.module.get_function(name)
            for name in ("count_bin_entries", "scan_bin_counts", "emit_bin_entries", "render_tile_warp")
        }
        if self.use_bins:
            self._count_entries()
            self._grow(int(self.bin_total.sum()))
            self._capture_binning()

    @property
    def has_binning(self) -> bool:
        return self.use_bins

    def _count_entries(self) -> None:
        self._kernels["count_bin_entries"]((self.bin_blocks,), (self.CHUNK,), (*self._geometry, self.counts))
        self._kernels["scan_bin_counts"](
            (self.bins,), (self.BLOCKS_WANTED,), (self.counts, np.int32(self.bin_blocks), self.within, self.bin_total)
        )

    def _grow(self, entries: int) -> None:
        """Room for ``entries`` and a quarter more (circles move); kept as is if memory is short."""
        import cupy

        if entries <= self.capacity:
            return
        try:
            # An entry is a kernel BinEntry: float32 x, y, r and the circle's int32 index.
            self.lists = cupy.empty((entries + entries // 4 + 1024, 4), cupy.float32)
            self.capacity = len(self.lists)
        except cupy.cuda.memory.OutOfMemoryError:
            pass  # the kernel keeps rendering from every circle

    def _entries_last_seen(self) -> int:
        """The entry count of the latest binning that has finished writing it."""
        return int(np.frombuffer(self._entries_seen, np.int64, 1)[0])

    def _launch_binning(self) -> None:
        self._count_entries()
        self._kernels["emit_bin_entries"](
            (self.bin_blocks,),
            (self.CHUNK,),
            (
                *self._geometry,
                self.within,
                self.bin_total,
                self.bin_start,
                self._entries_seen_on_device,
                np.int64(self.capacity),
                self.lists,
            ),
        )

    def _capture_binning(self) -> None:
        """Record the three binning launches as one CUDA graph: one host call per frame instead
        of three (the GPU otherwise idles while the host launches the short scan)."""
        import cupy

        stream = cupy.cuda.Stream(non_blocking=True)
        with stream:
            stream.begin_capture()
            self._launch_binning()
            self._binning = stream.end_capture()
        self._binning_capacity = self.capacity

    def bin(self, scene, width, height):
        self._grow(self._entries_last_seen())
        if self._binning_capacity != self.capacity:
            self._capture_binning()  # the lists were reallocated: new arguments
        self._binning.launch()

    def blend(self, scene, image, width, height, clear):
        arguments = (
            *self._scene_args(scene, image, width, height, clear, shading=False),
            self.lists,
            self.bin_start,
            np.int64(self.capacity),
            *self._blend_tail,
        )
        threads = self.tile * self.tile // self.pixels
        self._kernels["render_tile_warp"](self.grid, (threads,), arguments)


TILE_WARP_MAX_BINS = 256  # MAX_BINS of render_tile_warp.cu: the count pass's shared bitmask


def tile_warp_bins(width: int, height: int, tile: int) -> tuple[int, int, int]:
    """tile-warp's bins at this size: (tiles per bin side, bins per row, bin rows); a bin is a
    square of tiles, a power of two per side, as small as keeps the bins within the limit."""
    tiles_x, tiles_y = _grid_2d(width, height, (tile, tile))
    tiles_per_bin = 1
    while -(-tiles_x // tiles_per_bin) * -(-tiles_y // tiles_per_bin) > TILE_WARP_MAX_BINS:
        tiles_per_bin *= 2
    return tiles_per_bin, -(-tiles_x // tiles_per_bin), -(-tiles_y // tiles_per_bin)


def candidate_cut(position: np.ndarray, radius: np.ndarray, width: int, height: int) -> float:
    """How many times fewer candidates a tile of ``tile-warp`` (tile 32) reads from its bin's list
    than from every circle: the circle count over the mean list length, each circle counted in
    the bins its bounding box meets. ``position`` float32 (N, 3), ``radius`` float32 (N,)."""
    if len(radius) == 0:
        return 0.0
    tiles_per_bin, bins_x, bins_y = tile_warp_bins(width, height, 32)
    bin_size = 32 * tiles_per_bin
    spans = []
    for axis, size in ((0, width), (1, height)):
        low = np.clip((position[:, axis] - radius) * size, 0, size - 1).astype(np.int64) // bin_size
        high = np.clip((position[:, axis] + radius) * size, 0, size - 1).astype(np.int64) // bin_size
        spans.append(high - low + 1)
    entries = float((spans[0] * spans[1]).sum())
    return len(radius) * bins_x * bins_y / entries


def fused_blend_is_exact(color) -> bool:
    """Whether every flat color (float32 (N*3,), NumPy or CuPy) blends exactly through the fused
    multiply-add of ``over_half_fused`` in ``circle_common.cuh``: each channel times 1/2 is 0 or at
    least 2^-100 in magnitude (see there for why)."""
    premultiplied = abs(color * np.float32(0.5))
    return bool(((premultiplied == 0) | (premultiplied >= np.float32(2.0**-100))).all())


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


AUTO_BINS_FROM = 5000  # circles; below, the binning graph's fixed ~25 us outweighs what it saves
AUTO_CANDIDATE_CUT = 10  # bin lists pay when they cut each tile's candidates at least this much


def choose_auto(scene: CircleScene, width: int, height: int) -> VariantChoice:
    """The variant ``auto`` runs for ``scene`` at width x height.

    From the H100 benches (docs/performance.md, "Issue 5"): a handful of circles is cheapest
    without binning; from a few thousand circles on, tile-warp with its bin lists when they cut
    each tile's candidates tenfold or more (rand10k 40x, rand100k, snowsingle, rand1M, micro2M),
    else tile-warp streaming every circle (pattern; biglittle, whose big circles fill the lists:
    5x, and whose binning then costs more than it saves).
    """
    if scene.count <= 16:
        return parse_variant("per-pixel")
    if scene.count >= AUTO_BINS_FROM and (
        candidate_cut(scene.position, scene.radius, width, height) >= AUTO_CANDIDATE_CUT
    ):
        return parse_variant("tile-warp")
    return parse_variant("tile-warp:bins=off")


_STRATEGIES = {"per-pixel": _PerPixel, "tile-scan": _TileScan, "tile-sort": _TileSort, "tile-warp": _TileWarp}


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

        choice = choose_auto(scene, width, height) if self.choice.name == "auto" else self.choice
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
        launch. The stage still reads (0 ms), so every frame reports the same stages."""
        self._clear_due = True
        self.timer.idle("clear")

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

    @property
    def animated(self) -> bool:
        return self.scene.animation != "none"

    def advance(self) -> None:
        if not self.animated:
            self.timer.idle("advance")
            return
        self.timer.start("advance")
        advance_on_gpu(self.scene)
        self.timer.stop("advance")

    def render(self) -> None:
        import cupy

        try:
            if self.strategy.has_binning:
                self.timer.start("binning")
                self.strategy.bin(self.scene, self.width, self.height)
                self.timer.stop("binning")
            else:
                self.timer.idle("binning")
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

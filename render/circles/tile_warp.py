"""The tile-warp strategy: several pixels per thread, warps that skip circles missing their region,
and (``bins=on``) candidate lists per coarse bin built without a sort or a host read
(``shaders/render_tile_warp.cu``)."""

from __future__ import annotations

import numpy as np

from render.circles import constants
from render.circles.constants import BIN_ENTRY_FLOATS, CHUNK, MAX_BINS, SCAN_BLOCKS, WARP_REGION_WIDTH
from render.circles.device_scene import host_colors
from render.circles.strategies import Strategy, every_circle
from render.core.dependent_launch import launch_dependent
from render.core.grids import grid_2d


class TileWarp(Strategy):
    """Several pixels per thread, warps that skip circles missing their region, and (bins on)
    candidate lists per coarse bin built without a sort or a host read (``render_tile_warp.cu``).

    The lists live in a buffer of ``capacity`` entries sized at load. A frame with more entries
    than that still renders exactly (the kernel falls back to every circle); a later frame's
    binning grows the buffer, from the count the kernel writes straight into pinned host memory
    (no copy, no wait). Kernels and their arguments are looked up once; the renderer captures the
    binning's three launches and the blend as one CUDA graph (``render.core.frame_graph``), again
    whenever the lists are reallocated (``frame_key``). The scan and the emission are dependent
    launches (``render.core.dependent_launch``): each starts as the launch before it ends, and the
    emission marks its first chunk's bins while the scan's last block places the lists.
    """

    # At most SCAN_BLOCKS binning blocks (scan_bin_counts' limit): about two per SM of an H100.
    BLOCKS_WANTED = SCAN_BLOCKS
    captures_frames = True
    # Builds whose kernel says so (``takes_tile_order``, TAKES_TILE_ORDER in render_tile_warp.cu)
    # blend their tiles fullest bin first, in the order each binning writes (the scan's last block).
    orders_tiles = True

    @classmethod
    def scene_defines(cls, defines, scene, width, height):
        fused = not scene.snowflake and fused_blend_is_exact(host_colors(scene))
        index = scene.count >= constants.INDEX_ENTRIES_FROM
        return {"SNOWFLAKE": scene.snowflake, "FUSED": int(fused), "ENTRY_INDEX": int(index)}

    def _allocate(self, scene, width, height) -> None:
        """The binning buffers and the kernels' fixed arguments at this size."""
        import cupy

        self.tile = self.int_define("TILE")
        self.pixels = self.int_define("PIXELS")
        self.grid = grid_2d(width, height, (self.tile, self.tile))
        self.use_bins = self.choice.option("bins") == "on" and scene.count > 0
        self.tiles_per_bin, self.bins_x, bins_y = tile_warp_bins(width, height, self.tile)
        self.bins = self.bins_x * bins_y
        chunks = -(-scene.count // CHUNK)
        self.chunks = chunks
        chunks_per_block = max(1, -(-chunks // self.BLOCKS_WANTED))
        self.bin_blocks = max(1, -(-chunks // chunks_per_block))
        processors = cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id)["multiProcessorCount"]
        self.bin_group = bin_group(self.bins_x, bins_y, self.bin_blocks, processors)
        self.bin_groups = -(-self.bins // self.bin_group)  # a binning block holds one group's bins
        self.counts = cupy.empty(self.bins * self.bin_blocks, cupy.int32)
        self.within = cupy.empty(self.bins * self.bin_blocks, cupy.int64)
        self.bin_total = cupy.empty(self.bins, cupy.int64)
        self.bin_start = cupy.zeros(self.bins + 1, cupy.int64)
        self._scans_finished = cupy.zeros(1, cupy.uint32)  # scan_bin_counts' blocks done; back to 0 after
        # int32 (tiles,): the row-major tile each blend block takes (orders_tiles), or None.
        ordered = self.orders_tiles and self.use_bins and self._kernel_takes_tile_order()
        self.tile_order = cupy.empty(self.grid[0] * self.grid[1], cupy.int32) if ordered else None
        self.lists = self._entries(1)
        self.capacity = 0
        self.sparse_emit = False
        # A still scene bins the same entries every frame: room for them and no more. Moving
        # circles get a quarter more, so that most frames fit without growing.
        self._moving = scene.animation != "none"
        self._entries_seen = cupy.cuda.alloc_pinned_memory(8)
        # int64 (1,): the count the scan writes through the mapped pointer below, read without a
        # synchronize (the latest binning that finished writing it; a frame late at most).
        self._entries_seen_view = np.frombuffer(self._entries_seen, np.int64, 1)
        self._entries_seen_view[0] = 0
        # Unified addressing maps pinned host memory into the device's address space.
        mapped = cupy.cuda.runtime.pointerGetAttributes(self._entries_seen.ptr).devicePointer
        self._entries_seen_on_device = np.uint64(mapped)
        self._geometry = (
            scene.position,
            scene.radius,
            np.int32(scene.count),
            np.int32(width),
            np.int32(height),
            np.int32(bin_shift(self.tile * self.tiles_per_bin)),
            np.int32(self.bins_x),
            np.int32(self.bins),
            np.int32(chunks_per_block),
            np.int32(self.bin_group),
        )
        self._order = (
            np.uint64(0) if self.tile_order is None else self.tile_order,  # a null pointer: no order
            np.int32(self.grid[0]),
            np.int32(self.grid[1]),
            np.int32(self.tiles_per_bin),
            np.int32(self.bins_x),
        )
        self._blend_tail = (
            np.int32(self.use_bins),
            np.int32(self.tiles_per_bin),
            np.int32(self.bins_x),
            np.int32(self.bins),
            self._order[0],
        )

    def _kernel_takes_tile_order(self) -> bool:
        """Whether this build's blend blocks take the binning's tile order, as its module says."""
        import cupy

        return bool(cupy.ndarray((1,), cupy.int32, self.module.get_global("takes_tile_order")).get()[0])

    def prepare(self, scene, width, height):
        super().prepare(scene, width, height)  # the build first: its defines say what an entry is
        self._allocate(scene, width, height)
        self._kernels = {
            name: self.module.get_function(name)
            for name in ("count_bin_entries", "scan_bin_counts", "emit_bin_entries")
        }
        if self.use_bins:
            self._count_entries()
            entries = int(self.bin_total.sum())
            self.sparse_emit = sparse_bins(entries, self.bins, self.chunks)
            self._grow(entries)

    @property
    def has_binning(self) -> bool:
        return self.use_bins

    def _count_entries(self) -> None:
        grid = (self.bin_blocks, self.bin_groups)
        self._kernels["count_bin_entries"](grid, (CHUNK,), (*self._geometry, self.counts))
        launch_dependent(
            self._kernels["scan_bin_counts"],
            (self.bins,),
            (self.BLOCKS_WANTED,),
            (
                self.counts,
                np.int32(self.bin_blocks),
                self.within,
                self.bin_total,
                self.bin_start,
                self._scans_finished,
                self._entries_seen_on_device,
                *self._order,
            ),
        )

    def _grow(self, entries: int) -> None:
        """Room for ``entries``, and a quarter more where circles move; kept as is if memory is short."""
        import cupy

        if entries <= self.capacity:
            return
        spare = entries // 4 + 1024 if self._moving else 0
        try:
            self.lists = self._entries(entries + spare)
            self.capacity = len(self.lists)
        except cupy.cuda.memory.OutOfMemoryError:
            pass  # the kernel keeps rendering from every circle

    def _entries(self, count: int):
        """Room for ``count`` bin-list entries: each a kernel BinEntry, float32 x, y, r and the
        circle's int32 index, or (``ENTRY_INDEX``) the index alone."""
        import cupy

        if self.build_defines.get("ENTRY_INDEX"):
            return cupy.empty(count, cupy.int32)
        return cupy.empty((count, BIN_ENTRY_FLOATS), cupy.float32)

    def _entries_last_seen(self) -> int:
        """The entry count of the latest binning that has finished writing it."""
        return int(self._entries_seen_view[0])

    def before_frame(self) -> None:
        if self.use_bins:
            self._grow(self._entries_last_seen())

    def frame_key(self):
        """The lists' address and capacity: of the binning's and the blend's arguments, those that a
        growth changes. The others (the scene's arrays, the image, the counts, starts and totals,
        the mapped count, the sparse choice) are fixed at load."""
        return (self.lists.data.ptr, self.capacity) if self.use_bins else ()

    def bin(self, scene, width, height):
        self._count_entries()
        launch_dependent(
            self._kernels["emit_bin_entries"],
            (self.bin_blocks, self.bin_groups),
            (CHUNK,),
            (
                *self._geometry,
                self.within,
                self.bin_start,
                np.int64(self.capacity),
                np.int32(self.sparse_emit),
                self.lists,
            ),
        )

    def blend_launch(self, scene, image, width, height, clear):
        arguments = (
            *self.scene_arguments(scene, image, width, height, clear, shading=False),
            self.lists,
            self.bin_start,
            np.int64(self.capacity),
            *self._blend_tail,
        )
        return self.grid, (self.tile * self.tile // self.pixels,), arguments

    def candidates(self, scene, width, height):
        """The length of each tile's bin list (every circle with the bins off)."""
        import cupy

        if not self.use_bins:
            return every_circle(scene, self.grid)
        cols, rows = self.grid
        per_bin = cupy.diff(self.bin_start).astype(cupy.int32).reshape(-1, self.bins_x)
        side = self.tiles_per_bin
        return per_bin[cupy.arange(rows)[:, None] // side, cupy.arange(cols)[None, :] // side]


def tile_warp_bins(width: int, height: int, tile: int) -> tuple[int, int, int]:
    """tile-warp's bins at this size: (tiles per bin side, bins per row, bin rows); a bin is a
    square of tiles, a power of two per side, the smallest that keeps the bins within MAX_BINS
    unless that is wider than BIN_PIXELS."""
    tiles_x, tiles_y = grid_2d(width, height, (tile, tile))
    tiles_per_bin = 1
    while (
        -(-tiles_x // tiles_per_bin) * -(-tiles_y // tiles_per_bin) > MAX_BINS
        and 2 * tiles_per_bin * tile <= constants.BIN_PIXELS
    ):
        tiles_per_bin *= 2
    return tiles_per_bin, -(-tiles_x // tiles_per_bin), -(-tiles_y // tiles_per_bin)


def bin_shift(bin_pixels: int) -> int:
    """log2 of a bin's side in pixels, which the binning kernels take instead of the side: a power of
    two (tiles of 32 or 64 pixels, a power of two of them to a bin side), so that a shift finds a
    pixel's bin."""
    shift = bin_pixels.bit_length() - 1
    if bin_pixels <= 0 or 1 << shift != bin_pixels:
        raise ValueError(f"a bin side must be a power of two pixels, not {bin_pixels}")
    return shift


def sparse_bins(entries: int, bins: int, chunks: int) -> bool:
    """Whether emit_bin_entries reads only each bin's filled mask words (four threads a bin) rather
    than all of them (a warp a bin): where a bin gets at most SPARSE_BIN_ENTRIES entries from a
    chunk of circles on average, as at ``entries`` over ``bins`` bins and ``chunks`` chunks."""
    return entries <= constants.SPARSE_BIN_ENTRIES * bins * chunks


def bin_group(bins_x: int, bins_y: int, bin_blocks: int, processors: int) -> int:
    """How many bins a binning block takes: whole rows of bins (a circle's bins are found row by
    row), at most MAX_BINS, and as few rows as give a scene of fewer chunk blocks than the GPU has
    multiprocessors about one binning block per multiprocessor. Each group reads every circle again
    and tests it against its rows: where the blocks already fill the GPU, one group is fastest
    (docs/results/bin-groups/)."""
    if bins_x > MAX_BINS:
        return MAX_BINS
    groups_wanted = max(1, processors // bin_blocks)
    rows = max(1, min(MAX_BINS // bins_x, -(-bins_y // groups_wanted)))
    return rows * bins_x


def warp_region(pixels: int) -> tuple[int, int]:
    """(width, height) in pixels of the region a warp of tile-warp blends at ``pixels`` a thread."""
    return WARP_REGION_WIDTH, 32 // WARP_REGION_WIDTH * pixels


def fused_blend_is_exact(color) -> bool:
    """Whether every flat color (float32, NumPy, any shape) blends exactly through the fused
    multiply-add of ``over_half_fused`` in ``circle_common.cuh``: each channel times 1/2 is 0 or at
    least 2^-100 in magnitude (see there for why)."""
    premultiplied = np.abs(color * np.float32(0.5))
    return bool(((premultiplied == 0) | (premultiplied >= np.float32(2.0**-100))).all())

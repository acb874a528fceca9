"""Numbers the circle renderer's Python and CUDA sides must agree on. The kernels get them as ``-D``
defines (``CUDA_DEFINES``) and refuse to build without them, so there is no second copy to drift."""

from __future__ import annotations

from render.core.kernels import module_loader

CHUNK = 1024  # circles a tile-warp binning block takes at a time: one bit each in 32 words of shared memory
MAX_BINS = 256  # tile-warp's bins per binning block: one shared counter (and mask) each
# The widest a tile-warp bin may grow, in pixels (Python's alone). Bins widen until one binning block
# holds them all (MAX_BINS), but never past this: a tile stages its bin's whole list, so a wide bin
# stages circles that miss the tile. Past MAX_BINS bins, binning blocks take them in groups of
# MAX_BINS, each group reading every circle again. At 10^7 circles on an H100, 128 was best at both
# 4096 and 8192 pixels (docs/performance.md, "Bins of large images").
BIN_PIXELS = 128
SCAN_BLOCKS = 256  # binning blocks that scan_bin_counts can scan: one thread each
BIN_ENTRY_FLOATS = 4  # a bin-list entry: float x, y, r and the circle's int index (one 16-byte load)
# From this many circles tile-warp's bin entries are the circle's index alone (4 bytes, not 16): the
# lists of 10^7 circles and more are where device memory goes. Python's alone: a scene define.
INDEX_ENTRIES_FROM = 1 << 22
# Where tile-warp's bins get at most this many entries from a chunk of circles on average, its binning
# reads only each bin's filled mask words, four threads a bin; elsewhere a warp reads all of a bin's
# words. Python's alone: a kernel argument, chosen from the counts at load.
SPARSE_BIN_ENTRIES = 12
# Pixels across the region of a tile-warp warp: its lanes make rows of this many columns of PIXELS
# pixels, so a region is WARP_REGION_WIDTH x (32 / WARP_REGION_WIDTH * PIXELS) pixels.
WARP_REGION_WIDTH = 16
# Heaviest first: the steps in which tile-warp's scan ranks bins by their share of the fullest bin's
# entries, for the blends that take their tiles fullest bin first (at most a warp's 32).
ORDER_STEPS = 32
MERGE_SEGMENT = 1024  # keys the merge sort's first phase sorts in one block's shared memory
MERGE_SAMPLE_STRIDE = 128  # keys between two samples of the merge sort's second phase (and its block)
ONESWEEP_THREADS = 256  # threads of a Onesweep block: one per 8-bit digit when it publishes and looks back
# Keys a Onesweep thread ranks per pass, by key width: a partition of 8192 32-bit or 4096 64-bit
# keys. Its staged copy in shared memory (32 KiB) must fit the 48 KiB a block gets without opting in.
ONESWEEP_ITEMS_32 = 32
ONESWEEP_ITEMS_64 = 16
# Onesweep's look-back table: a ring of this many partitions, 2 KiB each (256 digits x 8 bytes), so
# 2 MiB whatever the number of keys. A partition waits for its slot while the partitions up to
# ONESWEEP_MAX_LOOK_BACK after the slot's last owner have not finished their look-back: on an H100,
# 2^26 32-bit keys sort as fast with 1024 slots as with 4096 (1.66 ms against 1.67).
ONESWEEP_RING = 1024
ONESWEEP_MAX_LOOK_BACK = 64  # partitions a look-back reads at most: there it waits for an inclusive prefix

CUDA_DEFINES = dict(
    CHUNK=CHUNK,
    MAX_BINS=MAX_BINS,
    SCAN_BLOCKS=SCAN_BLOCKS,
    BIN_ENTRY_FLOATS=BIN_ENTRY_FLOATS,
    WARP_REGION_WIDTH=WARP_REGION_WIDTH,
    ORDER_STEPS=ORDER_STEPS,
    MERGE_SEGMENT=MERGE_SEGMENT,
    MERGE_SAMPLE_STRIDE=MERGE_SAMPLE_STRIDE,
    ONESWEEP_THREADS=ONESWEEP_THREADS,
    ONESWEEP_ITEMS_32=ONESWEEP_ITEMS_32,
    ONESWEEP_ITEMS_64=ONESWEEP_ITEMS_64,
    ONESWEEP_RING=ONESWEEP_RING,
    ONESWEEP_MAX_LOOK_BACK=ONESWEEP_MAX_LOOK_BACK,
)


# ``shaders/<source>`` compiled with the shared constants and ``defines`` (cached).
load_circle_module = module_loader(CUDA_DEFINES)

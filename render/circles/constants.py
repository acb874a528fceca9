"""Numbers the circle renderer's Python and CUDA sides must agree on. The kernels get them as ``-D``
defines (``CUDA_DEFINES``) and refuse to build without them, so there is no second copy to drift."""

from __future__ import annotations

from render.core.kernels import module_loader

CHUNK = 1024  # circles a tile-warp binning block takes at a time: one bit each in 32 words of shared memory
MAX_BINS = 256  # tile-warp's coarse bins per image: the count pass keeps one shared counter per bin
SCAN_BLOCKS = 256  # binning blocks that scan_bin_counts can scan: one thread each
BIN_ENTRY_FLOATS = 4  # a bin-list entry: float x, y, r and the circle's int index (one 16-byte load)

CUDA_DEFINES = dict(CHUNK=CHUNK, MAX_BINS=MAX_BINS, SCAN_BLOCKS=SCAN_BLOCKS, BIN_ENTRY_FLOATS=BIN_ENTRY_FLOATS)


# ``shaders/<source>`` compiled with the shared constants and ``defines`` (cached).
load_circle_module = module_loader(CUDA_DEFINES)

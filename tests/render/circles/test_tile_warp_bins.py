"""tile-warp's bins: squares of tiles, a power of two per side, as small as BIN_LIMIT allows; above
MAX_BINS the binning blocks take them in groups (the GPU side: test_gpu_tile_warp.py)."""

import pytest

from render.circles.constants import MAX_BINS
from render.circles.tile_warp import tile_warp_bins


@pytest.mark.parametrize(
    "limit, size, tile, bins",
    [
        (MAX_BINS, 1024, 32, (2, 16, 16)),
        (MAX_BINS, 8192, 32, (16, 16, 16)),
        (MAX_BINS, 1000, 64, (1, 16, 16)),
        (1024, 1024, 32, (1, 32, 32)),
        (1200, 1056, 32, (1, 33, 33)),
        (4096, 8192, 32, (4, 64, 64)),
        (4096, 8192, 64, (2, 64, 64)),
        (16384, 8192, 32, (2, 128, 128)),
    ],
)
def test_bins_are_the_smallest_squares_within_the_limit(monkeypatch, limit, size, tile, bins):
    monkeypatch.setattr("render.circles.constants.BIN_LIMIT", limit)
    assert tile_warp_bins(size, size, tile) == bins
    per_side, bins_x, bins_y = bins
    halved = -(-size // (tile * per_side // 2))  # bins per side at half the bin size
    assert bins_x * bins_y <= limit and (per_side == 1 or halved**2 > limit)

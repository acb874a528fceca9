"""tile-warp's bins: squares of tiles, a power of two per side, as few as one binning block holds
unless they would grow wider than BIN_PIXELS; above MAX_BINS the binning blocks take them in groups
(the GPU side: test_gpu_tile_warp.py)."""

import pytest

from render.circles.constants import BIN_PIXELS, MAX_BINS
from render.circles.tile_warp import tile_warp_bins


@pytest.mark.parametrize(
    "widest, size, tile, bins",
    [
        (BIN_PIXELS, 1024, 32, (2, 16, 16)),
        (BIN_PIXELS, 2048, 32, (4, 16, 16)),
        (BIN_PIXELS, 4096, 32, (4, 32, 32)),
        (BIN_PIXELS, 8192, 32, (4, 64, 64)),
        (BIN_PIXELS, 8192, 64, (2, 64, 64)),
        (BIN_PIXELS, 1000, 64, (1, 16, 16)),
        (BIN_PIXELS, 1024, 16, (4, 16, 16)),
        (32, 1024, 32, (1, 32, 32)),
        (32, 1056, 32, (1, 33, 33)),
        (64, 8192, 32, (2, 128, 128)),
        (4096, 8192, 32, (16, 16, 16)),
    ],
)
def test_bins_are_the_fewest_squares_no_wider_than_the_limit(monkeypatch, widest, size, tile, bins):
    monkeypatch.setattr("render.circles.constants.BIN_PIXELS", widest)
    assert tile_warp_bins(size, size, tile) == bins
    per_side, bins_x, bins_y = bins
    assert per_side * tile <= max(widest, tile)
    if bins_x * bins_y > MAX_BINS:  # more than one group only where wider bins are not allowed
        assert 2 * per_side * tile > widest
    if per_side > 1:  # no narrower bin would do: half as wide gives more than one group
        assert (-(-size // (tile * per_side // 2))) ** 2 > MAX_BINS

"""tile-warp's bins: squares of tiles, a power of two per side, as few as one binning block holds
unless they would grow wider than BIN_PIXELS; binning blocks take them in groups of whole rows, at
most MAX_BINS, smaller where fewer chunks of circles than multiprocessors would leave the GPU idle
(the GPU side: test_gpu_tile_warp.py); emission reads only the filled words of bins that get few
entries a chunk; the kernels find a pixel's bin by a shift."""

import pytest

from render.circles.constants import BIN_PIXELS, MAX_BINS, SPARSE_BIN_ENTRIES
from render.circles.tile_warp import bin_group, bin_shift, sparse_bins, tile_warp_bins


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


@pytest.mark.parametrize(
    "bins_x, bins_y, bin_blocks, group",
    [
        (16, 16, 10, 32),  # 10k circles at 1024 on an H100 (132 SMs): 8 groups of 2 rows, 80 blocks
        (16, 16, 98, 256),  # 100k: 98 blocks, one group
        (16, 16, 245, 256),  # a million
        (16, 16, 1, 16),  # never less than a row
        (64, 64, 245, 256),  # 8192 at 128-pixel bins: MAX_BINS, 16 groups
        (64, 64, 2, 64),
        (300, 2, 1, MAX_BINS),  # a row wider than a block holds: part rows
    ],
)
def test_bin_groups_are_whole_rows_sized_to_fill_the_multiprocessors(bins_x, bins_y, bin_blocks, group):
    assert bin_group(bins_x, bins_y, bin_blocks, 132) == group
    assert group <= MAX_BINS and (group % bins_x == 0 or bins_x > MAX_BINS)
    if group > bins_x:  # a row fewer a group would take the grid past a block per multiprocessor
        assert bin_blocks * -(-bins_x * bins_y // (group - bins_x)) > 132 or group == MAX_BINS


@pytest.mark.parametrize(
    "entries, bins, chunks, sparse",
    [
        (2_122_309, 256, 1954, True),  # micro2M at 1024 (its bounding boxes): about 4 a bin a chunk
        (1_812_001, 256, 977, True),  # rand1M: about 7
        (646_431, 256, 98, False),  # rand100k: about 26
        (SPARSE_BIN_ENTRIES * 256 * 10, 256, 10, True),  # the threshold itself is sparse
        (SPARSE_BIN_ENTRIES * 256 * 10 + 1, 256, 10, False),
        (0, 256, 1, True),
    ],
)
def test_bins_of_few_entries_a_chunk_are_emitted_sparse(entries, bins, chunks, sparse):
    assert sparse_bins(entries, bins, chunks) == sparse


@pytest.mark.parametrize("size", [1024, 2048, 4096, 8192, 1000, 1056, 333])
@pytest.mark.parametrize("tile", [32, 64])
def test_every_bin_side_is_a_power_of_two_the_kernels_shift_by(size, tile):
    per_side = tile_warp_bins(size, size, tile)[0]
    side = tile * per_side
    assert 1 << bin_shift(side) == side
    assert all(pixel >> bin_shift(side) == pixel // side for pixel in (0, side - 1, side, size - 1))


@pytest.mark.parametrize("side", [0, -64, 48, 96, 1000])
def test_a_bin_side_that_no_shift_gives_is_refused(side):
    with pytest.raises(ValueError, match="power of two"):
        bin_shift(side)

"""GPU-size limits that are pure arithmetic, so they are checked without a GPU."""

from render.circles.strategies import tile_sort_memory_problem


def test_tile_sort_fits_when_three_key_arrays_fit():
    assert tile_sort_memory_problem(1000, 4, 12000) is None


def test_tile_sort_names_pairs_need_and_free_memory():
    message = tile_sort_memory_problem(2**20, 8, 2**20)
    assert message == (
        "tile-sort: 1048576 (tile, circle) pairs need about 24 MiB, the GPU has 1 MiB free; "
        "use a smaller size or tile-scan"
    )


def test_tile_sort_rejects_pairs_beyond_int32_offsets():
    assert "exceed its 2^31 limit" in tile_sort_memory_problem(2**31, 4, 2**60)

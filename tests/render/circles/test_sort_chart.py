"""The sort bench's chart, from rows of the shape ``sort_bench.payload`` writes (no GPU needed): a
line per sort in its colour over the random keys, a square per scene, and a refusal of no rows."""

import numpy as np
import pytest
from PIL import Image

from render.circles.sort_chart import COLOURS, sort_bench_chart
from render.core.log_chart import NothingToChart


def rows():
    made = []
    for power in range(16, 27, 2):
        for sort, rate in (("cub", 2e10), ("onesweep", 1.8e10), ("merge", 2e9)):
            made.append(dict(keys="random", count=2**power, sort=sort, keys_per_second=rate, extra_bytes=8 * 2**power))
    made.append(dict(keys="rand1M", count=3 * 10**7, sort="cub", keys_per_second=1.5e10, extra_bytes=2**28))
    return made


def test_each_sort_is_drawn_in_its_colour(tmp_path):
    path = sort_bench_chart(rows(), tmp_path / "sorts.png", "test")
    pixels = np.asarray(Image.open(path).convert("RGB")).reshape(-1, 3)
    for sort, colour in COLOURS.items():
        assert (pixels == colour).all(axis=1).sum() > 50, sort


def test_no_timed_rows_is_refused(tmp_path):
    with pytest.raises(NothingToChart, match="no figure was measured"):
        sort_bench_chart([], tmp_path / "none.png", "test")
    assert not (tmp_path / "none.png").exists()

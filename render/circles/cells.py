"""Every cell of many integer boxes, as flat index arrays in chunks of bounded size: the pixels of
each circle's pixel box, or the tiles of each circle's tile range, for counting them with NumPy
without a Python loop per circle and without holding every pair in memory at once."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

CHUNK_CELLS = 1 << 22  # cells a chunk holds (about 100 MB of int64 index arrays at the most)


def box_cells(
    x0: np.ndarray, x1: np.ndarray, y0: np.ndarray, y1: np.ndarray, chunk: int = CHUNK_CELLS
) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """The cells of boxes [x0, x1) x [y0, y1) (int64 (N,) each; an empty box has none), as chunks
    (item, x, y) of int64 arrays of equal length, about ``chunk`` cells each. Cells come box by box,
    rows bottom to top, in index order; a box larger than ``chunk`` comes in bands of rows."""
    width = np.maximum(x1 - x0, 0)
    height = np.maximum(y1 - y0, 0)
    area = width * height
    ends = np.cumsum(area)
    start = 0
    while start < len(area):
        if area[start] > chunk:
            yield from _big_box(start, int(x0[start]), int(width[start]), int(y0[start]), int(height[start]), chunk)
            start += 1
            continue
        before = ends[start] - area[start]
        end = max(int(np.searchsorted(ends, before + chunk, side="right")), start + 1)
        yield _small_boxes(np.arange(start, end), x0, width, y0, height)
        start = end


def _small_boxes(items: np.ndarray, x0, width, y0, height) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every cell of the boxes ``items`` at once."""
    rows_of = height[items]
    row_item = np.repeat(items, rows_of)
    row_y = y0[row_item] + _ranks(rows_of)
    cells_of = width[row_item]
    item = np.repeat(row_item, cells_of)
    return item, x0[item] + _ranks(cells_of), np.repeat(row_y, cells_of)


def _big_box(item: int, x0: int, width: int, y0: int, height: int, chunk: int):
    """The cells of one box too large for a chunk, in bands of rows."""
    rows = max(1, chunk // width)
    xs = np.arange(x0, x0 + width, dtype=np.int64)
    for top in range(y0, y0 + height, rows):
        band = np.arange(top, min(top + rows, y0 + height), dtype=np.int64)
        yield (
            np.full(len(band) * width, item, np.int64),
            np.tile(xs, len(band)),
            np.repeat(band, width),
        )


def _ranks(counts: np.ndarray) -> np.ndarray:
    """0, 1, ..., counts[0] - 1, 0, 1, ..., counts[1] - 1, ...: each element's place in its group."""
    total = int(counts.sum())
    starts = np.cumsum(counts) - counts
    return np.arange(total, dtype=np.int64) - np.repeat(starts, counts)

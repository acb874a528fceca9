"""The window's background is cleared around the frame: the bands and the frame's rectangle cover the
framebuffer, each pixel once, wherever the rectangle lies."""

import numpy as np
import pytest

from app.background import bands_around

WIDTH, HEIGHT = 64, 40


def coverage(rects) -> np.ndarray:
    """How many of ``rects`` cover each pixel of the framebuffer, (HEIGHT, WIDTH) int."""
    count = np.zeros((HEIGHT, WIDTH), int)
    for x, y, w, h in rects:
        assert w > 0 and h > 0 and 0 <= x and x + w <= WIDTH and 0 <= y and y + h <= HEIGHT, (x, y, w, h)
        count[y : y + h, x : x + w] += 1
    return count


@pytest.mark.parametrize(
    "rect",
    [(20, 0, 40, 40), (0, 0, WIDTH, HEIGHT), (10, 5, 30, 20), (0, 10, 5, 5), (59, 35, 5, 5), (30, 12, 1, 1)],
)
def test_the_bands_and_the_frame_cover_each_pixel_once(rect):
    bands = bands_around(rect, WIDTH, HEIGHT)
    assert (coverage([*bands, rect]) == 1).all()
    assert len(bands) <= 4


@pytest.mark.parametrize("rect", [(20, 10, 0, 0), (70, 10, 5, 5), (-9, -9, 5, 5), (10, 40, 5, 5)])
def test_a_frame_with_no_area_on_screen_leaves_the_whole_framebuffer_to_clear(rect):
    assert bands_around(rect, WIDTH, HEIGHT) == [(0, 0, WIDTH, HEIGHT)]


def test_a_frame_partly_off_screen_is_clipped_to_it():
    bands = bands_around((-10, -10, 30, 30), WIDTH, HEIGHT)
    covered = coverage(bands)
    assert (covered[:20, :20] == 0).all() and covered.sum() == WIDTH * HEIGHT - 400


def test_an_empty_framebuffer_has_nothing_to_clear():
    assert bands_around((0, 0, 0, 0), 0, 0) == []

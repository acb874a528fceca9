"""The window's background is cleared around the frame: the bands and the frame's rectangle cover the
framebuffer, each pixel once, wherever the rectangle lies."""

import types

import numpy as np
import pytest

import app.background as background
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
    assert (coverage([*bands, (0, 0, 20, 20)]) == 1).all()


def test_an_empty_framebuffer_has_nothing_to_clear():
    assert bands_around((0, 0, 0, 0), 0, 0) == []


class FakeGL(types.SimpleNamespace):
    """OpenGL's calls as a log; glClear fails on the call numbered ``fail_at``, if any."""

    def __init__(self, fail_at=None):
        super().__init__(GL_SCISSOR_TEST="scissor", GL_COLOR_BUFFER_BIT="color", log=[], fail_at=fail_at)

    def glClearColor(self, *rgba):
        self.log.append(("color", rgba))

    def glEnable(self, what):
        self.log.append(("enable", what))

    def glDisable(self, what):
        self.log.append(("disable", what))

    def glScissor(self, *rect):
        self.log.append(("scissor", rect))

    def glClear(self, what):
        if sum(entry[0] == "clear" for entry in self.log) == self.fail_at:
            raise RuntimeError("GL error")
        self.log.append(("clear", what))


def test_clear_around_clears_each_band_inside_the_scissor_and_turns_it_off(monkeypatch):
    gl = FakeGL()
    monkeypatch.setattr(background, "GL", gl)
    background.clear_around((20, 0, 40, 40), WIDTH, HEIGHT, (0.1, 0.2, 0.3))
    assert gl.log == [
        ("color", (0.1, 0.2, 0.3, 1.0)),
        ("enable", "scissor"),
        ("scissor", (0, 0, 20, 40)),
        ("clear", "color"),
        ("scissor", (60, 0, 4, 40)),
        ("clear", "color"),
        ("disable", "scissor"),
    ]


def test_a_failing_clear_still_turns_the_scissor_off(monkeypatch):
    gl = FakeGL(fail_at=1)
    monkeypatch.setattr(background, "GL", gl)
    with pytest.raises(RuntimeError):
        background.clear_around((20, 0, 40, 40), WIDTH, HEIGHT, (0.1, 0.2, 0.3))
    assert gl.log[-1] == ("disable", "scissor")

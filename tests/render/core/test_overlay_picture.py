"""Overlays drawn over a picture: the turbo colour map's ends and order, each cell's colour over the
pixels it covers (row 0 of the values at the bottom), the grid's lines, the legend strip under the
picture, and the statistics beside it."""

import numpy as np

from render.core.overlay import Overlay, overlay_stats
from render.core.overlay_picture import HEAT_SHARE, LEGEND_HEIGHT, LINE_HEIGHT, MIN_WIDTH, overlay_picture, turbo


def grey_image(height: int, width: int) -> np.ndarray:
    image = np.full((height, width, 4), 0.5, np.float32)
    image[..., 3] = 1
    return image


def test_turbo_runs_from_near_black_through_green_to_dark_red():
    low, middle, high = turbo(np.array([0.0, 0.5, 1.0]))
    assert low.max() < 60 and low[2] > low[1]  # nearly black, a violet tint
    assert middle[1] > 200  # green-yellow in the middle
    assert high[0] > high[2] and high[0] < 160  # dark red
    assert np.array_equal(turbo(np.array([-3.0, 7.0])), turbo(np.array([0.0, 1.0])))  # clamped


def test_each_cell_takes_its_colour_and_row_zero_is_the_bottom():
    values = np.array([[0, 10], [20, 30]], np.int32)  # bottom row 0 and 10, top row 20 and 30
    picture = overlay_picture(grey_image(32, 32), Overlay("candidates", (16, 16), "circles", values))
    assert picture.shape == (32 + LEGEND_HEIGHT, MIN_WIDTH, 3)
    colours = turbo(np.array([0, 10, 20, 30]) / 30)
    expected = ((127 * (256 - HEAT_SHARE) + colours.astype(np.int64) * HEAT_SHARE) >> 8).astype(np.uint8)
    assert np.all(picture[16:32, :16] == expected[0]) and np.all(picture[16:32, 16:32] == expected[1])
    assert np.all(picture[:16, :16] == expected[2]) and np.all(picture[:16, 16:32] == expected[3])
    assert np.all(picture[:32, 32:] == 255)  # the canvas right of a narrow picture stays white


def test_cut_cells_at_the_edge_and_equal_values_still_draw():
    values = np.full((2, 2), 7, np.int32)
    picture = overlay_picture(grey_image(20, 20), Overlay("depth", (16, 16), "circles", values))
    assert picture.shape == (20 + LEGEND_HEIGHT, MIN_WIDTH, 3)
    assert len(np.unique(picture[:20, :20].reshape(-1, 3), axis=0)) == 1  # one value, one colour
    bar = picture[20 + 8, 8:-8]
    assert np.all(bar == turbo(np.array([0.0]))[0])  # the legend's bar: that colour alone, not a scale


def test_the_grid_lightens_the_first_column_and_bottom_row_of_every_cell():
    picture = overlay_picture(grey_image(40, 400), Overlay("tiles", (16, 16), "the blocks of tile-scan"))
    lines = picture[:40, :400, 0] > 127
    assert lines[:, [0, 16, 32, 384]].all() and not lines[[0, 10, 30], 1:16].any()
    assert lines[[39, 23, 7], 1:16].all() and not lines[[38, 24, 8], 1:16].any()


def test_the_legend_has_the_colour_bar_and_its_figures():
    values = np.arange(120, dtype=np.int32).reshape(3, 40)
    picture = overlay_picture(grey_image(48, 640), Overlay("candidates", (16, 16), "circles tested per tile", values))
    legend = picture[48:]
    assert legend.shape == (LEGEND_HEIGHT, 640, 3)
    bar = legend[8, 8:-8]
    assert np.array_equal(bar[0], turbo(np.array([0.0]))[0]) and np.array_equal(bar[-1], turbo(np.array([1.0]))[0])
    assert (legend[20:] < 100).any()  # text under the bar


def test_a_long_unit_wraps_onto_more_lines_instead_of_being_cut():
    unit = "share of the circles a warp of tile-warp:bins=on,tile=32 tests that miss its region (0: it tested none)"

    def picture(width):
        values = np.arange(2 * width // 16, dtype=np.float32).reshape(2, -1)
        return overlay_picture(grey_image(32, width), Overlay("warp-skip", (16, 16), unit, values))

    narrow, wide = picture(32), picture(1408)
    assert wide.shape == (32 + LEGEND_HEIGHT, 1408, 3)  # one line at 1408 pixels
    extra = narrow.shape[0] - (32 + LEGEND_HEIGHT)
    assert narrow.shape[1] == MIN_WIDTH and extra > 0 and extra % LINE_HEIGHT == 0
    legend = narrow[32:]
    for k in range(extra // LINE_HEIGHT + 2):  # every line of text has ink, the last ones too
        row = legend[32 + LINE_HEIGHT * k : 32 + LINE_HEIGHT * (k + 1)]
        assert (row < 100).any(), k


def test_statistics_say_how_uneven_the_load_is():
    stats = overlay_stats(np.array([[1, 1], [1, 5]]))
    assert (stats.low, stats.high, stats.mean, stats.imbalance) == (1, 5, 2, 2.5)
    assert stats.line() == "min 1, mean 2, max 5, max/mean 2.50"
    assert overlay_stats(np.zeros((2, 2))).imbalance == 1.0

"""The timing section's numbers: stages in the newest frame's order with missing ones as 0, their
stacked bands, the trailing mean of the total, and the rows of the time between frames and the
app's own share of it."""

import numpy as np

from app.panel_timings import frame_rows, moving_average, stacked, stage_table


def test_stage_table_follows_the_newest_frame_and_fills_gaps():
    history = [{"binning": 1.0}, {"binning": 2.0, "blending": 5.0}]
    stages, times = stage_table(history)
    assert stages == ["binning", "blending"]
    assert times.tolist() == [[1.0, 0.0], [2.0, 5.0]]


def test_stacked_bands_sit_on_each_other():
    times = np.array([[1.0, 2.0, 3.0], [4.0, 0.0, 1.0]])
    bands = stacked(times)
    assert bands.shape == (4, 2) and all(row.flags.c_contiguous for row in bands)
    assert bands.tolist() == [[0, 0], [1, 4], [3, 4], [6, 5]]
    assert np.array_equal(bands[-1], times.sum(axis=1))


def test_moving_average_is_the_trailing_mean():
    values = np.array([2.0, 4.0, 6.0, 8.0])
    assert moving_average(values, 2).tolist() == [2.0, 3.0, 5.0, 7.0]
    assert moving_average(values, 10).tolist() == [2.0, 3.0, 4.0, 5.0]


def test_frame_rows_are_the_newest_frames_between_frames_and_the_apps_own():
    log = [{"wall": 9.0, "overhead": 7.0}, {"wall": 3.0, "overhead": 1.0}, {"wall": 5.0, "overhead": 2.0}]
    assert frame_rows(log, 2) == [("between frames", 5.0, 4.0), ("app's own", 2.0, 1.5)]
    assert frame_rows([{"wall": 40.0}, {"wall": 20.0}], 5) == [("between frames", 20.0, 30.0)]  # the CPU
    assert frame_rows([], 5) == []

"""The A/B view's pictures and figures: the split at the divider, the toggle, the difference map
(black where A and B are equal, coloured where they differ), the counts of differing values (NaN
included), and on the CPU backend no B at all (A is the reference there)."""

import numpy as np

from app.ab_view import ab_picture, difference
from render.core.image_io import to_rgb8


def images():
    rng = np.random.default_rng(4)
    a = rng.uniform(0, 1, (6, 10, 4)).astype(np.float32)
    b = a.copy()
    b[1, 7, 0] += 0.25  # row 1 from the bottom, column 7
    return a, b


def test_equal_pictures_differ_nowhere():
    a, _ = images()
    diff = difference(a, a.copy())
    assert diff.values == 0 and diff.largest == 0 and not diff.per_pixel.any()
    assert (ab_picture(a, a.copy(), "difference", 0.5, False)[..., :3] == 0).all()


def test_the_difference_says_where_and_how_much():
    a, b = images()
    diff = difference(a, b)
    assert diff.values == 1 and np.isclose(diff.largest, 0.25)
    assert np.argwhere(diff.per_pixel).tolist() == [[1, 7]]
    picture = ab_picture(a, b, "difference", 0.5, False)
    lit = np.argwhere(picture[..., :3].any(axis=2)).tolist()
    assert lit == [[1, 7]] and (picture[..., 3] == 255).all()


def test_nan_in_b_counts_as_differing():
    a, b = images()
    b[0, 0, 2] = np.nan
    diff = difference(a, b)
    assert diff.values == 2 and np.isinf(diff.largest)
    assert ab_picture(a, b, "difference", 0.5, False)[0, 0, :3].any()


def test_the_split_shows_a_left_of_the_divider_and_b_right_with_a_line():
    a, b = images()
    b[...] = 1 - a
    picture = ab_picture(a, b, "split", 0.5, False)[..., :3]  # row 0 = bottom
    expected_a, expected_b = to_rgb8(a)[::-1], to_rgb8(b)[::-1]
    assert np.array_equal(picture[:, :4], expected_a[:, :4])
    assert np.array_equal(picture[:, 6:], expected_b[:, 6:])
    assert (picture[:, 4:6] == 255).all()


def test_the_toggle_shows_one_or_the_other():
    a, b = images()
    assert np.array_equal(ab_picture(a, b, "toggle", 0.5, False)[..., :3], to_rgb8(a)[::-1])
    assert np.array_equal(ab_picture(a, b, "toggle", 0.5, True)[..., :3], to_rgb8(b)[::-1])


def test_on_the_cpu_backend_there_is_no_b(app, run_until_shown):
    run_until_shown(app)
    app.set_ab(on=True)
    for _ in range(3):
        app.frame()
    assert not app.ab.ready(app.session) and app.ab.image_b is None

"""The sphere tracer's scenes, reference semantics and scene files (no GPU needed); the classic view
is the book's picture at 1024 and the same picture scaled at other sizes."""

import hashlib

import numpy as np
import pytest

from render.spheres.reference import trace_reference
from scenes.files import SceneFileError, load_sphere_scene, save_sphere_scene
from scenes.spheres import SphereScene, build_sphere_scene, random_spheres

# The classic scene's reference at 1024: the book's picture (checked against the GPU variants since).
BOOK_PICTURE_SHA256 = "aa0ba768ce10759589f07ff88ce0cbc8b87e8ca8b9317825b8006dfc964ed582"


def spheres(*rows):
    """Hand-made spheres from (x, y, z, radius, r, g, b) rows."""
    data = np.array(rows, np.float32).reshape(-1, 7)
    return SphereScene("hand", data[:, 0:3].copy(), data[:, 3].copy(), data[:, 4:7].copy())


def test_classic_scene_follows_the_books_draws():
    scene = build_sphere_scene("classic")
    assert scene.count == 20
    # glibc seed 1: rand() = 1804289383, 846930886, 1681692777, 1714636915, ...; rnd(x) = x * rand() / RAND_MAX
    first = np.float32(1804289383) / np.float32(2147483647)
    assert scene.color[0, 0] == first
    assert scene.color[0, 1] == np.float32(846930886) / np.float32(2147483647)
    assert scene.center[0, 0] == np.float32(1000) * np.float32(1714636915) / np.float32(2147483647) - np.float32(500)
    assert scene.center.dtype == np.float32 and (np.abs(scene.center) <= 500).all()
    assert ((scene.radius >= 20) & (scene.radius <= 120)).all()
    assert ((scene.color >= 0) & (scene.color <= 1)).all()


def test_random_scene_is_the_same_recipe_by_seed_and_count():
    assert np.array_equal(random_spheres(20, 1).records(), build_sphere_scene("classic").records())
    assert random_spheres(5, 2).count == 5 and not np.array_equal(
        random_spheres(5, 2).center, random_spheres(5, 3).center
    )


def test_centre_hit_full_shade_and_truncation():
    # size 8: pixel x = 4 has ox = 0. The ray through the centre has dz = radius: shade 1.
    image = trace_reference(spheres((0, 0, 0, 2, 0.5, 1.0, 0.2)), 8)
    assert tuple(image[4, 4]) == (127, 255, 51, 255)  # trunc(0.5*255), 255, trunc(0.2*255 = 51.0000007)


def test_a_sphere_whose_radius_squared_underflows_is_a_miss_without_a_warning():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # 0 / 0 for the shade of pixels that miss printed NumPy's warning
        rgb = trace_reference(spheres((0, 0, 0, 1e-30, 1, 1, 1), (10, 10, 0, 1e-20, 1, 0, 0)), 64)
    assert not rgb[..., :3].any()


def test_boundary_is_a_miss_and_background_is_black():
    # At 1024 a pixel is one unit of the book's coordinates: pixel x = 512 + k has ox = k.
    image = trace_reference(spheres((0, 0, 0, 2, 1, 1, 1)), 1024)
    assert tuple(image[512, 514]) == (0, 0, 0, 255)  # dx = 2 = radius: not strictly inside
    assert image[512, 513, 0] > 0 and tuple(image[0, 0]) == (0, 0, 0, 255)


def test_nearest_hit_wins_and_ties_keep_the_first_sphere():
    near_first = trace_reference(spheres((0, 0, 10, 3, 1, 0, 0), (0, 0, 50, 3, 0, 1, 0)), 8)
    assert near_first[4, 4, 1] == 255 and near_first[4, 4, 0] == 0  # larger dz + z is nearer the eye
    tie = trace_reference(spheres((0, 0, 5, 3, 1, 0, 0), (0, 0, 5, 3, 0, 1, 0)), 8)
    assert tie[4, 4, 0] == 255 and tie[4, 4, 1] == 0


def test_offsets_use_integer_half_of_the_size():
    # size 5: half = 2, so pixel x = 2 is ox = 0.
    image = trace_reference(spheres((0, 0, 0, 0.5, 1, 1, 1)), 5)
    lit = np.argwhere(image[..., 0] > 0)
    assert lit.tolist() == [[2, 2]]


def test_sphere_files_round_trip_and_reject_bad_ones(tmp_path):
    scene = build_sphere_scene("classic")
    for suffix in (".npz", ".json"):
        loaded = load_sphere_scene(save_sphere_scene(scene, tmp_path / f"classic{suffix}"))
        assert np.array_equal(loaded.records(), scene.records())
    bad = tmp_path / "bad.json"
    bad.write_text('{"kind": "spheres", "center": [[0, 0, 0]], "radius": [0], "color": [[1, 1, 1]]}')
    with pytest.raises(SceneFileError, match=r"bad.json: field 'radius' must be > 0"):
        load_sphere_scene(bad)
    bad.write_text('{"kind": "circles"}')
    with pytest.raises(SceneFileError, match=r"field 'kind' must be 'spheres'"):
        load_sphere_scene(bad)


def test_the_classic_view_at_1024_is_the_books_picture_unchanged():
    image = trace_reference(build_sphere_scene("classic"), 1024)
    assert image.shape == (1024, 1024, 4) and image.dtype == np.uint8 and (image[..., 3] == 255).all()
    assert hashlib.sha256(image.tobytes()).hexdigest() == BOOK_PICTURE_SHA256


@pytest.mark.parametrize("size, step", [(256, 4), (512, 2)])
def test_smaller_classic_views_show_the_whole_picture_scaled(size, step):
    # Offsets times 1024 / size are exactly the 1024 picture's offsets of every step-th pixel.
    book = trace_reference(build_sphere_scene("classic"), 1024)
    assert np.array_equal(trace_reference(build_sphere_scene("classic"), size), book[::step, ::step])


def test_larger_classic_views_show_the_whole_picture_scaled():
    book = trace_reference(build_sphere_scene("classic"), 1024)
    assert np.array_equal(trace_reference(build_sphere_scene("classic"), 2048)[::2, ::2], book)

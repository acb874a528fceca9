"""The CPU reference on the extreme but valid edge scenes (conftest.py), checked against what each
scene must look like; test_gpu_edges.py compares every CUDA variant with it."""

import numpy as np
import pytest

from render.circles.reference import ReferenceRenderer, clear_image
from render.circles.shading import pixel_centers
from render.core.renderer import render_frame

f32 = np.float32


def reference(scene, size):
    renderer = ReferenceRenderer(workers=1)
    renderer.load(scene, size, size)
    return render_frame(renderer, 0)


def changed(scene, size):
    """bool (size, size): the pixels the circles changed."""
    return np.any(reference(scene, size) != clear_image(scene, size, size), axis=2)


@pytest.mark.parametrize("name", ["empty", "offscreen"])
def test_nothing_to_draw_leaves_the_background(edge_scenes, name, edge_size):
    assert not changed(edge_scenes[name](), edge_size).any()


def test_one_circle_covers_its_disc(edge_scenes, small_edge_size):
    size = small_edge_size
    centres = pixel_centers(size)
    dx, dy = centres[None, :] - f32(0.5), centres[:, None] - f32(0.5)
    disc = dx * dx + dy * dy <= f32(0.2) * f32(0.2)
    image = reference(edge_scenes["one"](), size)
    assert np.array_equal(np.any(image != 1, axis=2), disc)
    assert np.all(image[disc] == (1.0, 0.5, 0.5, 1.5))


def test_circles_larger_than_the_screen_blend_everywhere(edge_scenes, small_edge_size):
    # White, then red, green and blue at alpha 0.5 over every pixel, in that order.
    assert np.all(reference(edge_scenes["cover"](), small_edge_size) == (0.25, 0.375, 0.625, 2.5))


def test_snowflakes_larger_than_the_screen_change_every_pixel(edge_scenes):
    image = reference(edge_scenes["cover-snow"](), 257)
    assert np.isfinite(image).all() and changed(edge_scenes["cover-snow"](), 257).all()


def test_subpixel_circles_touch_only_the_centres_they_sit_on(edge_scenes, edge_size):
    size = edge_size
    covered = np.argwhere(changed(edge_scenes["subpixel"](), size))
    pixels = list(range(10, 1000, 97))
    expected = [(y, x) for x, y in zip(pixels, pixels[::-1], strict=True)]
    assert sorted(map(tuple, covered)) == (sorted(expected) if size == 1000 else [])


def test_one_tile_scene_stays_in_its_tile(edge_scenes):
    covered = np.argwhere(changed(edge_scenes["one-tile"](), 1000))
    assert len(covered) > 100
    assert covered.min() >= 304 and covered.max() < 320


def test_every_edge_scene_is_named_and_valid(edge_scenes):
    for name, build in edge_scenes.items():
        scene = build()
        assert scene.name == f"edge-{name}"
        assert scene.position.dtype == scene.radius.dtype == np.float32
        assert np.all(scene.radius > 0)

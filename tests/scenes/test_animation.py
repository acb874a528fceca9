"""The animation rules of the built-in scenes, step by step in float32: bouncing balls, hypnosis,
fireworks and snow move as specified and reset exactly, and static scenes do not move."""

import numpy as np

from render.circles.reference import ReferenceRenderer, clear_image
from render.core.renderer import render_frame
from scenes import fireworks
from scenes.animation import advance
from scenes.builtin import build_scene
from scenes.model import CircleScene, empty_arrays

f32 = np.float32


def balls(y, vy):
    arrays = empty_arrays(len(y))
    arrays["position"][:, 1] = y
    arrays["velocity"][:, 1] = vy
    arrays["radius"][:] = 0.05
    return CircleScene("balls", **arrays, animation="bouncingballs")


def test_bouncing_ball_falls_bounces_and_rests():
    scene = balls([0.5, 0.0, -0.01], [0.0, 0.0, -0.5])
    advance(scene)
    dt = f32(1) / f32(60)
    assert scene.velocity[0, 1] == f32(0) + f32(-2.8) * dt  # falling from rest
    assert scene.position[0, 1] == f32(0.5) + scene.velocity[0, 1] * dt
    assert scene.position[1, 1] == 0 and scene.velocity[1, 1] == 0  # at rest stays
    assert scene.velocity[2, 1] > 0  # below the floor moving down: bounced
    assert scene.velocity[2, 1] == f32(-0.5) * f32(-0.8) + f32(-2.8) * dt


def test_hypnosis_grows_then_resets():
    scene = build_scene("hypnosis")
    before = scene.radius.copy()
    advance(scene)
    grew = before <= 0.5
    assert np.array_equal(scene.radius[grew], before[grew] + f32(0.01))
    scene.radius[:] = 0.51
    advance(scene)
    assert np.all(scene.radius == f32(0.02))


def test_fireworks_sparks_fly_and_reset_exactly():
    scene = build_scene("fireworks")
    start = scene.position.copy()
    advance(scene)
    assert np.array_equal(scene.position[:15], start[:15]), "centers never move"
    assert not np.array_equal(scene.position[15:], start[15:])
    for _ in range(200):
        advance(scene)
    center = np.arange(300) // 20
    dist = np.hypot(*(scene.position[15:, :2] - scene.position[center, :2]).T)
    assert dist.max() <= 0.25 + 0.2 / 60
    # A spark just past the limit restarts at its load-time place and speed.
    scene.position[15, :2] = scene.position[0, :2] + 0.3
    advance(scene)
    pos, vel = fireworks.spark_start(scene.position)
    assert np.array_equal(scene.position[15], pos[0]) and np.array_equal(scene.velocity[15], vel[0])


def test_snow_falls_and_first_frames_show_only_background():
    scene = build_scene("snow")
    renderer = ReferenceRenderer(workers=1)
    renderer.load(scene, 256, 256)
    background = clear_image(scene, 256, 256)
    start_y = scene.position[:, 1].mean()
    for frame in range(3):
        assert np.array_equal(render_frame(renderer, 0), background), frame
    assert renderer.scene.position[:, 1].mean() < start_y  # gravity wins over the flutter
    assert renderer.scene.velocity[:, 1].mean() < 0


def test_static_scenes_do_not_move():
    scene = build_scene("snowsingle")
    before = scene.position.copy()
    advance(scene)
    assert np.array_equal(scene.position, before)

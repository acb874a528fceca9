"""The shaded view's camera on the GPU (skipped without a CUDA GPU): zoom and pan reach the kernels
through the same ShadeParams as the CPU reference, and the copied command, with its ``--variant``,
renders the app's GPU frame again bit for bit.

Run on the lent GPU: ``python3 -m pytest -m gpu tests/app/test_gpu_camera.py``.
"""

import shlex

import numpy as np
import pytest
from PIL import Image

from app.camera import shading_of
from app.cli import main
from app.reproduce import render_command
from app.session import Session
from app.settings import Settings
from render.core.image_io import to_rgb8
from render.spheres.shading import shade_reference
from scenes.spheres import random_spheres

pytestmark = pytest.mark.gpu


@pytest.fixture
def shaded(tmp_path):
    settings = Settings(
        renderer="spheres",
        sphere_scene="random",
        sphere_count=700,
        sphere_seed=3,
        sphere_view="shaded",
        size=320,
        export_folder=str(tmp_path / "exports"),
    )
    made = Session(settings, backend="cuda")
    yield made
    made.close()


@pytest.mark.parametrize("variant", ["global", "constant", "shared-tiled", "readonly", "constant-divergent"])
def test_zoom_and_pan_on_every_variant_equal_the_reference(shaded, variant):
    assert shaded.set_variant(variant), shaded.status
    shaded.step()
    shaded.step()
    shaded.orbit(-13.2, 4.4)
    shaded.zoom(4.5)
    shaded.pan(-37, 21, 400)
    shaded.set_material(roughness=0.2, metalness=0.9)
    assert shaded.update()
    expected = shade_reference(random_spheres(700, 3), 320, shading_of(shaded.settings).orbited(2))
    assert np.array_equal(shaded.device_image().get(), expected)
    shaded.zoom(-1000)
    shaded.pan(1e6, -1e6, 400)
    assert shaded.update()
    expected = shade_reference(random_spheres(700, 3), 320, shading_of(shaded.settings).orbited(2))
    assert np.array_equal(shaded.device_image().get(), expected)


def test_the_copied_command_renders_the_gpu_frame(shaded, tmp_path, monkeypatch):
    assert shaded.set_variant("shared-tiled"), shaded.status
    for _ in range(3):
        shaded.step()
    shaded.orbit(0.1 + 0.2, -7.5)
    shaded.zoom(1.3)
    shaded.pan(12, -8, 512)
    assert shaded.update()
    frame = to_rgb8(shaded.host_image())
    monkeypatch.chdir(tmp_path)
    words = shlex.split(render_command(shaded))
    assert "--variant" in words and "--backend" not in words
    assert main(words[1:]) == 0
    assert np.array_equal(np.asarray(Image.open(tmp_path / words[-1])), frame)


def test_the_copied_command_renders_a_circle_frame_on_the_gpu(tmp_path, monkeypatch):
    session = Session(Settings(scene="bouncingballs", seed=4, size=256), backend="cuda")
    try:
        assert session.set_variant("tile-scan:tile=32,scan=hillis-steele"), session.status
        for _ in range(5):
            session.step()
        assert session.update()
        frame = to_rgb8(session.host_image())
        monkeypatch.chdir(tmp_path)
        words = shlex.split(render_command(session))
        assert main(words[1:]) == 0
        assert np.array_equal(np.asarray(Image.open(tmp_path / words[-1])), frame)
    finally:
        session.close()

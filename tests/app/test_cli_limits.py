"""Work is bounded or instant: a static scene's frame k costs no advances (nor does the classic sphere
view's), an animated one has a documented upper bound, and a size the host cannot allocate is one line
where the allocation is made. A radius whose square overflows float32 covers everything, warning-free."""

import resource

import numpy as np
import pytest

from app.cli import main
from render.circles.reference import ReferenceRenderer
from render.core import limits


def test_any_frame_of_a_static_scene_costs_one_advance(tmp_path, monkeypatch):
    calls = []
    advance = ReferenceRenderer.advance
    monkeypatch.setattr(ReferenceRenderer, "advance", lambda self: calls.append(1) or advance(self))
    far, first = tmp_path / "far.npy", tmp_path / "first.npy"
    base = ["render", "--scene", "rgby", "--size", "16", "--backend", "cpu"]
    assert main([*base, "--frame", str(limits.FRAME.high), "--raw", str(far)]) == 0
    assert calls == [1]
    assert main([*base, "--raw", str(first)]) == 0
    assert np.array_equal(np.load(far), np.load(first))


def test_an_animated_scene_renders_up_to_its_bound(tmp_path):
    out = tmp_path / "b.npy"
    args = ["render", "--scene", "bouncingballs", "--size", "8", "--backend", "cpu", "--raw", str(out)]
    assert main([*args, "--frame", str(limits.ANIMATED_FRAME.high)]) == 0 and out.exists()


def _address_space_1500_mib():
    resource.setrlimit(resource.RLIMIT_AS, (1500 * 2**20, 1500 * 2**20))


@pytest.mark.parametrize(
    "args, message",
    [
        (["--scene", "rgb"], "not enough host memory for rgb (3 circles) at 16384x16384"),
        (["--renderer", "spheres", "--scene", "classic"], "not enough host memory for the classic sphere view"),
    ],
)
def test_a_size_the_host_cannot_allocate_is_one_line(tmp_path, args, message, run_main):
    out = tmp_path / "big.png"
    command = ["render", *args, "--size", "16384", "--backend", "cpu", "--out", out]
    result = run_main(*command, timeout=120, preexec_fn=_address_space_1500_mib)
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert result.returncode == 1 and len(errors) == 1 and message in errors[0], result.stderr
    assert "Traceback" not in result.stderr and list(tmp_path.iterdir()) == []


def test_sphere_frames_orbit_in_the_shaded_view_and_cost_nothing_in_the_classic_one():
    from render.core.renderer import render_frame
    from render.spheres.shading import ShadeSettings, reference_image
    from render.spheres.view import SphereView
    from scenes.spheres import random_spheres

    scene, shading = random_spheres(12, 3), ShadeSettings()
    classic = SphereView(None, "classic", shading)
    classic.load(scene, 48, 48)
    assert not classic.animated
    assert np.array_equal(render_frame(classic, limits.FRAME.high), render_frame(classic, 0))
    shaded = SphereView(None, "shaded", shading)
    shaded.load(scene, 48, 48)
    expected = reference_image(scene, 48, "shaded", shading.orbited(2)).astype(np.float32) / np.float32(255)
    assert shaded.animated and np.array_equal(render_frame(shaded, 2), expected)


def test_a_radius_whose_square_overflows_float32_covers_everything_without_warnings():
    import warnings

    from render.core.renderer import render_frame
    from scenes.model import CircleScene, empty_arrays

    arrays = empty_arrays(1)
    arrays["radius"][:], arrays["position"][:], arrays["color"][:] = 3e19, 0.5, (1, 0, 0)
    renderer = ReferenceRenderer()
    renderer.load(CircleScene("huge", **arrays), 8, 8)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        image = render_frame(renderer, 0)
    assert np.all(image[..., :3] == np.float32([1, 0.5, 0.5]))

"""The shaded view's camera without a window: zoom, pan and reset through the Session (CPU backend),
their limits, the settings file and command-line options that hold them, and the command line that
renders the app's frame again (``app.reproduce``)."""

import json
import shlex
import time

import numpy as np
import pytest

from app.camera import shading_of
from app.cli import main
from app.cli_args import build_parser
from app.reproduce import copy_render_command, render_command
from app.session import Session
from app.settings import Settings, load_settings, save_settings
from render.core.image_io import to_rgb8
from render.core.limits import ANIMATED_FRAME, DISTANCE, PAN
from render.core.renderer import render_frame
from render.spheres.shading import ShadeSettings, shade_reference
from render.spheres.view import SphereView
from scenes.spheres import build_sphere_scene

CLASSIC = build_sphere_scene("classic")


def shown_bytes(session, timeout=60):
    """The CPU frame once it arrives, uint8 (size, size, 4), row 0 = bottom."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if session.update():
            return np.rint(session.host_image() * 255).astype(np.uint8)
        time.sleep(0.002)
    raise AssertionError("no frame within the timeout")


@pytest.fixture
def shaded(tmp_path):
    """The classic spheres in the shaded view at 256, on the CPU backend."""
    settings = Settings(renderer="spheres", sphere_view="shaded", size=256, export_folder=str(tmp_path / "x"))
    made = Session(settings, backend="cpu")
    yield made
    made.close()


def test_the_wheel_zooms_in_steps_within_the_distance_limit(shaded):
    shaded.zoom(2)
    assert shaded.settings.camera_distance == 2000.0 * 1.1**-2
    expected = shade_reference(CLASSIC, 256, ShadeSettings(distance=2000.0 * 1.1**-2))
    assert np.array_equal(shown_bytes(shaded), expected)
    shaded.zoom(100)
    assert shaded.settings.camera_distance == DISTANCE.low == shaded.renderer.camera.distance
    shaded.zoom(-1000)
    assert shaded.settings.camera_distance == DISTANCE.high == shaded.renderer.camera.distance
    assert np.array_equal(shown_bytes(shaded), shade_reference(CLASSIC, 256, ShadeSettings(distance=DISTANCE.high)))
    shaded.zoom(-1e308)  # 1.1 ** 1e308 overflows a float
    assert shaded.settings.camera_distance == DISTANCE.high
    shaded.zoom(1e308)
    assert shaded.settings.camera_distance == DISTANCE.low
    for broken in (float("nan"), float("inf"), -float("inf")):
        shaded.zoom(broken)
        assert shaded.settings.camera_distance == DISTANCE.low == shaded.renderer.camera.distance


def test_a_pan_keeps_the_look_at_plane_under_the_mouse(shaded):
    """A drag 40 pixels right and 25 down over a picture shown 520 pixels high moves the old look-at
    point (the origin) 40 pixels right and 25 down from the picture's centre."""
    shaded.zoom(3)
    shaded.pan(40, 25, 520)
    camera = shading_of(shaded.settings)
    params = camera.params().astype(np.float64)
    eye, forward, right, up = params[0:3], params[3:6], params[6:9], params[9:12]
    origin = -eye
    depth = origin @ forward
    right_pixels = (origin @ right) / (depth * (right @ right)) * 260
    down_pixels = -(origin @ up) / (depth * (up @ up)) * 260
    assert depth == pytest.approx(camera.distance)
    assert (right_pixels, down_pixels) == (pytest.approx(40, abs=0.01), pytest.approx(25, abs=0.01))
    assert camera.pan[0] < 0 < camera.pan[1]
    assert np.array_equal(shown_bytes(shaded), shade_reference(CLASSIC, 256, camera))


def test_a_pan_stops_at_its_limit_and_ignores_a_hidden_picture(shaded):
    shaded.pan(-1e6, -1e6, 100)
    assert (shaded.settings.camera_pan_x, shaded.settings.camera_pan_y) == (PAN.high, PAN.low)
    assert shaded.renderer.camera.pan == (PAN.high, PAN.low)
    for right, down, shown in ((50, 50, 0), (float("nan"), 1, 300), (1, float("inf"), 300), (1, 1, float("nan"))):
        shaded.pan(right, down, shown)  # a minimized window shows no picture; a broken mouse moves nothing
        assert (shaded.settings.camera_pan_x, shaded.settings.camera_pan_y) == (PAN.high, PAN.low)


def test_reset_camera_restores_the_defaults_and_keeps_material_and_frame(shaded):
    shown_bytes(shaded)
    shaded.step()
    shaded.orbit(12.4, -7.2)
    shaded.zoom(-3)
    shaded.pan(30, -10, 400)
    shaded.set_material(roughness=0.7)
    shaded.reset_camera()
    fields = ("camera_azimuth", "camera_elevation", "camera_distance", "camera_pan_x", "camera_pan_y")
    assert [getattr(shaded.settings, f) for f in fields] == [getattr(Settings(), f) for f in fields]
    assert shaded.settings.roughness == 0.7 and shaded.frame == 1
    assert np.array_equal(shown_bytes(shaded), shade_reference(CLASSIC, 256, ShadeSettings(roughness=0.7).orbited(1)))


def test_a_camera_changed_at_frame_k_is_what_a_new_render_of_frame_k_shows(shaded):
    for _ in range(3):
        shaded.step()
    shaded.orbit(0.1 + 0.2, 0.7)  # azimuths whose sums round differently in other orders
    shaded.zoom(0.5)
    shaded.pan(3, 7, 333)
    fresh = SphereView(None, "shaded", shading_of(shaded.settings))
    fresh.load(CLASSIC, 256, 256)
    expected = np.rint(render_frame(fresh, 3) * 255).astype(np.uint8)
    assert np.array_equal(shown_bytes(shaded), expected)
    assert shaded.shown_camera() == fresh.shading
    assert fresh.shading.azimuth == (shaded.settings.camera_azimuth + 3) % 360


def test_the_settings_file_keeps_the_camera_and_refuses_bad_values(tmp_path):
    path = tmp_path / "settings.json"
    saved = Settings(camera_distance=777.5, camera_pan_x=-12.25, camera_pan_y=1e-7, camera_azimuth=359.5)
    assert save_settings(saved, path) is None and load_settings(path) == (saved, None)
    for field, value, reason in (
        ("camera_distance", 0, "distance must be a finite number in 250..10000, got 0"),
        ("camera_distance", 1e300, "distance must be a finite number in 250..10000"),
        ("camera_distance", "far", "distance must be a finite number in 250..10000, got 'far'"),
        ("camera_pan_x", 1000.5, "pan must be a finite number in -1000..1000, got 1000.5"),
        ("camera_pan_y", True, "pan must be a finite number in -1000..1000, got True"),
        ("camera_pan_y", [1, 2], "pan must be a finite number in -1000..1000"),
    ):
        path.write_text(json.dumps({"camera_distance": 900, "camera_pan_x": 5, field: value}))
        settings, warning = load_settings(path)
        assert f"field {field!r}: {reason}" in warning and "using the default" in warning, warning
        assert getattr(settings, field) == getattr(Settings(), field)
        kept = {"camera_distance": 900.0, "camera_pan_x": 5.0}
        kept.pop(field, None)
        assert all(getattr(settings, key) == value for key, value in kept.items())
        assert type(settings.camera_distance) is float


@pytest.mark.parametrize(
    "extra, message",
    [
        ("--distance 249.9", "distance must be a finite number in 250..10000, got 249.9"),
        ("--distance 1e5", "distance must be a finite number in 250..10000, got 100000.0"),
        ("--distance inf", "distance must be a finite number in 250..10000, got inf"),
        ("--pan 1", "pan must be X,Y, two numbers in -1000..1000, got '1'"),
        ("--pan 1,2,3", "pan must be X,Y, two numbers in -1000..1000, got '1,2,3'"),
        ("--pan=-1000.5,0", "pan must be a finite number in -1000..1000, got -1000.5"),
        ("--pan 0,nan", "pan must be a finite number in -1000..1000, got nan"),
        ("--pan x,1", "pan must be a number in -1000..1000, got 'x'"),
        ("--pan ' 1,1'", "pan must be a number in -1000..1000, got ' 1'"),
    ],
)
@pytest.mark.parametrize("command", ["render --renderer spheres --scene classic --view shaded", "gui --frames 1"])
def test_out_of_range_camera_options_exit_2(call_main, tmp_path, command, extra, message):
    code, lines = call_main([*shlex.split(command), *shlex.split(extra), "--out", str(tmp_path / "o.png")])
    assert code == 2 and "error: " in lines[-1] and message in lines[-1], lines
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "args, message",
    [
        (["render", "--scene", "rgb", "--distance", "500"], "--distance applies to --renderer spheres"),
        (["render", "--renderer", "spheres", "--scene", "classic", "--pan", "1,1"], "--pan applies to --view shaded"),
        (["gui", "--frames", "1", "--renderer", "circles", "--pan", "1,1"], "--pan applies to --renderer spheres"),
    ],
)
def test_camera_options_elsewhere_are_one_line(call_main, args, message):
    code, lines = call_main(args)
    assert code == 2 and lines == [f"error: {message}"], lines


def test_render_takes_distance_and_pan(tmp_path):
    raw = tmp_path / "s.npy"
    args = ["render", "--renderer", "spheres", "--scene", "classic", "--view", "shaded", "--size", "64"]
    assert main([*args, "--distance", "900", "--pan=-50.5,20", "--backend", "cpu", "--raw", str(raw)]) == 0
    expected = shade_reference(CLASSIC, 64, ShadeSettings(distance=900, pan=(-50.5, 20)))[::-1]
    assert np.array_equal(np.load(raw), expected.astype(np.float32) / np.float32(255))


def test_gui_starts_from_the_camera_it_is_given(monkeypatch):
    import app.launch

    given = []
    monkeypatch.setattr(app.launch, "run_gui", lambda options: given.append(options) or 0)
    args = ["gui", "--frames", "1", "--distance", "600", "--pan=-3,4.5", "--azimuth=-20", "--roughness", "0.5"]
    assert main(args) == 0
    settings = Settings()
    app.launch._apply(settings, given[0])
    assert (settings.camera_distance, settings.camera_pan_x, settings.camera_pan_y) == (600.0, -3.0, 4.5)
    assert (settings.camera_azimuth, settings.roughness, settings.camera_elevation) == (-20.0, 0.5, 20.0)


# -- the command line of the frame shown ----------------------------------------------------------


def parsed(command):
    words = shlex.split(command)
    assert words[:2] == ["rasterlab", "render"]
    return build_parser().parse_args(words[1:])


def test_the_command_names_every_value_exactly_and_parses_back(shaded, tmp_path):
    shaded.orbit(0.1 + 0.2, -20.000000000000004)  # elevation -4e-15: a value with a leading "-"
    shaded.zoom(1.7)
    shaded.pan(1 / 3, 2 / 7, 517)
    shaded.set_material(roughness=0.01, metalness=1 / 3)
    shaded.step()
    args = parsed(render_command(shaded, tmp_path))
    camera = shading_of(shaded.settings)
    assert args.elevation == camera.elevation < 0 and args.pan == camera.pan
    assert (args.azimuth, args.distance, args.roughness, args.metalness) == (
        camera.azimuth,
        camera.distance,
        camera.roughness,
        camera.metalness,
    )
    assert (args.renderer, args.scene, args.frame, args.size, args.view) == ("spheres", "classic", 1, 256, "shaded")
    assert (args.backend, args.variant, args.seed, args.count) == ("cpu", None, None, None)
    assert args.out == "classic_reference_shaded_0001.png"


def test_the_command_renders_the_frame_shown(shaded, tmp_path, monkeypatch):
    shaded.step()
    shaded.step()
    shaded.orbit(-7.6, 3.2)
    shaded.zoom(-0.9)
    shaded.pan(-11, 6, 300)
    shaded.set_material(metalness=0.45)
    shown_bytes(shaded)
    frame = to_rgb8(shaded.host_image())
    monkeypatch.chdir(tmp_path)
    words = shlex.split(render_command(shaded))
    assert main(words[1:]) == 0
    from PIL import Image

    assert np.array_equal(np.asarray(Image.open(tmp_path / words[-1])), frame)


def test_a_random_scene_names_its_count_and_seed_and_a_file_neither(shaded, tmp_path, monkeypatch):
    from scenes.files import save_sphere_scene
    from scenes.spheres import random_spheres

    # What is named, not whether a busy machine's estimate asks first (a 1024-sphere CPU frame is near 3 s).
    monkeypatch.setattr("app.slow_changes.CPU_WARN_SECONDS", float("inf"))
    assert shaded.select_scene("random") and shaded.set_sphere_count(77) and shaded.set_seed(5)
    args = parsed(render_command(shaded, tmp_path))
    assert (args.scene, args.count, args.seed) == ("random", 77, 5)
    (tmp_path / "a dir").mkdir()
    path = save_sphere_scene(random_spheres(9, 2), tmp_path / "a dir" / "it's.npz")
    assert shaded.select_scene(str(path)), shaded.status
    args = parsed(render_command(shaded, tmp_path))
    assert (args.scene, args.count, args.seed) == (str(path), None, None)
    assert args.out == "it's_reference_shaded_0000.png"


def test_a_relative_scene_file_is_named_by_its_absolute_path(shaded, tmp_path, monkeypatch):
    from scenes.files import save_sphere_scene
    from scenes.spheres import random_spheres

    monkeypatch.chdir(tmp_path)
    save_sphere_scene(random_spheres(9, 2), tmp_path / "-dash.npz")
    assert shaded.select_scene("./-dash.npz"), shaded.status
    command = render_command(shaded)
    assert parsed(command).scene == str(tmp_path / "-dash.npz")
    assert parsed(command).out == "-dash_reference_shaded_0000.png" and "--out=-dash_" in command


def test_a_scene_file_with_a_long_name_gives_an_output_name_that_fits(shaded, tmp_path):
    from scenes.files import save_sphere_scene
    from scenes.spheres import random_spheres

    long_name = "\u00e9" * 120 + ".npz"  # 244 bytes in UTF-8: a file name, but not with a suffix added
    assert shaded.select_scene(str(save_sphere_scene(random_spheres(3, 1), tmp_path / long_name))), shaded.status
    assert parsed(render_command(shaded, tmp_path)).out == "spheres_reference_shaded_0000.png"


def test_the_output_name_is_one_that_is_free(shaded, tmp_path):
    (tmp_path / "classic_reference_shaded_0000.png").write_bytes(b"mine")
    (tmp_path / "classic_reference_shaded_0000-2.png").mkdir()
    assert parsed(render_command(shaded, tmp_path)).out == "classic_reference_shaded_0000-3.png"
    assert (tmp_path / "classic_reference_shaded_0000.png").read_bytes() == b"mine"


def test_a_frame_the_command_line_refuses_is_not_copied(shaded, tmp_path):
    copied = []
    shaded.frame = ANIMATED_FRAME.high + 1  # played that far
    assert copy_render_command(shaded, copied.append, tmp_path) is None and copied == []
    assert shaded.status == (
        f"cannot copy a command: frame {ANIMATED_FRAME.high + 1} is outside the command line's frames of an "
        f"animated scene, {ANIMATED_FRAME.text()} (Reset goes back to frame 0)"
    )
    assert shaded.set_view("classic")  # a static picture: any frame renders
    command = copy_render_command(shaded, copied.append, tmp_path)
    assert copied == [command] and shaded.status == f"copied: {command}"
    assert parsed(command).frame == ANIMATED_FRAME.high + 1 and parsed(command).view == "classic"
    assert "--azimuth" not in command


def test_circles_name_the_seed_of_a_built_in_scene_and_the_cuda_variant(tmp_path):
    session = Session(Settings(scene="bouncingballs", seed=9, size=256), backend="cpu")
    try:
        args = parsed(render_command(session, tmp_path))
        assert (args.renderer, args.scene, args.seed, args.backend) == ("circles", "bouncingballs", 9, "cpu")
        assert (args.view, args.azimuth, args.count) == (None, None, None)
        # What a GPU session's command says (no GPU renders here): its variant, options and all.
        session.backend = "cuda"
        session.variant = session.kind.variants.parse("tile-scan:tile=32,scan=blelloch")
        args = parsed(render_command(session, tmp_path))
        assert args.backend is None and session.kind.variants.parse(args.variant) == session.variant
        assert args.out == "bouncingballs_tile-scan_scan-blelloch_test-box_tile-32_0000.png"
    finally:
        session.close()


def test_a_name_that_cannot_be_pasted_or_resolved_is_one_status_line(shaded, tmp_path, monkeypatch):
    import os

    from scenes.files import save_sphere_scene
    from scenes.spheres import random_spheres

    odd = os.fsdecode(b"\xff\xfe.npz")  # not UTF-8: the clipboard has no text for it
    assert shaded.select_scene(str(save_sphere_scene(random_spheres(3, 1), tmp_path / odd))), shaded.status
    copied = []
    assert copy_render_command(shaded, copied.append, tmp_path) is None and copied == []
    assert shaded.status.startswith("cannot copy a command: the scene file's name cannot be pasted (")
    assert shaded.status.isprintable()
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    save_sphere_scene(random_spheres(3, 1), gone / "here.npz")
    assert shaded.select_scene("here.npz"), shaded.status
    gone.joinpath("here.npz").unlink()
    gone.rmdir()  # the working folder is removed: "here.npz" has no absolute path any more
    assert copy_render_command(shaded, copied.append, tmp_path) is None and copied == []
    assert shaded.status == "cannot copy a command: No such file or directory"

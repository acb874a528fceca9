"""The shaded view's camera in the real window under Xvfb (CPU backend), driven by ImGui's own mouse
and key events: the wheel zooms and shift + drag pans over the picture (not over the panel), "Reset
camera" restores the defaults, the help lists the gestures, and "Copy command" puts on the clipboard
a ``rasterlab render`` line that writes the very pixels the app shows."""

import shlex

import numpy as np
import pytest
from imgui_bundle import imgui
from PIL import Image

import app.panel as panel_module
import app.panel_camera as panel_camera
from render.core.image_io import to_rgb8
from render.core.limits import DISTANCE
from render.spheres.shading import ShadeSettings, shade_reference
from scenes.spheres import build_sphere_scene, random_spheres

OVER_PICTURE = (640, 300)  # the 900x600 window's picture is right of the 380-pixel panel
OVER_PANEL = (100, 300)
SHOWN_PIXELS = 520  # the square picture fits the 520x600 space beside the panel


def shown_bytes(app, run_until_shown):
    """The frame on screen once it arrived: uint8 (size, size, 4), row 0 = bottom."""
    run_until_shown(app)
    return np.rint(app.session.host_image() * 255).astype(np.uint8)


def classic_shaded(camera):
    return shade_reference(build_sphere_scene("classic"), 256, camera)


@pytest.fixture
def shaded(app, run_until_shown):
    """The app showing the classic spheres in the shaded view."""
    assert app.session.set_renderer("spheres") and app.session.set_view("shaded")
    run_until_shown(app)
    return app


def wheel(app, notches, where=OVER_PICTURE):
    io = imgui.get_io()
    io.add_mouse_pos_event(*where)
    app.frame()
    io.add_mouse_wheel_event(0, notches)
    app.frame()


def drag(app, start, steps, shift=False):
    """A left-button drag from ``start`` by each (dx, dy) of ``steps``, one per frame."""
    io = imgui.get_io()
    io.add_mouse_pos_event(*start)
    app.frame()
    if shift:
        io.add_key_event(imgui.Key.mod_shift, True)
    io.add_mouse_button_event(0, True)
    app.frame()
    x, y = start
    for dx, dy in steps:
        x, y = x + dx, y + dy
        io.add_mouse_pos_event(x, y)
        app.frame()
    io.add_mouse_button_event(0, False)
    if shift:
        io.add_key_event(imgui.Key.mod_shift, False)
    app.frame()


class _ButtonSpy:
    """Stands in for ``imgui`` in a panel module, noting where each button is drawn."""

    def __init__(self):
        self.centres = {}

    def __getattr__(self, name):
        real = getattr(imgui, name)
        if name != "button":
            return real

        def button(label, *args, **kwargs):
            pressed = real(label, *args, **kwargs)
            low, high = imgui.get_item_rect_min(), imgui.get_item_rect_max()
            self.centres[label] = ((low.x + high.x) / 2, (low.y + high.y) / 2)
            return pressed

        return button


@pytest.fixture
def click(monkeypatch):
    """``click(app, label)``: press and release the mouse on the camera module's button ``label``."""
    spy = _ButtonSpy()
    monkeypatch.setattr(panel_camera, "imgui", spy)

    def press(window, label):
        window.frame()
        io = imgui.get_io()
        height = window.surface.window_size()[1]
        for _ in range(50):  # scroll the panel down, with the wheel over it, until the button shows
            if spy.centres[label][1] < height - 60:  # clear of the status bar under the panel
                break
            io.add_mouse_pos_event(20, height / 2)
            io.add_mouse_wheel_event(0, -1)
            window.frame()
            window.frame()
        io.add_mouse_pos_event(*spy.centres[label])
        window.frame()
        io.add_mouse_button_event(0, True)
        window.frame()
        io.add_mouse_button_event(0, False)
        window.frame()

    return press


def test_the_wheel_over_the_picture_zooms_and_over_the_panel_does_not(shaded, run_until_shown):
    settings = shaded.session.settings
    wheel(shaded, 1)
    assert settings.camera_distance == 2000.0 * 1.1**-1
    zoomed = ShadeSettings(distance=settings.camera_distance)
    assert np.array_equal(shown_bytes(shaded, run_until_shown), classic_shaded(zoomed))
    texture = shaded.display.read_texture()
    assert np.array_equal(texture[..., :3], classic_shaded(zoomed)[..., :3])
    wheel(shaded, 3, OVER_PANEL)
    assert settings.camera_distance == 2000.0 * 1.1**-1


def test_the_wheel_stops_at_the_distance_limits(shaded, run_until_shown):
    settings = shaded.session.settings
    wheel(shaded, 40)
    assert settings.camera_distance == DISTANCE.low
    assert np.array_equal(shown_bytes(shaded, run_until_shown), classic_shaded(ShadeSettings(distance=DISTANCE.low)))
    wheel(shaded, -80)
    assert settings.camera_distance == DISTANCE.high


def test_shift_drag_pans_so_the_picture_follows_the_mouse(shaded, run_until_shown):
    settings = shaded.session.settings
    drag(shaded, OVER_PICTURE, [(10, 4)] * 5, shift=True)
    scale = ShadeSettings().world_per_pixel(SHOWN_PIXELS)
    assert settings.camera_pan_x == pytest.approx(-50 * scale)
    assert settings.camera_pan_y == pytest.approx(20 * scale)
    assert (settings.camera_azimuth, settings.camera_elevation) == (30.0, 20.0)  # no orbit
    panned = ShadeSettings(pan=(settings.camera_pan_x, settings.camera_pan_y))
    assert np.array_equal(shown_bytes(shaded, run_until_shown), classic_shaded(panned))
    drag(shaded, OVER_PICTURE, [(10, 0)] * 3)  # without shift: an orbit, the pan kept
    assert settings.camera_azimuth == pytest.approx(30 - 30 * 0.4) and settings.camera_pan_x == panned.pan[0]


def test_reset_camera_restores_the_default_picture(shaded, run_until_shown, click):
    drag(shaded, OVER_PICTURE, [(12, -9)] * 4)
    drag(shaded, OVER_PICTURE, [(-7, 5)] * 3, shift=True)
    wheel(shaded, -2.5)
    settings = shaded.session.settings
    assert (settings.camera_azimuth, settings.camera_pan_x, settings.camera_distance) != (30.0, 0.0, 2000.0)
    click(shaded, "Reset camera")
    assert (settings.camera_azimuth, settings.camera_elevation, settings.camera_distance) == (30.0, 20.0, 2000.0)
    assert (settings.camera_pan_x, settings.camera_pan_y) == (0.0, 0.0)
    assert np.array_equal(shown_bytes(shaded, run_until_shown), classic_shaded(ShadeSettings()))


class _TextSpy:
    """Stands in for ``imgui`` in the panel, noting every ``text`` line drawn."""

    def __init__(self):
        self.lines = []

    def __getattr__(self, name):
        real = getattr(imgui, name)
        if name != "text":
            return real

        def text(line, *args):
            self.lines.append(" ".join(line.split()))
            return real(line, *args)

        return text


def test_the_help_lists_the_mouse_gestures(app, monkeypatch):
    spy = _TextSpy()
    monkeypatch.setattr(panel_module, "imgui", spy)
    imgui.get_io().add_key_event(imgui.Key.h, True)
    app.frame()
    imgui.get_io().add_key_event(imgui.Key.h, False)
    app.frame()
    assert app.panel.show_help
    for line in ("Drag orbit the camera", "Shift+drag pan the camera", "Wheel zoom the camera", "Space play"):
        assert any(drawn.startswith(line) for drawn in spy.lines), spy.lines


def copy_and_run(window, click, run_main, run_until_shown, folder):
    """Press "Copy command", run the copied line with main.py in ``folder``; the PNG it wrote and the
    frame the app shows, both uint8 (S, S, 3), row 0 = top."""
    window.surface.set_size(900, 1000)  # the whole panel, its export buttons included, on screen
    run_until_shown(window)
    shown = to_rgb8(window.session.host_image())
    imgui.set_clipboard_text("")
    click(window, "Copy command")
    command = imgui.get_clipboard_text()
    assert command.startswith("rasterlab render ") and window.session.status == f"copied: {command}"
    words = shlex.split(command)
    result = run_main(*words[1:], cwd=folder)
    assert result.returncode == 0, (command, result.stderr)
    assert not window.session.frame_outstanding  # the clicks changed nothing the app shows
    return np.asarray(Image.open(folder / words[-1])), shown, command


def test_copy_command_renders_the_shaded_frame_shown(shaded, run_until_shown, click, run_main, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    drag(shaded, OVER_PICTURE, [(9, -5)] * 3)
    wheel(shaded, 1.5)
    drag(shaded, OVER_PICTURE, [(-6, 7)] * 2, shift=True)
    shaded.session.set_material(roughness=0.6180339887, metalness=0.3)
    shaded.session.step()
    shaded.session.step()
    written, shown, command = copy_and_run(shaded, click, run_main, run_until_shown, tmp_path)
    assert np.array_equal(written, shown)
    for option in ("--frame 2", "--azimuth", "--elevation", "--distance", "--pan", "--roughness 0.6180339887"):
        assert option in command
    # The frame shown differs from the default camera's, so the pixels say the camera was applied.
    assert not np.array_equal(shown, classic_shaded(ShadeSettings())[::-1, :, :3])


def test_copy_command_renders_a_circle_scene_at_a_frame_and_seed(app, run_until_shown, click, run_main, tmp_path):
    session = app.session
    assert session.select_scene("bouncingballs") and session.set_seed(9)
    for _ in range(3):
        session.step()
    written, shown, command = copy_and_run(app, click, run_main, run_until_shown, tmp_path)
    assert np.array_equal(written, shown)
    assert "--scene bouncingballs --seed 9 --frame 3 --size 256 --backend cpu" in command
    assert (tmp_path / "bouncingballs_reference_0003.png").is_file()


def test_copy_command_renders_a_scene_file_whose_path_has_a_space(shaded, run_until_shown, click, run_main, tmp_path):
    folder = tmp_path / "my scenes"
    folder.mkdir()
    from scenes.files import save_sphere_scene

    path = save_sphere_scene(random_spheres(60, 4), folder / "it's a scene.npz")
    session = shaded.session
    assert session.set_sphere_count(300)  # the random scene's count: not the file's
    assert session.select_scene(str(path)), session.status
    wheel(shaded, 2)
    session.step()
    out = tmp_path / "out"
    out.mkdir()
    written, shown, command = copy_and_run(shaded, click, run_main, run_until_shown, out)
    assert np.array_equal(written, shown)
    assert shlex.quote(str(path)) in command and "--count" not in command and "--seed" not in command

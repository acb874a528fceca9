"""The real window under Xvfb with Mesa's OpenGL (no GPU): open, draw, switch, shortcuts, resize,
export, the interop fallback, and the ``gui`` command windowed and headless (EGL).

CI installs Xvfb (``.ci/run``) and sets RASTERLAB_REQUIRE_GUI=1, so there a missing X server fails
these tests instead of skipping them.
"""

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def x_display():
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        if os.environ.get("RASTERLAB_REQUIRE_GUI"):
            pytest.fail("Xvfb is not installed (see .ci/run for the packages)")
        pytest.skip("Xvfb is not installed")
    read_end, write_end = os.pipe()
    server = subprocess.Popen(
        [xvfb, "-displayfd", str(write_end), "-screen", "0", "1600x1000x24", "-nolisten", "tcp", "-noreset"],
        pass_fds=(write_end,),
        stderr=subprocess.DEVNULL,
    )
    os.close(write_end)
    with os.fdopen(read_end) as stream:
        display = f":{stream.readline().strip()}"
    previous = os.environ.get("DISPLAY")
    os.environ["DISPLAY"] = display
    yield display
    if previous is None:
        os.environ.pop("DISPLAY")
    else:
        os.environ["DISPLAY"] = previous
    server.terminate()
    server.wait(10)


@pytest.fixture
def config(tmp_path, monkeypatch):
    folder = tmp_path / "config"
    monkeypatch.setenv("RASTERLAB_CONFIG_DIR", str(folder))
    return folder


@pytest.fixture
def app(x_display, config, tmp_path):
    from app.session import Session
    from app.settings import Settings
    from app.surfaces import GlfwWindow
    from app.window import App

    settings = Settings(scene="rgb", size=256, vsync=False, export_folder=str(tmp_path / "exports"))
    made = App(GlfwWindow(900, 600, "rasterlab test"), Session(settings, backend="cpu"))
    yield made
    made.close()


def run_until_shown(app, timeout=60):
    """Loop the window until the CPU frame is on screen; returns the framebuffer, row 0 = top."""
    from app.surfaces import read_framebuffer

    deadline = time.monotonic() + timeout
    app.frame()
    while app.session.frame_outstanding and time.monotonic() < deadline:
        app.frame()
        time.sleep(0.002)
    assert not app.session.frame_outstanding, "the frame never arrived"
    app.frame()
    return read_framebuffer(*app.surface.framebuffer_size())


def expected_rgb8(name, size, frame=0):
    from render.circles.reference import ReferenceRenderer
    from render.core.image_io import to_rgb8
    from render.core.renderer import render_frame
    from scenes.builtin import build_scene

    renderer = ReferenceRenderer(workers=1)
    renderer.load(build_scene(name), size, size)
    return to_rgb8(render_frame(renderer, frame))


def frame_in_window(app, screen):
    """The shown frame's pixels at texel centres, sampled from the window; uint8 (S, S, 3), row 0 = top."""
    size = app.session.settings.size
    left, bottom, width, height = app.display.draw(*app.view_rect())
    fb_height = screen.shape[0]
    centres = (np.arange(size) + 0.5) / size
    columns = (left + centres * width).astype(int)
    rows = fb_height - 1 - (bottom + centres[::-1] * height).astype(int)
    return screen[np.ix_(rows, columns)]


def press(app, key):
    from imgui_bundle import imgui

    imgui.get_io().add_key_event(key, True)
    app.frame()
    imgui.get_io().add_key_event(key, False)
    app.frame()


def test_window_shows_the_scene_exactly_and_the_panel(app):
    screen = run_until_shown(app)
    assert np.array_equal(frame_in_window(app, screen), expected_rgb8("rgb", 256))
    from imgui_bundle import imgui

    from app.window import BACKGROUND

    colour = imgui.get_style().color_(imgui.Col_.window_bg)
    blended = [
        colour.w * c + (1 - colour.w) * b for c, b in zip((colour.x, colour.y, colour.z), BACKGROUND, strict=True)
    ]
    panel = screen[300:, 5:350].reshape(-1, 3)
    share_of_panel_colour = np.mean(np.abs(panel.astype(int) - np.array(blended) * 255).max(axis=1) <= 2)
    assert share_of_panel_colour > 0.5  # mostly panel background, with text and widgets on it
    assert (screen[:, 5:350] > 200).any()  # light text on it


def test_switching_scene_and_variant_through_the_session(app):
    run_until_shown(app)
    app.session.select_scene("pattern")
    screen = run_until_shown(app)
    assert np.array_equal(frame_in_window(app, screen), expected_rgb8("pattern", 256))
    assert app.session.set_variant("tile-sort:tile=32")
    assert app.session.settings.variant == "tile-sort:test=box,tile=32"


def test_dropped_scene_file_opens(app, tmp_path):
    from scenes.builtin import build_scene
    from scenes.files import save_scene

    run_until_shown(app)
    path = save_scene(build_scene("pattern"), tmp_path / "dropped.json")
    app.surface.dropped.append(str(path))  # what GLFW's drop callback does
    screen = run_until_shown(app)
    assert app.session.settings.scene == str(path)
    assert np.array_equal(frame_in_window(app, screen), expected_rgb8("pattern", 256))


def test_shortcuts_play_reset_help_and_export(app, tmp_path):
    from imgui_bundle import imgui

    app.session.select_scene("bouncingballs")
    run_until_shown(app)
    press(app, imgui.Key.space)
    assert app.session.playing
    deadline = time.monotonic() + 30
    while app.session.frame < 2 and time.monotonic() < deadline:
        app.frame()
    press(app, imgui.Key.r)
    assert app.session.frame == 0 and not app.session.playing
    press(app, imgui.Key.h)
    assert app.panel.show_help
    press(app, imgui.Key.f1)
    assert not app.panel.show_help
    run_until_shown(app)
    press(app, imgui.Key.s)
    exported = list((tmp_path / "exports").iterdir())
    assert [p.name for p in exported] == ["bouncingballs_reference_0000.png"]


def test_resize_and_fit_to_window(app):
    run_until_shown(app)
    app.session.settings.fit_to_window = True
    app.surface.set_size(700, 500)
    deadline = time.monotonic() + 10
    while app.surface.framebuffer_size() != (700, 500) and time.monotonic() < deadline:
        app.frame()
    screen = run_until_shown(app)
    assert screen.shape == (500, 700, 3)
    assert app.session.settings.size == 320  # the view is 700 - 380 wide, 500 high
    assert np.array_equal(frame_in_window(app, screen), expected_rgb8("rgb", 320))


def test_interop_failure_falls_back_to_host_copy_once(app):
    run_until_shown(app)
    display = app.display
    assert display._try_interop() is None  # Mesa + no GPU: registration fails
    notice = display.notice
    assert notice.startswith("CUDA-GL interop unavailable, showing frames through a host copy: ")
    assert display._try_interop() is None and display.notice == notice
    assert display.path == "host copy"


def test_screenshot_with_ui_goes_to_the_export_folder(app, tmp_path):
    run_until_shown(app)
    app.request_screenshot()
    app.frame()
    first = tmp_path / "exports" / "rgb_reference_0000_ui.png"
    assert app.last_screenshot == first
    from PIL import Image

    assert Image.open(app.last_screenshot).size == (900, 600)
    app.request_screenshot()
    app.frame()
    assert app.last_screenshot == first.with_name("rgb_reference_0000_ui-2.png")  # never overwrites


def test_minimizing_and_restoring_the_window(app):
    run_until_shown(app)
    app.surface.set_size(0, 0)  # iconify: on X11 the framebuffer may keep its size
    for _ in range(5):
        assert app.frame()
    app.surface.set_size(900, 600)
    screen = run_until_shown(app)
    assert np.array_equal(frame_in_window(app, screen), expected_rgb8("rgb", 256))


def gui_command(*args, env_extra=None, drop_display=False):
    env = dict(os.environ, **(env_extra or {}))
    if drop_display:
        env.pop("DISPLAY", None)
    return subprocess.run(
        [sys.executable, str(ROOT / "main.py"), *args], capture_output=True, text=True, env=env, timeout=300
    )


@pytest.mark.parametrize("headless", [False, True], ids=["xvfb-window", "egl-headless"])
def test_gui_command_screenshot(x_display, config, tmp_path, headless):
    shot = tmp_path / "shot.png"
    stats = tmp_path / "stats.json"
    args = ["gui", "--scene", "rgb", "--size", "256", "--frames", "3", "--window", "800x500"]
    args += ["--screenshot", str(shot), "--stats", str(stats)] + (["--headless"] if headless else [])
    result = gui_command(*args, drop_display=headless)
    assert result.returncode == 0, result.stderr
    from PIL import Image

    screen = np.asarray(Image.open(shot))
    assert screen.shape == (500, 800, 3)
    # The view is 420 x 500: the 256 frame is scaled to 420 x 420, starting 40 rows down.
    view = screen[40:460, 380:800]
    scaled_index = (np.arange(256) + 0.5) * 420 / 256
    assert np.array_equal(view[np.ix_(scaled_index.astype(int), scaled_index.astype(int))], expected_rgb8("rgb", 256))
    assert json.loads(stats.read_text())["display_path"] == "host copy"
    assert not (config / "settings.json").exists()  # gui runs save nothing


def test_no_display_says_so_and_points_to_headless(config):
    result = gui_command(drop_display=True)
    assert result.returncode == 2
    assert "no display" in result.stderr and "gui --headless" in result.stderr


def test_corrupt_settings_warn_and_the_app_still_runs(x_display, config, tmp_path):
    config.mkdir()
    (config / "settings.json").write_text("{broken")
    result = gui_command("gui", "--scene", "rgb", "--size", "256", "--frames", "2", "--headless")
    assert result.returncode == 0, result.stderr
    assert "warning: settings file" in result.stderr and "using defaults" in result.stderr


def test_interactive_run_saves_settings_in_the_config_folder(x_display, config, tmp_path):
    from app.launch import GuiOptions, run_gui

    assert run_gui(GuiOptions(scene="pattern", size=300, frames=2, persist=True)) == 0
    saved = json.loads((config / "settings.json").read_text())
    assert saved["scene"] == "pattern" and saved["size"] == 300
    assert (config / "imgui.ini").exists()


def expected_sphere_rgb8(view, size, shading=None):
    from render.spheres.shading import ShadeSettings, reference_image
    from scenes.spheres import build_sphere_scene

    return reference_image(build_sphere_scene("classic"), size, view, shading or ShadeSettings())[::-1, :, :3]


def test_spheres_renderer_shows_both_views_exactly(app):
    run_until_shown(app)
    assert app.session.set_renderer("spheres"), app.session.status
    screen = run_until_shown(app)
    assert np.array_equal(frame_in_window(app, screen), expected_sphere_rgb8("classic", 256))
    assert app.session.set_view("shaded")
    screen = run_until_shown(app)
    assert np.array_equal(frame_in_window(app, screen), expected_sphere_rgb8("shaded", 256))


def test_dragging_the_picture_orbits_the_shaded_camera(app):
    from imgui_bundle import imgui

    from render.spheres.shading import ShadeSettings

    app.session.set_renderer("spheres")
    app.session.set_view("shaded")
    run_until_shown(app)
    io = imgui.get_io()
    io.add_mouse_pos_event(600, 300)
    app.frame()
    io.add_mouse_button_event(0, True)
    app.frame()
    for step in range(1, 6):
        io.add_mouse_pos_event(600 + 10 * step, 300)
        app.frame()
    io.add_mouse_button_event(0, False)
    app.frame()
    assert app.session.settings.camera_azimuth == pytest.approx(30 - 50 * 0.4)
    screen = run_until_shown(app)
    turned = ShadeSettings(azimuth=app.session.settings.camera_azimuth)
    assert np.array_equal(frame_in_window(app, screen), expected_sphere_rgb8("shaded", 256, turned))


# -- settings, files and numbers that do not fit ------------------------------------------------


def test_config_folder_that_is_a_file_warns_and_nothing_is_written(x_display, config, tmp_path, capsys):
    from app.launch import GuiOptions, run_gui

    config.write_text("not a folder")
    result = gui_command("gui", "--scene", "rgb", "--size", "256", "--frames", "2")
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr  # a scripted run saves nothing, so nothing is lost
    assert run_gui(GuiOptions(scene="pattern", size=300, frames=2, persist=True)) == 0
    assert f"warning: the config folder {config} exists but is not a folder" in capsys.readouterr().err
    assert config.read_text() == "not a folder"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config"]  # no imgui.ini, no settings anywhere


def test_config_folder_that_is_a_file_leaves_imgui_without_an_ini_file(x_display, config, tmp_path, monkeypatch):
    from imgui_bundle import imgui

    from app.session import Session
    from app.settings import Settings
    from app.surfaces import GlfwWindow
    from app.window import App

    config.write_text("")
    monkeypatch.chdir(tmp_path)  # where ImGui would write its default imgui.ini
    app = App(GlfwWindow(900, 600, "rasterlab test"), Session(Settings(scene="rgb", size=256), backend="cpu"))
    try:
        assert app.config_folder is None and imgui.get_io().get_ini_filename() == ""  # "": no file at all
        run_until_shown(app)
        assert "warning: the config folder" in app.session.status  # the status line says it too
    finally:
        app.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config"]


def test_a_window_larger_than_the_screen_opens_at_the_screen_size(x_display, config):
    from app.launch import GuiOptions, run_gui

    config.mkdir()
    (config / "settings.json").write_text(json.dumps({"window_width": 16384, "window_height": 16000}))
    assert run_gui(GuiOptions(scene="rgb", size=256, frames=2, persist=True)) == 0
    saved = json.loads((config / "settings.json").read_text())
    assert (saved["window_width"], saved["window_height"]) == (1600, 1000)  # the Xvfb screen, no panels


def test_a_window_past_the_table_falls_back_to_the_default_size(x_display, config, capsys):
    from app.launch import GuiOptions, run_gui

    config.mkdir()
    (config / "settings.json").write_text(json.dumps({"window_width": 20000, "window_height": 20000, "size": 300}))
    assert run_gui(GuiOptions(frames=2, persist=True)) == 0
    err = capsys.readouterr().err
    assert "warning: settings file" in err and "field 'window_width'" in err and "field 'window_height'" in err
    saved = json.loads((config / "settings.json").read_text())
    assert (saved["window_width"], saved["window_height"], saved["size"]) == (1280, 800, 300)


@pytest.mark.parametrize("spoil", ["deleted", "corrupt"])
def test_a_remembered_scene_file_that_no_longer_loads_warns_and_shows_the_built_in_scene(
    x_display, config, tmp_path, spoil
):
    scene = tmp_path / "mine.json"
    if spoil == "corrupt":
        scene.write_text("{broken")
    config.mkdir()
    (config / "settings.json").write_text(json.dumps({"scene": str(scene), "size": 256}))
    shot = tmp_path / "shot.png"
    result = gui_command("gui", "--frames", "2", "--headless", "--screenshot", str(shot), drop_display=True)
    assert result.returncode == 0, result.stderr
    lines = result.stderr.splitlines()
    [warning] = [line for line in lines if line.startswith("warning: cannot open scene: ")]
    assert str(scene) in warning and warning.endswith("; showing the built-in scene rand10k instead")
    assert lines.index(warning) < len(lines) - 1  # at the start, not only in the final status line
    assert shot.exists()


@pytest.mark.parametrize(
    "name, content, extra",
    [
        ("bad.json", '{"kind": "circles", "position": "nowhere"}', ["--headless"]),
        ("bad.json", "{broken", []),
        ("bad.npz", "PK not really", ["--renderer", "spheres", "--headless"]),
        ("gone.json", None, ["--headless"]),
    ],
    ids=["json-headless", "json-window", "spheres-npz", "missing"],
)
def test_gui_scene_that_fails_to_load_exits_with_its_message(x_display, config, tmp_path, name, content, extra):
    bad, shot = tmp_path / name, tmp_path / "s.png"
    if content is not None:
        bad.write_text(content)
    args = ["gui", *extra, "--frames", "2", "--scene", str(bad), "--screenshot", str(shot)]
    result = gui_command(*args, drop_display="--headless" in extra)
    assert result.returncode == 2, result.stderr
    assert f"error: cannot open scene: {bad}" in result.stderr
    assert "rand10k" not in result.stderr and "classic" not in result.stderr  # no other scene ran
    assert not shot.exists()


def test_a_dropped_file_whose_loader_fails_unexpectedly_keeps_the_scene(app, tmp_path, monkeypatch):
    import scenes.lookup

    screen = run_until_shown(app)
    for error in (MemoryError(), RecursionError("maximum recursion depth exceeded"), TypeError("odd")):

        def broken(path, error=error):
            raise error

        monkeypatch.setattr(scenes.lookup, "load_scene", broken)
        path = tmp_path / "dropped.npz"
        app.surface.dropped.append(str(path))  # what GLFW's drop callback does
        assert app.frame()
        assert app.session.status.startswith("cannot open scene") and type(error).__name__ in app.session.status
        assert app.session.settings.scene == "rgb" and not app.session.frame_outstanding
        assert np.array_equal(frame_in_window(app, run_until_shown(app)), frame_in_window(app, screen))


class _WidgetSpy:
    """Stands in for ``imgui`` in the panel, noting where the widget labelled ``label`` is drawn."""

    def __init__(self, label):
        from imgui_bundle import imgui

        self.imgui, self.label, self.centre = imgui, label, None

    def __getattr__(self, name):
        real = getattr(self.imgui, name)
        if name not in ("input_text", "slider_int"):
            return real

        def drawn(label, *args, **kwargs):
            result = real(label, *args, **kwargs)
            if label == self.label:
                low, high = self.imgui.get_item_rect_min(), self.imgui.get_item_rect_max()
                self.centre = ((low.x + high.x) / 2, (low.y + high.y) / 2)
            return result

        return drawn


def type_into(app, spy, text, ctrl_click=False):
    """Click the spied widget (with ctrl held: a slider's text entry), replace its text, press Enter."""
    from imgui_bundle import imgui

    io = imgui.get_io()
    app.frame()
    io.add_mouse_pos_event(*spy.centre)
    app.frame()
    if ctrl_click:
        io.add_key_event(imgui.Key.mod_ctrl, True)
    io.add_mouse_button_event(0, True)
    app.frame()
    io.add_mouse_button_event(0, False)
    app.frame()
    io.add_key_event(imgui.Key.mod_ctrl, True)
    io.add_key_event(imgui.Key.a, True)  # select all
    app.frame()
    io.add_key_event(imgui.Key.a, False)
    io.add_key_event(imgui.Key.mod_ctrl, False)
    app.frame()
    io.add_input_characters_utf8(text)
    app.frame()
    press(app, imgui.Key.enter)


def test_a_typed_seed_out_of_range_is_refused_with_a_status_message(app, monkeypatch):
    import app.panel as panel_module

    run_until_shown(app)
    app.session.select_scene("rand10k")
    spy = _WidgetSpy("seed")
    monkeypatch.setattr(panel_module, "imgui", spy)
    for typed in ("4294967296", "-1", "99999999999999999999999"):
        type_into(app, spy, typed)
        assert app.session.status == f"seed must be an integer in 0..4294967295, got {typed}"
        assert app.session.settings.seed == 0
    type_into(app, spy, "4294967295")  # past a C int, and still a seed
    assert app.session.settings.seed == 2**32 - 1 and app.panel.seed_edit == "4294967295"


def test_a_typed_sphere_count_is_clamped_by_the_slider(app, monkeypatch):
    import app.panel as panel_module

    app.session.set_renderer("spheres")
    assert app.session.select_scene("random")
    run_until_shown(app)
    spy = _WidgetSpy("spheres")
    monkeypatch.setattr(panel_module, "imgui", spy)
    type_into(app, spy, "0", ctrl_click=True)
    assert app.session.settings.sphere_count == 1 and app.session.scene.count == 1


# The app as `gui --screenshot NAME` starts it, once the command line has found NAME free.
_SCREENSHOT_TO_A_NEW_NAME = """
import sys
sys.path.insert(0, {root!r})
from app.launch import GuiOptions, run_gui
from scenes.safe_write import NEW_FILE
options = GuiOptions(scene="rgb", size=256, frames=2, headless=True, screenshot={name!r})
options.placements[{name!r}] = NEW_FILE
sys.exit(run_gui(options))
"""


def _screenshot_errors(result) -> list[str]:
    return [line for line in result.stderr.splitlines() if "screenshot" in line or line.startswith("error")]


def test_a_screenshot_that_cannot_be_written_is_one_line_and_exit_1(config):
    result = gui_command(
        "gui", "--headless", "--scene", "rgb", "--size", "256", "--frames", "2", "--screenshot", "/dev/full"
    )
    errors = _screenshot_errors(result)
    assert result.returncode == 1 and errors == ["error: cannot write /dev/full: No space left on device"], (
        result.stderr
    )


def test_a_screenshot_name_taken_after_the_check_is_kept(config, tmp_path):
    taken = tmp_path / "shot.png"
    taken.write_bytes(b"theirs")
    script = _SCREENSHOT_TO_A_NEW_NAME.format(root=str(ROOT), name=str(taken))
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    errors = _screenshot_errors(result)
    assert result.returncode == 1 and len(errors) == 1 and "was created by another program" in errors[0], result.stderr
    assert taken.read_bytes() == b"theirs"


@pytest.mark.parametrize("planted", ["fifo", "link"])
def test_an_imgui_ini_that_is_not_a_regular_file_is_not_used(x_display, config, tmp_path, planted):
    from imgui_bundle import imgui

    from app.session import Session
    from app.settings import Settings
    from app.surfaces import GlfwWindow
    from app.window import App

    config.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"precious")
    if planted == "fifo":
        os.mkfifo(config / "imgui.ini")
    else:
        (config / "imgui.ini").symlink_to(victim)
    app = App(GlfwWindow(900, 600, "rasterlab test"), Session(Settings(scene="rgb", size=256), backend="cpu"))
    try:
        assert imgui.get_io().get_ini_filename() == "" and "imgui.ini is not used" in app.config_warning
        run_until_shown(app)
    finally:
        app.close()
    assert victim.read_bytes() == b"precious"

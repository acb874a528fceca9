"""The ``gui`` command as a process, windowed under Xvfb and headless (EGL): its screenshot and
stats, no display, a scene file that does not load, screenshots that cannot be written; without
--frames it is the interactive app, and --no-settings starts from the defaults and saves nothing."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest


@pytest.mark.parametrize("headless", [False, True], ids=["xvfb-window", "egl-headless"])
def test_gui_command_screenshot(x_display, config, tmp_path, headless, gui_command, expected_rgb8):
    shot = tmp_path / "shot.png"
    stats = tmp_path / "stats.json"
    args = ["gui", "--scene", "rgb", "--size", "256", "--frames", "3", "--window", "800x500"]
    args += ["--screenshot", str(shot), "--stats", str(stats)] + (["--headless"] if headless else [])
    result = gui_command(*args, drop_display=headless)
    assert result.returncode == 0, result.stderr
    from PIL import Image

    screen = np.asarray(Image.open(shot))
    assert screen.shape == (500, 800, 3)
    report = json.loads(stats.read_text(), parse_constant=pytest.fail)  # NaN and Infinity are not JSON
    assert report["frames_measured"] == 0 and report["wall_ms_median"] is None  # one frame of a still scene
    assert report["overhead_ms_median"] is None  # a GPU figure
    assert report["host_ms_median"] == {}  # as the wall time: not before two frames
    left, top, width, height = report["frame_rect"]
    # Right of the 380-pixel panel, above the status bar, the 256 frame scaled to the view's width.
    assert left == 380 and width == height == 420 and top + height < 500
    scaled_index = ((np.arange(256) + 0.5) * 420 / 256).astype(int)
    view = screen[top : top + height, left : left + width]
    assert np.array_equal(view[np.ix_(scaled_index, scaled_index)], expected_rgb8("rgb", 256))
    assert report["display_path"] == "host copy"
    assert not (config / "settings.json").exists()  # gui runs save nothing


def test_the_window_opens_on_an_x_server_that_resets_when_its_last_client_leaves(resetting_display, config, run_main):
    # The display checks before the window once connected and left, and the server's reset then
    # refused the window's own connection: about one run in three failed ("Failed to open display").
    env = {**os.environ, "DISPLAY": resetting_display}
    for _ in range(12):
        result = run_main("gui", "--backend", "cpu", "--scene", "rgb", "--size", "256", "--frames", "1", env=env)
        assert result.returncode == 0 and "error" not in result.stderr, result.stderr


def test_the_display_check_holds_the_x_server_until_glfw_has_connected(resetting_display, monkeypatch):
    import socket

    import glfw

    import app.displays

    monkeypatch.setenv("DISPLAY", resetting_display)
    events, close, init, terminate = [], socket.socket.close, glfw.init, glfw.terminate
    monkeypatch.setattr(socket.socket, "close", lambda self: (events.append("probe closed"), close(self))[1])
    monkeypatch.setattr(glfw, "init", lambda: (events.append("glfw started"), init())[1])
    monkeypatch.setattr(glfw, "terminate", lambda: events.append("glfw ended"))
    try:
        assert app.displays.display_problem() is None
        # GLFW's connection is made while the probe's is open, and is left for the window.
        assert events == ["glfw started", "probe closed"]
    finally:
        terminate()


@pytest.mark.parametrize("headless", [False, True], ids=["xvfb-window", "egl-headless"])
def test_a_display_without_opengl_3_3_is_one_line(x_display, config, run_main, headless):
    # Mesa told to offer OpenGL 2.1 at most: EGL's context failed with a PyOpenGL traceback
    # (EGL_BAD_MATCH), and GLFW's window printed two warnings before its line.
    if os.path.exists("/proc/driver/nvidia"):
        pytest.skip("NVIDIA's OpenGL ignores Mesa's variables")
    env = {**os.environ, "MESA_GL_VERSION_OVERRIDE": "2.1"}
    args = ["gui", "--backend", "cpu", "--frames", "2", "--no-settings"] + (["--headless"] if headless else [])
    result = run_main(*args, env=env)
    lines = [line for line in result.stderr.splitlines() if not line.startswith("note: CPU reference backend")]
    assert result.returncode == 1 and len(lines) == 1, result.stderr
    if headless:
        assert lines == ["error: EGL could not create an OpenGL 3.3 context with a pbuffer (EGL_BAD_MATCH)"]
    else:
        assert lines[0].startswith("error: the display offers no OpenGL 3.3 context (GLX: "), lines


def test_no_display_says_so_and_points_to_headless(config, gui_command):
    result = gui_command("gui", "--frames", "1", drop_display=True)
    assert result.returncode == 1
    assert "no display" in result.stderr and "gui --headless" in result.stderr


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
def test_gui_scene_that_fails_to_load_exits_with_its_message(
    x_display, config, tmp_path, name, content, extra, gui_command
):
    bad, shot = tmp_path / name, tmp_path / "s.png"
    if content is not None:
        bad.write_text(content)
    args = ["gui", *extra, "--frames", "2", "--scene", str(bad), "--screenshot", str(shot)]
    result = gui_command(*args, drop_display="--headless" in extra)
    assert result.returncode == 1, result.stderr
    assert f"error: cannot open scene: {bad}" in result.stderr
    assert "rand10k" not in result.stderr and "classic" not in result.stderr  # no other scene ran
    assert not shot.exists()


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


def test_a_screenshot_that_cannot_be_written_is_one_line_and_exit_1(config, gui_command):
    result = gui_command(
        "gui", "--headless", "--scene", "rgb", "--size", "256", "--frames", "2", "--screenshot", "/dev/full"
    )
    errors = _screenshot_errors(result)
    assert result.returncode == 1 and errors == ["error: cannot write /dev/full: No space left on device"], (
        result.stderr
    )


def test_a_screenshot_name_taken_after_the_check_is_kept(config, tmp_path, repo_root):
    taken = tmp_path / "shot.png"
    taken.write_bytes(b"theirs")
    script = _SCREENSHOT_TO_A_NEW_NAME.format(root=str(repo_root), name=str(taken))
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    errors = _screenshot_errors(result)
    assert result.returncode == 1 and len(errors) == 1 and "was created by another program" in errors[0], result.stderr
    assert taken.read_bytes() == b"theirs"


@pytest.mark.parametrize(
    "args, frames, persist, fresh",
    [
        (["gui"], None, True, False),
        (["gui", "--scene", "rgb", "--size", "512"], None, True, False),
        (["gui", "--no-settings"], None, False, True),
        (["gui", "--frames", "5"], 5, False, False),
        (["gui", "--frames", "5", "--no-settings"], 5, False, True),
    ],
)
def test_gui_without_frames_is_the_interactive_app(monkeypatch, args, frames, persist, fresh):
    import app.launch
    from app.cli import main

    opened = []
    monkeypatch.setattr(app.launch, "run_gui", lambda options: opened.append(options) or 0)
    assert main(args) == 0
    (options,) = opened
    assert (options.frames, options.persist, options.fresh) == (frames, persist, fresh)
    assert options.scene == ("rgb" if "rgb" in args else None)


def test_no_settings_starts_from_the_defaults(config, tmp_path, gui_command):
    from app.settings import Settings

    config.mkdir()
    (config / "settings.json").write_text(json.dumps({"scene": "rgb", "size": 256}))
    for extra, scene in (([], "rgb"), (["--no-settings"], Settings().scene)):
        stats = tmp_path / f"stats{len(extra)}.json"
        args = ["gui", "--headless", "--frames", "2", "--backend", "cpu", "--stats", stats, *extra]
        result = gui_command(*args, drop_display=True)
        assert result.returncode == 0, result.stderr
        assert json.loads(stats.read_text())["scene"] == scene
    assert json.loads((config / "settings.json").read_text()) == {"scene": "rgb", "size": 256}


@pytest.mark.parametrize("scene, renderer", [("classic", "spheres"), ("rand10k", "circles"), (None, None)])
def test_a_built_in_scene_of_one_kind_names_the_renderer(monkeypatch, scene, renderer):
    import app.launch
    from app.cli import main

    opened = []
    monkeypatch.setattr(app.launch, "run_gui", lambda options: opened.append(options) or 0)
    assert main(["gui", *(["--scene", scene] if scene else [])]) == 0
    assert opened[0].renderer == renderer


def test_a_scene_file_whose_name_is_not_utf8_opens_in_the_app(x_display, config, tmp_path, gui_command):
    import os

    from scenes.builtin import build_scene
    from scenes.files import save_scene

    odd = tmp_path / os.fsdecode(b"\xff\xfe scene.json")  # a name of bytes that are not UTF-8
    save_scene(build_scene("rgb"), odd)
    shot = tmp_path / "s.png"
    result = gui_command(
        "gui",
        "--headless",
        "--frames",
        "2",
        "--size",
        "256",
        "--no-settings",
        "--scene",
        odd,
        "--screenshot",
        shot,
        drop_display=True,
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr and shot.is_file()


def _cannot_open_a_window(run_main, env, reason, folder):
    """``gui`` says in one line that no window can open and why (``reason``, in its parentheses);
    with no command, the app's stand-in render runs, as where there is no display at all."""
    result = run_main("gui", "--frames", "2", env=env)
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: no display: the window cannot open here ("), lines
    assert reason in lines[0].split(");")[0] and lines[0].endswith("(render, record, check, bench)"), lines
    result = run_main(env=env, cwd=folder)  # no command: the app, or where it cannot open, a render
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines()[0] == (
        "note: no display; rendering rand10k.png instead (rasterlab gui --headless runs the app offscreen)"
    )
    assert "Warning" not in result.stderr and (folder / "rand10k.png").is_file()


@pytest.mark.parametrize(
    "names, reason",
    [
        ({"DISPLAY": ":4093"}, "no X server answers on DISPLAY :4093"),  # no X server has that number here
        ({"DISPLAY": "garbage"}, "DISPLAY 'garbage' names no X display"),
        ({"DISPLAY": None, "WAYLAND_DISPLAY": "bogus"}, "WAYLAND_DISPLAY 'bogus'"),
    ],
)
def test_a_display_that_cannot_be_used_counts_as_none(tmp_path, config, run_main, names, reason):
    # Before, DISPLAY=garbage or a bogus WAYLAND_DISPLAY alone was taken for a display: gui printed
    # GLFW's warning (two lines) and "the X server refused", and no command gave no render.
    env = {key: value for key, value in os.environ.items() if key not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update({key: value for key, value in names.items() if value is not None})
    _cannot_open_a_window(run_main, env, reason, tmp_path)


def test_an_x_server_that_refuses_the_app_counts_as_none(tmp_path, config, run_main, refusing_display):
    env = {key: value for key, value in os.environ.items() if key != "WAYLAND_DISPLAY"}
    env.update(DISPLAY=refusing_display, XAUTHORITY=os.devnull)
    _cannot_open_a_window(run_main, env, f"X11: Failed to open display {refusing_display}", tmp_path)


def test_a_count_shows_the_scene_that_takes_one_and_is_refused_elsewhere(x_display, config, tmp_path, gui_command):
    stats = tmp_path / "stats.json"
    args = ["gui", "--headless", "--frames", "2", "--size", "256", "--no-settings", "--count", "7", "--stats", stats]
    result = gui_command(*args, drop_display=True)
    assert result.returncode == 0, result.stderr
    report = json.loads(stats.read_text())
    assert (report["renderer"], report["scene"]) == ("spheres", "random")
    result = gui_command("gui", "--frames", "2", "--scene", "classic", "--count", "7", drop_display=True)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "error: --count is the random scene's count; classic does not take one"
    ]

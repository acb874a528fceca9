"""Fixtures of the app's tests: the stress probe and its checks, and a real window under Xvfb (the X
server, a config folder, the App on the CPU backend, and helpers to wait for and predict its frames).

CI installs Xvfb (``.ci/run``) and sets RASTERLAB_REQUIRE_GUI=1, so there a missing X server fails
the window tests instead of skipping them.
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


@pytest.fixture(autouse=True)
def panel_built_every_pass(monkeypatch):
    """The panel built anew every pass (no pacing): these tests check what a pass draws right after
    a change made in code, with no input to start a build. The pacing has tests of its own
    (test_panel_pacing.py); processes the tests start pace the panel as the app does."""
    monkeypatch.setattr("app.panel_pacing.PANEL_INTERVAL_S", 0)


@pytest.fixture
def stress_probe(probe_path):
    """``stress_probe(*args, timeout=600)``: run tests/probes/app_stress_probe.py in a process of its
    own; its JSON report (also saved under $RASTERLAB_REPORT_DIR when set, for docs/reliability.md)."""

    def run(*args, timeout=600) -> dict:
        command = [sys.executable, str(probe_path("app_stress_probe.py")), *map(str, args)]
        config = os.environ.get("RASTERLAB_CONFIG_DIR", "/tmp/rasterlab-probe")
        env = {**os.environ, "RASTERLAB_CONFIG_DIR": config}
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env)
        assert result.returncode == 0, result.stderr[-4000:]
        report = json.loads(result.stdout.strip().splitlines()[-1])
        folder = os.environ.get("RASTERLAB_REPORT_DIR")
        if folder:
            Path(folder, "-".join(map(str, args)) + ".json").write_text(json.dumps(report, indent=1))
        return report

    return run


def _check_resize_report(report: dict, resizes: int) -> None:
    assert report["exact"] and report["frames_played_after"] >= 3, report
    assert report["minimized_frames"] == 3 * (resizes // 25)
    assert report["render_sizes"] > resizes // 2
    assert not any(word in report["status"] for word in ("failed", "cannot", "error")), report["status"]
    # Back at the first window size, the panel has its first width and the fit its first size.
    assert report["size"] == report["start_size"], report
    first, last = report["memory"][0], report["memory"][-1]
    # The same scene at the same size again: the Python heap is back where it was.
    assert abs(last["python_heap"] - first["python_heap"]) < 2, report["memory"]
    if "device_used" in first:
        # CuPy's cached blocks are handed back after each change of size: its pool ends where it began.
        assert (last["pool_used"], last["pool_held"]) == (first["pool_used"], first["pool_held"]), report["memory"]
        # The GL driver keeps a high-water mark of its pbuffers and textures (800 resizes level off at
        # +71 MiB, docs/reliability.md); one leaked 1800x1200 buffer per resize would be +1.6 GiB here.
        driver = [sample["device_used"] - sample["pool_held"] for sample in report["memory"]]
        assert driver[-1] - driver[0] <= 128, report["memory"]


@pytest.fixture
def check_resize_report():
    """``check_resize_report(report, resizes)``: assert what every ``resize`` probe report must show,
    on the CPU and the GPU alike (exact frames, minimizes, no leak of heap, pool or GL buffers)."""
    return _check_resize_report


def _start_xvfb(*options: str, reset: bool = False) -> tuple[subprocess.Popen, str]:
    """An Xvfb server started with ``options`` on a display number of its choosing, and its DISPLAY;
    skips the test (fails it under RASTERLAB_REQUIRE_GUI) where Xvfb is not installed. With
    ``reset``, it resets whenever its last client leaves, as Xvfb does by default."""
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        if os.environ.get("RASTERLAB_REQUIRE_GUI"):
            pytest.fail("Xvfb is not installed (see .ci/run for the packages)")
        pytest.skip("Xvfb is not installed")
    read_end, write_end = os.pipe()
    server = subprocess.Popen(
        [xvfb, "-displayfd", str(write_end), *options, "-nolisten", "tcp", *([] if reset else ["-noreset"])],
        pass_fds=(write_end,),
        stderr=subprocess.DEVNULL,
    )
    os.close(write_end)
    with os.fdopen(read_end) as stream:
        return server, f":{stream.readline().strip()}"


@pytest.fixture(scope="module")
def x_display():
    """An Xvfb server of the module's own, 1600x1000, set as DISPLAY while the module runs."""
    server, display = _start_xvfb("-screen", "0", "1600x1000x24")
    previous = os.environ.get("DISPLAY")
    os.environ["DISPLAY"] = display
    yield display
    if previous is None:
        os.environ.pop("DISPLAY")
    else:
        os.environ["DISPLAY"] = previous
    server.terminate()
    server.wait(10)


@pytest.fixture(scope="module")
def resetting_display():
    """The DISPLAY of an Xvfb server started as a user would start it: it resets whenever its last
    client leaves, and refuses connections while it does."""
    server, display = _start_xvfb("-screen", "0", "1280x800x24", reset=True)
    yield display
    server.terminate()
    server.wait(10)


@pytest.fixture(scope="module")
def refusing_display(tmp_path_factory):
    """The DISPLAY of an X server that answers and refuses every client: it lets in only those that
    hold a cookie it made up (an X authority file of one wildcard MIT-MAGIC-COOKIE-1 entry)."""

    def field(data: bytes) -> bytes:
        return len(data).to_bytes(2, "big") + data

    cookies = tmp_path_factory.mktemp("xauth") / "server"
    family_wild = (65535).to_bytes(2, "big")
    cookies.write_bytes(family_wild + field(b"") + field(b"") + field(b"MIT-MAGIC-COOKIE-1") + field(os.urandom(16)))
    server, display = _start_xvfb("-auth", str(cookies))
    yield display
    server.terminate()
    server.wait(10)


@pytest.fixture
def config(tmp_path, monkeypatch):
    """The test's config folder (RASTERLAB_CONFIG_DIR), not made yet."""
    folder = tmp_path / "config"
    monkeypatch.setenv("RASTERLAB_CONFIG_DIR", str(folder))
    return folder


@pytest.fixture
def app(x_display, config, tmp_path):
    """The app in a 900x600 window on the CPU backend, showing rgb at 256, exporting to tmp_path/exports
    (made here: the app makes a missing export folder only when the user says so)."""
    from app.session import Session
    from app.settings import Settings
    from app.surfaces import GlfwWindow
    from app.window import App

    (tmp_path / "exports").mkdir()
    settings = Settings(scene="rgb", size=256, vsync=False, export_folder=str(tmp_path / "exports"))
    made = App(GlfwWindow(900, 600, "rasterlab test"), Session(settings, backend="cpu"))
    yield made
    made.close()


def _run_until_shown(app, timeout=60):
    from app.surfaces import read_framebuffer

    deadline = time.monotonic() + timeout
    app.frame()
    while app.session.frame_outstanding and time.monotonic() < deadline:
        app.frame()
        time.sleep(0.002)
    assert not app.session.frame_outstanding, "the frame never arrived"
    app.frame()
    return read_framebuffer(*app.surface.framebuffer_size())


@pytest.fixture
def run_until_shown():
    """``run_until_shown(app, timeout=60)``: loop the window until the CPU frame is on screen;
    returns the framebuffer, row 0 = top."""
    return _run_until_shown


def _expected_rgb8(name, size, frame=0):
    from render.circles.reference import ReferenceRenderer
    from render.core.image_io import to_rgb8
    from render.core.renderer import render_frame
    from scenes.builtin import build_scene

    renderer = ReferenceRenderer(workers=1)
    renderer.load(build_scene(name), size, size)
    return to_rgb8(render_frame(renderer, frame))


@pytest.fixture
def expected_rgb8():
    """``expected_rgb8(name, size, frame=0)``: the CPU reference of a built-in scene as the window
    shows it, uint8 (size, size, 3), row 0 = top."""
    return _expected_rgb8


@pytest.fixture
def gui_command(run_main):
    """``gui_command(*args, drop_display=False)``: main.py with ``args`` in this process's
    environment as it is when called (with the test's DISPLAY), or without DISPLAY."""

    def run(*args, drop_display=False):
        env = dict(os.environ)
        if drop_display:
            env.pop("DISPLAY", None)
        return run_main(*args, env=env)

    return run


@pytest.fixture
def call_main(capsys):
    """``call_main(args)``: (exit code, stderr lines) of ``app.cli.main(args)`` in this process,
    argparse's own exits included."""
    from app.cli import main

    def call(args):
        try:
            code = main(args)
        except SystemExit as exit:
            code = exit.code
        return code, capsys.readouterr().err.strip().splitlines()

    return call


def _gif_frames(path):
    from PIL import Image

    with Image.open(path) as gif:
        assert gif.info["loop"] == 0  # loops forever
        frames, durations = [], []
        for index in range(gif.n_frames):
            gif.seek(index)
            frames.append(np.asarray(gif.convert("RGB")))
            durations.append(gif.info["duration"])
    return frames, durations


@pytest.fixture
def gif_frames():
    """``gif_frames(path)``: every frame of the GIF as RGB uint8 (H, W, 3), and each frame's
    duration in ms (asserting that it loops forever)."""
    return _gif_frames


def _replace_text(app, text):
    """In the text field that has the keyboard: select all, type ``text``, press Enter; a frame
    between each, as a user's keys arrive."""
    from imgui_bundle import imgui

    io = imgui.get_io()
    io.add_key_event(imgui.Key.mod_ctrl, True)
    io.add_key_event(imgui.Key.a, True)  # select all
    app.frame()
    io.add_key_event(imgui.Key.a, False)
    io.add_key_event(imgui.Key.mod_ctrl, False)
    app.frame()
    io.add_input_characters_utf8(text)
    app.frame()
    for down in (True, False):
        io.add_key_event(imgui.Key.enter, down)
        app.frame()


@pytest.fixture
def replace_text():
    """``replace_text(app, text)``: replace the text of the field that has the keyboard, then Enter."""
    return _replace_text


def _click_at(app, x, y, ctrl=False):
    """Move the mouse to window pixel (x, y) and click the left button there, with ctrl held when
    ``ctrl``; a frame after each event, as a user's arrive."""
    from imgui_bundle import imgui

    io = imgui.get_io()
    io.add_mouse_pos_event(x, y)
    app.frame()
    if ctrl:
        io.add_key_event(imgui.Key.mod_ctrl, True)
    io.add_mouse_button_event(0, True)
    app.frame()
    io.add_mouse_button_event(0, False)
    if ctrl:
        io.add_key_event(imgui.Key.mod_ctrl, False)
    app.frame()


@pytest.fixture
def click_at():
    """``click_at(app, x, y, ctrl=False)``: a left click at window pixel (x, y)."""
    return _click_at


@pytest.fixture
def slow_scene_file(tmp_path):
    """A scene file whose CPU frame takes seconds however little a circle costs: 5,000 circles over
    the whole picture, 5,000 blends a pixel (1.3 billion at 512x512, about 2 s). Its path."""
    from scenes.files import save_scene
    from scenes.model import CircleScene, empty_arrays

    arrays = empty_arrays(5000)
    arrays["position"][:] = (0.5, 0.5, 0.5)
    arrays["radius"][:] = 1.0
    arrays["color"][:] = np.linspace(0, 1, 15000, dtype=np.float32).reshape(5000, 3)
    return str(save_scene(CircleScene("slow", **arrays), tmp_path / "slow.npz"))

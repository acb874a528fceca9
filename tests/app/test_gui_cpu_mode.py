"""The CPU mode in the real window (Xvfb, Mesa): while a CPU frame takes its time the last frame's
own pixels are dimmed under a label (over the empty view at first launch), and not once the frame is
shown; the resolution slider, the seed and the sphere count ask before a slow change, and Cancel keeps
size, seed, count and their widgets as they were; fit to window asks once per size; Ctrl-C during a
long CPU frame ends the app at once."""

import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from app.panel import PANEL_WIDTH
from app.panel_progress import DIM, SHOW_AFTER_SECONDS
from app.surfaces import read_framebuffer
from app.window import BACKGROUND
from render.core.image_io import to_rgb8

SECONDS = 60
SIZE = 512
WINDOW = (PANEL_WIDTH + SIZE, 600)  # the view is SIZE wide: a SIZE frame is drawn pixel for pixel


@pytest.fixture
def open_app(x_display, config, tmp_path):
    """``open_app(scene)``: the app on the CPU backend showing ``scene`` at SIZE in a WINDOW window."""
    from app.session import Session
    from app.settings import Settings
    from app.surfaces import GlfwWindow
    from app.window import App

    opened = []

    def open_app(scene):
        settings = Settings(scene=scene, size=SIZE, vsync=False, export_folder=str(tmp_path))
        opened.append(App(GlfwWindow(*WINDOW, "rasterlab test"), Session(settings, backend="cpu")))
        return opened[-1]

    yield open_app
    for app in opened:
        app.close()


def shown_frame(app, screen):
    """The frame's pixels on ``screen`` (drawn 1:1), uint8 (SIZE, SIZE, 3), row 0 = top."""
    left, bottom, width, height = app.display.draw(*app.view_rect())
    assert (width, height) == (SIZE, SIZE)
    return screen[screen.shape[0] - bottom - height : screen.shape[0] - bottom, left : left + width]


def screen_while_rendering(app, at_least=SHOW_AFTER_SECONDS + 0.3):
    """Loop the window until the CPU frame under way has rendered ``at_least`` seconds; the screen."""
    deadline = time.monotonic() + SECONDS
    app.frame()
    while (state := app.session.cpu.progress) is None or state.elapsed < at_least:
        assert time.monotonic() < deadline and app.session.frame_outstanding, "no CPU frame under way"
        app.frame()
        time.sleep(0.01)
    app.frame()
    assert app.session.busy, "the frame ended before the screen was read"
    return read_framebuffer(*app.surface.framebuffer_size())


def dimmed(pixels):
    return np.round(np.asarray(pixels, np.float64) * (1 - DIM))


def test_the_last_frame_dims_under_a_label_while_a_slow_frame_renders(open_app, run_until_shown, slow_scene_file):
    app = open_app("rgb")
    before = shown_frame(app, run_until_shown(app))
    assert np.array_equal(before, to_rgb8(app.session.host_image()))
    assert app.session.select_scene(slow_scene_file, confirmed=True)  # seconds on the CPU
    during = shown_frame(app, screen_while_rendering(app))
    corner = slice(0, 150)  # the label is centred: the corners show the old frame alone
    assert np.abs(during[corner, corner].astype(int) - dimmed(before[corner, corner])).max() <= 2
    state = app.session.cpu.progress
    assert state.lines()[0] == f"rendering {app.session.scene.name}, 5,000 circles, {SIZE}x{SIZE}, frame 0 on the CPU"
    # The label: white text on a dark box in the middle of the dimmed frame (rgb's white dims to 115).
    middle = during[SIZE // 2 - 20 : SIZE // 2 + 20, SIZE // 4 : 3 * SIZE // 4]
    assert middle.max() >= 240 and np.mean(middle.max(axis=2) < 60) > 0.5
    after = shown_frame(app, run_until_shown(app))
    assert np.array_equal(after, to_rgb8(app.session.host_image()))  # the new frame, not dimmed


def test_first_launch_labels_the_empty_view(open_app, run_until_shown, slow_scene_file):
    app = open_app(slow_scene_file)
    screen = screen_while_rendering(app)
    x, _, width, height = app.view_rect()
    strip = (slice(2, 16), slice(x + 5, x + width - 5))  # above where the frame will be: background
    empty = np.array(BACKGROUND) * 255
    assert np.abs(screen[strip].astype(int) - dimmed(empty)).max() <= 2
    middle = screen[height // 2 - 20 : height // 2 + 20, x + width // 4 : x + 3 * width // 4]
    assert middle.max() >= 240  # the label's text
    screen = run_until_shown(app)
    assert app.frame_rect[1] > 16  # the frame is below the strip
    assert np.abs(screen[strip].astype(int) - np.round(empty)).max() <= 1


class _PromptSpy:
    """Stands in for ``imgui`` in ``app.panel_prompt``, noting the question and its buttons' centres."""

    def __init__(self):
        from imgui_bundle import imgui

        self.imgui, self.question, self.buttons = imgui, None, {}

    def __getattr__(self, name):
        return getattr(self.imgui, name)

    def text(self, line):
        self.question = line
        return self.imgui.text(line)

    def button(self, label):
        pressed = self.imgui.button(label)
        low, high = self.imgui.get_item_rect_min(), self.imgui.get_item_rect_max()
        self.buttons[label] = ((low.x + high.x) / 2, (low.y + high.y) / 2)
        return pressed


def click(app, where):
    from imgui_bundle import imgui

    io = imgui.get_io()
    io.add_mouse_pos_event(*where)
    app.frame()
    io.add_mouse_button_event(0, True)
    app.frame()
    io.add_mouse_button_event(0, False)
    app.frame()


@pytest.fixture
def prompt(monkeypatch):
    import app.panel_prompt as prompt_module

    spy = _PromptSpy()
    monkeypatch.setattr(prompt_module, "imgui", spy)
    return spy


def answer(app, prompt, button):
    """The question on screen (after a frame), answered with ``button`` (and a frame after it, for
    the panel to show the outcome); the question's text."""
    prompt.question = None
    app.frame()
    app.frame()  # an auto-sized popup takes its place on its second frame
    asked = prompt.question
    assert asked is not None, "no question"
    click(app, prompt.buttons[button])
    app.frame()
    return asked


def test_slider_seed_and_count_ask_first_and_cancel_restores(open_app, prompt, run_until_shown, quick_questions):
    app = open_app("rgb")
    run_until_shown(app)
    session, panel = app.session, app.panel
    assert session.select_scene("rand1M", confirmed=True)  # its frame renders meanwhile, given up at close
    # What the panel does as the resolution slider is let go at 2048 (and as a seed is entered).
    panel.size_edit = 2048
    assert not session.set_size(panel.size_edit)
    assert answer(app, prompt, "Cancel").startswith("rand1M at 2048x2048 takes about ")
    assert session.pending is None and session.settings.size == SIZE and panel.size_edit == SIZE
    panel.seed_edit = "7"
    assert not session.set_seed(7)
    assert answer(app, prompt, "Cancel").startswith(f"rand1M with seed 7 at {SIZE}x{SIZE} takes about ")
    assert session.settings.seed == 0 and panel.seed_edit == "0"
    assert not session.set_seed(7)
    answer(app, prompt, "Render anyway")
    assert session.settings.seed == 7 and session.pending is None and panel.seed_edit == "7"
    assert session.set_renderer("spheres") and session.set_view("shaded")
    assert session.select_scene("random", confirmed=True)
    panel.count_edit = 65536
    assert not session.set_sphere_count(panel.count_edit)
    assert answer(app, prompt, "Cancel").startswith(f"random with 65,536 spheres at {SIZE}x{SIZE} takes about ")
    assert session.settings.sphere_count == 1024 and panel.count_edit == 1024 and session.scene.count == 1024


def test_fit_to_window_asks_once_and_cancel_keeps_the_size(open_app, prompt, run_until_shown, quick_questions):
    app = open_app("rgb")
    run_until_shown(app)
    assert app.session.select_scene("rand1M", confirmed=True)
    app.surface.set_size(WINDOW[0] + 100, WINDOW[1] + 100)  # a view of 612x700: it fits 612
    app.session.set_fit_to_window(True)
    assert answer(app, prompt, "Cancel").startswith("rand1M at 612x612 takes about ")
    for _ in range(5):
        prompt.question = None
        app.frame()
        assert prompt.question is None and app.session.pending is None
    assert app.session.settings.size == SIZE


def _descendants(pid):
    """The process ids below ``pid`` (children, their children, ...), from /proc."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    parents[int(entry)] = int(stat.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def test_ctrl_c_during_a_long_cpu_frame_ends_the_app_at_once(x_display, config, repo_root):
    command = [sys.executable, str(repo_root / "main.py"), "gui", "--no-settings", "--backend", "cpu"]
    app = subprocess.Popen([*command, "--scene", "rand1M", "--size", "1024"], stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + SECONDS
        # The forkserver and its two workers: the frame's bands are being rendered.
        while len(_descendants(app.pid)) < 3:
            assert time.monotonic() < deadline and app.poll() is None, "the frame's workers never started"
            time.sleep(0.1)
        time.sleep(1.5)  # the workers have the scene and are in their bands
        stopped = time.monotonic()
        app.send_signal(signal.SIGINT)
        code = app.wait(SECONDS)
        assert time.monotonic() - stopped < 3
        assert code == 128 + signal.SIGINT and "interrupted" in app.stderr.read()
    finally:
        if app.poll() is None:
            app.kill()
            app.wait()

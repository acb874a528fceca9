"""The Record control in the real window under Xvfb (CPU backend, Mesa): the frame count typed into
its slider, Record and Stop clicked with the mouse, the frames taken through the window loop while it
keeps responding, and the files and status line that result."""

import time

import numpy as np
import pytest
from PIL import Image

from app.recording import GIF_FPS


class _PanelSpy:
    """Stands in for ``imgui`` in app.panel_recording, noting where each button and slider is drawn
    (by label) and the text it shows."""

    def __init__(self):
        from imgui_bundle import imgui

        self.imgui, self.centres, self.texts = imgui, {}, []

    def __getattr__(self, name):
        real = getattr(self.imgui, name)
        if name == "text_wrapped":
            return lambda text: self.texts.append(text) or real(text)
        if name not in ("button", "slider_int"):
            return real

        def drawn(label, *args, **kwargs):
            result = real(label, *args, **kwargs)
            low, high = self.imgui.get_item_rect_min(), self.imgui.get_item_rect_max()
            self.centres[label] = ((low.x + high.x) / 2, (low.y + high.y) / 2)
            return result

        return drawn


def scroll_to(app, spy, label):
    """Turn the mouse wheel over the panel until the widget ``label`` is inside the window."""
    from imgui_bundle import imgui

    io = imgui.get_io()
    io.add_mouse_pos_event(100, 300)
    app.frame()
    height = app.panel.status_bar.rect[1]  # the panel ends where the status bar begins
    for _ in range(50):
        if 10 < spy.centres[label][1] < height - 10:
            return
        io.add_mouse_wheel_event(0, -1 if spy.centres[label][1] >= height - 10 else 1)
        app.frame()
        app.frame()
    raise AssertionError(f"{label} is not reachable: {spy.centres[label]}")


@pytest.fixture
def click(click_at):
    """``click(app, spy, label, ctrl=False)``: scroll the spied widget ``label`` into view, click it,
    then move the mouse off the panel so that nothing stays hovered."""
    from imgui_bundle import imgui

    def run(app, spy, label, ctrl=False):
        app.frame()
        scroll_to(app, spy, label)
        click_at(app, *spy.centres[label], ctrl=ctrl)
        imgui.get_io().add_mouse_pos_event(850, 550)
        app.frame()

    return run


def type_count(app, spy, text, click, replace_text):
    """Ctrl+click the frame-count slider (its text entry), type ``text``, press Enter."""
    click(app, spy, "frames##record", ctrl=True)
    replace_text(app, text)


def spied_app(app, monkeypatch, run_until_shown):
    import app.panel_recording as panel_recording

    spy = _PanelSpy()
    monkeypatch.setattr(panel_recording, "imgui", spy)
    app.session.select_scene("hypnosis")
    run_until_shown(app)
    return spy


def loop_until_done(app, timeout=120):
    """Pass the window loop until the recording ends; the longest single pass, in seconds."""
    deadline, longest = time.monotonic() + timeout, 0.0
    while app.recorder.active:
        assert time.monotonic() < deadline, app.session.status
        started = time.monotonic()
        app.frame()
        longest = max(longest, time.monotonic() - started)
    return longest


def test_record_in_the_window_writes_the_frames_and_says_where(
    click, replace_text, app, monkeypatch, run_until_shown, expected_rgb8
):
    from render.circles.reference import ReferenceRenderer

    spy = spied_app(app, monkeypatch, run_until_shown)
    type_count(app, spy, "4", click, replace_text)
    assert app.recorder.count == 4
    # Each CPU frame takes 0.8 s here: the window must keep drawing meanwhile.
    render = ReferenceRenderer.render
    monkeypatch.setattr(ReferenceRenderer, "render", lambda self: time.sleep(0.8) or render(self))
    spy.texts.clear()
    click(app, spy, "Record")
    assert app.recorder.active, (app.session.status, spy.centres)
    folder = app.recorder._take.folder
    longest = loop_until_done(app)
    assert longest < 0.4, f"a pass of the loop took {longest:.2f} s while recording"
    assert any(text.startswith("recording ") and text.endswith(f"/4 -> {folder}") for text in spy.texts)
    assert folder.name == "hypnosis_reference_0000-0003"
    gif = folder / f"{folder.name}.gif"
    assert app.session.status == f"recorded 4 frames to {folder} (GIF {gif})"
    for k in range(4):
        png = np.asarray(Image.open(folder / f"frame_{k:05d}.png"))
        assert np.array_equal(png, expected_rgb8("hypnosis", 256, k)), k
    with Image.open(gif) as picture:
        assert picture.n_frames == 4 and picture.info["duration"] == 1000 // GIF_FPS
    assert app.session.frame == 3 and not app.session.playing


def test_stop_in_the_window_keeps_what_was_recorded(click, app, monkeypatch, run_until_shown):
    spy = spied_app(app, monkeypatch, run_until_shown)
    click(app, spy, "Record")
    folder = app.recorder._take.folder
    deadline = time.monotonic() + 60
    while app.recorder._take.taken < 3:
        assert time.monotonic() < deadline
        app.frame()
    click(app, spy, "Stop")
    loop_until_done(app)
    kept = sorted(folder.glob("frame_*.png"))
    assert len(kept) >= 3
    gif = folder / f"{folder.name}.gif"
    assert app.session.status == (
        f"recording stopped after {len(kept)} of 60 frames: recorded {len(kept)} frames to {folder} (GIF {gif})"
    )
    assert Image.open(gif).n_frames == len(kept)


def test_closing_the_window_while_recording_finishes_the_files(click, app, monkeypatch, run_until_shown):
    spy = spied_app(app, monkeypatch, run_until_shown)
    click(app, spy, "Record")
    folder = app.recorder._take.folder
    while app.recorder._take.taken < 2:
        app.frame()
    app.recorder.close()  # what App.close does first
    kept = sorted(folder.glob("frame_*.png"))
    assert len(kept) >= 2 and Image.open(folder / f"{folder.name}.gif").n_frames == len(kept)
    assert app.session.status.startswith("recording stopped (the window closed) after ")

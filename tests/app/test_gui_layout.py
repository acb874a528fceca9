"""The window's layout under Xvfb: the status bar stays visible at the bottom and shows the last
message (an export's "saved ..."), the panel resizes by its border, gets back the width it was
given after the window was too narrow for it, and collapses by its title (the frame takes the
room), the UI scale grows text and spacing, and the texture filter enlarges a small render with
sharp or smoothed pixels."""

import time

import numpy as np
import pytest


def frames(app, count=3):
    for _ in range(count):
        app.frame()


def mouse(app, x, y, down=None):
    """Move the mouse to window pixel (x, y), optionally pressing or releasing the left button, and
    run a frame so ImGui sees it."""
    from imgui_bundle import imgui

    io = imgui.get_io()
    io.add_mouse_pos_event(x, y)
    if down is not None:
        io.add_mouse_button_event(0, down)
    app.frame()


def light_share(pixels: np.ndarray) -> float:
    """The share of ``pixels`` (..., 3) bright enough to be text."""
    return float(np.mean(pixels.reshape(-1, 3).max(axis=1) > 150))


def test_the_status_bar_shows_an_export_at_1280x800(app, run_until_shown):
    from imgui_bundle import imgui

    from app.surfaces import read_framebuffer

    app.surface.set_size(1280, 800)
    deadline = time.monotonic() + 10
    while app.surface.window_size() != (1280, 800) and time.monotonic() < deadline:
        app.frame()
    run_until_shown(app)
    imgui.get_io().add_key_event(imgui.Key.s, True)
    app.frame()
    imgui.get_io().add_key_event(imgui.Key.s, False)
    app.frame()
    bar = app.panel.status_bar
    assert bar.shown.startswith("saved ") and bar.shown.endswith("rgb_reference_0000.png"), bar.shown
    left, top, width, height = bar.rect
    assert (left, width) == (0, 1280) and top + height == 800 and 20 < height < 60
    screen = read_framebuffer(1280, 800)
    assert light_share(screen[int(top) :, :600]) > 0.01  # the message is drawn there
    # The frame stays above the bar, right of the panel.
    frame_left, frame_top, frame_w, frame_h = app.frame_rect
    assert frame_left >= app.panel.width and frame_top + frame_h <= top


def test_the_panel_resizes_by_its_border_and_the_frame_follows(app, run_until_shown):
    run_until_shown(app)
    width = app.panel.width
    frame_width = app.frame_rect[2]
    edge = width - 2
    mouse(app, edge, 300)
    mouse(app, edge, 300, down=True)
    for step in range(1, 11):
        mouse(app, edge - 6 * step, 300)
    mouse(app, edge - 60, 300, down=False)
    frames(app)
    assert app.panel.width == pytest.approx(width - 60, abs=2)
    assert app.view_rect()[0] == pytest.approx(app.panel.width, abs=1)
    assert app.frame_rect[2] > frame_width  # the view grew, so did the frame shown in it


# 626 px: its 60 % is 375.6, and ImGui's whole-pixel 375 must still count as held at the limit.
@pytest.mark.parametrize("narrow", [500, 626])
def test_a_narrow_window_narrows_the_panel_only_while_it_is_narrow(app, run_until_shown, narrow):
    run_until_shown(app)
    chosen, window = app.panel.width, app.surface.window_size()
    app.surface.set_size(narrow, window[1])
    frames(app)
    assert app.panel.width == pytest.approx(narrow * 0.6, abs=1)  # the window's 60 %, its share at most
    app.surface.set_size(*window)
    frames(app)
    assert app.panel.width == pytest.approx(chosen, abs=1)
    assert app.view_rect()[0] == pytest.approx(chosen, abs=1)


def test_at_a_large_ui_scale_the_panel_keeps_to_its_share_of_a_small_window(app, run_until_shown):
    run_until_shown(app)
    app.surface.set_size(800, 600)
    app.set_ui_scale(2.0)
    frames(app)
    # Its scaled minimum, 600 pixels, took 75 % of the window and left the frame 200.
    assert app.panel.width == pytest.approx(800 * 0.6, abs=1)
    assert app.view_rect()[0] == pytest.approx(app.panel.width, abs=1)


def test_the_panel_collapses_and_the_frame_takes_the_window(app, run_until_shown):
    from imgui_bundle import imgui

    run_until_shown(app)
    title = imgui.get_frame_height() / 2
    mouse(app, 60, title)
    # A double click on the title bar collapses the window, as ImGui does everywhere.
    for _ in range(2):
        mouse(app, 60, title, down=True)
        mouse(app, 60, title, down=False)
    frames(app)
    assert app.panel.width == 0
    assert app.view_rect()[0] == 0
    assert app.frame_rect[0] < 300  # centred in the whole width now


def test_the_ui_scale_grows_text_and_spacing(app, run_until_shown):
    from imgui_bundle import imgui

    run_until_shown(app)
    assert app.ui_scale() == 1.0  # Xvfb's content scale
    height = app.panel.status_bar.rect[3]
    app.set_ui_scale(2.0)
    frames(app)
    assert imgui.get_style().font_scale_dpi == 2.0
    assert app.panel.status_bar.rect[3] == pytest.approx(2 * height, rel=0.15)
    app.set_ui_scale(9.0)  # beyond the limit: clamped
    assert app.settings.ui_scale == 3.0
    app.set_ui_scale(None)
    frames(app)
    assert app.settings.ui_scale_follows_monitor and imgui.get_style().font_scale_dpi == 1.0
    assert imgui.get_style().window_padding.x == imgui.Style().window_padding.x  # no drift


def test_nearest_keeps_the_pixels_and_linear_smooths(app, run_until_shown, expected_rgb8):
    from app.surfaces import read_framebuffer

    screen = run_until_shown(app)
    left, top, width, height = app.frame_rect
    assert width > 256  # enlarged
    colours = {tuple(c) for c in expected_rgb8("rgb", 256).reshape(-1, 3)}
    shown = screen[top : top + height, left : left + width].reshape(-1, 3)
    assert {tuple(c) for c in np.unique(shown, axis=0)} <= colours
    app.set_texture_filter("linear")
    app.frame()
    screen = read_framebuffer(*app.surface.framebuffer_size())
    shown = screen[top : top + height, left : left + width].reshape(-1, 3)
    assert len({tuple(c) for c in np.unique(shown, axis=0)} - colours) > 10  # blends at the edges
    assert app.settings.texture_filter == "linear"


def test_on_the_cpu_the_gpus_display_controls_are_shown_disabled(app, run_until_shown, monkeypatch):
    from imgui_bundle import imgui

    import app.panel_display as panel_display

    monkeypatch.setattr("app.panel.SECTIONS_CLOSED_AT_START", ())
    disabled, drawn = [], {}

    class Recorded:
        def __getattr__(self, name):
            return getattr(imgui, name)

        def begin_disabled(self, on=True):
            disabled.append(on)
            imgui.begin_disabled(on)

        def end_disabled(self):
            disabled.pop()
            imgui.end_disabled()

        def checkbox(self, label, value):
            drawn[label] = any(disabled)
            return imgui.checkbox(label, value)

    monkeypatch.setattr(panel_display, "imgui", Recorded())
    run_until_shown(app)
    frames(app)
    # They did nothing on the CPU reference, and looked as if they did.
    assert drawn["force host copy"] and drawn["NVTX ranges"] and drawn["reload built-in shaders"]
    assert not drawn["vsync"] and not drawn["UI scale of the monitor"]

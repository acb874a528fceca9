"""The panel's pacing: its widgets are built at most PANEL_RATE_HZ times a second, and at once for
input or a new layout; between builds the window still draws the last one, with each new frame."""

import math

import numpy as np
import pytest

from app.panel_pacing import EARLY_S, PANEL_RATE_HZ, PanelPacer

LAYOUT = (900, 600, 900, 600, 1.0)


def test_the_first_pass_builds_and_a_build_is_drawn_again_until_its_interval_is_gone():
    pacer = PanelPacer(1 / PANEL_RATE_HZ)
    assert pacer.due(5.0, LAYOUT, input_pending=False)
    pacer.built(5.0, LAYOUT)
    interval = 1 / PANEL_RATE_HZ
    assert not pacer.due(5.0 + interval - EARLY_S - 1e-4, LAYOUT, input_pending=False)
    assert pacer.due(5.0 + interval - EARLY_S, LAYOUT, input_pending=False)  # a pass a little early
    assert pacer.builds == 1


@pytest.mark.parametrize(
    "layout",
    [(901, 600, 900, 600, 1.0), (900, 600, 1800, 1200, 1.0), (900, 600, 900, 600, 1.5)],
    ids=["window", "framebuffer", "ui scale"],
)
def test_input_or_a_new_layout_builds_at_once(layout):
    pacer = PanelPacer(interval_s=3600)
    pacer.built(0.0, LAYOUT)
    assert not pacer.due(0.001, LAYOUT, input_pending=False)
    assert pacer.due(0.001, LAYOUT, input_pending=True)
    assert pacer.due(0.001, layout, input_pending=False)


def test_a_screenshot_has_the_next_pass_build_whatever_the_time():
    pacer = PanelPacer(interval_s=3600)
    pacer.built(0.0, LAYOUT)
    pacer.build_next()
    assert pacer.due(0.001, LAYOUT, input_pending=False)
    pacer.built(0.001, LAYOUT)
    assert not pacer.due(0.002, LAYOUT, input_pending=False)


def test_a_build_asked_for_during_a_build_comes_at_the_pass_after():
    pacer = PanelPacer(interval_s=3600)
    assert pacer.due(0.0, LAYOUT, input_pending=False)
    pacer.build_next()  # from a widget, while the panel is built
    pacer.built(0.0, LAYOUT)
    assert pacer.due(0.001, LAYOUT, input_pending=False)


def test_an_interval_of_0_builds_every_pass():
    pacer = PanelPacer(interval_s=0)
    pacer.built(1.0, LAYOUT)
    assert pacer.due(1.0, LAYOUT, input_pending=False)


@pytest.mark.parametrize("interval", [-1e-9, math.nan, -math.inf])
def test_an_interval_below_0_or_nan_is_refused_by_name(interval):
    with pytest.raises(ValueError, match="panel's interval must be >= 0 seconds"):
        PanelPacer(interval)


def test_the_window_draws_the_last_build_again_and_builds_for_input_and_a_resize(app, run_until_shown):
    """In a real window (Xvfb, the CPU backend): passes with nothing new draw the panel from its last
    build, pixel for pixel as the build drew it; an input event or a resize builds at once."""
    from imgui_bundle import imgui

    from app.panel import PANEL_WIDTH
    from app.surfaces import read_framebuffer

    app.panel_pacer.interval_s = 3600  # no build from time: only the first, input, resizes, asked
    built = []
    draw = app.panel.draw
    app.panel.draw = lambda *size: (built.append(size), draw(*size))
    run_until_shown(app)
    app.panel_pacer.build_next()
    app.frame()
    shown = read_framebuffer(*app.surface.framebuffer_size())
    builds = len(built)
    # The panel is on screen: its side holds text and widgets, not one colour.
    assert len(np.unique(shown[:, :PANEL_WIDTH].reshape(-1, 3), axis=0)) > 8
    for _ in range(5):
        app.frame()
    assert len(built) == builds
    again = read_framebuffer(*app.surface.framebuffer_size())
    assert np.array_equal(again, shown)  # the panel and the frame, drawn from the last build
    imgui.get_io().add_mouse_pos_event(20, 30)
    app.frame()
    assert len(built) == builds + 1
    app.frame()
    assert len(built) == builds + 1
    app.surface.set_size(800, 500)
    for _ in range(100):  # the X server may take a pass or more to resize the window
        app.frame()
        if app.surface.window_size() == (800, 500):
            break
    assert built[-1] == (800, 500)


def test_a_screenshot_after_a_change_in_code_shows_a_panel_built_for_it(app, run_until_shown, tmp_path):
    """Paced as the app is, with no input: the pass that saves a screenshot builds the panel anew."""
    app.panel_pacer.interval_s = 3600
    built = []
    draw = app.panel.draw
    app.panel.draw = lambda *size: (built.append(size), draw(*size))
    run_until_shown(app)
    app.frame()
    builds = len(built)
    app.request_screenshot(tmp_path / "shot.png")
    app.frame()
    assert len(built) == builds + 1 and app.last_screenshot == tmp_path / "shot.png"
    assert (tmp_path / "shot.png").stat().st_size > 0

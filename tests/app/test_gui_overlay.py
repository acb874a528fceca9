"""The window's overlays under Xvfb with Mesa (CPU backend): chosen in the panel's Overlay section,
computed in the worker thread for the frame on screen, shown mixed into the frame exactly, with the
figures of the variant the panel names; turned off, the plain frame comes back."""

import time

import numpy as np

from render.circles.overlays import candidate_counts, depth_counts
from render.circles.variants import VARIANTS
from render.circles.warp_skip import warp_skip_fractions
from render.core.overlay_picture import overlaid_rgb8
from scenes.builtin import build_scene


def shown_overlay(app, name, timeout=60):
    """Choose overlay ``name`` and loop the window until it is on screen; returns the overlay."""
    app.choose_overlay(name)
    deadline = time.monotonic() + timeout
    app.frame()
    while not app.overlay.ready(app.session) and time.monotonic() < deadline:
        app.frame()
        time.sleep(0.002)
    assert app.overlay.ready(app.session), app.overlay.error or "the overlay never came"
    app.frame()
    return app.overlay.overlay


def texture_rgb8_top_down(app):
    return app.display.read_texture()[::-1, :, :3]


def test_depth_is_shown_mixed_into_the_frame(app, run_until_shown, monkeypatch):
    import app.panel_overlay as panel_overlay

    monkeypatch.setattr("app.panel.SECTIONS_CLOSED_AT_START", ())  # the Overlay section draws its figures
    histograms = []
    draw_histogram = panel_overlay._histogram
    monkeypatch.setattr(panel_overlay, "_histogram", lambda *args: histograms.append(args) or draw_histogram(*args))
    run_until_shown(app)
    overlay = shown_overlay(app, "depth")
    assert histograms and histograms[-1][1] == "pixels" and len(histograms[-1][0]) == 256 * 256
    assert np.array_equal(overlay.values, depth_counts(build_scene("rgb"), 256, 256))
    expected = overlaid_rgb8(app.session.host_image(), overlay)
    assert np.array_equal(texture_rgb8_top_down(app), expected)
    assert app.overlay.values is not None and app.overlay.values.max() == 3


def test_candidates_follow_the_variant_the_panel_names(app, run_until_shown):
    run_until_shown(app)
    assert app.session.set_variant("tile-sort:tile=32,test=exact")
    overlay = shown_overlay(app, "candidates")
    rule = VARIANTS.parse("tile-sort:tile=32,test=exact")
    assert np.array_equal(overlay.values, candidate_counts(build_scene("rgb"), rule, 256, 256))
    assert overlay.cell == (32, 32)
    assert app.session.set_variant("per-pixel")
    overlay = shown_overlay(app, "candidates")  # computed again for the new rule
    assert overlay.cell == (16, 16) and (overlay.values == 3).all()


def test_warp_skip_on_the_cpu_is_tile_warps_and_cycles_says_it_needs_the_gpu(app, run_until_shown, monkeypatch):
    import app.panel_overlay as panel_overlay

    monkeypatch.setattr("app.panel.SECTIONS_CLOSED_AT_START", ())
    histograms = []
    draw_histogram = panel_overlay._histogram
    monkeypatch.setattr(panel_overlay, "_histogram", lambda *args: histograms.append(args) or draw_histogram(*args))
    run_until_shown(app)
    assert app.session.set_variant("tile-warp:tile=64")
    overlay = shown_overlay(app, "warp-skip")
    expected = warp_skip_fractions(build_scene("rgb"), VARIANTS.parse("tile-warp:tile=64"), 256, 256)
    assert overlay.cell == (16, 16) and np.array_equal(overlay.values, expected)
    assert histograms and histograms[-1][1] == "warps"
    assert np.array_equal(texture_rgb8_top_down(app), overlaid_rgb8(app.session.host_image(), overlay))
    app.choose_overlay("cycles")
    deadline = time.monotonic() + 60
    while not app.overlay.error and time.monotonic() < deadline:
        app.frame()
        time.sleep(0.002)
    assert app.overlay.error == "cycles: measured inside the GPU's blend kernel; the cpu reference has none"
    # The panel wraps the reason to its width and no longer says it is computing what failed.
    from imgui_bundle import imgui

    disabled, wrapped, warning_wrapped = [], [], panel_overlay.warning_wrapped

    class Recorded:
        def __getattr__(self, name):
            return getattr(imgui, name)

        def text_disabled(self, text):
            disabled.append(text)
            imgui.text_disabled(text)

    monkeypatch.setattr(panel_overlay, "imgui", Recorded())
    monkeypatch.setattr(panel_overlay, "warning_wrapped", lambda text: wrapped.append(text) or warning_wrapped(text))
    app.frame()  # the window goes on, the frame without an overlay
    assert wrapped == [app.overlay.error] and "computing ..." not in disabled


def test_the_grid_then_none_brings_the_plain_frame_back(app, run_until_shown, expected_rgb8):
    run_until_shown(app)
    overlay = shown_overlay(app, "tiles")
    assert overlay.values is None
    assert np.array_equal(texture_rgb8_top_down(app), overlaid_rgb8(app.session.host_image(), overlay))
    app.choose_overlay("none")
    app.frame()
    app.frame()
    assert np.array_equal(texture_rgb8_top_down(app), expected_rgb8("rgb", 256))


def test_an_overlay_chosen_before_the_first_frame_waits_for_it(app, run_until_shown):
    app.choose_overlay("depth")  # the CPU frame is not there yet: nothing to show again
    app.frame()
    run_until_shown(app)
    assert shown_overlay(app, "depth").values.max() == 3


def test_an_export_keeps_the_overlay_and_its_legend(app, run_until_shown, tmp_path):
    from PIL import Image

    from render.core.overlay_picture import overlay_picture

    run_until_shown(app)
    overlay = shown_overlay(app, "candidates")
    path = app.session.export_png()
    assert path.name.endswith("_candidates.png"), path
    expected = overlay_picture(app.session.host_image(), overlay)
    assert np.array_equal(np.asarray(Image.open(path)), expected)
    app.choose_overlay("none")
    app.frame()
    assert not app.session.export_png().name.endswith("_candidates.png")

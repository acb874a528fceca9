"""The real window under Xvfb with Mesa's OpenGL (no GPU), driven in this process: it shows each
frame exactly beside the panel, follows scene and variant switches, dropped files, shortcuts, resizes
and minimizes, exports, falls back from interop, draws both sphere views, and refuses input that does
not fit (typed seeds and counts, files whose loader fails)."""

import time

import numpy as np
import pytest


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


def test_window_shows_the_scene_exactly_and_the_panel(app, run_until_shown, expected_rgb8):
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


def test_switching_scene_and_variant_through_the_session(app, run_until_shown, expected_rgb8):
    run_until_shown(app)
    app.session.select_scene("pattern")
    screen = run_until_shown(app)
    assert np.array_equal(frame_in_window(app, screen), expected_rgb8("pattern", 256))
    assert app.session.set_variant("tile-sort:tile=32")
    assert app.session.settings.variant == "tile-sort:sort=cub,test=box,tile=32"


def test_dropped_scene_file_opens(app, tmp_path, run_until_shown, expected_rgb8):
    from scenes.builtin import build_scene
    from scenes.files import save_scene

    run_until_shown(app)
    path = save_scene(build_scene("pattern"), tmp_path / "dropped.json")
    app.surface.dropped.append(str(path))  # what GLFW's drop callback does
    screen = run_until_shown(app)
    assert app.session.settings.scene == str(path)
    assert np.array_equal(frame_in_window(app, screen), expected_rgb8("pattern", 256))


def test_shortcuts_play_reset_help_and_export(app, tmp_path, run_until_shown):
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


def test_resize_and_fit_to_window(app, run_until_shown, expected_rgb8):
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


def test_interop_failure_falls_back_to_host_copy_once(app, run_until_shown):
    run_until_shown(app)
    display = app.display
    assert display._try_interop() is None  # Mesa + no GPU: registration fails
    notice = display.notice
    assert notice.startswith("CUDA-GL interop unavailable, showing frames through a host copy: ")
    assert display._try_interop() is None and display.notice == notice
    assert display.path == "host copy"


def test_screenshot_with_ui_goes_to_the_export_folder(app, tmp_path, run_until_shown):
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


def test_minimizing_and_restoring_the_window(app, run_until_shown, expected_rgb8):
    run_until_shown(app)
    app.surface.set_size(0, 0)  # iconify: on X11 the framebuffer may keep its size
    for _ in range(5):
        assert app.frame()
    app.surface.set_size(900, 600)
    screen = run_until_shown(app)
    assert np.array_equal(frame_in_window(app, screen), expected_rgb8("rgb", 256))


def expected_sphere_rgb8(view, size, shading=None):
    from render.spheres.shading import ShadeSettings, reference_image
    from scenes.spheres import build_sphere_scene

    return reference_image(build_sphere_scene("classic"), size, view, shading or ShadeSettings())[::-1, :, :3]


def test_spheres_renderer_shows_both_views_exactly(app, run_until_shown):
    run_until_shown(app)
    assert app.session.set_renderer("spheres"), app.session.status
    screen = run_until_shown(app)
    assert np.array_equal(frame_in_window(app, screen), expected_sphere_rgb8("classic", 256))
    assert app.session.set_view("shaded")
    screen = run_until_shown(app)
    assert np.array_equal(frame_in_window(app, screen), expected_sphere_rgb8("shaded", 256))


def test_dragging_the_picture_orbits_the_shaded_camera(app, run_until_shown):
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


def test_a_dropped_file_whose_loader_fails_unexpectedly_keeps_the_scene(app, tmp_path, monkeypatch, run_until_shown):
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


def type_into(app, spy, text, typing, ctrl_click=False):
    """Click the spied widget (with ctrl held: a slider's text entry), replace its text, press Enter;
    ``typing``: the (click_at, (click_at, replace_text)) fixtures."""
    click_at, replace_text = typing
    app.frame()
    click_at(app, *spy.centre, ctrl=ctrl_click)
    replace_text(app, text)


def test_a_typed_seed_out_of_range_is_refused_with_a_status_message(
    click_at, replace_text, app, monkeypatch, run_until_shown
):
    import app.panel as panel_module

    run_until_shown(app)
    app.session.select_scene("rand10k")
    spy = _WidgetSpy("seed")
    monkeypatch.setattr(panel_module, "imgui", spy)
    for typed in ("4294967296", "-1", "99999999999999999999999"):
        type_into(app, spy, typed, (click_at, replace_text))
        assert app.session.status == f"seed must be an integer in 0..4294967295, got {typed}"
        assert app.session.settings.seed == 0
    type_into(app, spy, "4294967295", (click_at, replace_text))  # past a C int, and still a seed
    assert app.session.settings.seed == 2**32 - 1 and app.panel.seed_edit == "4294967295"


def test_a_typed_sphere_count_is_clamped_by_the_slider(click_at, replace_text, app, monkeypatch, run_until_shown):
    import app.panel as panel_module

    app.session.set_renderer("spheres")
    assert app.session.select_scene("random")
    run_until_shown(app)
    spy = _WidgetSpy("spheres")
    monkeypatch.setattr(panel_module, "imgui", spy)
    type_into(app, spy, "0", (click_at, replace_text), ctrl_click=True)
    assert app.session.settings.sphere_count == 1 and app.session.scene.count == 1


def test_a_still_picture_has_no_frame_rate_and_a_new_scene_starts_its_own(app, run_until_shown):
    # A still CPU frame answers a change, after however long the user took: its gap was shown as
    # "between frames" (26,724 ms) and as a frame rate (0.0374), and one scene's rate stayed on the
    # next's.
    assert app.session.select_scene("bouncingballs", confirmed=True)
    run_until_shown(app)
    app.session.toggle_play()
    deadline = time.monotonic() + 30
    while len(app.frame_log) < 3 and time.monotonic() < deadline:
        app.frame()
        time.sleep(0.005)
    app.session.toggle_play()
    assert app.delivered_fps() is not None and len(app.frame_log) >= 3
    time.sleep(0.3)  # the user's pause
    assert app.session.select_scene("rgb", confirmed=True)
    shown = app.frames_shown
    run_until_shown(app)
    assert app.frames_shown > shown
    assert app.delivered_fps() is None and not app.frame_log and app.stats()["wall_ms_median"] is None


def test_the_frame_rate_counts_delivered_frames_not_redraws(app, run_until_shown, monkeypatch):
    # Each CPU frame takes at least 0.2 s while the window redraws the last one many times meanwhile.
    assert app.session.select_scene("bouncingballs", confirmed=True)
    run_until_shown(app)
    render = app.session.renderer.render

    def slow_render():
        time.sleep(0.2)
        render()

    monkeypatch.setattr(app.session.renderer, "render", slow_render)
    app.session.toggle_play()
    passes, deadline = 0, time.monotonic() + 30
    while len(app.frame_log) < 4 and time.monotonic() < deadline:
        app.frame()
        passes += 1
        time.sleep(0.005)
    app.session.toggle_play()
    assert len(app.frame_log) >= 4 and passes > 4 * len(app.frame_log)
    assert 0 < app.delivered_fps() <= 5.5
    assert app.stats()["fps_median"] <= 5.5 and app.stats()["frames_measured"] >= 2
    host = app.stats()["host_ms_median"]  # the passes that delivered a frame, phase by phase
    assert set(host) == {"render", "show", "panel", "swap"} and min(host.values()) >= 0

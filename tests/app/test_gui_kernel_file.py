"""A user's kernel file in the window under Xvfb (CPU backend): a dropped .cu file becomes the
variant ``file:PATH`` (not a scene to open), and the compiler log opens in a window of its own and
closes when there is no log."""

from imgui_bundle import imgui

from shaders import SHADER_DIR

TEMPLATE = SHADER_DIR / "user" / "tile_scan.cu"


def test_a_dropped_kernel_file_becomes_the_variant(app, run_until_shown):
    run_until_shown(app)
    app.surface.dropped.append(str(TEMPLATE))
    app.frame()
    assert app.session.variant.label() == f"file:{TEMPLATE}" and app.session.scene_name == "rgb"


def test_the_compiler_log_has_a_window_of_its_own(app, run_until_shown, monkeypatch):
    monkeypatch.setattr("app.panel.SECTIONS_CLOSED_AT_START", ())
    run_until_shown(app)
    app.frame()
    assert imgui.internal.find_window_by_name("Compiler log") is None
    app.kernel_watch.log = 'mine.cu(12): error: identifier "nonsense" is undefined\n1 error detected'
    app.kernel_watch.error = 'file:mine.cu does not compile: mine.cu(12): error: identifier "nonsense" is undefined'
    app.panel.show_compiler_log = True
    app.frame()
    window = imgui.internal.find_window_by_name("Compiler log")
    assert window is not None and window.active
    app.kernel_watch.log = ""  # a build that compiles: nothing to show
    app.frame()
    assert not imgui.internal.find_window_by_name("Compiler log").active

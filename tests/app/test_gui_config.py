"""The window's settings and config folder under Xvfb: an interactive run saves them; corrupt or
out-of-range settings, a config folder that is a file, a window larger than the screen, a remembered
scene file that no longer loads and an imgui.ini that is not a regular file each give a warning or a
safe fallback."""

import json
import os

import pytest


def test_corrupt_settings_warn_and_the_app_still_runs(x_display, config, tmp_path, gui_command):
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


@pytest.mark.parametrize("signum", [2, 15, 1], ids=["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_stop_saves_the_settings_as_closing_the_window_does(x_display, config, monkeypatch, signum):
    from app.launch import GuiOptions, run_gui
    from app.signals import Stopped
    from app.window import App

    run = App.run

    def run_then_stop(self, frames, *args):
        run(self, 2, *args)
        raise Stopped(signum)  # as the signal handler raises it in the app's loop

    monkeypatch.setattr(App, "run", run_then_stop)
    with pytest.raises(Stopped):
        run_gui(GuiOptions(scene="pattern", size=300, persist=True))
    saved = json.loads((config / "settings.json").read_text())
    assert saved["scene"] == "pattern" and saved["size"] == 300
    assert (config / "imgui.ini").exists()


def test_an_error_in_the_app_leaves_the_saved_settings_as_they_were(x_display, config, monkeypatch):
    from app.launch import GuiOptions, run_gui
    from app.window import App

    config.mkdir()
    (config / "settings.json").write_text(json.dumps({"scene": "rgb", "size": 256}))

    def failed(self, *args):
        raise RuntimeError("a bug")

    monkeypatch.setattr(App, "run", failed)
    with pytest.raises(RuntimeError):
        run_gui(GuiOptions(scene="pattern", size=300, persist=True))
    assert json.loads((config / "settings.json").read_text()) == {"scene": "rgb", "size": 256}


def test_config_folder_that_is_a_file_warns_and_nothing_is_written(x_display, config, tmp_path, capsys, gui_command):
    from app.launch import GuiOptions, run_gui

    config.write_text("not a folder")
    result = gui_command("gui", "--scene", "rgb", "--size", "256", "--frames", "2")
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr  # a scripted run saves nothing, so nothing is lost
    assert run_gui(GuiOptions(scene="pattern", size=300, frames=2, persist=True)) == 0
    assert f"warning: the config folder {config} exists but is not a folder" in capsys.readouterr().err
    assert config.read_text() == "not a folder"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config"]  # no imgui.ini, no settings anywhere


def test_config_folder_that_is_a_file_leaves_imgui_without_an_ini_file(
    x_display, config, tmp_path, monkeypatch, run_until_shown
):
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
    x_display, config, tmp_path, spoil, gui_command
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


@pytest.mark.parametrize("planted", ["fifo", "link"])
def test_an_imgui_ini_that_is_not_a_regular_file_is_not_used(x_display, config, tmp_path, planted, run_until_shown):
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

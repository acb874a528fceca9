"""The panel's file dialogs in the real window under Xvfb: the typed path dialog (focused from its
first frame, eating the keys typed into it, showing why a path was refused), a native dialog through
portable_file_dialogs with a stand-in zenity on PATH, and the question before a missing export
folder is made."""

import os
import time

import numpy as np
import pytest

# A stand-in for zenity: it notes its arguments and pid, then waits, like a user choosing, until the
# test writes its answer (the path it prints, and its exit status: 1 is zenity's Cancel).
FAKE_ZENITY = """#!/bin/sh
PATH=/usr/bin:/bin
echo $$ > "{folder}/pid"
printf '%s\\n' "$@" > "{folder}/arguments"
while [ ! -e "{folder}/answer" ]; do sleep 0.02; done
cat "{folder}/answer"
exit "$(cat "{folder}/status")"
"""


class _Drawn:
    """Stands in for ``imgui`` in app.panel_files: notes where each button was drawn and each text."""

    def __init__(self):
        from imgui_bundle import imgui

        self.imgui, self.buttons, self.texts = imgui, {}, []

    def __getattr__(self, name):
        real = getattr(self.imgui, name)
        if name == "button":

            def button(label, *args):
                pressed = real(label, *args)
                low, high = self.imgui.get_item_rect_min(), self.imgui.get_item_rect_max()
                self.buttons[label] = ((low.x + high.x) / 2, (low.y + high.y) / 2)
                return pressed

            return button
        if name in ("text", "text_wrapped"):

            def text(shown, *args):
                self.texts.append(shown)
                return real(shown, *args)

            return text
        return real


@pytest.fixture
def drawn(monkeypatch):
    import app.panel_files

    spy = _Drawn()
    monkeypatch.setattr(app.panel_files, "imgui", spy)
    return spy


def frame(app, drawn):
    """One pass of the loop; the texts the dialogs drew in it are in ``drawn.texts``."""
    drawn.texts.clear()
    assert app.frame()


def click(app, drawn, label):
    """Click the button ``label``, scrolling the panel to it first where it is below the window; the
    click's effects are in the last frame, the texts of which are drawn before it."""
    from imgui_bundle import imgui

    io = imgui.get_io()
    frame(app, drawn)
    io.add_mouse_pos_event(drawn.buttons[label][0], 20)
    frame(app, drawn)
    for _ in range(50):
        if drawn.buttons[label][1] < app.surface.window_size()[1] - 20:
            break
        io.add_mouse_wheel_event(0, -1)
        frame(app, drawn)
    io.add_mouse_pos_event(*drawn.buttons[label])
    frame(app, drawn)
    io.add_mouse_button_event(0, True)
    frame(app, drawn)
    io.add_mouse_button_event(0, False)
    frame(app, drawn)


def press(app, drawn, key):
    from imgui_bundle import imgui

    imgui.get_io().add_key_event(key, True)
    frame(app, drawn)
    imgui.get_io().add_key_event(key, False)
    frame(app, drawn)


def type_early(app, drawn, text):
    """Type ``text`` into the dialog that just opened, from its very first frames, with the
    shortcut keys pressed among the characters."""
    from imgui_bundle import imgui

    io, keys = imgui.get_io(), (imgui.Key.h, imgui.Key.space, imgui.Key.s, imgui.Key.r)
    io.add_input_characters_utf8(text[:3])  # the frame the field gets the focus in
    for key in keys:
        io.add_key_event(key, True)
    frame(app, drawn)
    for key in keys:
        io.add_key_event(key, False)
    io.add_input_characters_utf8(text[3:])
    frame(app, drawn)
    frame(app, drawn)


def frame_in_window(app, screen):
    """The shown frame's pixels at texel centres, sampled from the window; uint8 (S, S, 3), row 0 = top."""
    size = app.session.settings.size
    left, bottom, width, height = app.display.draw(*app.view_rect())
    centres = (np.arange(size) + 0.5) / size
    rows = screen.shape[0] - 1 - (bottom + centres[::-1] * height).astype(int)
    return screen[np.ix_(rows, (left + centres * width).astype(int))]


@pytest.fixture
def sphere_file(tmp_path):
    from scenes.files import save_sphere_scene
    from scenes.spheres import build_sphere_scene

    return save_sphere_scene(build_sphere_scene("classic"), tmp_path / "classic spheres.npz")


def expected_classic_spheres():
    from render.spheres.shading import ShadeSettings, reference_image
    from scenes.spheres import build_sphere_scene

    return reference_image(build_sphere_scene("classic"), 256, "classic", ShadeSettings())[::-1, :, :3]


@pytest.fixture
def typed_app(monkeypatch, request):
    monkeypatch.setenv("RASTERLAB_FILE_DIALOGS", "typed")
    made = request.getfixturevalue("app")
    assert not made.panel.files.native
    return made


@pytest.fixture
def fake_zenity(tmp_path, monkeypatch):
    """A folder with the stand-in zenity first on PATH; ``answer(text, status)`` makes it reply."""
    folder = tmp_path / "helper"
    folder.mkdir()
    script = folder / "zenity"
    script.write_text(FAKE_ZENITY.format(folder=folder))
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.delenv("RASTERLAB_FILE_DIALOGS", raising=False)
    monkeypatch.delenv("XDG_SESSION_DESKTOP", raising=False)  # portable_file_dialogs then prefers zenity

    def answer(text, status=0):
        (folder / "status").write_text(str(status))
        (folder / "answer.tmp").write_text(text)
        (folder / "answer.tmp").rename(folder / "answer")

    answer.folder = folder
    return answer


@pytest.fixture
def native_app(fake_zenity, request):
    made = request.getfixturevalue("app")
    assert made.panel.files.native
    return made


def wait_for(app, drawn, done, timeout=30):
    deadline = time.monotonic() + timeout
    while not done() and time.monotonic() < deadline:
        frame(app, drawn)
        time.sleep(0.005)
    assert done()


# -- the typed path dialog ---------------------------------------------------------------------


def test_the_typed_dialog_has_the_focus_and_eats_the_shortcut_keys(typed_app, drawn, tmp_path, run_until_shown):
    from imgui_bundle import imgui

    app = typed_app
    assert app.session.select_scene("bouncingballs", confirmed=True)
    run_until_shown(app)
    app.session.step()
    click(app, drawn, "Open file...")
    assert "Path of a .npz or .json scene file:" in drawn.texts
    typed = str(tmp_path / "some scene.json")
    type_early(app, drawn, typed)
    assert app.panel.files.scene_path.text == typed
    assert not app.panel.show_help and not app.session.playing and app.session.frame == 1
    assert list((tmp_path / "exports").iterdir()) == []
    press(app, drawn, imgui.Key.escape)
    assert "Path of a .npz or .json scene file:" not in drawn.texts
    assert app.session.scene_name == "bouncingballs" and app.session.frame == 1
    press(app, drawn, imgui.Key.h)  # the dialog closed: the shortcuts work again
    assert app.panel.show_help


def test_a_sphere_file_opened_by_path_switches_the_renderer(
    typed_app, drawn, sphere_file, run_until_shown, monkeypatch
):
    from imgui_bundle import imgui

    app = typed_app
    run_until_shown(app)
    assert app.session.kind.name == "circles"
    monkeypatch.setenv("HOME", str(sphere_file.parent))
    click(app, drawn, "Open file...")
    type_early(app, drawn, f"~/{sphere_file.name}")
    press(app, drawn, imgui.Key.enter)
    assert app.session.kind.name == "spheres" and app.session.scene_name == str(sphere_file)
    assert "Path of a .npz or .json scene file:" not in drawn.texts
    screen = run_until_shown(app)
    assert np.array_equal(frame_in_window(app, screen), expected_classic_spheres())


def test_a_path_that_does_not_open_is_explained_in_the_dialog(typed_app, drawn, tmp_path, run_until_shown):
    from imgui_bundle import imgui

    app = typed_app
    run_until_shown(app)
    shown = app.session.renderer
    broken = tmp_path / "broken.npz"
    broken.write_bytes(b"not a scene")
    click(app, drawn, "Open file...")
    for path in (tmp_path / "missing.npz", broken, tmp_path):
        type_early(app, drawn, str(path))
        press(app, drawn, imgui.Key.enter)
        error = app.panel.files.scene_path.error
        assert error.startswith("cannot open scene") and str(path) in error, error
        assert error in drawn.texts and "Path of a .npz or .json scene file:" in drawn.texts
        assert app.session.scene_name == "rgb" and app.session.renderer is shown
    # After a refusal the field has the focus again: what is typed, at once (above) or once the
    # focus is back (here), replaces the refused path.
    from scenes.builtin import build_scene
    from scenes.files import save_scene

    good = save_scene(build_scene("pattern"), tmp_path / "pattern.json")
    frame(app, drawn)
    frame(app, drawn)
    imgui.get_io().add_input_characters_utf8(str(good))
    frame(app, drawn)
    press(app, drawn, imgui.Key.enter)
    assert app.session.scene_name == str(good) and not app.panel.files.scene_path.error


def test_a_typed_folder_replaces_the_export_folder_and_a_file_is_refused(typed_app, drawn, tmp_path):
    from imgui_bundle import imgui

    app = typed_app
    old = app.session.settings.export_folder
    frame(app, drawn)
    assert f"folder: {old}" in drawn.texts  # shown, not editable in place
    click(app, drawn, "Choose folder...")
    assert "Folder the exports go to:" in drawn.texts
    assert app.panel.files.folder_path.text == old  # shown whole, selected: typing replaces it
    blocker = tmp_path / "a file"
    blocker.write_text("mine")
    type_early(app, drawn, str(blocker / "inside"))
    press(app, drawn, imgui.Key.enter)
    assert app.panel.files.folder_path.error == f"cannot export to {blocker / 'inside'}: {blocker} is not a folder"
    assert app.session.settings.export_folder == old and blocker.read_text() == "mine"
    chosen = tmp_path / "chosen"
    chosen.mkdir()
    type_early(app, drawn, str(chosen))
    press(app, drawn, imgui.Key.enter)
    assert app.session.settings.export_folder == str(chosen)
    frame(app, drawn)
    assert f"folder: {chosen}" in drawn.texts and "Folder the exports go to:" not in drawn.texts


# -- the missing export folder -----------------------------------------------------------------


def test_a_missing_export_folder_is_made_only_after_asking(typed_app, drawn, tmp_path, run_until_shown):
    from imgui_bundle import imgui

    app = typed_app
    missing = tmp_path / "new" / "shots"
    app.session.set_export_folder(str(missing))
    run_until_shown(app)
    press(app, drawn, imgui.Key.s)
    frame(app, drawn)
    assert f"Create {missing}?" in drawn.texts
    press(app, drawn, imgui.Key.space)  # the question is a modal dialog: no shortcuts meanwhile
    assert not app.session.playing
    click(app, drawn, "Cancel")
    frame(app, drawn)
    assert not (tmp_path / "new").exists() and f"Create {missing}?" not in drawn.texts
    assert app.session.status == f"{missing} was not created; nothing was saved"
    press(app, drawn, imgui.Key.s)
    click(app, drawn, "Create")
    assert [p.name for p in missing.iterdir()] == ["rgb_reference_0000.png"]
    assert app.session.status == f"saved {missing / 'rgb_reference_0000.png'}"


def test_a_screenshot_asks_for_its_missing_folder_and_leaves_the_question_out(
    typed_app, drawn, tmp_path, run_until_shown
):
    from app.panel import PANEL_WIDTH

    app = typed_app
    missing = tmp_path / "screens"
    app.session.set_export_folder(str(missing))
    run_until_shown(app)
    app.request_screenshot()
    frame(app, drawn)
    frame(app, drawn)
    assert f"Create {missing}?" in drawn.texts and not missing.exists() and app.last_screenshot is None
    click(app, drawn, "Create")
    frame(app, drawn)
    assert app.last_screenshot == missing / "rgb_reference_0000_ui.png"
    from PIL import Image

    # The question, drawn in the frame its answer came in, is not in the screenshot: right of the
    # panel and above the status bar (whose message changes), the same as a shot taken later.
    bar_top = int(app.panel.status_bar.rect[1])
    shot = np.asarray(Image.open(app.last_screenshot))[:bar_top, PANEL_WIDTH:]
    app.request_screenshot()
    frame(app, drawn)
    assert np.array_equal(np.asarray(Image.open(app.last_screenshot))[:bar_top, PANEL_WIDTH:], shot)


# -- native dialogs, through portable_file_dialogs and a stand-in zenity ---------------------------


def test_a_native_dialog_opens_a_sphere_file_and_keeps_the_keys_meanwhile(
    native_app, drawn, fake_zenity, sphere_file, run_until_shown
):
    from imgui_bundle import imgui

    app = native_app
    run_until_shown(app)
    click(app, drawn, "Open file...")
    assert "choosing a file... (in the desktop's dialog)" in drawn.texts
    wait_for(app, drawn, (fake_zenity.folder / "arguments").exists)
    arguments = (fake_zenity.folder / "arguments").read_text().splitlines()
    assert "--file-selection" in arguments and "Scene files (.npz, .json)|*.npz *.json" in arguments
    press(app, drawn, imgui.Key.h)
    assert not app.panel.show_help and "choosing a file... (in the desktop's dialog)" in drawn.texts
    fake_zenity(f"{sphere_file}\n")
    wait_for(app, drawn, lambda: app.panel.files.running is None)
    assert app.session.kind.name == "spheres" and app.session.scene_name == str(sphere_file)
    frame(app, drawn)
    assert "choosing a file... (in the desktop's dialog)" not in drawn.texts
    imgui.get_io().add_mouse_pos_event(-imgui.FLT_MAX, -imgui.FLT_MAX)  # its tooltip would cover the frame
    screen = run_until_shown(app)
    assert np.array_equal(frame_in_window(app, screen), expected_classic_spheres())


def test_a_cancelled_native_dialog_changes_nothing(native_app, drawn, fake_zenity, run_until_shown):
    app = native_app
    run_until_shown(app)
    status = app.session.status
    click(app, drawn, "Open file...")
    fake_zenity("", status=1)
    wait_for(app, drawn, lambda: app.panel.files.running is None)
    frame(app, drawn)
    assert app.session.scene_name == "rgb" and app.session.status == status
    assert "choosing a file... (in the desktop's dialog)" not in drawn.texts


def test_a_native_folder_that_is_missing_is_asked_about(native_app, drawn, fake_zenity, tmp_path):
    app = native_app
    old = app.session.settings.export_folder
    missing = tmp_path / "picked"
    click(app, drawn, "Choose folder...")
    wait_for(app, drawn, (fake_zenity.folder / "arguments").exists)
    assert "--directory" in (fake_zenity.folder / "arguments").read_text().splitlines()
    assert "choosing a folder... (in the desktop's dialog)" in drawn.texts
    fake_zenity(f"{missing}\n")
    wait_for(app, drawn, lambda: f"Create {missing}?" in drawn.texts)
    click(app, drawn, "Cancel")
    assert not missing.exists() and app.session.settings.export_folder == old
    (fake_zenity.folder / "answer").unlink()
    click(app, drawn, "Choose folder...")
    fake_zenity(f"{missing}\n")
    wait_for(app, drawn, lambda: f"Create {missing}?" in drawn.texts)
    click(app, drawn, "Create")
    assert missing.is_dir() and app.session.settings.export_folder == str(missing)


def test_closing_the_app_ends_a_native_dialog_still_open(native_app, drawn, fake_zenity):
    app = native_app
    click(app, drawn, "Open file...")
    wait_for(app, drawn, (fake_zenity.folder / "pid").exists)
    pid = int((fake_zenity.folder / "pid").read_text())
    started = time.monotonic()
    app.panel.files.close()
    assert time.monotonic() - started < 5 and app.panel.files.running is None
    with pytest.raises(ProcessLookupError):  # gone, and reaped (on a loaded machine, give it time)
        while time.monotonic() - started < 10:
            os.kill(pid, 0)
            time.sleep(0.05)

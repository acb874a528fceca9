"""File dialogs without a window: when the native ones are used, and the export folder's checks,
choice and question as the session sees them (the window's side is in test_gui_dialogs.py)."""

import os
import shutil
import time
from pathlib import Path

import pytest

from app.dialogs import dialog_choice, native_helper
from app.export_folder import (
    CHOOSE,
    EXPORT,
    MissingFolder,
    answer_missing_folder,
    check_folder,
    choose_export_folder,
    create_folder,
)
from app.session import Session
from app.settings import Settings


def helpers_on_path(tmp_path, monkeypatch, *names, which=True):
    """PATH holding only a folder with executables called ``names`` (and ``which``, unless not)."""
    folder = tmp_path / "bin"
    folder.mkdir()
    for name in names:
        (folder / name).write_text("#!/bin/sh\nexit 1\n")
        (folder / name).chmod(0o755)
    if which:
        (folder / "which").symlink_to(shutil.which("which"))
    monkeypatch.setenv("PATH", str(folder))
    monkeypatch.delenv("RASTERLAB_FILE_DIALOGS", raising=False)


def test_native_dialogs_are_used_where_portable_file_dialogs_finds_a_helper(tmp_path, monkeypatch):
    helpers_on_path(tmp_path, monkeypatch, "kdialog", "qarma")
    assert native_helper() == "qarma"  # its order: zenity, matedialog, qarma, kdialog
    assert dialog_choice() == (True, None)


def test_without_a_helper_the_typed_dialog_is_used(tmp_path, monkeypatch):
    helpers_on_path(tmp_path, monkeypatch)
    assert native_helper() is None and dialog_choice() == (False, None)


def test_without_which_portable_file_dialogs_finds_no_helper(tmp_path, monkeypatch):
    helpers_on_path(tmp_path, monkeypatch, "zenity", which=False)
    assert native_helper() is None and dialog_choice() == (False, None)


def test_the_typed_dialog_can_be_asked_for_and_a_bad_choice_is_named(tmp_path, monkeypatch):
    helpers_on_path(tmp_path, monkeypatch, "zenity")
    monkeypatch.setenv("RASTERLAB_FILE_DIALOGS", "typed")
    assert dialog_choice() == (False, None)
    monkeypatch.setenv("RASTERLAB_FILE_DIALOGS", "native")
    assert dialog_choice() == (True, None)
    monkeypatch.setenv("RASTERLAB_FILE_DIALOGS", "zenity please")
    assert dialog_choice() == (
        True,
        "warning: RASTERLAB_FILE_DIALOGS='zenity please' is not one of native, typed; ignored",
    )


# -- the export folder -------------------------------------------------------------------------


def problem(text):
    return check_folder(str(text))[2]


def test_folder_problems_name_what_is_in_the_way(tmp_path):
    blocker = tmp_path / "a file"
    blocker.write_text("mine")
    dangling = tmp_path / "link"
    dangling.symlink_to(tmp_path / "gone")
    assert problem(tmp_path) is None
    assert problem(tmp_path / "new" / "deeper") is None  # can be made
    assert problem(blocker) == f"{blocker} is not a folder"
    assert problem(blocker / "inside" / "deeper") == f"{blocker} is not a folder"
    assert problem(dangling) == f"{dangling} is not a folder"
    assert problem("/dev/null") == "/dev/null is not a folder"
    assert problem(tmp_path / ("x" * 300) / "y") == "File name too long"
    assert problem(f"{tmp_path}/a\0b") == "a path cannot hold a NUL character"
    assert problem("~no-such-user-here/shots") == "~no-such-user-here: no such user"
    assert blocker.read_text() == "mine" and not (tmp_path / "gone").exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_folder_is_refused(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    assert problem(locked) == f"{locked} is not writable"
    assert problem(locked / "new") == f"{locked} is not writable"


def test_a_folder_that_cannot_be_made_says_why():
    assert create_folder(Path("/proc/rasterlab-test")).startswith("cannot create /proc/rasterlab-test: ")
    assert not Path("/proc/rasterlab-test").exists()


def test_check_folder_expands_home_and_makes_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    folder, missing, problem = check_folder("~/shots")
    assert folder == tmp_path / "shots" and missing == MissingFolder(tmp_path / "shots", EXPORT) and problem is None
    assert not folder.exists()


@pytest.fixture
def session(tmp_path):
    made = Session(Settings(scene="rgb", size=256, export_folder=str(tmp_path / "exports")), backend="cpu")
    yield made
    made.close()


def shown(session, timeout=60):
    deadline = time.monotonic() + timeout
    while not session.update():
        assert time.monotonic() < deadline, "no frame within the timeout"
        time.sleep(0.002)


def test_an_export_to_a_missing_folder_makes_nothing_and_asks(session, tmp_path):
    shown(session)
    missing = tmp_path / "exports"
    outcome = session.export_png()
    assert outcome == MissingFolder(missing, EXPORT) and session.missing_folder == outcome
    assert session.status == f"export folder {missing} does not exist" and not missing.exists()
    assert not answer_missing_folder(session, outcome, create=False)
    assert not missing.exists() and session.status == f"{missing} was not created; nothing was saved"
    assert answer_missing_folder(session, outcome, create=True) and missing.is_dir()
    assert session.settings.export_folder == str(missing)
    assert session.export_png() == missing / "rgb_reference_0000.png"


def test_an_export_folder_that_is_a_file_is_one_line(session, tmp_path):
    shown(session)
    blocker = tmp_path / "exports"
    blocker.write_text("mine")
    assert session.export_png() is None and session.missing_folder is None
    assert session.status == f"export failed: cannot write to {blocker}: {blocker} is not a folder"
    assert blocker.read_text() == "mine"


def test_a_chosen_folder_replaces_the_old_one_whole(session, tmp_path, monkeypatch):
    chosen = tmp_path / "chosen"
    chosen.mkdir()
    assert choose_export_folder(session, f"  {chosen}  ") == (None, None)
    assert session.settings.export_folder == str(chosen) and session.status == f"exports go to {chosen}"
    monkeypatch.chdir(tmp_path)
    assert choose_export_folder(session, "chosen") == (None, None)  # relative: to where the app runs
    assert session.settings.export_folder == str(chosen)


def test_a_chosen_folder_that_is_missing_is_made_only_on_create(session, tmp_path):
    old = session.settings.export_folder
    missing, problem = choose_export_folder(session, str(tmp_path / "new" / "shots"))
    assert missing == MissingFolder(tmp_path / "new" / "shots", CHOOSE) and problem is None
    assert session.settings.export_folder == old and not (tmp_path / "new").exists()
    assert not answer_missing_folder(session, missing, create=False)
    assert session.status == f"{missing.folder} was not created; the export folder is unchanged"
    assert session.settings.export_folder == old and not (tmp_path / "new").exists()
    assert answer_missing_folder(session, missing, create=True)
    assert (tmp_path / "new" / "shots").is_dir() and session.settings.export_folder == str(missing.folder)


def test_a_chosen_folder_that_cannot_be_used_changes_nothing(session, tmp_path):
    old = session.settings.export_folder
    blocker = tmp_path / "a file"
    blocker.write_text("mine")
    for text, status in (
        ("   ", "no export folder given"),
        (str(blocker), f"cannot export to {blocker}: {blocker} is not a folder"),
        (str(blocker / "sub"), f"cannot export to {blocker / 'sub'}: {blocker} is not a folder"),
    ):
        assert choose_export_folder(session, text) == (None, status) and session.status == status
        assert session.settings.export_folder == old
    missing = MissingFolder(Path("/proc/rasterlab-test"), CHOOSE)
    assert not answer_missing_folder(session, missing, create=True)
    assert session.status.startswith("cannot create /proc/rasterlab-test: ") and session.settings.export_folder == old

"""The export folder: checked before each export, made only when the user says so, and chosen whole
(never edited in place); no ImGui here, the panel asks the questions (``app.panel_files``)."""

from __future__ import annotations

import dataclasses
import os
import stat
from pathlib import Path

# What waits for a missing folder: an export of the render, a screenshot, a recording, or the folder
# being chosen.
EXPORT, SCREENSHOT, RECORD, CHOOSE = "export", "screenshot", "record", "choose"


@dataclasses.dataclass(frozen=True)
class MissingFolder:
    """An export folder that does not exist yet, and what waits for it (EXPORT, SCREENSHOT, RECORD,
    CHOOSE)."""

    folder: Path
    then: str = EXPORT

    def question(self) -> str:
        return f"Create {self.folder}?"

    def status(self) -> str:
        return f"export folder {self.folder} does not exist"


def _nearest_existing(folder: Path) -> Path:
    """``folder``, or its nearest ancestor that exists (a link counts, even one to nothing); OSError
    or ValueError when the path cannot be looked at (too long, a NUL in it, a parent not searchable)."""
    existing = folder
    while True:
        try:
            os.lstat(existing)
            return existing
        except (FileNotFoundError, NotADirectoryError):
            if existing.parent == existing:  # "." itself gone: the app's working folder was deleted
                raise
            existing = existing.parent


def _is_folder(path: Path) -> bool:
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except OSError:  # a link to nothing, or to where this process may not look
        return False


def check_folder(text: str, then: str = EXPORT) -> tuple[Path, MissingFolder | None, str | None]:
    """The folder ``text`` names (``~`` expanded); whether it is missing (nothing is made here); and
    why files cannot be written into it, in a few words, where they cannot (then it is not missing:
    nothing could be made). A missing folder can be made: its nearest existing ancestor is a
    writable folder."""
    try:
        folder = Path(text).expanduser()
    except RuntimeError:  # ~name of no known user
        return Path(text), None, f"{Path(text).parts[0]}: no such user"
    try:
        existing = _nearest_existing(folder)
    except ValueError:
        return folder, None, "a path cannot hold a NUL character"
    except OSError as error:
        return folder, None, error.strerror or str(error)
    if not _is_folder(existing):  # a file, a device, or a link to nothing
        return folder, None, f"{existing} is not a folder"
    if not os.access(existing, os.W_OK | os.X_OK):
        return folder, None, f"{existing} is not writable"
    return folder, MissingFolder(folder, then) if existing != folder else None, None


def create_folder(folder: Path) -> str | None:
    """Make ``folder`` and its missing parents; None when done, else why not (one line)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        return f"cannot create {folder}: {error.strerror or error}"
    return None


def choose_export_folder(session, text: str) -> tuple[MissingFolder | None, str | None]:
    """Make ``text`` (the whole path typed or picked) the session's export folder. Returns the folder
    when it does not exist yet (to be asked about; nothing changed), and why it was refused (also in
    ``session.status``; nothing changed either)."""
    if not text.strip():
        session.status = "no export folder given"
        return None, session.status
    folder, missing, problem = check_folder(text.strip(), CHOOSE)
    if problem:
        session.status = f"cannot export to {folder}: {problem}"
        return None, session.status
    folder = folder.absolute()
    if missing:
        return dataclasses.replace(missing, folder=folder), None
    session.set_export_folder(str(folder))
    session.status = f"exports go to {folder}"
    return None, None


def answer_missing_folder(session, missing: MissingFolder, create: bool) -> bool:
    """The user's answer to ``missing.question()``: True when the folder was made (and, for CHOOSE,
    set as the export folder), so that what waited for it can go on; status says what happened."""
    if not create:
        session.status = (
            f"{missing.folder} was not created; the export folder is unchanged"
            if missing.then == CHOOSE
            else f"{missing.folder} was not created; nothing was saved"
        )
        return False
    problem = create_folder(missing.folder)
    if problem:
        session.status = problem
        return False
    if missing.then == CHOOSE:
        session.set_export_folder(str(missing.folder))
    session.status = f"created {missing.folder}"
    return True

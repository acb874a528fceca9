"""Files the command line writes. Each is checked before the work starts (its name, its folder, what
is there now), and the user says then whether an existing file may be replaced: ``--overwrite``, or
a yes at the terminal. Whatever was decided, the file is placed in one step afterwards
(``scenes.safe_write``), so a file that appears meanwhile is never replaced without that permission.
"""

from __future__ import annotations

import argparse
import os
import stat
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

from scenes.safe_write import EXISTING, STDOUT, STREAM, OutputError, Placement, descriptor_of, output_kind


class OutputRefused(Exception):
    """An output that cannot or may not be written; the message names it and says why."""


class OutputExists(OutputRefused):
    """An output that exists, which the user did not allow to be replaced."""


def output_name(*suffixes: str, streams_need_suffix: bool = False) -> Callable[[str], str]:
    """An argparse type: a path ending in one of ``suffixes``, or a stream (``-`` for standard
    output, ``/dev/stdout``, a FIFO, a character device), which is written into as it is. With
    ``streams_need_suffix`` (where the suffix chooses the format) a stream needs one too."""

    def checked(text: str) -> str:
        try:
            kind = output_kind(text)
        except OutputError as error:
            if not text:
                raise argparse.ArgumentTypeError(str(error)) from None
            kind = None  # reported with the other outputs, before the work starts
        stream = kind == STREAM or descriptor_of(text) is not None
        exempt = stream and not streams_need_suffix
        if not exempt and Path(text).suffix.lower() not in suffixes:
            expected = " or ".join(suffixes)
            or_stdout = "" if streams_need_suffix else " (or be - for standard output)"
            raise argparse.ArgumentTypeError(f"{text!r} must end in {expected}{or_stdout}")
        return text

    return checked


def writes_to_stdout(path: str | None) -> bool:
    """Whether ``path`` names this process's standard output (``-`` or a path to descriptor 1)."""
    return path is not None and _identity(path) == _identity(STDOUT)


def claim_outputs(paths: Iterable[str | None], overwrite: bool) -> dict[str, Placement]:
    """Check every given output before the work; returns how each is to be written.

    Raises OutputRefused when one cannot be written (missing folder, a folder, a socket, ...), when
    two name the same file or one names standard error (where messages go), or when one exists and
    neither ``overwrite`` nor the user's yes at a terminal allows replacing it. With ``overwrite``, a
    file that appears at a new output's name while the command works is replaced too.
    """
    given = [path for path in paths if path is not None]
    _refuse_shared_files(given)
    placements = {}
    for path in given:
        try:
            kind = output_kind(path)
        except OutputError as error:
            raise OutputRefused(str(error)) from None
        if kind == STREAM:
            placements[path] = Placement(stream=True)
            continue
        if kind == EXISTING and not overwrite and not _confirmed(f"{path} exists. Replace it? [y/N] "):
            raise OutputExists(f"{path} exists; pass --overwrite to replace it")
        placements[path] = Placement(replace=overwrite or kind == EXISTING)
    return placements


def claim_folder(path: str, overwrite: bool) -> tuple[bool, bool]:
    """Check, before the work, a folder that outputs are written into: a new one (whose parent
    exists; made by the caller), an empty one, or one holding files when ``overwrite`` or the
    user's yes at a terminal allows replacing those of the names written. Returns whether the
    folder is new and whether files in it may be replaced; raises OutputRefused (a file, a missing
    parent, standard output, ...), OutputExists (it holds files and replacing them was not
    allowed) or OutputError (it cannot be written into)."""
    if not path:
        raise OutputRefused("the output folder path is empty")
    if path == STDOUT or descriptor_of(path) is not None:
        raise OutputRefused(f"cannot write into {path}: it is a stream, and the outputs need a folder")
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        if os.path.lexists(path):
            raise OutputRefused(f"cannot write into {path}: it is a symbolic link to a missing folder") from None
        parent = os.path.dirname(os.path.normpath(path)) or "."
        if not os.path.lexists(parent):
            raise OutputRefused(f"cannot make {path}: its folder {parent} does not exist") from None
        if not os.path.isdir(parent):
            raise OutputRefused(f"cannot make {path}: {parent} is not a folder") from None
        return True, overwrite
    except (OSError, ValueError) as error:  # ValueError: a NUL in the name
        raise OutputRefused(f"cannot write into {path}: {getattr(error, 'strerror', None) or error}") from None
    if not stat.S_ISDIR(mode):
        raise OutputRefused(f"cannot write into {path}: it is not a folder")
    if not os.access(path, os.W_OK | os.X_OK):
        raise OutputError(f"cannot write into {path}: permission denied")
    try:
        with os.scandir(path) as entries:
            holds_files = next(entries, None) is not None
    except OSError as error:
        raise OutputRefused(f"cannot write into {path}: {error.strerror or error}") from None
    question = f"{path} holds files; replace those of the names written? [y/N] "
    if holds_files and not overwrite and not _confirmed(question):
        raise OutputExists(f"{path} is not empty; pass --overwrite to write into it anyway")
    return False, overwrite or holds_files


def check_names_in_folder(paths: Iterable[str | Path]) -> None:
    """Before the work, in a folder ``claim_folder`` found holding files: each of ``paths`` is free or
    a file that may be replaced (a link to one included); raises OutputRefused naming the first that
    is anything else."""
    for path in paths:
        if os.path.lexists(path) and not os.path.isfile(path):
            raise OutputRefused(f"cannot write {path}: something other than a file is there")


def _identity(path: str) -> tuple[int, int] | str:
    """What ``path`` refers to: (device, inode) of an existing file or open descriptor, else the
    path made absolute."""
    descriptor = descriptor_of(path)
    try:
        status = os.fstat(descriptor) if descriptor is not None else os.stat(path)
    except (OSError, ValueError):
        try:
            return os.path.realpath(path)
        except FileNotFoundError:  # the working folder was removed: the name as given
            return path
    return (status.st_dev, status.st_ino)


def _refuse_shared_files(paths: list[str]) -> None:
    seen: dict[tuple[int, int] | str, str] = {}
    stderr = _messages_file()
    for path in paths:
        key = _identity(path)
        if key == stderr:
            raise OutputRefused(f"{path} is standard error, where this command's messages go")
        if key in seen:
            raise OutputRefused(f"{seen[key]} and {path} name the same file; give each output its own")
        seen[key] = path


def _messages_file() -> tuple[int, int] | None:
    """Standard error's file when an output there would be mixed with the messages (a pipe or a
    file); None for a terminal or /dev/null, which take both harmlessly."""
    try:
        status = os.fstat(2)
    except OSError:
        return None
    return None if stat.S_ISCHR(status.st_mode) else (status.st_dev, status.st_ino)


def _confirmed(question: str) -> bool:
    """The user's yes, asked at the terminal; False when nobody is there to ask."""
    if sys.stdin is None or sys.stderr is None or not (sys.stdin.isatty() and sys.stderr.isatty()):
        return False
    sys.stderr.write(question)
    sys.stderr.flush()
    return sys.stdin.readline().strip().lower() in ("y", "yes")

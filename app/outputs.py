"""Files the command line writes. Each is checked before the work starts (its name, its folder, what
is there now), and the user says then whether an existing file may be replaced: ``--overwrite``, or
a yes at the terminal. Whatever was decided, the file is placed in one step afterwards
(``scenes.safe_write``), so a file that appears meanwhile is never replaced without that permission.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

from scenes.safe_write import EXISTING, STDOUT, STREAM, OutputError, output_kind


class OutputRefused(Exception):
    """An output that cannot or may not be written; the message names it and says why."""


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
        exempt = kind == STREAM and not streams_need_suffix
        if not exempt and Path(text).suffix.lower() not in suffixes:
            expected = " or ".join(suffixes)
            stream = "" if streams_need_suffix else " (or be - for standard output)"
            raise argparse.ArgumentTypeError(f"{text!r} must end in {expected}{stream}")
        return text

    return checked


def writes_to_stdout(path: str | None) -> bool:
    """Whether ``path`` names this process's standard output (``-`` or a path to descriptor 1)."""
    if path is None:
        return False
    if path == STDOUT:
        return True
    try:
        return os.path.samestat(os.stat(path), os.fstat(1))
    except OSError:
        return False


def claim_outputs(paths: Iterable[str | None], overwrite: bool) -> frozenset[str]:
    """Check every given output before the work; returns the paths the user allowed to be replaced.

    Raises OutputRefused when one cannot be written (missing folder, a folder, a socket, ...), when
    two name the same file, or when one exists and neither ``overwrite`` nor the user's yes at a
    terminal allows replacing it.
    """
    given = [path for path in paths if path is not None]
    _refuse_duplicates(given)
    replaceable = set()
    for path in given:
        try:
            kind = output_kind(path)
        except OutputError as error:
            raise OutputRefused(str(error)) from None
        if overwrite:
            replaceable.add(path)  # also a file that appears while the command works
        elif kind == EXISTING:
            if not _confirmed(f"{path} exists. Replace it? [y/N] "):
                raise OutputRefused(f"{path} exists; pass --overwrite to replace it")
            replaceable.add(path)
    return frozenset(replaceable)


def _refuse_duplicates(paths: list[str]) -> None:
    seen: dict[str, str] = {}
    for path in paths:
        key = os.path.realpath("/dev/stdout" if path == STDOUT else path)
        if key in seen:
            raise OutputRefused(f"{seen[key]} and {path} name the same file; give each output its own")
        seen[key] = path


def _confirmed(question: str) -> bool:
    """The user's yes, asked at the terminal; False when nobody is there to ask."""
    if not (sys.stdin.isatty() and sys.stderr.isatty()):
        return False
    sys.stderr.write(question)
    sys.stderr.flush()
    return sys.stdin.readline().strip().lower() in ("y", "yes")

"""Files the command line writes: checked before the work starts, and an existing file is replaced
only with ``--overwrite`` or the user's yes at a terminal."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path


class OutputRefused(Exception):
    """An output that cannot or may not be written; the message names it and says why."""


def claim_outputs(paths: Iterable[str | Path | None], overwrite: bool) -> None:
    """Raise OutputRefused unless every given path can be written: its folder exists, it is not a
    folder, and it does not exist yet, or ``overwrite`` is set, or the user said yes to replacing it."""
    for path in filter(None, paths):
        target = Path(path)
        if not target.resolve().parent.is_dir():
            raise OutputRefused(f"cannot write {path}: its folder does not exist")
        if target.is_dir():
            raise OutputRefused(f"cannot write {path}: it is a folder")
        if target.exists() and not overwrite and not _confirmed(f"{path} exists. Replace it? [y/N] "):
            raise OutputRefused(f"{path} exists; pass --overwrite to replace it")


def _confirmed(question: str) -> bool:
    """The user's yes, asked at the terminal; False when nobody is there to ask."""
    if not (sys.stdin.isatty() and sys.stderr.isatty()):
        return False
    sys.stderr.write(question)
    sys.stderr.flush()
    return sys.stdin.readline().strip().lower() in ("y", "yes")

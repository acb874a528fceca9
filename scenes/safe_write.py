"""Writing a file so that a failure (a full disk, no permission, an interrupt) never leaves a
partial file: the data goes to a temporary file beside the target, which is renamed over it."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO


def write_atomically(path: str | Path, write: Callable[[BinaryIO], None]) -> Path:
    """Call ``write(stream)`` on a temporary file in ``path``'s folder, then rename it to ``path``;
    returns ``path``. Raises OSError (and removes the temporary file) when anything fails."""
    path = Path(path)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            write(stream)
        # mkstemp creates the file private (0600); give it the permissions of any file the user writes.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path

"""Placing output files so that nothing the user did not allow is lost.

* A regular file is written whole to a temporary file in the target's folder and then placed in one
  step: ``os.link`` when nothing may be replaced (it fails if the name exists, so a file that
  appeared while we worked is kept), ``os.replace`` when the user allowed replacing. A failure or a
  signal leaves neither a partial file nor the temporary one.
* A stream (``-`` for standard output, a descriptor path such as ``/dev/stdout``, a FIFO or a
  character device such as ``/dev/null``) is written into as it is, never replaced or unlinked.
* Folders, sockets, block devices and symbolic links to missing files are refused.
"""

from __future__ import annotations

import errno
import io
import os
import re
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

STDOUT = "-"
# Paths that name a descriptor the caller already opened: written into, whatever it refers to.
_DESCRIPTOR_PATH = re.compile(r"^/dev/(stdout|stderr|fd/\d+)$|^/proc/(self|\d+)/fd/\d+$")
# Filesystems that have no hard links answer os.link with one of these.
_NO_HARD_LINKS = {errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EXDEV, errno.EMLINK}


class OutputError(OSError):
    """An output that cannot or may not be written; the message names it and says why."""


class OutputExists(OutputError):
    """The output is an existing file that the user did not allow to be replaced."""


NEW, EXISTING, STREAM = "new", "existing", "stream"
# Callers check their outputs before the work, so a name taken when the file is placed was taken
# by someone else meanwhile.
_TAKEN = "{} was created by another program while this one worked; it was kept (pass --overwrite to replace it)"


def output_kind(path: str | Path) -> str:
    """NEW (nothing there yet), EXISTING (a regular file, or a link to one) or STREAM (written
    into: standard output, a FIFO, a character device); raises OutputError for anything else."""
    text = str(path)
    if not text:
        raise OutputError("the output path is empty")
    if text == STDOUT or _DESCRIPTOR_PATH.match(os.path.abspath(text)):
        return STREAM
    try:
        mode = os.stat(text).st_mode
    except FileNotFoundError:
        if os.path.lexists(text):
            raise OutputError(f"cannot write {text}: it is a symbolic link to a missing file") from None
        _check_folder(text)
        return NEW
    except OSError as error:
        raise OutputError(f"cannot write {text}: {error.strerror or error}") from None
    if stat.S_ISREG(mode):
        return EXISTING
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return STREAM
    what = "a folder" if stat.S_ISDIR(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device or special file"
    raise OutputError(f"cannot write {text}: it is {what}")


def _check_folder(path: str) -> None:
    folder = os.path.dirname(path) or "."
    try:
        mode = os.stat(folder).st_mode
    except FileNotFoundError:
        raise OutputError(f"cannot write {path}: its folder does not exist") from None
    except OSError as error:
        raise OutputError(f"cannot write {path}: {error.strerror or error}") from None
    if not stat.S_ISDIR(mode):
        raise OutputError(f"cannot write {path}: {folder} is not a folder")


def write_output(path: str | Path, write: Callable[[BinaryIO], None], replace: bool = False) -> str:
    """Write a file with ``write(stream)``: whole or not at all, replacing an existing regular file
    only when ``replace`` is set (through a symbolic link, its target is replaced and the link kept);
    a stream is written into as it is. Returns ``path`` as a string; raises OutputExists when the
    name is taken (before or during the work) and OutputError for every other failure."""
    text = str(path)
    kind = output_kind(text)
    if kind == STREAM:
        _write_stream(text, write)
        return text
    if kind == EXISTING and not replace:
        raise OutputExists(_TAKEN.format(text))
    target = os.path.realpath(text) if kind == EXISTING else text
    try:
        _place(target, write, replace)
    except FileExistsError:
        raise OutputExists(_TAKEN.format(text)) from None
    except OutputError:
        raise
    except OSError as error:
        raise OutputError(f"cannot write {text}: {_reason(error)}") from None
    return text


def write_new_file(path: str | Path, write: Callable[[BinaryIO], None]) -> Path:
    """Write to ``path``, or to ``name-2.ext``, ``name-3.ext``, ... when the name is taken, even by
    a file that appears while writing; never replaces anything. Returns the path written."""
    path = Path(path)
    number = 1
    while True:
        candidate = path if number == 1 else path.with_name(f"{path.stem}-{number}{path.suffix}")
        try:
            if not os.path.lexists(candidate):
                write_output(candidate, write)
                return candidate
        except OutputExists:
            pass
        number += 1


def _reason(error: OSError) -> str:
    # NumPy reports a short write without an errno: "N requested and M written".
    return error.strerror or f"the disk took only part of the data ({error})"


def _write_stream(path: str, write: Callable[[BinaryIO], None]) -> None:
    # Encoders may seek; a pipe cannot, so the bytes are made first and then written in order.
    buffer = io.BytesIO()
    write(buffer)
    name = "standard output" if path == STDOUT else path
    try:
        # Descriptor 1 itself, whatever sys.stdout has been redirected to for the messages.
        with open(os.dup(1), "wb") if path == STDOUT else open(path, "wb") as stream:
            stream.write(buffer.getbuffer())
    except OSError as error:
        raise OutputError(f"cannot write {name}: {_reason(error)}") from None


def _place(target: str, write: Callable[[BinaryIO], None], replace: bool) -> None:
    """Write a temporary file beside ``target``, then link it to ``target`` (or rename over it
    when ``replace``); the temporary file is gone afterwards, whatever happened."""
    folder = os.path.dirname(target) or "."
    # A short fixed prefix: a target name near the 255-byte limit must still leave room for it.
    handle, temporary = tempfile.mkstemp(prefix=".rasterlab-", suffix=".part", dir=folder)
    try:
        with os.fdopen(handle, "wb") as stream:
            write(stream)
        # mkstemp creates the file private (0600); give it the permissions of any file the user writes.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
        if replace:
            _refuse_special(target)
            os.replace(temporary, target)
        else:
            _link_new(temporary, target)
    finally:
        Path(temporary).unlink(missing_ok=True)


def _refuse_special(target: str) -> None:
    """Renaming over a name replaces whatever it is: make sure it is still a regular file (or
    nothing), in case another program put something else there while we worked."""
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISREG(mode):
        raise OutputError(f"cannot write {target}: something other than a regular file appeared there")


def _link_new(temporary: str, target: str) -> None:
    """Give the finished file its name only if the name is free (FileExistsError otherwise)."""
    try:
        os.link(temporary, target)
        return
    except OSError as error:
        if error.errno not in _NO_HARD_LINKS:
            raise
    # Without hard links, O_EXCL claims the name in one step; the copy is removed if it fails.
    descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(descriptor, "wb") as out, open(temporary, "rb") as source:
            while chunk := source.read(1 << 20):
                out.write(chunk)
    except BaseException:
        os.unlink(target)
        raise

"""A user kernel's ``.cu`` file, read with care: a missing, unreadable, special, huge or binary file
is one line that names it, and nothing but the file itself is opened here (the compiler reads the
headers it includes). ``includes`` lists those headers, for the app to watch."""

from __future__ import annotations

import dataclasses
import errno
import os
import re
import stat
from pathlib import Path

from render.circles.user_launch import Launch, parse_launch
from shaders import SHADER_DIR

MAX_BYTES = 1 << 20  # a kernel's source, at most
MAX_INCLUDES = 64  # headers followed when listing what a file includes
INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"', re.MULTILINE)


class UserFileError(ValueError):
    """A kernel file that cannot be used; the message is one line naming it."""


@dataclasses.dataclass(frozen=True)
class UserSource:
    """A kernel file as read: its absolute ``path``, its ``text`` and its launch declaration."""

    path: Path
    text: str
    launch: Launch

    def include_dirs(self) -> tuple[Path, ...]:
        """Where the compiler looks for its headers: the file's folder, then ``shaders/``."""
        return (self.path.parent, SHADER_DIR)


def read_user_source(name: str) -> UserSource:
    """The kernel file ``name`` (a path, as the user wrote it after ``file:``) read and its launch
    declaration parsed; raises UserFileError (DeclarationError, a ValueError, for the declaration)."""
    if not name:
        raise UserFileError("file: names no file; write file:PATH, such as file:shaders/user/tile_scan.cu")
    try:
        path = Path(name).expanduser()
        str(path).encode("utf-8")  # the compiler takes it in its messages and its include path
    except RuntimeError:  # ~user of no such user
        raise UserFileError(f"file:{name}: no such user's home folder") from None
    except UnicodeEncodeError:
        raise UserFileError(f"file:{name}: its name is not UTF-8; rename it") from None
    if path.suffix != ".cu":
        raise UserFileError(f"file:{name}: a kernel file's name ends in .cu")
    data = _read_regular(path, name)
    if b"\0" in data:
        raise UserFileError(f"file:{name}: not a text file (it holds NUL bytes)")
    try:
        text = data.decode("utf-8-sig")  # a byte order mark, as some editors write, is dropped
    except UnicodeDecodeError:
        raise UserFileError(f"file:{name}: not a text file (not UTF-8)") from None
    return UserSource(path.resolve(), text, parse_launch(text, name))


def _read_regular(path: Path, name: str) -> bytes:
    """The bytes of ``path`` if it is a regular file of at most MAX_BYTES. Opened without blocking
    and checked after opening, so a FIFO or device cannot stall the read and a swap between the
    check and the open cannot slip one in."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as error:
        raise UserFileError(f"file:{name}: {_reason(error)}") from None
    except ValueError:  # a NUL in the name
        raise UserFileError(f"file:{name}: not a file name (it holds a NUL)") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise UserFileError(f"file:{name}: is a folder, not a .cu file")
        if not stat.S_ISREG(info.st_mode):
            raise UserFileError(f"file:{name}: not a regular file")
        if info.st_size > MAX_BYTES:
            raise UserFileError(f"file:{name}: {info.st_size} bytes; a kernel file is at most {MAX_BYTES} bytes")
        chunks, size = [], 0
        while size <= MAX_BYTES:
            chunk = os.read(fd, MAX_BYTES + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > MAX_BYTES:
            raise UserFileError(f"file:{name}: grew past {MAX_BYTES} bytes while being read")
        return b"".join(chunks)
    except OSError as error:
        raise UserFileError(f"file:{name}: {_reason(error)}") from None
    finally:
        os.close(fd)


def _reason(error: OSError) -> str:
    if error.errno == errno.ENOENT:
        return "no such file"
    if error.errno in (errno.EACCES, errno.EPERM):
        return "cannot read it (permission denied)"
    return f"cannot read it ({error.strerror or error})"


def includes(source: UserSource) -> list[Path]:
    """The headers ``source`` includes with ``#include "..."``, directly or through each other, as
    the compiler finds them (the including file's folder, then ``shaders/``); at most MAX_INCLUDES,
    each read only if it is a regular file of at most MAX_BYTES. Headers it cannot find are left
    out: the compiler reports them."""
    found: list[Path] = []
    pending = [(source.path.parent, source.text)]
    while pending and len(found) < MAX_INCLUDES:
        folder, text = pending.pop()
        for name in INCLUDE.findall(text):
            header = next((c.resolve() for c in (folder / name, SHADER_DIR / name) if c.is_file()), None)
            if header is None or header in found or header == source.path or len(found) >= MAX_INCLUDES:
                continue
            found.append(header)
            try:
                pending.append((header.parent, _read_regular(header, str(header)).decode("utf-8", "replace")))
            except UserFileError:
                pass  # listed, to be watched; the compiler says what is wrong with it
    return found

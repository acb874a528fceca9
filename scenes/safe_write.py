"""Placing output files so that nothing the user did not allow is lost.

What is done with an output is decided once, when the command checks its outputs (``output_kind``),
and carried to the writer as a ``Placement``; the writer never looks again, so nothing that appears
at that name meanwhile changes what happens to it:

* A regular file is written whole to a temporary file in the target's folder and then given its
  name in one step: ``os.link`` when nothing may be replaced (it fails if the name exists, so a file
  that appeared while we worked is kept), ``os.replace`` when the user allowed replacing. The name
  itself is replaced, never followed: a symbolic link planted there cannot redirect the write. A
  failure or a signal leaves neither a partial file nor the temporary one; where the system and the
  filesystem have unnamed files (Linux's O_TMPFILE), the temporary file has no name until it is
  complete, so that not even a process killed outright leaves it behind.
* A stream is written into as it is, never replaced or unlinked: ``-`` and descriptor paths
  (``/dev/stdout``, ``/dev/fd/N``, ``/proc/self/fd/N``) through the descriptor this process already
  has, without truncating what it refers to; a FIFO or a character device (``/dev/null``) opened
  without creating or truncating anything.
* Folders, sockets, block devices and symbolic links to missing files are refused.
"""

from __future__ import annotations

import dataclasses
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
NEW, EXISTING, STREAM = "new", "existing", "stream"
# Paths that name a descriptor of this process: written into through that descriptor.
_DESCRIPTOR_PATH = re.compile(r"^/dev/(stdout|stderr|fd/(\d+))$|^/proc/(self|\d+)/fd/(\d+)$")
_STANDARD = {"stdout": 1, "stderr": 2}
# Filesystems that have no hard links answer os.link with one of these.
_NO_HARD_LINKS = {errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EXDEV, errno.EMLINK}
# Callers check their outputs before the work, so a name taken when the file is placed was taken
# by someone else meanwhile.
_TAKEN = "{} was created by another program while this one worked; it was kept (pass --overwrite to replace it)"


class OutputError(OSError):
    """An output that cannot or may not be written; the message names it and says why."""


class OutputExists(OutputError):
    """The output's name is taken by a file that the user did not allow to be replaced."""


@dataclasses.dataclass(frozen=True)
class Placement:
    """How an output is written, as decided when it was checked."""

    replace: bool = False  # whatever regular file holds the name may be replaced
    stream: bool = False  # written into as it is (standard output, a descriptor, a FIFO, a device)
    next_free: bool = False  # never replaces: a taken name becomes name-2.ext, name-3.ext, ... when written


NEW_FILE = Placement()
# Standard descriptors that were closed when the process started (see reserve_standard_descriptors).
_CLOSED_AT_START: set[int] = set()
# The descriptors open when the command started (reserve_standard_descriptors), None until then: a
# descriptor path may name only those. Any other number is free, or one this process opened for
# itself (a library's file, a worker's pipe), which the output would corrupt.
_OPEN_AT_START: frozenset[int] | None = None
# Where no folder lists a process's descriptors, the numbers probed one by one.
_PROBED_DESCRIPTORS = 1 << 16


def reserve_standard_descriptors() -> None:
    """Hold descriptors 0, 1 and 2 open on /dev/null where the process started with them closed:
    otherwise the next file opened takes the number, and output meant for standard output would go
    into it. Outputs naming such a descriptor are then refused, as are those naming a descriptor
    that was not open at all when this was first called: a number the process may later open for
    itself. The processes the command starts inherit them, as they would have the streams: a Python
    started with one closed may fail (a library's check in a child process, which reads its answer
    from the child's output, among them)."""
    global _OPEN_AT_START
    if _OPEN_AT_START is None:
        _OPEN_AT_START = _open_descriptors()
    for number in (0, 1, 2):
        try:
            os.fstat(number)
        except OSError:
            held = os.open(os.devnull, os.O_RDWR)
            if held != number:
                os.dup2(held, number)
                os.close(held)
            os.set_inheritable(number, True)
            _CLOSED_AT_START.add(number)


def _open_descriptors() -> frozenset[int]:
    """The descriptors this process has open now: from /proc/self/fd or /dev/fd (the listing's own
    descriptor, closed by then, left out), else probed one by one."""
    for folder in ("/proc/self/fd", "/dev/fd"):
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        return frozenset(int(name) for name in names if name.isdigit() and _is_open(int(name)))
    try:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    except (ImportError, OSError, ValueError):
        soft = -1
    highest = _PROBED_DESCRIPTORS if soft < 0 else min(soft, _PROBED_DESCRIPTORS)
    return frozenset(number for number in range(highest) if _is_open(number))


def _is_open(descriptor: int) -> bool:
    try:
        os.fstat(descriptor)
    except OSError:
        return False
    return True


def descriptor_of(path: str | Path) -> int | None:
    """The descriptor of this process that ``path`` names (``-`` is 1), or None."""
    text = str(path)
    if text == STDOUT:
        return 1
    try:
        absolute = os.path.abspath(text)
    except FileNotFoundError:  # the working folder was removed: a relative name names no descriptor
        return None
    match = _DESCRIPTOR_PATH.match(absolute)
    if match is None:
        return None
    standard, fd, process, proc_fd = match.groups()
    if process is not None and process != "self" and int(process) != os.getpid():
        return None  # another process's descriptor: an ordinary path to whatever it refers to
    return _STANDARD[standard] if standard in _STANDARD else int(fd or proc_fd)


def output_kind(path: str | Path) -> str:
    """NEW (nothing there yet), EXISTING (a regular file, or a link to one) or STREAM (written
    into: a descriptor, a FIFO, a character device); raises OutputError for anything else."""
    text = str(path)
    if not text:
        raise OutputError("the output path is empty")
    descriptor = descriptor_of(text)
    if descriptor in _CLOSED_AT_START:
        raise OutputError(f"cannot write {text}: descriptor {descriptor} was closed when the command started")
    if descriptor is not None:
        if _OPEN_AT_START is not None and descriptor not in _OPEN_AT_START:
            raise OutputError(f"cannot write {text}: descriptor {descriptor} was not open when the command started")
        return STREAM
    try:
        mode = os.stat(text).st_mode
    except FileNotFoundError:
        if os.path.lexists(text):
            raise OutputError(f"cannot write {text}: it is a symbolic link to a missing file") from None
        _check_folder(text)
        return NEW
    except (OSError, ValueError) as error:  # ValueError: a NUL in the name
        raise OutputError(f"cannot write {text}: {_reason(error)}") from None
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
        raise OutputError(f"cannot write {path}: {_reason(error)}") from None
    if not stat.S_ISDIR(mode):
        raise OutputError(f"cannot write {path}: {folder} is not a folder")


def write_output(path: str | Path, write: Callable[[BinaryIO], object], how: Placement = NEW_FILE) -> str:
    """Write ``write(stream)``'s bytes to ``path`` as ``how`` says: into a stream as it is, or as a
    regular file placed whole, replacing what holds the name only when ``how.replace``. Returns
    ``path`` as a string; raises OutputExists when the name is taken and may not be replaced, and
    OutputError for every other failure."""
    text = str(path)
    if how.next_free:
        return str(write_new_file(path, write))
    try:
        if how.stream:
            _write_stream(text, write)
        else:
            _place(text, write, how.replace)
    except FileExistsError:
        raise OutputExists(_TAKEN.format(text)) from None
    except OutputError:
        raise
    except OSError as error:
        name = "standard output" if text == STDOUT else text
        raise OutputError(f"cannot write {name}: {_reason(error)}") from None
    return text


def numbered(path: Path, number: int) -> Path:
    """``path`` itself for 1, else ``name-N.ext``: the names a new file takes when ``path`` is taken."""
    return path if number == 1 else path.with_name(f"{path.stem}-{number}{path.suffix}")


def free_name(name: str | Path) -> str:
    """``name``, or the first of the names ``write_new_file`` would take after it that is free now."""
    number = 1
    while os.path.lexists(numbered(Path(name), number)):
        number += 1
    return str(numbered(Path(name), number))


def write_new_file(path: str | Path, write: Callable[[BinaryIO], object]) -> Path:
    """Write a new regular file at ``path``, or at ``name-2.ext``, ``name-3.ext``, ... when the name
    is taken, even by something that appears while writing; never replaces anything. Returns the
    path written."""
    path = Path(path)
    number = 1
    while True:
        candidate = numbered(path, number)
        try:
            write_output(candidate, write)
            return candidate
        except OutputExists:
            number += 1


def _reason(error: Exception) -> str:
    # NumPy reports a short write without an errno: "N requested and M written".
    return getattr(error, "strerror", None) or f"the disk took only part of the data ({error})"


def _write_stream(path: str, write: Callable[[BinaryIO], object]) -> None:
    # Encoders may seek; a pipe cannot, so the bytes are made first and then written in order.
    buffer = io.BytesIO()
    write(buffer)
    descriptor = descriptor_of(path)
    if descriptor is not None:
        # The descriptor itself, at its own offset and mode (appending stays appending); reopening
        # its path would truncate a regular file behind it.
        handle = os.dup(descriptor)
    else:
        handle = os.open(path, os.O_WRONLY | os.O_NOCTTY)
        if stat.S_ISREG(os.fstat(handle).st_mode):  # a FIFO or device replaced by a file meanwhile
            os.close(handle)
            raise OutputError(f"cannot write {path}: it became a regular file while this command worked")
    with open(handle, "wb") as stream:
        stream.write(buffer.getbuffer())


def _place(target: str, write: Callable[[BinaryIO], object], replace: bool) -> None:
    """Write a temporary file beside ``target``, then link it to ``target`` (or rename over it
    when ``replace``); the temporary file is gone afterwards, whatever happened. Where the system
    and the folder's filesystem allow it, that file has no name until it is complete (O_TMPFILE), so
    that even a process killed outright (SIGKILL, the kernel's out-of-memory killer, a signal whose
    default ends it) leaves nothing behind."""
    folder = os.path.dirname(target) or "."
    unnamed = _unnamed_file(folder)
    if unnamed is not None and _place_unnamed(unnamed, target, write, replace):
        return
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


def _unnamed_file(folder: str) -> int | None:
    """A descriptor of a new file in ``folder`` that has no name yet (O_TMPFILE), which its /proc
    path can link; None where the system, the filesystem or a missing /proc does not allow it."""
    if not hasattr(os, "O_TMPFILE"):
        return None
    try:
        descriptor = os.open(folder, os.O_TMPFILE | os.O_WRONLY, 0o666)
    except OSError:
        return None
    if not os.path.exists(f"/proc/self/fd/{descriptor}"):
        os.close(descriptor)
        return None
    return descriptor


def _place_unnamed(descriptor: int, target: str, write: Callable[[BinaryIO], object], replace: bool) -> bool:
    """``write`` into the unnamed file open on ``descriptor`` (which this closes), then give it the
    name ``target``: linked where the name is free, or when ``replace``, linked to a hidden name
    beside it and renamed over it. False, with nothing written to ``target``, where the file cannot
    be linked by its /proc path (no /proc): the caller then writes a named temporary file instead."""
    with os.fdopen(descriptor, "wb") as stream:
        write(stream)
        stream.flush()
        if replace:
            hidden = _link_hidden(descriptor, os.path.dirname(target) or ".")
            if hidden is None:
                return False
            try:
                _refuse_special(target)
                os.replace(hidden, target)
            finally:
                Path(hidden).unlink(missing_ok=True)
            return True
        return _link_unnamed(descriptor, target)


def _link_unnamed(descriptor: int, name: str) -> bool:
    """Give the unnamed file open on ``descriptor`` the name ``name``: linkat through
    /proc/self/fd, following that link to the file (CPython's plain link() of the /proc path would
    link the /proc entry itself, which fails as a link across devices). False where it cannot be
    linked (no /proc, no hard links); FileExistsError where the name is taken."""
    try:
        folder = os.open("/proc/self/fd", os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.link(str(descriptor), name, src_dir_fd=folder, follow_symlinks=True)
        finally:
            os.close(folder)
    except FileExistsError:
        raise
    except OSError as error:
        if error.errno in (errno.ENOENT, errno.ENOTDIR) or error.errno in _NO_HARD_LINKS:
            return False
        raise
    return True


def _link_hidden(descriptor: int, folder: str) -> str | None:
    """A hidden name in ``folder`` linked to the unnamed file open on ``descriptor``; None where it
    cannot be linked (no /proc, no hard links)."""
    for _ in range(100):
        hidden = os.path.join(folder, f".rasterlab-{os.urandom(6).hex()}.part")
        try:
            return hidden if _link_unnamed(descriptor, hidden) else None
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free hidden name for the finished file", folder)


def _refuse_special(target: str) -> None:
    """Renaming over a name replaces whatever it is: make sure it is a regular file or a symbolic
    link (replaced itself, its target untouched), or nothing, in case another program put a FIFO,
    a socket or a folder there while we worked."""
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        return
    if not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
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
    descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o666)
    try:
        with os.fdopen(descriptor, "wb") as out, open(temporary, "rb") as source:
            while chunk := source.read(1 << 20):
                out.write(chunk)
    except BaseException:
        os.unlink(target)
        raise

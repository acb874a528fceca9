"""Reading a scene file's fields, bounded before memory is spent: scene files come from anyone.

* Only a regular file is read, through one descriptor opened without blocking: a folder, a FIFO or a
  device given as a scene is refused and never hangs the caller.
* A .npz archive is judged from its zip directory and its .npy headers before any array is read: at
  most MAX_NPZ_MEMBERS members, each named after a field of the scene's kind, stored or deflated (so
  a member decompresses to at most 1032 times the bytes it occupies in the file), each .npy header
  declaring exactly the bytes its member holds and no more than that field can need. A small file
  thus never costs more than a bounded multiple of what a valid scene of its size would.
* JSON is at most MAX_JSON_BYTES; integers beyond int64 parse as floats, so no number is too long to
  read, and nesting too deep to parse is an error like any other.

What the fields mean is checked by ``scenes.files``.
"""

from __future__ import annotations

import dataclasses
import io
import json
import math
import os
import re
import reprlib
import stat
import sys
import zipfile
from pathlib import Path
from typing import IO, BinaryIO

import numpy as np

SCENE_SUFFIXES = (".npz", ".json")
CIRCLE_FIELDS = ("kind", "position", "velocity", "color", "radius", "shading", "background", "animation")
# Materials (roughness, metalness) are the shaded view's settings, not the scene's: no sphere field.
SPHERE_FIELDS = ("kind", "center", "radius", "color")
_FIELDS = {"circles": CIRCLE_FIELDS, "spheres": SPHERE_FIELDS}
# A guard against files that would exhaust host memory: 10^8 circles take 4 GB of float32 arrays
# (velocity included). The GPU may hold fewer (the renderer says).
MAX_CIRCLES = 100_000_000
# JSON is for hand-written scenes; parsing 64 MiB of it already takes about 1 GiB of Python objects.
MAX_JSON_BYTES = 64 * 2**20

# What one .npz member may declare in its .npy header. A per-circle array is at most (MAX_CIRCLES, 3)
# values of 8 bytes (float64 is accepted and range-checked into float32). A setting (kind, shading,
# background, animation) is a word of at most 13 characters (4 bytes each in NumPy) or 3 numbers.
MAX_ARRAY_BYTES = MAX_CIRCLES * 3 * 8
MAX_SETTING_BYTES = 1024
_SETTINGS = ("kind", "shading", "background", "animation")
# np.savez writes one member per field; the largest kind has 8 fields.
MAX_NPZ_MEMBERS = 16
# The compression methods np.savez and np.savez_compressed write, with the most each can expand:
# stored not at all, deflate 1032 times (a 258-byte match costs at least 2 bits).
_EXPANSION = {zipfile.ZIP_STORED: 1, zipfile.ZIP_DEFLATED: 1032}
# NumPy refuses .npy headers over 10,000 characters; a header not within this many bytes is refused.
_NPY_HEAD_BYTES = 16 * 1024
# The .npy versions np.savez writes for numbers (3.0 is for non-ASCII field names), read by the same
# parsers NumPy's read_array uses, so that the header checked is the header NumPy acts on.
_NPY_HEADER_READERS = {(1, 0): np.lib.format.read_array_header_1_0, (2, 0): np.lib.format.read_array_header_2_0}


class SceneFileError(ValueError):
    """A file that is not a valid scene; the message is one line that starts with the file and names
    the field."""


def _suffix(path: str | Path) -> str:
    # Suffixes match in any case, so SCENE.NPZ is a .npz file.
    return Path(path).suffix.lower()


def is_scene_file(name: str | Path) -> bool:
    """Whether ``name`` ends in a scene file suffix (.npz or .json, in any case)."""
    return _suffix(name) in SCENE_SUFFIXES


def file_type(path: str | Path) -> str:
    """The type of the file ``path``, ".npz" or ".json", from its suffix; raises SceneFileError for others."""
    if not is_scene_file(path):
        raise SceneFileError(f"{path}: unknown scene file type {Path(path).suffix!r}; use .npz or .json")
    return _suffix(path)


def one_line(error: Exception) -> str:
    """``error`` as its type and message on one line, without object addresses that change each run."""
    text = re.sub(r" at 0x[0-9a-f]+", "", " ".join(str(error).split()))
    return f"{type(error).__name__}: {text}"


def _reason(error: Exception) -> str:
    return getattr(error, "strerror", None) or str(error)


def _require_regular(path: str | Path, status: os.stat_result) -> None:
    if not stat.S_ISREG(status.st_mode):
        raise SceneFileError(f"{path}: not a regular file")


def _open_regular(path: str | Path) -> BinaryIO:
    """``path`` open for reading, once it is a regular file; raises SceneFileError otherwise.

    Opening a FIFO for reading waits for a writer, and opening some devices acts (a serial line, a
    watchdog), so stat refuses them unopened; O_NONBLOCK keeps the open from waiting should the name
    be swapped for a FIFO just after, and fstat checks what was actually opened, which is then read.
    """
    try:
        _require_regular(path, os.stat(path))
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except SceneFileError:
        raise
    except FileNotFoundError:
        raise SceneFileError(f"{path}: no such scene file") from None
    except (OSError, ValueError) as error:  # ValueError: a NUL in the name
        raise SceneFileError(f"{path}: cannot open the scene file ({_reason(error)})") from None
    stream = os.fdopen(descriptor, "rb")
    try:
        _require_regular(path, os.fstat(descriptor))
    except SceneFileError:
        stream.close()
        raise
    return stream


def read_fields(path: str | Path, kind: str) -> dict:
    """The fields of the scene file ``path`` once its ``kind`` is ``kind``: NumPy arrays from .npz,
    plain values from JSON. Raises SceneFileError otherwise."""
    with _open_regular(path) as stream:
        if file_type(path) == ".npz":
            return _read_npz(stream, path, kind)
        fields = _read_json(stream, path)
    _check_kind(fields.get("kind"), kind, path)
    return fields


class WrongKind(SceneFileError):
    """A valid scene file's ``kind`` field names another kind of scene (``found``) than was asked for."""

    def __init__(self, message: str, found: str) -> None:
        super().__init__(message)
        self.found = found


def _check_kind(value, kind: str, path: str | Path) -> None:
    value = plain(value)
    if not isinstance(value, str) or value != kind:
        message = f"{path}: field 'kind' must be '{kind}', got {shown(value)}"
        raise WrongKind(message, value) if isinstance(value, str) and value in _FIELDS else SceneFileError(message)


def _read_npz(stream: BinaryIO, path: str | Path, kind: str) -> dict:
    """The arrays of a .npz scene of ``kind``, by field; each member is checked from the zip directory
    and its .npy header before it is read, and ``kind`` before any other member."""
    try:
        with zipfile.ZipFile(stream) as archive:
            members = _npz_members(archive, os.fstat(stream.fileno()).st_size, path)
            kind_member = members.pop("kind.npy", None)
            kind_value = None
            if kind_member is not None:
                kind_value = _read_member(archive, kind_member, _member_head(archive, kind_member, path), path)
            _check_kind(kind_value, kind, path)
            _check_member_names(members, kind, path)
            heads = {name: _member_head(archive, info, path) for name, info in members.items()}
            _check_counts(heads, path)
            # Per-item fields become float32 in scenes.files: done while reading, never held as float64.
            fields = {
                name.removesuffix(".npy"): _read_member(
                    archive, members[name], heads[name], path, as_float32=name.removesuffix(".npy") not in _SETTINGS
                )
                for name in members
            }
            return fields | {"kind": kind}
    except SceneFileError:
        raise
    except Exception as error:  # noqa: BLE001
        # A damaged archive raises from zipfile, zlib, struct or NumPy's header parser, with no
        # documented set of exceptions (the fuzz test found NotImplementedError and zlib.error).
        raise SceneFileError(f"{path}: not a readable .npz file ({one_line(error)})") from None


def _npz_members(archive: zipfile.ZipFile, size: int, path: str | Path) -> dict[str, zipfile.ZipInfo]:
    """The archive's members by name, once their count, compression and sizes in the zip directory
    are those a scene file can have (nothing is decompressed)."""
    infos = archive.infolist()
    if len(infos) > MAX_NPZ_MEMBERS:
        raise SceneFileError(f"{path}: {len(infos)} members, more than the {MAX_NPZ_MEMBERS} a scene file has")
    # Members cannot share bytes, so what they claim to occupy is at most the file; with each
    # method's expansion bound, the file's size then bounds all that the archive can decompress to.
    claimed = sum(info.compress_size for info in infos)
    if claimed > size:
        raise SceneFileError(f"{path}: members claim {claimed:,} compressed bytes but the file has {size:,}")
    for info in infos:
        name = shown(info.filename)
        if info.compress_type not in _EXPANSION:
            raise SceneFileError(
                f"{path}: member {name} uses compression method {info.compress_type}; scene files use stored or deflate"
            )
        if info.file_size > _EXPANSION[info.compress_type] * info.compress_size:
            raise SceneFileError(
                f"{path}: member {name} claims {info.file_size:,} bytes from {info.compress_size:,} compressed, "
                "more than its compression method can give"
            )
    members = {info.filename: info for info in infos}
    if len(members) < len(infos):  # which of two members of one name counts is not the file's to say
        twice = next(name for name in members if sum(info.filename == name for info in infos) > 1)
        raise SceneFileError(f"{path}: member {shown(twice)} appears more than once")
    return members


def _check_member_names(members: dict[str, zipfile.ZipInfo], kind: str, path: str | Path) -> None:
    allowed = {f"{field}.npy" for field in _FIELDS[kind]}
    unknown = [name for name in members if name not in allowed]
    if unknown:
        raise SceneFileError(
            f"{path}: member {shown(unknown[0])} is not a field of a {kind} scene ({', '.join(_FIELDS[kind])})"
        )


@dataclasses.dataclass(frozen=True)
class _Head:
    """A member's first bytes as read, and what its .npy header declares (``size``: the header's
    own bytes, where the data starts)."""

    raw: bytes
    shape: tuple[int, ...]
    dtype: np.dtype
    fortran_order: bool
    size: int


def _member_head(archive: zipfile.ZipFile, info: zipfile.ZipInfo, path: str | Path) -> _Head:
    """A member's header, checked: object arrays refused, and a size its field can have and that the
    member holds. Reads at most _NPY_HEAD_BYTES of it."""
    field = info.filename.removesuffix(".npy")
    with archive.open(info) as member:
        head = member.read(_NPY_HEAD_BYTES)
    probe = io.BytesIO(head)
    version = np.lib.format.read_magic(probe)
    if version not in _NPY_HEADER_READERS:
        raise SceneFileError(f"{path}: field {field!r} is in .npy format {version}; scene files use (1, 0) or (2, 0)")
    try:
        shape, fortran_order, dtype = _NPY_HEADER_READERS[version](probe)
        if not all(type(extent) is int for extent in shape):  # NumPy's parser lets True through
            raise ValueError(f"shape {shape} is not made of integers")
    except Exception as error:  # noqa: BLE001  (NumPy's parser documents no set of exceptions)
        raise SceneFileError(f"{path}: field {field!r} has an unreadable .npy header ({one_line(error)})") from None
    _check_npy_header(field, shape, dtype, info.file_size - probe.tell(), path)
    return _Head(head, shape, dtype, fortran_order, probe.tell())


def _check_counts(heads: dict[str, _Head], path: str | Path) -> None:
    """Refuse, from the headers alone, per-item arrays of more than MAX_CIRCLES rows, of a shape no
    valid field has, or of a row count unlike radius's: each may declare up to MAX_ARRAY_BYTES, so
    without this a small file could cost several of those before ``scenes.files`` refused it (with
    the same messages: it stays the judge of every field)."""
    rows_of = {}
    for name, head in heads.items():
        field = name.removesuffix(".npy")
        if field in _SETTINGS:
            continue
        rows = head.shape[0] if head.shape else 1
        if rows > MAX_CIRCLES:
            raise SceneFileError(f"{path}: field {field!r} has {rows} rows, more than the {MAX_CIRCLES} allowed")
        problem = shape_problem(field, head.shape, () if field == "radius" else (3,))
        if problem:
            raise SceneFileError(f"{path}: {problem}")
        rows_of[field] = rows
    count = rows_of.get("radius")
    for field, rows in rows_of.items():
        if count is not None and rows != count:
            raise SceneFileError(f"{path}: {rows_problem(field, rows, count)}")


def shape_problem(field: str, shape: tuple[int, ...], tail: tuple[int, ...]) -> str | None:
    """What is wrong with ``shape`` for per-item field ``field``, of shape (N, *tail); None when
    nothing is. (0,) is an empty (0, *tail) too: JSON writes an empty (0, 3) array as [], which has
    no rows to tell its width."""
    if (shape == (0,) and tail) or (len(shape) == 1 + len(tail) and shape[1:] == tail):
        return None
    expected = "(N, " + ", ".join(map(str, tail)) + ")" if tail else "(N,)"
    return f"field {field!r} must have shape {expected}, got {shape}"


def rows_problem(field: str, rows: int, count: int) -> str:
    """The line for per-item field ``field`` of ``rows`` rows in a scene of ``count`` items."""
    return f"field {field!r} has {rows} rows but 'radius' has {count}"


def _read_member(
    archive: zipfile.ZipFile, info: zipfile.ZipInfo, head: _Head, path: str | Path, as_float32: bool = False
) -> np.ndarray | Float32Field:
    """One member's array, once ``head`` (from ``_member_head``) has passed: NumPy parses the very
    header bytes that were checked, and the member must start with them still. ``as_float32``:
    numbers of another type (at most 8 bytes, as a scene may hold) come back as a Float32Field,
    converted a slice at a time, so the field is never held whole in its own type."""
    with archive.open(info) as member:
        if member.read(len(head.raw)) != head.raw:
            raise ValueError("the file changed while it was read")
        dtype = head.dtype
        if as_float32 and dtype != np.float32 and dtype.kind in "fiu" and dtype.itemsize <= 8 and len(head.shape) <= 2:
            field = info.filename.removesuffix(".npy")
            return _read_as_float32(_Replayed(head.raw[head.size :], member), head, field, path)
        return np.lib.format.read_array(_Replayed(head.raw, member), allow_pickle=False)


@dataclasses.dataclass(frozen=True)
class Float32Field:
    """A field converted to float32 while it was read: ``array`` (C order), and how many of the
    file's values were NaN or infinite, or finite but beyond float32's range (infinite here);
    ``scenes.files`` judges them where it judges every field."""

    array: np.ndarray
    not_finite: int
    too_large: int


# Values converted at a time by _read_as_float32: 32 MiB of float64.
_SLICE_VALUES = 1 << 22


def _read_as_float32(data: _Replayed, head: _Head, field: str, path: str | Path) -> Float32Field:
    """The member's values (``data``, after its header), in C or Fortran order, as float32 of the
    declared shape (at most 2 dimensions)."""
    out = np.empty(head.shape, np.float32)
    # Fortran order stores a 2-D array's columns one after another (a 1-D one as C order does).
    by_columns = head.fortran_order and out.ndim == 2
    flat = out.reshape(-1)
    not_finite = too_large = 0
    for start in range(0, out.size, _SLICE_VALUES):
        count = min(_SLICE_VALUES, out.size - start)
        raw = data.read(count * head.dtype.itemsize)
        if len(raw) != count * head.dtype.itemsize:
            declared = out.size * head.dtype.itemsize
            raise SceneFileError(
                f"{path}: field {field!r} ends after {start * head.dtype.itemsize + len(raw):,} of the "
                f"{declared:,} bytes its header declares"
            )
        values = np.frombuffer(raw, head.dtype)
        finite = np.isfinite(values)
        not_finite += values.size - int(np.count_nonzero(finite))
        # Overflow is counted below; a signalling NaN's "invalid" is a NaN, counted above.
        with np.errstate(over="ignore", invalid="ignore"):
            converted = values.astype(np.float32)
        too_large += int(np.count_nonzero(finite & ~np.isfinite(converted)))
        if by_columns:
            _fill_columns(out, converted, start)
        else:
            flat[start : start + count] = converted
    return Float32Field(out, not_finite, too_large)


def _fill_columns(out: np.ndarray, values: np.ndarray, start: int) -> None:
    """Put ``values``, the Fortran-order values from index ``start`` on, into ``out`` (rows, k)."""
    rows, done = out.shape[0], 0
    while done < values.size:
        column, row = divmod(start + done, rows)
        taken = min(rows - row, values.size - done)
        out[row : row + taken, column] = values[done : done + taken]
        done += taken


def float32_problem(field: str, not_finite: int, too_large: int) -> str | None:
    """What keeps field ``field`` from float32: ``not_finite`` NaN or infinite values, or
    ``too_large`` finite ones beyond float32's range; None when neither."""
    if not_finite:
        return f"field {field!r} has {not_finite} NaN or infinite values"
    if too_large:
        return f"field {field!r} has values too large for float32"
    return None


def _check_npy_header(field: str, shape: tuple[int, ...], dtype: np.dtype, held: int, path: str | Path) -> None:
    """Refuse a .npy header of Python objects (unpickling runs code), or declaring more bytes than
    ``field`` can need or other than the ``held`` bytes after it: NumPy allocates what the header
    declares before it reads any."""
    if dtype.hasobject:
        raise SceneFileError(f"{path}: field {field!r} holds Python objects (dtype {dtype}); scene files hold numbers")
    values = math.prod(shape)
    limit = MAX_SETTING_BYTES if field in _SETTINGS else MAX_ARRAY_BYTES
    # A zero-width dtype still counts a byte a value: NumPy makes and walks every one of them.
    if values * max(dtype.itemsize, 1) > limit:
        raise SceneFileError(
            f"{path}: field {field!r} declares shape {shape} of {dtype}, more than the {limit:,} bytes it can need"
        )
    if values * dtype.itemsize != held:
        raise SceneFileError(
            f"{path}: field {field!r} declares {values * dtype.itemsize:,} bytes of data but holds {held:,}"
        )


class _Replayed:
    """A member stream whose first bytes, already read to check the .npy header, come again first:
    NumPy parses the very header that was checked, not a second read of a file that may have changed."""

    def __init__(self, head: bytes, rest: IO[bytes]):
        self._head = memoryview(head)
        self._rest = rest

    def read(self, size: int = -1) -> bytes:
        if len(self._head) == 0:
            return self._rest.read(size)
        if size < 0:  # everything: what is left of the head, then the rest
            taken, self._head = self._head, self._head[:0]
            return bytes(taken) + self._rest.read()
        taken, self._head = self._head[:size], self._head[size:]
        return bytes(taken) + (self._rest.read(size - len(taken)) if len(taken) < size else b"")


def _read_json(stream: BinaryIO, path: str | Path) -> dict:
    """The fields of a JSON scene: an object of at most MAX_JSON_BYTES."""
    # fstat refuses a huge file unread; the bounded read, a file that grew after it.
    _check_json_size(os.fstat(stream.fileno()).st_size, path)
    text = stream.read(MAX_JSON_BYTES + 1)
    _check_json_size(len(text), path)

    def once_each(pairs: list[tuple[str, object]]) -> dict:
        # Which of two values of one key counts is not the file's to say: Python takes the last, other
        # tools the first.
        fields = dict(pairs)
        if len(fields) < len(pairs):
            seen: set[str] = set()
            for key, _ in pairs:
                if key in seen:
                    raise SceneFileError(f"{path}: key {shown(key)} appears more than once in an object")
                seen.add(key)
        return fields

    try:
        fields = json.loads(text, parse_int=_json_int, parse_float=_json_float, object_pairs_hook=once_each)
    except SceneFileError:
        raise
    except (ValueError, RecursionError) as error:  # RecursionError: nested deeper than the parser goes
        raise SceneFileError(f"{path}: not a readable JSON file ({error})") from None
    if not isinstance(fields, dict):
        raise SceneFileError(f"{path}: the JSON top level must be an object with the scene's fields")
    return fields


def _check_json_size(size: int, path: str | Path) -> None:
    if size > MAX_JSON_BYTES:
        raise SceneFileError(
            f"{path}: {size / 2**20:.0f} MiB is too large for a JSON scene "
            f"(at most {MAX_JSON_BYTES // 2**20} MiB); save large scenes as .npz"
        )


def _json_float(text: str) -> float:
    """A JSON number as a float; one beyond float64 becomes the largest float64 of its sign, which the
    float32 check then reports as too large rather than as an infinity the file never wrote."""
    value = float(text)
    return value if math.isfinite(value) else math.copysign(sys.float_info.max, value)


def _json_int(text: str) -> int | float:
    """A JSON integer: an int while it fits int64 (small ones are shared objects, so a file of zeros
    stays small in memory), a float beyond (int() stops at 4300 digits, and NumPy at 64 bits)."""
    return int(text) if len(text) <= 18 else _json_float(text)


_SHORT = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxstring, _SHORT.maxother = 3, 40, 40


def shown(value) -> str:
    """A bad value for a one-line message: arrays by shape and dtype, anything else cut short, however
    long or deeply nested."""
    if isinstance(value, np.ndarray) and value.ndim > 0:
        return f"an array of shape {value.shape} and dtype {value.dtype}"
    return _SHORT.repr(value.item() if isinstance(value, np.ndarray) else value)


def plain(value):
    """A 0-d NumPy string, as .npz stores a str, as that str; any other value as it is."""
    if isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind == "U":
        return str(value)
    return value

"""Circle scene files (``shared/spec/scene-files.md``): ``.npz`` for large scenes, ``.json`` for
hand-written ones. Loading validates everything and raises SceneFileError with one message that
names the file and the field.
"""

from __future__ import annotations

import json
import math
import zipfile
from pathlib import Path

import numpy as np

from scenes.model import ANIMATIONS, NAMED_BACKGROUNDS, SHADINGS, CircleScene
from scenes.safe_write import write_atomically
from scenes.spheres import SphereScene

SCENE_SUFFIXES = (".npz", ".json")
# A guard against files that would exhaust host memory; the GPU may hold fewer (the renderer says).
MAX_CIRCLES = 50_000_000
# JSON is for hand-written scenes; parsing 64 MiB of it already takes about 1 GiB of Python objects.
MAX_JSON_BYTES = 64 * 2**20


class SceneFileError(ValueError):
    """A file that is not a valid circle scene; the message names the file and the field."""


def save_scene(scene: CircleScene, path: str | Path) -> Path:
    """Write ``scene`` to ``path`` (.npz or .json); returns the path written."""
    path = Path(path)
    fields = {
        "kind": "circles",
        "position": scene.position,
        "velocity": scene.velocity,
        "color": scene.color,
        "radius": scene.radius,
        "shading": scene.shading,
        "background": scene.background,
        "animation": scene.animation,
    }
    if not isinstance(scene.background, str):
        fields["background"] = np.asarray(scene.background, np.float32)
    return _write_fields(fields, path)


def _write_fields(fields: dict, path: Path) -> Path:
    """Save a scene's fields as .npz or .json, never leaving a partial file; raises OSError."""
    if path.suffix == ".npz":
        return write_atomically(path, lambda stream: np.savez_compressed(stream, **fields))
    if path.suffix == ".json":
        plain = {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in fields.items()}
        return write_atomically(path, lambda stream: stream.write(json.dumps(plain).encode()))
    raise SceneFileError(f"{path}: unknown scene file type {path.suffix!r}; use .npz or .json")


def _check_npz_sizes(path: Path) -> None:
    """Reject an archive whose arrays declare more values than any valid scene has, from the .npy
    headers alone: a small compressed file can declare gigabytes."""
    with zipfile.ZipFile(path) as archive:
        for member in archive.namelist():
            with archive.open(member) as stream:
                npy = np.lib.format
                version = npy.read_magic(stream)
                read_header = npy.read_array_header_1_0 if version == (1, 0) else npy.read_array_header_2_0
                shape, _, _ = read_header(stream)
            if math.prod(shape) > 3 * MAX_CIRCLES:
                field = member.removesuffix(".npy")
                raise SceneFileError(
                    f"{path}: field {field!r} has shape {shape}, more than the {MAX_CIRCLES} circles allowed"
                )


def _read_fields(path: Path) -> dict:
    if path.suffix == ".npz":
        try:
            _check_npz_sizes(path)
            with np.load(path, allow_pickle=False) as data:
                return {key: data[key] for key in data.files}
        except SceneFileError:
            raise
        except Exception as error:  # noqa: BLE001
            # A damaged archive raises from zipfile, zlib, struct or NumPy's header parser, with no
            # documented set of exceptions (the fuzz test found NotImplementedError and zlib.error).
            raise SceneFileError(f"{path}: not a readable .npz file ({type(error).__name__}: {error})") from None
    if path.suffix == ".json":
        if path.stat().st_size > MAX_JSON_BYTES:
            raise SceneFileError(
                f"{path}: {path.stat().st_size / 2**20:.0f} MiB is too large for a JSON scene "
                f"(at most {MAX_JSON_BYTES // 2**20} MiB); save large scenes as .npz"
            )
        try:
            fields = json.loads(path.read_text())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise SceneFileError(f"{path}: not a readable JSON file ({error})") from None
        if not isinstance(fields, dict):
            raise SceneFileError(f"{path}: the JSON top level must be an object with the scene's fields")
        return fields
    raise SceneFileError(f"{path}: unknown scene file type {path.suffix!r}; use .npz or .json")


def _shown(value) -> str:
    """A bad field value for a one-line message: short values as they are, arrays by shape and dtype."""
    if isinstance(value, np.ndarray) and value.ndim > 0:
        return f"an array of shape {value.shape} and dtype {value.dtype}"
    text = repr(value.item() if isinstance(value, np.ndarray) else value)
    return text if len(text) <= 60 and "\n" not in text else text.replace("\n", " ")[:57] + "..."


def _text(fields: dict, key: str, allowed: tuple[str, ...], default: str, path: Path) -> str:
    value = fields.get(key, default)
    if isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind == "U":
        value = str(value)
    if not isinstance(value, str) or value not in allowed:
        raise SceneFileError(f"{path}: field {key!r} must be one of {', '.join(allowed)}, got {_shown(value)}")
    return value


def _array(fields: dict, key: str, shape_tail: tuple[int, ...], path: Path, required: bool = True):
    if key not in fields:
        if required:
            raise SceneFileError(f"{path}: missing field {key!r}")
        return None
    raw = fields[key]
    try:
        array = np.asarray(raw)
    except (ValueError, TypeError) as error:
        raise SceneFileError(f"{path}: field {key!r} is not a numeric array ({error})") from None
    if array.dtype.kind not in "fiu" or array.dtype.itemsize > 8:
        raise SceneFileError(f"{path}: field {key!r} must hold numbers, got dtype {array.dtype}")
    if array.dtype.kind == "f" and array.dtype.itemsize > 4:
        with np.errstate(over="ignore"):  # overflow is detected just below
            converted = array.astype(np.float32)
        finite = np.isfinite(array)
        if np.any(np.isfinite(converted) != finite):
            raise SceneFileError(f"{path}: field {key!r} has values too large for float32")
        array = converted
    array = array.astype(np.float32)
    expected = "(N, " + ", ".join(map(str, shape_tail)) + ")" if shape_tail else "(N,)"
    if array.ndim != 1 + len(shape_tail) or array.shape[1:] != shape_tail:
        raise SceneFileError(f"{path}: field {key!r} must have shape {expected}, got {array.shape}")
    if not np.all(np.isfinite(array)):
        bad = int(np.count_nonzero(~np.isfinite(array)))
        raise SceneFileError(f"{path}: field {key!r} has {bad} NaN or infinite values")
    return np.ascontiguousarray(array)


def _background(fields: dict, shading: str, path: Path):
    value = fields.get("background", "snow" if shading == "snowflake" else "white")
    if isinstance(value, np.ndarray) and value.dtype.kind == "U":
        value = str(value)
    if isinstance(value, str):
        if value not in NAMED_BACKGROUNDS:
            raise SceneFileError(f"{path}: field 'background' must be white, snow or 3 numbers, got {_shown(value)}")
        return value
    try:
        rgb = np.asarray(value, dtype=np.float32)
    except (ValueError, TypeError):
        rgb = None
    if rgb is None or rgb.shape != (3,) or not np.all(np.isfinite(rgb)):
        raise SceneFileError(f"{path}: field 'background' must be white, snow or 3 finite numbers")
    return tuple(float(c) for c in rgb)


def _fields_of_kind(path: Path, expected: str) -> dict:
    """The file's fields, once its ``kind`` is ``expected``; raises SceneFileError otherwise."""
    if not path.is_file():
        raise SceneFileError(f"{path}: no such scene file")
    fields = _read_fields(path)
    kind = fields.get("kind")
    if isinstance(kind, np.ndarray) and kind.ndim == 0 and kind.dtype.kind == "U":
        kind = str(kind)
    if not isinstance(kind, str) or kind != expected:
        raise SceneFileError(f"{path}: field 'kind' must be '{expected}', got {_shown(kind)}")
    return fields


def load_scene(path: str | Path) -> CircleScene:
    """Read and validate a circle scene file; raises SceneFileError naming the file and field."""
    path = Path(path)
    fields = _fields_of_kind(path, "circles")
    position = _array(fields, "position", (3,), path)
    radius = _array(fields, "radius", (), path)
    count = radius.shape[0]
    if count > MAX_CIRCLES:
        raise SceneFileError(f"{path}: field 'radius' has {count} circles, more than the {MAX_CIRCLES} allowed")
    if position.shape[0] != count:
        raise SceneFileError(f"{path}: field 'position' has {position.shape[0]} rows but 'radius' has {count}")
    if np.any(radius <= 0):
        raise SceneFileError(f"{path}: field 'radius' must be > 0 ({int(np.sum(radius <= 0))} values are not)")
    shading = _text(fields, "shading", SHADINGS, "flat", path)
    color = _array(fields, "color", (3,), path, required=shading == "flat")
    velocity = _array(fields, "velocity", (3,), path, required=False)
    for key, array in (("color", color), ("velocity", velocity)):
        if array is not None and array.shape[0] != count:
            raise SceneFileError(f"{path}: field {key!r} has {array.shape[0]} rows but 'radius' has {count}")
    animation = _text(fields, "animation", ANIMATIONS, "none", path)
    if animation == "fireworks" and count != 315:
        raise SceneFileError(f"{path}: field 'animation' fireworks needs exactly 315 circles, got {count}")
    return CircleScene(
        name=path.stem,
        position=position,
        velocity=velocity if velocity is not None else np.zeros((count, 3), np.float32),
        color=color if color is not None else np.zeros((count, 3), np.float32),
        radius=radius,
        shading=shading,
        background=_background(fields, shading, path),
        animation=animation,
    )


def is_scene_file(name: str) -> bool:
    return Path(name).suffix in SCENE_SUFFIXES


def save_sphere_scene(scene: SphereScene, path: str | Path) -> Path:
    """Write a sphere scene (kind "spheres") to ``path`` (.npz or .json)."""
    path = Path(path)
    fields = {"kind": "spheres", "center": scene.center, "radius": scene.radius, "color": scene.color}
    return _write_fields(fields, path)


def load_sphere_scene(path: str | Path) -> SphereScene:
    """Read and validate a sphere scene file; raises SceneFileError naming the file and field."""
    path = Path(path)
    fields = _fields_of_kind(path, "spheres")
    radius = _array(fields, "radius", (), path)
    count = radius.shape[0]
    if count > MAX_CIRCLES:
        raise SceneFileError(f"{path}: field 'radius' has {count} spheres, more than the {MAX_CIRCLES} allowed")
    if np.any(radius <= 0):
        raise SceneFileError(f"{path}: field 'radius' must be > 0 ({int(np.sum(radius <= 0))} values are not)")
    arrays = {}
    for key in ("center", "color"):
        arrays[key] = _array(fields, key, (3,), path)
        if arrays[key].shape[0] != count:
            raise SceneFileError(f"{path}: field {key!r} has {arrays[key].shape[0]} rows but 'radius' has {count}")
    return SphereScene(path.stem, arrays["center"], radius, arrays["color"])

"""Circle and sphere scene files (``docs/scene-files.md``): ``.npz`` for large scenes, ``.json``
for hand-written ones. Loading validates every field and raises SceneFileError with one line that
names the file and the field; ``scenes.file_reading`` bounds what reading the file may cost.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from scenes.file_reading import (
    MAX_CIRCLES,
    SCENE_SUFFIXES,
    Float32Field,
    SceneFileError,
    file_type,
    float32_problem,
    is_scene_file,
    plain,
    read_fields,
    rows_problem,
    shape_problem,
    shown,
)
from scenes.model import ANIMATIONS, NAMED_BACKGROUNDS, SHADINGS, CircleScene
from scenes.safe_write import NEW_FILE, Placement, write_output
from scenes.spheres import SphereScene

__all__ = [
    "MAX_CIRCLES",
    "SCENE_SUFFIXES",
    "SceneFileError",
    "is_scene_file",
    "load_scene",
    "load_sphere_scene",
    "save_scene",
    "save_sphere_scene",
]


def save_scene(scene: CircleScene, path: str | Path, how: Placement = NEW_FILE) -> Path:
    """Write ``scene`` to ``path`` (.npz or .json), placed as ``how`` says (see
    ``scenes.safe_write``); returns the path written."""
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
    return _write_fields(fields, path, how)


def _write_fields(fields: dict, path: Path, how: Placement) -> Path:
    """Save a scene's fields as .npz or .json, never leaving a partial file; raises OutputError."""
    if file_type(path) == ".npz":
        return Path(write_output(path, lambda stream: np.savez_compressed(stream, **fields), how))
    plain = {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in fields.items()}
    return Path(write_output(path, lambda stream: stream.write(json.dumps(plain).encode()), how))


def _text(fields: dict, key: str, allowed: tuple[str, ...], default: str, path: str | Path) -> str:
    value = plain(fields.get(key, default))
    if not isinstance(value, str) or value not in allowed:
        raise SceneFileError(f"{path}: field {key!r} must be one of {', '.join(allowed)}, got {shown(value)}")
    return value


def _numeric(raw, key: str, path: str | Path) -> np.ndarray:
    """``raw`` (a JSON value or a .npz array) as an array of integers or floats of its own shape."""
    try:
        array = np.asarray(raw)
    except (ValueError, TypeError) as error:
        raise SceneFileError(f"{path}: field {key!r} is not a numeric array ({error})") from None
    if array.dtype.kind not in "fiu" or array.dtype.itemsize > 8:
        raise SceneFileError(f"{path}: field {key!r} must hold numbers, got dtype {array.dtype}")
    return array


def _float32(array: np.ndarray, key: str, path: str | Path) -> np.ndarray:
    """An integer or float ``array`` as float32; raises SceneFileError for NaN, infinities and values
    beyond float32's range."""
    problem = float32_problem(key, array.size - int(np.count_nonzero(np.isfinite(array))), 0)
    if problem is None:
        with np.errstate(over="ignore"):  # the overflow is what the check below reports
            converted = array.astype(np.float32, copy=False)
        problem = float32_problem(key, 0, converted.size - int(np.count_nonzero(np.isfinite(converted))))
    if problem:
        raise SceneFileError(f"{path}: {problem}")
    return converted


# The largest magnitude a position, velocity, center or radius may have. From about 1.3e19 a sum of
# two float32 squares overflows to infinity, and the kernels' tests and the CPU references then
# disagree on what a circle or sphere covers; 1e18 leaves room for the sums and products around them.
MAX_GEOMETRY = 1e18


def _values(count: int) -> str:
    """``1 value``, ``2 values``, ..."""
    return f"{count} value" if count == 1 else f"{count} values"


def _values_not(count: int) -> str:
    """``1 value is not``, ``2 values are not``, ..."""
    return f"{_values(count)} {'is' if count == 1 else 'are'} not"


def _bounded(array: np.ndarray, key: str, path: str | Path) -> np.ndarray:
    """``array`` when every value is within MAX_GEOMETRY in magnitude; raises SceneFileError otherwise.
    Its extremes are read without a temporary array, so a large field is not held twice."""
    if array.size and (array.max() > MAX_GEOMETRY or array.min() < -MAX_GEOMETRY):
        bad = int(np.count_nonzero(np.abs(array) > MAX_GEOMETRY))
        raise SceneFileError(
            f"{path}: field {key!r} has {_values(bad)} of magnitude over {MAX_GEOMETRY:g} "
            "(the renderers' float32 squared distances overflow from about 1.3e19)"
        )
    return array


def _array(fields: dict, key: str, shape_tail: tuple[int, ...], path: str | Path, required: bool = True):
    """Field ``key`` as a C-contiguous float32 array of shape (N, *shape_tail), or None when it is
    absent and not ``required``; raises SceneFileError naming the field otherwise."""
    if key not in fields:
        if required:
            raise SceneFileError(f"{path}: missing field {key!r}")
        return None
    value = fields[key]
    array = value.array if isinstance(value, Float32Field) else _numeric(value, key, path)
    problem = shape_problem(key, array.shape, shape_tail)
    if problem:
        raise SceneFileError(f"{path}: {problem}")
    array = array.reshape(-1, *shape_tail)  # an empty [] takes its width
    if isinstance(value, Float32Field):  # converted while read: judged here, in the same order
        problem = float32_problem(key, value.not_finite, value.too_large)
        if problem:
            raise SceneFileError(f"{path}: {problem}")
        return array
    return np.ascontiguousarray(_float32(array, key, path))


def _radius(fields: dict, things: str, path: str | Path) -> np.ndarray:
    """Field 'radius', float32 (N,): at most MAX_CIRCLES values, all > 0."""
    radius = _array(fields, "radius", (), path)
    if radius.shape[0] > MAX_CIRCLES:
        raise SceneFileError(
            f"{path}: field 'radius' has {radius.shape[0]} {things}, more than the {MAX_CIRCLES} allowed"
        )
    if np.any(radius <= 0):
        raise SceneFileError(f"{path}: field 'radius' must be > 0 ({_values_not(int(np.sum(radius <= 0)))})")
    return radius


def _rows(fields: dict, key: str, count: int, path: str | Path, required: bool = True):
    """Field ``key`` as float32 (count, 3), or None when it is absent and not ``required``."""
    array = _array(fields, key, (3,), path, required)
    if array is not None and array.shape[0] != count:
        raise SceneFileError(f"{path}: {rows_problem(key, array.shape[0], count)}")
    return array


def _background(fields: dict, shading: str, path: str | Path):
    value = plain(fields.get("background", "snow" if shading == "snowflake" else "white"))
    if isinstance(value, str):
        if value not in NAMED_BACKGROUNDS:
            raise SceneFileError(f"{path}: field 'background' must be white, snow or 3 numbers, got {shown(value)}")
        return value
    rgb = _numeric(value, "background", path)
    if rgb.shape != (3,):
        raise SceneFileError(f"{path}: field 'background' must be white, snow or 3 numbers, got {shown(value)}")
    return tuple(float(c) for c in _float32(rgb, "background", path))


def load_scene(path: str | Path) -> CircleScene:
    """Read and validate a circle scene file: float32 position, velocity, color (N, 3) and radius
    (N,). Raises SceneFileError, whose line starts with ``path`` as given and names the field."""
    fields = read_fields(path, "circles")
    radius = _bounded(_radius(fields, "circles", path), "radius", path)
    count = radius.shape[0]
    position = _bounded(_rows(fields, "position", count, path), "position", path)
    shading = _text(fields, "shading", SHADINGS, "flat", path)
    color = _rows(fields, "color", count, path, required=shading == "flat")
    velocity = _rows(fields, "velocity", count, path, required=False)
    if velocity is not None:
        _bounded(velocity, "velocity", path)
    animation = _text(fields, "animation", ANIMATIONS, "none", path)
    if animation == "fireworks" and count != 315:
        raise SceneFileError(f"{path}: field 'animation' fireworks needs exactly 315 circles, got {count}")
    return CircleScene(
        name=Path(path).stem,
        position=position,
        velocity=velocity if velocity is not None else np.zeros((count, 3), np.float32),
        color=color if color is not None else np.zeros((count, 3), np.float32),
        radius=radius,
        shading=shading,
        background=_background(fields, shading, path),
        animation=animation,
    )


def save_sphere_scene(scene: SphereScene, path: str | Path, how: Placement = NEW_FILE) -> Path:
    """Write a sphere scene (kind "spheres") to ``path`` (.npz or .json), as ``save_scene`` does."""
    path = Path(path)
    fields = {"kind": "spheres", "center": scene.center, "radius": scene.radius, "color": scene.color}
    return _write_fields(fields, path, how)


def load_sphere_scene(path: str | Path) -> SphereScene:
    """Read and validate a sphere scene file: float32 center (N, 3), radius (N,) and color (N, 3) in
    [0, 1]. Raises SceneFileError, whose line starts with ``path`` as given and names the field."""
    fields = read_fields(path, "spheres")
    radius = _bounded(_radius(fields, "spheres", path), "radius", path)
    center = _bounded(_rows(fields, "center", radius.shape[0], path), "center", path)
    color = _rows(fields, "color", radius.shape[0], path)
    outside = int(np.count_nonzero((color < 0) | (color > 1)))
    if outside:
        raise SceneFileError(f"{path}: field 'color' must be in [0, 1] ({_values_not(outside)})")
    return SphereScene(Path(path).stem, center, radius, color)

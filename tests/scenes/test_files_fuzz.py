"""Property-based fuzzing of scene file loading: whatever the bytes or fields, ``load_scene`` and
``load_sphere_scene`` return a valid scene or raise SceneFileError naming the file; nothing else
escapes."""

import io
import json
import tempfile
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scenes.files import SceneFileError, load_scene, load_sphere_scene, save_scene, save_sphere_scene
from scenes.model import CircleScene
from scenes.spheres import SphereScene, random_spheres

FIELDS = ("kind", "position", "velocity", "color", "radius", "shading", "background", "animation", "center")
NUMBERS = st.one_of(
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.just(0),
    st.just(-1.0),
)
VALUES = st.recursive(
    st.one_of(NUMBERS, st.text(max_size=8), st.booleans(), st.none(), st.sampled_from(["circles", "spheres", "snow"])),
    lambda inner: st.lists(inner, max_size=4),
    max_leaves=24,
)
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def valid_or_named_error(path: Path, loader):
    try:
        scene = loader(path)
    except SceneFileError as error:
        assert str(error).startswith(f"{path}:"), error
        assert "\n" not in str(error)
        return None
    others = (scene.position, scene.color) if isinstance(scene, CircleScene) else (scene.center, scene.color)
    arrays = [scene.radius, *others]
    for array in arrays:
        assert array.dtype == np.float32 and np.isfinite(array).all()
    assert (scene.radius > 0).all()
    return scene


def scratch(suffix: str) -> Path:
    return Path(tempfile.mkdtemp(prefix="rasterlab-fuzz-")) / f"scene{suffix}"


@SETTINGS
@given(fields=st.dictionaries(st.sampled_from(FIELDS), VALUES, max_size=9))
def test_any_json_fields(fields):
    path = scratch(".json")
    path.write_text(json.dumps(fields))
    valid_or_named_error(path, load_scene)
    valid_or_named_error(path, load_sphere_scene)


@SETTINGS
@given(data=st.binary(max_size=400), suffix=st.sampled_from([".json", ".npz"]))
def test_any_bytes(data, suffix):
    path = scratch(suffix)
    path.write_bytes(data)
    valid_or_named_error(path, load_scene)
    valid_or_named_error(path, load_sphere_scene)


def _valid_bytes(suffix: str, spheres: bool) -> bytes:
    path = scratch(suffix)
    if spheres:
        save_sphere_scene(random_spheres(5, 1), path)
    else:
        rng = np.random.default_rng(0)
        scene = CircleScene(
            "fuzz",
            rng.random((5, 3), np.float32),
            np.zeros((5, 3), np.float32),
            rng.random((5, 3), np.float32),
            rng.random(5, np.float32) * 0.1 + 0.01,
        )
        save_scene(scene, path)
    return path.read_bytes()


@SETTINGS
@given(
    suffix=st.sampled_from([".json", ".npz"]),
    spheres=st.booleans(),
    cut=st.floats(0, 1),
    flips=st.lists(st.tuples(st.floats(0, 1), st.integers(0, 255)), max_size=4),
)
def test_truncated_or_corrupted_valid_files(suffix, spheres, cut, flips):
    data = bytearray(_valid_bytes(suffix, spheres))
    for where, value in flips:
        data[int(where * (len(data) - 1))] = value
    path = scratch(suffix)
    path.write_bytes(bytes(data[: int(cut * len(data))] if cut < 1 else data))
    scene = valid_or_named_error(path, load_sphere_scene if spheres else load_scene)
    if scene is not None:
        assert isinstance(scene, SphereScene if spheres else CircleScene)


@SETTINGS
@given(
    arrays=st.dictionaries(
        st.sampled_from(FIELDS),
        st.tuples(
            st.sampled_from([np.float32, np.float64, np.int64, np.bool_, np.complex64, np.uint8, "U3"]),
            st.lists(st.integers(0, 4), min_size=0, max_size=3),
            st.sampled_from([0.5, -1.0, 0.0, np.nan, np.inf, 1e39]),
        ),
        max_size=9,
    )
)
def test_npz_with_any_dtypes_and_shapes(arrays):
    buffer = io.BytesIO()
    contents = {}
    for key, (dtype, shape, fill) in arrays.items():
        with np.errstate(over="ignore", invalid="ignore"):
            contents[key] = np.full(shape, "abc" if dtype == "U3" else fill).astype(dtype)
    np.savez(buffer, **contents)
    path = scratch(".npz")
    path.write_bytes(buffer.getvalue())
    valid_or_named_error(path, load_scene)
    valid_or_named_error(path, load_sphere_scene)

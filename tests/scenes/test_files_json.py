"""JSON scenes parsed defensively: deep nesting, integers of thousands of digits and numbers beyond
float32 in any field give one SceneFileError line naming the file and the field, with every warning
an error; empty scenes round-trip in both encodings; sphere colours stay in [0, 1]."""

import json

import numpy as np
import pytest

from scenes.files import SceneFileError, load_scene, load_sphere_scene, save_scene, save_sphere_scene
from scenes.model import CircleScene, empty_arrays
from scenes.spheres import SphereScene

# A NumPy overflow RuntimeWarning (or any other) fails these tests.
pytestmark = pytest.mark.filterwarnings("error")

LOADERS = {"circles": load_scene, "spheres": load_sphere_scene}
VALID = {
    "circles": {"kind": "circles", "position": [[0.5, 0.5, 0]], "radius": [0.1], "color": [[1, 0, 0]]},
    "spheres": {"kind": "spheres", "center": [[0, 0, 0]], "radius": [10], "color": [[1, 0, 0]]},
}
# Where one number goes in each numeric field (the circle background included).
NUMBER_SLOTS = {
    "circles": {
        "position": [["N", 0.5, 0]],
        "velocity": [[0, "N", 0]],
        "color": [[1, 0, "N"]],
        "radius": ["N"],
        "background": [0, "N", 0],
    },
    "spheres": {"center": [["N", 0, 0]], "radius": ["N"], "color": [[1, "N", 0]]},
}
TOO_LARGE = {
    "1e39": "1e39",
    "-1e39": "-1e39",
    "1e400": "1e400",
    "10**400": str(10**400),
    "1000 digits": "9" * 1000,
    "5000 digits": "-" + "7" * 5000,  # over Python's 4300-digit limit for int()
}


def write(tmp_path, fields: dict, number: str = "", name: str = "scene.json"):
    """Write ``fields`` as JSON with ``number``'s text, unquoted, where a value is the string "N"."""
    path = tmp_path / name
    path.write_text(json.dumps(fields).replace('"N"', number))
    return path


def refused(loader, path) -> str:
    """The one-line message of the SceneFileError that ``loader(path)`` raises."""
    with pytest.raises(SceneFileError) as caught:
        loader(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: ") and "\n" not in message, message
    return message


@pytest.mark.parametrize("text", TOO_LARGE.values(), ids=TOO_LARGE.keys())
@pytest.mark.parametrize(
    "kind, field",
    [pytest.param(kind, field, id=f"{kind}-{field}") for kind in NUMBER_SLOTS for field in NUMBER_SLOTS[kind]],
)
def test_a_number_beyond_float32_names_its_field(tmp_path, kind, field, text):
    path = write(tmp_path, VALID[kind] | {field: NUMBER_SLOTS[kind][field]}, text)
    assert f"field '{field}' has values too large for float32" in refused(LOADERS[kind], path)


@pytest.mark.parametrize("kind", LOADERS)
def test_a_long_integer_where_a_word_belongs_names_its_field(tmp_path, kind):
    for field in ("kind", "shading", "animation", "background") if kind == "circles" else ("kind",):
        for digits in (1000, 5000):
            path = write(tmp_path, VALID[kind] | {field: "N"}, "1" * digits)
            assert f"field '{field}' must be" in refused(LOADERS[kind], path)


def test_integers_on_either_side_of_int64_load(tmp_path):
    values = [10**18 - 1, 2**63, -(2**63) - 1]  # colors: positions are bounded to 1e18
    path = write(tmp_path, VALID["circles"] | {"color": [values]})
    assert load_scene(path).color.tolist() == [np.float32(values).tolist()]


def test_a_number_of_thousands_of_digits_within_range_loads(tmp_path):
    path = write(tmp_path, VALID["circles"] | {"radius": ["N"]}, "0." + "1" * 5000)
    assert load_scene(path).radius.tolist() == [np.float32(0.1111111111)]


@pytest.mark.parametrize("kind", LOADERS)
def test_deep_nesting_of_the_whole_file_or_of_a_field(tmp_path, kind):
    loader = LOADERS[kind]
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000)
    assert "not a readable JSON file" in refused(loader, deep)
    for field in VALID[kind]:
        nested = write(tmp_path, VALID[kind] | {field: "N"}, "[" * 100_000 + "1" + "]" * 100_000)
        assert "not a readable JSON file" in refused(loader, nested)
        # Deep enough to defeat NumPy (64 dimensions at most) yet shallow enough to parse.
        nested = write(tmp_path, VALID[kind] | {field: "N"}, "[" * 500 + "1" + "]" * 500)
        assert f"field '{field}'" in refused(loader, nested)


def circles(count: int) -> CircleScene:
    arrays = empty_arrays(count)
    arrays["radius"][:] = 0.1
    return CircleScene("empty", **arrays)


@pytest.mark.parametrize("suffix", [".json", ".npz"])
def test_an_empty_scene_round_trips(tmp_path, suffix):
    loaded = load_scene(save_scene(circles(0), tmp_path / f"circles{suffix}"))
    assert loaded.count == 0 and loaded.position.shape == (0, 3) and loaded.radius.shape == (0,)
    assert all(getattr(loaded, f).dtype == np.float32 for f in ("position", "velocity", "color", "radius"))
    empty = SphereScene("empty", np.zeros((0, 3), np.float32), np.zeros(0, np.float32), np.zeros((0, 3), np.float32))
    loaded = load_sphere_scene(save_sphere_scene(empty, tmp_path / f"spheres{suffix}"))
    assert loaded.count == 0 and loaded.center.shape == (0, 3) and loaded.color.shape == (0, 3)
    assert loaded.records().shape == (0, 7)


@pytest.mark.parametrize("suffix", [".json", ".npz"])
@pytest.mark.parametrize("value", [1.5, -0.01])
def test_sphere_colours_outside_0_1_are_refused(tmp_path, suffix, value):
    color = np.float32([[0.5, 0.5, 0.5], [0.5, value, 0.5]])
    scene = SphereScene("s", np.zeros((2, 3), np.float32), np.ones(2, np.float32), color)
    path = save_sphere_scene(scene, tmp_path / f"s{suffix}")
    assert "field 'color' must be in [0, 1] (1 value is not)" in refused(load_sphere_scene, path)


def test_circle_colours_are_not_clamped(tmp_path):
    path = write(tmp_path, VALID["circles"] | {"color": [[2.5, -1, 0.5]]})
    assert load_scene(path).color.tolist() == [[2.5, -1.0, 0.5]]


@pytest.mark.parametrize("loader", [load_scene, load_sphere_scene], ids=["circles", "spheres"])
def test_a_key_written_twice_is_refused(tmp_path, loader):
    # Python's json takes the last of two values of one key; other tools take the first.
    path = tmp_path / "twice.json"
    kind = "circles" if loader is load_scene else "spheres"
    path.write_text(json.dumps({"kind": kind, "radius": [0.1]})[:-1] + ', "radius": [0.2]}')
    with pytest.raises(SceneFileError, match=r"twice.json: key 'radius' appears more than once in an object$"):
        loader(path)

"""Circle scene files in .npz and .json: round trips are identical and render the same pixels, JSON
defaults apply, and bad, non-finite, truncated or missing files give one SceneFileError naming the
file and the field."""

import json
import warnings
import zipfile

import numpy as np
import pytest

from render.circles.reference import ReferenceRenderer
from render.core.renderer import render_frame
from scenes.builtin import build_scene
from scenes.files import SceneFileError, load_scene, save_scene


def same_scene(a, b):
    for field in ("position", "velocity", "color", "radius"):
        assert np.array_equal(getattr(a, field), getattr(b, field)), field
    assert (a.shading, a.background, a.animation) == (b.shading, b.background, b.animation)


@pytest.mark.parametrize("suffix", [".npz", ".json"])
@pytest.mark.parametrize("name", ["rgby", "pattern", "fireworks", "snow"])
def test_round_trip_is_identical(tmp_path, name, suffix):
    scene = build_scene(name, 3)
    loaded = load_scene(save_scene(scene, tmp_path / f"s{suffix}"))
    same_scene(scene, loaded)


def test_loaded_file_renders_the_same_pixels(tmp_path):
    scene = build_scene("rand10k")
    loaded = load_scene(save_scene(scene, tmp_path / "r.npz"))
    images = []
    for s in (scene, loaded):
        renderer = ReferenceRenderer(workers=1)
        renderer.load(s, 64, 64)
        images.append(render_frame(renderer, 0))
    assert np.array_equal(*images)


def test_minimal_json_gets_defaults(tmp_path):
    path = tmp_path / "two.json"
    path.write_text(
        json.dumps(
            {
                "kind": "circles",
                "position": [[0.5, 0.5, 0], [0.2, 0.2, 0]],
                "radius": [0.1, 0.2],
                "color": [[1, 0, 0], [0, 1, 0]],
                "background": [0, 0, 0],
            }
        )
    )
    scene = load_scene(path)
    assert scene.count == 2 and scene.shading == "flat" and scene.animation == "none"
    assert scene.background_rgb() == (0.0, 0.0, 0.0) and np.all(scene.velocity == 0)
    assert scene.position.dtype == np.float32


def write_json(tmp_path, **fields):
    base = {"kind": "circles", "position": [[0.5, 0.5, 0]], "radius": [0.1], "color": [[1, 0, 0]]}
    base.update(fields)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({k: v for k, v in base.items() if v is not None}))
    return path


@pytest.mark.parametrize(
    "fields, field",
    [
        ({"kind": "spheres"}, "kind"),
        ({"kind": None}, "kind"),
        ({"position": None}, "position"),
        ({"radius": [0.0]}, "radius"),
        ({"radius": [-1.0]}, "radius"),
        ({"position": [[0.5, 0.5]]}, "position"),
        ({"color": [[1, 0]]}, "color"),
        ({"color": None}, "color"),
        ({"position": [[0.5, "x", 0]]}, "position"),
        ({"shading": "glossy"}, "shading"),
        ({"animation": "spin"}, "animation"),
        ({"animation": "fireworks"}, "animation"),
        ({"background": "pink"}, "background"),
        ({"radius": [0.1, 0.2]}, "position"),
        ({"velocity": [[0, 0, 0], [0, 0, 0]]}, "velocity"),
    ],
)
def test_bad_json_names_file_and_field(tmp_path, fields, field):
    path = write_json(tmp_path, **fields)
    with pytest.raises(SceneFileError) as error:
        load_scene(path)
    assert str(path) in str(error.value) and repr(field) in str(error.value)


def test_non_finite_values_rejected(tmp_path):
    path = tmp_path / "nan.npz"
    np.savez(
        path,
        kind="circles",
        position=np.float32([[np.nan, 0, 0]]),
        radius=np.float32([0.1]),
        color=np.float32([[1, 1, 1]]),
    )
    with pytest.raises(SceneFileError, match="'position' has 1 NaN or infinite"):
        load_scene(path)


def test_float64_too_large_for_float32(tmp_path):
    path = tmp_path / "big.npz"
    np.savez(
        path,
        kind="circles",
        position=np.array([[1e300, 0, 0]]),
        radius=np.float32([0.1]),
        color=np.float32([[1, 1, 1]]),
    )
    with pytest.raises(SceneFileError, match="'position' has values too large"):
        load_scene(path)


@pytest.fixture
def small_slices(monkeypatch):
    """Fields other than float32 convert 4 values at a time: a few circles cross several slices."""
    monkeypatch.setattr("scenes.file_reading._SLICE_VALUES", 4)


@pytest.mark.parametrize(
    "position, message",
    [
        ([[np.nan, 0, 0], [0, 0, 0], [0, np.inf, 0], [0, 0, -np.inf]], "'position' has 3 NaN or infinite values"),
        ([[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 1e39]], "'position' has values too large for float32"),
        ([[0, 0, 0], [np.nan, 0, 0], [0, 0, 0], [0, 0, 1e39]], "'position' has 1 NaN or infinite values"),
    ],
)
def test_slices_of_float64_are_checked_together(tmp_path, small_slices, position, message):
    path = tmp_path / "slices.npz"
    np.savez(path, kind="circles", position=np.array(position), radius=np.full(4, 0.1), color=np.ones((4, 3)))
    with pytest.raises(SceneFileError) as error:
        load_scene(path)
    assert str(error.value) == f"{path}: field {message}"


@pytest.mark.parametrize(
    "header, reason",
    [
        ({"descr": "<f8", "fortran_order": False, "shape": (True, 3)}, "ValueError"),
        ("{'descr': '<f8', 'fortran_order': False, 'shape': (N, 3), }", "ValueError"),
        ("{'descr': '<f8', 'fortran_order': False, 'shape': (4, 3), 'pad': '" + "x" * 12000 + "'}", "ValueError"),
    ],
    ids=["a-boolean-in-the-shape", "a-name-in-the-shape", "over-10000-bytes"],
)
def test_an_unreadable_npy_header_is_one_line_naming_its_field(tmp_path, header, reason):
    path = tmp_path / "header.npz"
    with zipfile.ZipFile(path, "w") as archive:
        with archive.open("kind.npy", "w") as stream:
            np.lib.format.write_array(stream, np.array("circles"))
        with archive.open("position.npy", "w") as stream:
            text = header if isinstance(header, str) else repr(header)
            text = text.encode("latin1") + b" " * (63 - (len(text) + 10) % 64) + b"\n"
            stream.write(b"\x93NUMPY\x02\x00" + len(text).to_bytes(4, "little") + text + bytes(24))
    with pytest.raises(SceneFileError) as error:
        load_scene(path)
    message = str(error.value)
    assert message.startswith(f"{path}: field 'position' has an unreadable .npy header ({reason}: ")
    assert "\n" not in message and " at 0x" not in message, message


def test_float64_fields_are_judged_in_the_same_order_as_any(tmp_path):
    # Converted while read, a NaN position is still reported after radius, which comes first.
    path = tmp_path / "two-problems.npz"
    position = np.full((4, 3), np.nan)
    np.savez(path, kind="circles", position=position, radius=np.float32([-1, 0.1, 0.1, 0.1]), color=np.ones((4, 3)))
    with pytest.raises(SceneFileError) as error:
        load_scene(path)
    assert str(error.value) == f"{path}: field 'radius' must be > 0 (1 value is not)"


def test_a_signalling_nan_is_one_line_and_no_warning(tmp_path):
    position = np.zeros((4, 3))
    position.view(np.uint64)[1, 1] = 0x7FF0000000000001
    path = tmp_path / "snan.npz"
    np.savez(path, kind="circles", position=position, radius=np.full(4, 0.1), color=np.ones((4, 3)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(SceneFileError) as error:
            load_scene(path)
    assert str(error.value) == f"{path}: field 'position' has 1 NaN or infinite values"


@pytest.mark.skipif(np.dtype(np.longdouble).itemsize <= 8, reason="long double is float64 here")
def test_numbers_wider_than_8_bytes_are_refused(tmp_path):
    path = tmp_path / "f128.npz"
    position = np.zeros((4, 3), np.longdouble)
    np.savez(path, kind="circles", position=position, radius=np.full(4, 0.1), color=np.ones((4, 3)))
    with pytest.raises(SceneFileError) as error:
        load_scene(path)
    assert str(error.value) == f"{path}: field 'position' must hold numbers, got dtype {position.dtype}"


@pytest.mark.parametrize(
    "dtype, order", [(">f8", "C"), ("<f8", "F"), (">f8", "F"), ("<i8", "C"), ("<u2", "C"), ("<f2", "C")], ids=str
)
def test_every_number_layout_reads_as_float32(tmp_path, small_slices, dtype, order):
    position = np.arange(15, dtype=np.float64).reshape(5, 3)
    path = tmp_path / "layout.npz"
    stored = np.asarray(position.astype(dtype), order=order)
    np.savez(path, kind="circles", position=stored, radius=np.full(5, 2, dtype), color=np.ones((5, 3), dtype))
    scene = load_scene(path)
    assert scene.position.dtype == np.float32 and np.array_equal(scene.position, position.astype(np.float32))
    assert np.array_equal(scene.radius, np.full(5, 2, np.float32))


@pytest.mark.parametrize(
    "field, values, message",
    [
        ("position", [[-3e38, -3e38, 0]], "'position' has 2 values of magnitude over 1e\\+18 \\(the renderers'"),
        ("radius", [3e38], "'radius' has 1 value of magnitude over 1e\\+18 \\(the renderers'"),
        ("radius", [1.1e18], "'radius' has 1 value of magnitude over 1e\\+18 \\(the renderers'"),
        ("velocity", [[0, 2e18, 0]], "'velocity' has 1 value of magnitude over 1e\\+18 \\(the renderers'"),
    ],
)
def test_geometry_whose_squares_overflow_float32_is_refused(tmp_path, field, values, message):
    """A circle of radius 3e38 at (-3e38, -3e38) would cover every pixel centre by the kernels'
    float32 test (both squares are infinite) and none but a corner by the reference's pixel box."""
    fields = {"position": [[0.5, 0.5, 0]], "radius": [0.1], "color": [[1, 1, 1]], field: values}
    path = tmp_path / "huge.npz"
    np.savez(path, kind="circles", **{key: np.float32(value) for key, value in fields.items()})
    with pytest.raises(SceneFileError, match=message):
        load_scene(path)


def test_geometry_up_to_the_bound_loads(tmp_path):
    path = tmp_path / "edge.json"
    path.write_text(
        json.dumps({"kind": "circles", "position": [[-1e18, 1e18, 0]], "radius": [1e18], "color": [[1, 1, 1]]})
    )
    scene = load_scene(path)
    assert scene.position[0, 0] == np.float32(-1e18) and scene.radius[0] == np.float32(1e18)


@pytest.mark.parametrize("content", [b"", b"not a zip", b"PK\x03\x04truncated"])
def test_unreadable_npz(tmp_path, content):
    path = tmp_path / "broken.npz"
    path.write_bytes(content)
    with pytest.raises(SceneFileError, match="broken.npz: not a readable .npz"):
        load_scene(path)


def test_truncated_npz(tmp_path):
    good = save_scene(build_scene("rand10k"), tmp_path / "good.npz")
    path = tmp_path / "cut.npz"
    path.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    with pytest.raises(SceneFileError, match="cut.npz"):
        load_scene(path)


def test_bad_json_syntax_and_type(tmp_path):
    (tmp_path / "a.json").write_text("{not json")
    (tmp_path / "b.json").write_text("[1, 2]")
    with pytest.raises(SceneFileError, match="a.json: not a readable JSON"):
        load_scene(tmp_path / "a.json")
    with pytest.raises(SceneFileError, match="b.json: the JSON top level"):
        load_scene(tmp_path / "b.json")


def test_missing_file_and_wrong_suffix(tmp_path):
    with pytest.raises(SceneFileError, match="no such scene file"):
        load_scene(tmp_path / "none.npz")
    (tmp_path / "x.txt").write_text("hi")
    with pytest.raises(SceneFileError, match="use .npz or .json"):
        load_scene(tmp_path / "x.txt")

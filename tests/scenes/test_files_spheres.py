"""Sphere scene files: the built-in sphere scenes (classic, random --count 7 --seed 3) survive
``save_sphere_scene`` -> ``load_sphere_scene`` in .npz and .json with every array equal exactly and
float32, and the fields a sphere file may hold are exactly those of ``SphereScene`` (no materials)."""

import dataclasses

import numpy as np
import pytest

from scenes.file_reading import SPHERE_FIELDS
from scenes.files import SceneFileError, load_sphere_scene, save_sphere_scene
from scenes.spheres import SphereScene, build_sphere_scene

SCENES = {"classic": ("classic", None, None), "random-7-3": ("random", 7, 3)}


@pytest.mark.parametrize("suffix", [".npz", ".json"])
@pytest.mark.parametrize("which", SCENES)
def test_built_in_sphere_scenes_round_trip_exactly(tmp_path, which, suffix):
    scene = build_sphere_scene(*SCENES[which])
    loaded = load_sphere_scene(save_sphere_scene(scene, tmp_path / f"saved{suffix}"))
    assert loaded.name == "saved" and loaded.count == scene.count
    for field in ("center", "radius", "color"):
        saved, back = getattr(scene, field), getattr(loaded, field)
        assert back.dtype == np.float32 and back.shape == saved.shape, field
        assert np.array_equal(back, saved), field
    assert np.array_equal(loaded.records(), scene.records())


def test_sphere_fields_are_the_models_fields():
    model = {field.name for field in dataclasses.fields(SphereScene)} - {"name"}
    assert set(SPHERE_FIELDS) == model | {"kind"}


def test_an_npz_member_that_is_no_sphere_field_is_refused(tmp_path):
    path = tmp_path / "material.npz"
    scene = build_sphere_scene("random", 3, 1)
    arrays = {"center": scene.center, "radius": scene.radius, "color": scene.color}
    np.savez(path, kind=np.array("spheres"), roughness=np.float32([0.5, 0.5, 0.5]), **arrays)
    with pytest.raises(SceneFileError, match=r"member 'roughness.npy' is not a field of a spheres scene"):
        load_sphere_scene(path)


@pytest.mark.parametrize("field, value", [("center", [[1e30, 0, 0]]), ("radius", [1e30])])
def test_a_sphere_whose_squares_overflow_float32_is_refused(tmp_path, field, value):
    fields = {"center": [[0, 0, 0]], "radius": [10], "color": [[1, 0, 0]], field: value}
    path = tmp_path / "huge.npz"
    np.savez(path, kind="spheres", **{key: np.float32(item) for key, item in fields.items()})
    with pytest.raises(SceneFileError, match=f"field '{field}' has 1 value of magnitude over 1e\\+18"):
        load_sphere_scene(path)

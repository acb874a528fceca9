"""Which scene a name means (``scenes.lookup``): a built-in name is the built-in scene even when a
file or folder of that name is in the working directory; ``./name`` and ``name.npz`` are files."""

import pytest

from scenes.builtin import build_scene
from scenes.files import SceneFileError, is_scene_file, load_scene, save_scene, save_sphere_scene
from scenes.lookup import scene_loader, sphere_scene_loader
from scenes.spheres import UnknownSphereSceneError, random_spheres


@pytest.fixture(params=["folder", "file"])
def cwd_with(request, tmp_path, monkeypatch):
    """A working directory in which ``cwd_with(name)`` makes a folder or a (non-scene) file ``name``."""
    monkeypatch.chdir(tmp_path)

    def make(name: str) -> None:
        if request.param == "folder":
            (tmp_path / name).mkdir()
        else:
            (tmp_path / name).write_text("not a scene")

    return make


def test_a_built_in_circle_name_wins_over_what_is_in_the_folder(cwd_with):
    cwd_with("rand10k")
    scene = scene_loader("rand10k", 0)()
    assert scene.name == "rand10k" and scene.count == 10_000
    with pytest.raises(SceneFileError, match=r"^\./rand10k: "):
        scene_loader("./rand10k", 0)()


def test_a_built_in_sphere_name_wins_over_what_is_in_the_folder(cwd_with):
    cwd_with("classic")
    assert sphere_scene_loader("classic", None, None)().count == 20
    with pytest.raises(SceneFileError, match=r"^\./classic: "):
        sphere_scene_loader("./classic", None, None)()


def test_a_scene_suffix_names_a_file_even_with_a_built_in_stem(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    save_scene(build_scene("rgb"), "rand10k.npz")
    save_sphere_scene(random_spheres(5, 1), "classic.JSON")
    assert scene_loader("rand10k.npz", 0)().count == 3
    assert sphere_scene_loader("classic.JSON", None, None)().count == 5


def test_other_names(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "myscene").write_text("{}")
    with pytest.raises(SceneFileError, match=r"^myscene: unknown scene file type ''"):
        scene_loader("myscene", 0)()
    with pytest.raises(SceneFileError, match=r"^missing\.npz: no such scene file"):
        scene_loader("missing.npz", 0)()
    with pytest.raises(SceneFileError, match=r"^sub/rgb: no such scene file"):
        scene_loader("sub/rgb", 0)()
    with pytest.raises(UnknownSphereSceneError, match="unknown sphere scene 'moon'"):
        sphere_scene_loader("moon", None, None)
    with pytest.raises(ValueError, match="unknown scene 'x{300}'"):
        scene_loader("x" * 300, 0)  # too long a name to exist, yet not an OSError


def test_suffixes_match_in_any_case(tmp_path):
    assert all(map(is_scene_file, ["a.npz", "a.NPZ", "a.Json", "dir.d/a.json"]))
    assert not any(map(is_scene_file, ["a.npz.txt", "npz", "a.jsonl", "a"]))
    scene = build_scene("rgby")
    assert load_scene(save_scene(scene, tmp_path / "UPPER.NPZ")).count == scene.count
    assert load_scene(save_scene(scene, tmp_path / "Mixed.Json")).count == scene.count

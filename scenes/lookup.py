"""One name for every scene a user can ask for: a built-in scene name or a scene file path, for\neither renderer."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from scenes.builtin import SCENE_NAMES, UnknownSceneError, build_scene
from scenes.files import is_scene_file, load_scene, load_sphere_scene
from scenes.model import CircleScene
from scenes.spheres import SPHERE_SCENES, SphereScene, UnknownSphereSceneError, build_sphere_scene


def scene_loader(name_or_file: str, seed: int) -> Callable[[], CircleScene]:
    """A function making the scene: a built-in name, or a path to a .npz / .json scene file.

    Raises UnknownSceneError at once for a name that is neither; file errors (SceneFileError)
    come when the returned function runs.
    """
    if is_scene_file(name_or_file) or Path(name_or_file).exists():
        return lambda: load_scene(name_or_file)
    if name_or_file not in SCENE_NAMES:
        raise UnknownSceneError(
            f"unknown scene {name_or_file!r}: not a scene file (.npz, .json) and not a built-in "
            f"scene ({', '.join(SCENE_NAMES)})"
        )
    return lambda: build_scene(name_or_file, seed)


def sphere_scene_loader(name_or_file: str, count: int | None, seed: int | None) -> Callable[[], SphereScene]:
    """The same for sphere scenes: ``classic`` or ``random`` (``count`` and ``seed`` override their
    defaults) or a sphere scene file. Raises UnknownSphereSceneError at once for anything else."""
    if is_scene_file(name_or_file) or Path(name_or_file).exists():
        return lambda: load_sphere_scene(name_or_file)
    if name_or_file not in SPHERE_SCENES:
        raise UnknownSphereSceneError(
            f"unknown sphere scene {name_or_file!r}: not a scene file (.npz, .json) and not one of: "
            + ", ".join(SPHERE_SCENES)
        )
    return lambda: build_sphere_scene(name_or_file, count, seed)

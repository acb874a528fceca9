"""One name for every scene a user can ask for: a built-in scene name or a scene file path, for
either renderer.

The rule, the same for circle and sphere scenes: an argument that is a built-in scene's name is that
scene, even when a file or folder of that name is in the working directory, unless it has a path
separator or a scene suffix (``./rand10k`` and ``rand10k.npz`` are files). Anything else with a scene
suffix (.npz, .json, in any case) or a path separator, or that exists, is a scene file; the rest are
unknown names.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection

from scenes.builtin import SCENE_NAMES, UnknownSceneError, build_scene
from scenes.files import is_scene_file, load_scene, load_sphere_scene
from scenes.model import CircleScene
from scenes.spheres import SPHERE_SCENES, SphereScene, UnknownSphereSceneError, build_sphere_scene


def names_a_file(name_or_file: str, built_in: Collection[str]) -> bool:
    """Whether ``name_or_file`` means a scene file rather than one of the ``built_in`` scene names."""
    # A name that looks like a path is a file; a built-in name wins over a file that merely exists,
    # so that a stray folder called ``rand10k`` cannot hide the built-in scene.
    if is_scene_file(name_or_file) or any(sep in name_or_file for sep in (os.sep, os.altsep) if sep):
        return True
    return name_or_file not in built_in and os.path.exists(name_or_file)


def scene_loader(name_or_file: str, seed: int) -> Callable[[], CircleScene]:
    """A function making the scene: a built-in name, or a path to a .npz / .json scene file.

    Raises UnknownSceneError at once for a name that is neither; file errors (SceneFileError)
    come when the returned function runs.
    """
    if names_a_file(name_or_file, SCENE_NAMES):
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
    if names_a_file(name_or_file, SPHERE_SCENES):
        return lambda: load_sphere_scene(name_or_file)
    if name_or_file not in SPHERE_SCENES:
        raise UnknownSphereSceneError(
            f"unknown sphere scene {name_or_file!r}: not a scene file (.npz, .json) and not one of: "
            + ", ".join(SPHERE_SCENES)
        )
    return lambda: build_sphere_scene(name_or_file, count, seed)

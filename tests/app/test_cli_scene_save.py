"""``scene save --renderer spheres``: the built-in sphere scenes saved as .npz and .json load back
with equal arrays and render, on the CPU, the same PNG bytes as the built-in scene in the classic and
shaded views; the message names the scene and its sphere count; bad arguments (an unknown or other
kind's name, --frame for spheres, --count for circles, a count out of range, an existing file
without --overwrite) are one ``error:`` line and write nothing."""

import numpy as np
import pytest

from app.cli import main
from scenes.files import load_sphere_scene
from scenes.spheres import build_sphere_scene

# (scene save arguments, the built-in scene as render names it, its arrays)
SCENES = {
    "classic": (["classic"], ["--scene", "classic"], ("classic", None, None)),
    "random-7-3": (
        ["random", "--count", "7", "--seed", "3"],
        ["--scene", "random", "--count", "7", "--seed", "3"],
        ("random", 7, 3),
    ),
}
# The classic view shows world units as pixels around the centre: random's 7 spheres need 1024.
VIEWS = {"classic": ["--view", "classic", "--size", "1024"], "shaded": ["--view", "shaded", "--size", "64"]}


def _render(tmp_path, name: str, scene_args: list[str], view: str) -> bytes:
    out = tmp_path / f"{name}.png"
    args = ["render", "--renderer", "spheres", *scene_args, *VIEWS[view], "--backend", "cpu", "--out", str(out)]
    assert main(args) == 0
    return out.read_bytes()


@pytest.mark.parametrize("suffix", [".npz", ".json"])
@pytest.mark.parametrize("which", SCENES)
def test_saved_sphere_scene_loads_back_and_renders_the_same(tmp_path, capsys, which, suffix):
    save_args, render_args, built_in = SCENES[which]
    path = tmp_path / f"saved{suffix}"
    assert main(["scene", "save", save_args[0], str(path), "--renderer", "spheres", *save_args[1:]]) == 0
    scene = build_sphere_scene(*built_in)
    assert capsys.readouterr().out == f"wrote {path} ({save_args[0]}, {scene.count} spheres)\n"
    loaded = load_sphere_scene(path)
    assert all(np.array_equal(getattr(loaded, f), getattr(scene, f)) for f in ("center", "radius", "color"))
    for view in VIEWS:
        built_in_png = _render(tmp_path, f"built-in-{view}", render_args, view)
        assert _render(tmp_path, f"saved-{view}", ["--scene", str(path)], view) == built_in_png, view


def test_the_built_in_renders_are_not_blank(tmp_path):
    from PIL import Image

    for which, (_, render_args, _) in SCENES.items():
        for view in VIEWS:
            _render(tmp_path, f"{which}-{view}", render_args, view)
            with Image.open(tmp_path / f"{which}-{view}.png") as image:
                assert np.asarray(image).any(), (which, view)


def test_the_process_saves_and_names_the_scene(tmp_path, run_main):
    path = tmp_path / "c.npz"
    result = run_main("scene", "save", "classic", path, "--renderer", "spheres")
    assert result.returncode == 0 and result.stdout == f"wrote {path} (classic, 20 spheres)\n", result.stderr
    again = run_main("scene", "save", "classic", path, "--renderer", "spheres")
    assert again.returncode != 0 and again.stderr.strip().splitlines()[-1] == (
        f"error: {path} exists; pass --overwrite to replace it"
    )
    assert run_main("scene", "save", "random", path, "--renderer", "spheres", "--overwrite").returncode == 0
    assert load_sphere_scene(path).count == 1024


# (arguments after "scene save", the error line's text); {out} is the test's output file.
REFUSED = [
    (["classic", "{out}"], "unknown scene 'classic'; built-in scenes are: rgb, "),
    (["classic", "{out}"], "'classic' is a scene of --renderer spheres"),
    (
        ["rgb", "{out}", "--renderer", "spheres"],
        "unknown sphere scene 'rgb'; built-in sphere scenes are: classic, random",
    ),
    (["moon", "{out}", "--renderer", "spheres"], "unknown sphere scene 'moon'"),
    (["classic", "{out}", "--renderer", "spheres", "--frame", "2"], "--frame applies to --renderer circles"),
    (["rgb", "{out}", "--count", "3"], "--count applies to --renderer spheres"),
    (
        ["random", "{out}", "--renderer", "spheres", "--count", "0"],
        "sphere count must be an integer in 1..65536, got 0",
    ),
    (["random", "{out}", "--renderer", "spheres", "--count", "65537"], "in 1..65536, got 65537"),
    (["random", "{out}", "--renderer", "spheres", "--seed", "-1"], "seed must be an integer in 0..4294967295, got -1"),
    (["classic", "{out}.txt", "--renderer", "spheres"], "must end in .npz or .json"),
    (["classic", "{out}", "--renderer", "cubes"], "invalid choice: 'cubes'"),
]


@pytest.mark.parametrize("case", range(len(REFUSED)))
def test_bad_arguments_are_one_error_line_and_exit_2(tmp_path, capsys, case):
    args, message = REFUSED[case]
    out = tmp_path / "s.npz"
    try:
        code = main(["scene", "save", *(arg.replace("{out}", str(out)) for arg in args)])
    except SystemExit as exit:  # argparse's own refusals
        code = exit.code
    lines = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and [line for line in lines if "error: " in line] == lines[-1:], lines
    assert message in lines[-1] and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("suffix", [".npz", ".json"])
def test_an_existing_file_is_kept_without_overwrite(tmp_path, capsys, suffix):
    path = tmp_path / f"existing{suffix}"
    path.write_bytes(b"keep")
    code = main(["scene", "save", "classic", str(path), "--renderer", "spheres"])
    lines = capsys.readouterr().err.strip().splitlines()
    assert code != 0 and lines[-1] == f"error: {path} exists; pass --overwrite to replace it"
    assert path.read_bytes() == b"keep"
    assert main(["scene", "save", "classic", str(path), "--renderer", "spheres", "--overwrite"]) == 0
    assert load_sphere_scene(path).count == 20

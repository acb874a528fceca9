"""The command line's main paths: a CPU render to PNG and .npy that agree, the default output name,
saving a scene then rendering it, ``--version``, no command without a display, and the real entry
point's exit code."""

import argparse
import os
import re

import numpy as np
from PIL import Image

from app import __version__
from app.cli import main
from render.core.gpu import gpu_problem


def test_render_cpu_png_and_raw(tmp_path, run_main):
    out, raw = tmp_path / "rgb.png", tmp_path / "rgb.npy"
    result = run_main(
        "render", "--scene", "rgb", "--size", "64", "--backend", "cpu", "--out", str(out), "--raw", str(raw)
    )
    assert result.returncode == 0, result.stderr
    assert "wrote" in result.stdout
    data = np.load(raw)
    assert data.shape == (64, 64, 4) and data.dtype == np.float32
    png = np.asarray(Image.open(out))
    assert png.shape == (64, 64, 3)
    expected = (np.float32(255) * np.clip(data[..., :3], 0, 1)).astype(np.uint8)
    assert np.array_equal(png, expected)  # same rows: both top-down
    assert not list(tmp_path.glob("*.part"))
    assert out.stat().st_mode & 0o044, "exports are readable by others, like any file the user writes"


def test_raw_row_zero_is_top(tmp_path):
    scene = tmp_path / "top.json"
    scene.write_text('{"kind": "circles", "position": [[0.5, 0.9, 0]], "radius": [0.05], "color": [[0, 0, 0]]}')
    raw = tmp_path / "top.npy"
    assert main(["render", "--scene", str(scene), "--size", "20", "--backend", "cpu", "--raw", str(raw)]) == 0
    data = np.load(raw)
    assert data[2, 10, 0] < 1 and data[17, 10, 0] == 1


def test_default_output_name_and_backend_note(tmp_path, run_main):
    result = run_main("render", "--scene", "rgby", "--size", "32", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "rgby_0000.png").exists()
    if gpu_problem():
        assert "backend: cpu" in result.stderr


def test_no_command_without_a_display_renders_rand10k_to_a_free_name(tmp_path, run_main):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    (tmp_path / "rand10k.png").write_bytes(b"the user's own file")
    result = run_main(cwd=tmp_path, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines()[0] == (
        "note: no display; rendering rand10k-2.png instead (rasterlab gui --headless runs the app offscreen)"
    )
    assert "error" not in result.stderr
    assert (tmp_path / "rand10k.png").read_bytes() == b"the user's own file"
    assert Image.open(tmp_path / "rand10k-2.png").size == (1024, 1024)


def test_version(run_main):
    result = run_main("--version")
    assert result.returncode == 0 and result.stdout == f"rasterlab {__version__}\n"


def test_scene_save_then_render(tmp_path):
    path = tmp_path / "hyp.json"
    assert main(["scene", "save", "hypnosis", str(path), "--seed", "4", "--frame", "2"]) == 0
    raw = tmp_path / "h.npy"
    assert main(["render", "--scene", str(path), "--size", "32", "--backend", "cpu", "--raw", str(raw)]) == 0
    assert np.load(raw).shape == (32, 32, 4)


def test_the_process_exits_2_with_one_line_and_no_traceback(run_main):
    # test_cli_errors.py covers every error path in-process; this runs the real entry point.
    result = run_main("render", "--scene", "nope")
    assert result.returncode == 2 and result.stderr.startswith("error: unknown scene 'nope'")
    assert len(result.stderr.splitlines()) == 1 and "Traceback" not in result.stderr


def _options(parser, command=""):
    """(command, option, action) for every option of ``parser`` and its subcommands."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _options(sub, f"{command} {name}".strip())
        elif action.option_strings and action.dest not in ("help", "version"):
            yield command, action.option_strings[0], action


def test_every_option_says_what_it_is_with_its_default_and_range():
    from app.cli_args import build_parser

    for command, option, action in _options(build_parser()):
        assert action.help, f"{command} {option} has no help"
        takes_a_value = action.nargs != 0
        if takes_a_value and action.choices is None and action.default is not None:
            assert f"default {action.default}" in action.help or "default:" in action.help, f"{command} {option}"
        if getattr(action.type, "__qualname__", "").startswith("_within"):
            assert ".." in action.help, f"{command} {option} does not say its range"


def _help(parser, command, option):
    return next(action.help for name, flag, action in _options(parser) if (name, flag) == (command, option))


def test_the_default_output_name_of_render_is_told_for_both_renderers():
    from app.cli_args import build_parser

    text = _help(build_parser(), "render", "--out")
    assert "circles <scene>_<frame>.png" in text and "spheres <scene>_<spheres|shaded>_<frame>.png" in text


def test_gui_options_that_default_to_the_last_one_used_name_their_first_run_value():
    # Before, a first run's values were not said, and --size claimed "or fitted" (a first run: 1024).
    from app.cli_args import build_parser

    parser = build_parser()
    remembered = [
        (flag, action.help)
        for name, flag, action in _options(parser)
        if name == "gui" and re.search("the last [a-z]+ used", action.help)
    ]
    assert len(remembered) >= 8
    for flag, text in remembered:
        assert "at first" in text, f"gui {flag}: {text}"
    first = {flag: text.split("at first")[1] for flag, text in remembered}
    assert "1024" in first["--size"] and "fitted" not in first["--size"]
    assert "1280x800" in first["--window"] and " on" in first["--vsync"]
    assert "circles rand10k" in first["--scene"] and "spheres classic" in first["--scene"]


def test_check_scenes_help_tells_what_check_takes_for_both_renderers():
    from app.cli_args import build_parser
    from render.spheres.check import CHECK_COUNTS

    text = _help(build_parser(), "check", "--scenes")
    assert "scene files" in text and "all 14 built-in scenes" in text
    assert "classic and random" in text and ", ".join(map(str, CHECK_COUNTS[:-1])) in text

import subprocess
import sys

import numpy as np
import pytest
from PIL import Image

from app.cli import main
from render.gpu import gpu_problem

ROOT = __import__("pathlib").Path(__file__).resolve().parent.parent


def run(*args, cwd=None):
    return subprocess.run([sys.executable, str(ROOT / "main.py"), *args], capture_output=True, text=True, cwd=cwd)


def test_render_cpu_png_and_raw(tmp_path):
    out, raw = tmp_path / "rgb.png", tmp_path / "rgb.npy"
    result = run("render", "--scene", "rgb", "--size", "64", "--backend", "cpu", "--out", str(out), "--raw", str(raw))
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


def test_default_output_name_and_backend_note(tmp_path):
    result = run("render", "--scene", "rgby", "--size", "32", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "rgby_0000.png").exists()
    if gpu_problem():
        assert "backend: cpu" in result.stderr


@pytest.mark.skipif(gpu_problem() is None, reason="checks the no-GPU error path")
@pytest.mark.parametrize(
    "args",
    [
        ["render", "--scene", "rgb", "--backend", "cuda"],
        ["check"],
        ["bench"],
        ["check", "--renderer", "spheres"],
        ["bench", "--renderer", "spheres"],
    ],
)
def test_cuda_without_gpu_is_one_clear_error(args):
    result = run(*args)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and "GPU" in lines[0]


@pytest.mark.parametrize(
    "args, message",
    [
        (["render", "--scene", "nope"], "unknown scene 'nope'"),
        (["render", "--scene", "rgb", "--variant", "fast"], "valid variants are: per-pixel"),
        (["render", "--scene", "rgb", "--variant", "tile-scan:tile=8"], "choose one of: 16, 32"),
        (["render", "--scene", "rgb", "--variant", "tile-scan:warp=1"], "has no option 'warp'"),
        (["render", "--scene", "rgb", "--backend", "cpu", "--variant", "per-pixel"], "cuda backend"),
        (["render", "--scene", "missing.npz"], "missing.npz: no such scene file"),
        (["check", "--variants", "bogus"], "unknown variant 'bogus'"),
        (["scene", "save", "nope", "x.npz"], "unknown scene 'nope'"),
        (["scene", "save", "rgb", "x.txt"], "end in .npz or .json"),
    ],
)
def test_bad_input_one_line_exit_2(tmp_path, args, message):
    result = run(*args, cwd=tmp_path)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["render"],
        ["render", "--scene", "rgb", "--size", "0"],
        ["render", "--scene", "rgb", "--size", "x"],
        ["bench", "--runs", "0"],
        ["frobnicate"],
    ],
)
def test_argument_errors_give_usage(args):
    result = run(*args)
    assert result.returncode == 2 and "usage:" in result.stderr


def test_unwritable_output_is_a_message(tmp_path):
    result = run(
        "render", "--scene", "rgb", "--size", "16", "--backend", "cpu", "--out", str(tmp_path / "no" / "x.png")
    )
    assert result.returncode == 2 and "cannot write" in result.stderr and "Traceback" not in result.stderr


def test_no_command_says_what_to_do():
    result = run()
    assert result.returncode == 2 and "render" in result.stderr


def test_scene_save_then_render(tmp_path):
    path = tmp_path / "hyp.json"
    assert main(["scene", "save", "hypnosis", str(path), "--seed", "4", "--frame", "2"]) == 0
    raw = tmp_path / "h.npy"
    assert main(["render", "--scene", str(path), "--size", "32", "--backend", "cpu", "--raw", str(raw)]) == 0
    assert np.load(raw).shape == (32, 32, 4)


@pytest.mark.parametrize(
    "args, message",
    [
        (["gui", "--frames", "1", "--window", "big"], "window size must be WxH, e.g. 1280x800, got 'big'"),
        (["gui", "--frames", "1", "--window", "100x100"], "window size must be 200..16384 each way"),
        (["gui", "--frames", "1", "--size", "100"], "the app renders at 256..4096, got 100"),
        (["gui", "--frames", "0"], "expected a value >= 1, got 0"),
        (["gui", "--frames", "1", "--variant", "fastest"], "unknown variant 'fastest'; valid variants are"),
        (["gui", "--frames", "1", "--scene", "nonesuch"], "unknown scene 'nonesuch'"),
    ],
)
def test_gui_bad_arguments(args, message):
    result = run(*args)
    assert result.returncode == 2 and message in result.stderr, result.stderr

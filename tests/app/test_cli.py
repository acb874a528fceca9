"""The command line's main paths: a CPU render to PNG and .npy that agree, the default output name,
saving a scene then rendering it, and the real entry point's exit code and usage."""

import numpy as np
from PIL import Image

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


def test_no_command_says_what_to_do(run_main):
    result = run_main()
    assert result.returncode == 2 and "render" in result.stderr


def test_scene_save_then_render(tmp_path):
    path = tmp_path / "hyp.json"
    assert main(["scene", "save", "hypnosis", str(path), "--seed", "4", "--frame", "2"]) == 0
    raw = tmp_path / "h.npy"
    assert main(["render", "--scene", str(path), "--size", "32", "--backend", "cpu", "--raw", str(raw)]) == 0
    assert np.load(raw).shape == (32, 32, 4)


def test_the_process_exits_2_with_usage_and_no_traceback(run_main):
    # test_cli_errors.py covers every error path in-process; this runs the real entry point.
    result = run_main("render", "--scene", "nope")
    assert result.returncode == 2 and result.stderr.startswith("usage: main.py render")
    assert "error: unknown scene 'nope'" in result.stderr and "Traceback" not in result.stderr

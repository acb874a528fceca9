"""``file:PATH`` on the command line without a GPU: a bad file is one line and exit code 2 before
anything else, a good one needs the GPU (exit code 3) like every variant, and the CPU reference
draws a user kernel's tiles from its declaration but has no candidates for it."""

import pytest

from render.core.gpu import gpu_problem
from shaders import SHADER_DIR

TILE_SCAN = SHADER_DIR / "user" / "tile_scan.cu"


@pytest.mark.parametrize(
    "args,message",
    [
        (("render", "--scene", "rgb", "--variant", "file:missing.cu"), "error: file:missing.cu: no such file"),
        (("check", "--variants", "auto", "file:notes.txt"), "error: file:notes.txt: a kernel file's name ends in .cu"),
        (
            ("bench", "--variants", "file:"),
            "error: file: names no file; write file:PATH, such as file:shaders/user/tile_scan.cu",
        ),
    ],
)
def test_a_bad_kernel_file_is_one_line_and_exit_code_2(tmp_path, run_main, args, message):
    result = run_main(*args, cwd=tmp_path)
    assert result.returncode == 2 and result.stderr.strip().splitlines() == [message], result.stderr
    assert not list(tmp_path.iterdir())


def test_a_declaration_mistake_names_the_line(tmp_path, run_main):
    kernel = tmp_path / "mine.cu"
    kernel.write_text("// rasterlab: kernel = k\n// rasterlab: grid = hexagons\n")
    result = run_main("render", "--scene", "rgb", "--variant", f"file:{kernel}", "--out", tmp_path / "x.png")
    assert result.returncode == 2
    assert result.stderr.strip() == f"error: {kernel}:2: grid must be pixels or tiles, not 'hexagons'"


@pytest.mark.skipif(not gpu_problem(), reason="needs a machine without a usable GPU")
def test_a_good_kernel_file_needs_the_gpu(tmp_path, run_main):
    result = run_main("render", "--scene", "rgb", "--variant", f"file:{TILE_SCAN}", cwd=tmp_path)
    assert result.returncode == 3 and f"--variant file:{TILE_SCAN} needs a CUDA GPU" in result.stderr
    assert not list(tmp_path.iterdir())


def test_the_reference_draws_a_user_kernels_tiles_and_has_no_candidates(tmp_path, run_main):
    args = ("render", "--scene", "rgb", "--size", "64", "--backend", "cpu", "--binning", f"file:{TILE_SCAN}")
    tiles = run_main(*args, "--overlay", "tiles", "--out", tmp_path / "t.png")
    assert tiles.returncode == 0 and f"tiles: 16x16 pixels, the blocks of file:{TILE_SCAN}" in tiles.stdout
    candidates = run_main(*args, "--overlay", "candidates", "--out", tmp_path / "c.png")
    assert candidates.returncode == 2 and not (tmp_path / "c.png").exists()  # refused before the render
    said = f"candidates: not known for file:{TILE_SCAN}, whose binning and blocks are its own"
    assert candidates.stderr.strip().splitlines()[-1] == f"error: {said}"

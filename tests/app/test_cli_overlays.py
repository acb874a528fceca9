"""``render --overlay`` on the CPU backend: the picture with its legend, ``--raw`` writing the overlay's
values row 0 = top, ``--binning`` choosing the variant whose tiles the reference draws, the default
name, and one line for each misuse, before any file is written (``cycles``, measured on the GPU,
refused at once on the CPU)."""

import numpy as np
import pytest
from PIL import Image

from render.circles.overlays import candidate_counts, depth_counts
from render.circles.variants import VARIANTS
from render.circles.warp_skip import warp_skip_fractions
from render.core.gpu import gpu_problem
from render.core.overlay_picture import LEGEND_HEIGHT, MIN_WIDTH
from scenes.builtin import build_scene


def test_depth_raw_is_the_counts_top_down_and_the_png_has_the_legend(tmp_path, run_main):
    out, raw = tmp_path / "d.png", tmp_path / "d.npy"
    result = run_main(
        "render", "--scene", "rgb", "--size", "64", "--backend", "cpu", "--overlay", "depth", "--out", out, "--raw", raw
    )
    assert result.returncode == 0, result.stderr
    counts = np.load(raw)
    assert counts.dtype == np.int32 and np.array_equal(counts, depth_counts(build_scene("rgb"), 64, 64)[::-1])
    assert np.asarray(Image.open(out)).shape == (64 + LEGEND_HEIGHT, MIN_WIDTH, 3)
    assert "depth (circles covering the pixel's center): min 0, mean" in result.stdout
    assert "max 3, max/mean" in result.stdout


def test_binning_names_the_variant_whose_candidates_the_reference_counts(tmp_path, run_main):
    raw = tmp_path / "c.npy"
    label = "tile-sort:tile=32,test=exact"
    args = ("--scene", "rand10k", "--size", "200", "--backend", "cpu", "--overlay", "candidates")
    result = run_main("render", *args, "--binning", label, "--raw", raw)
    assert result.returncode == 0, result.stderr
    expected = candidate_counts(build_scene("rand10k"), VARIANTS.parse(label), 200, 200)[::-1]
    assert np.array_equal(np.load(raw), expected) and expected.shape == (7, 7)
    assert "circles tile-sort:sort=cub,test=exact,tile=32 tests per tile" in result.stdout


def test_the_default_name_says_the_overlay(tmp_path, run_main):
    args = ("--scene", "rgb", "--size", "40", "--backend", "cpu", "--overlay", "tiles")
    result = run_main("render", *args, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "rgb_0000_tiles.png").is_file()
    assert "tiles: 16x16 pixels, the blocks of per-pixel" in result.stdout  # auto's pick for 3 circles


def test_warp_skip_raw_is_the_fractions_per_warp_region_top_down(tmp_path, run_main):
    raw = tmp_path / "w.npy"
    args = ("--scene", "rand10k", "--size", "200", "--backend", "cpu", "--overlay", "warp-skip")
    result = run_main("render", *args, "--binning", "tile-warp:tile=64", "--raw", raw)
    assert result.returncode == 0, result.stderr
    expected = warp_skip_fractions(build_scene("rand10k"), VARIANTS.parse("tile-warp:tile=64"), 200, 200)[::-1]
    assert expected.shape == (13, 13)  # regions of 16 x 16 pixels at 8 a thread
    got = np.load(raw)
    assert got.dtype == np.float32 and np.array_equal(got, expected)
    assert (
        "warp-skip (share of the circles a warp of tile-warp:bins=on,pixels=8,tile=64,walk=warp tests" in result.stdout
    )


@pytest.mark.parametrize(
    "args,named",
    [
        (("--backend", "cpu", "--binning", "tile-scan"), "tile-scan:scan=warp,test=box,tile=16"),
        (
            (
                "--variant",
                "tile-sort:tile=32",
            ),
            "tile-sort:sort=cub,test=box,tile=32",
        ),  # refused before the GPU is asked
        (("--backend", "cpu"), "per-pixel"),  # auto's pick for 3 circles, known once the scene is loaded
    ],
)
def test_warp_skip_of_a_variant_without_its_warps_is_refused_before_the_render(tmp_path, run_main, args, named):
    result = run_main("render", "--scene", "rgb", "--size", "32", "--overlay", "warp-skip", *args, cwd=tmp_path)
    assert result.returncode == 2 and "rendering" not in result.stderr
    line = result.stderr.strip().splitlines()[-1]
    said = f"warp-skip: the warps of tile-warp skip circles; {named} has no such warps (name a tile-warp variant)"
    assert line == f"error: {said}"
    assert not list(tmp_path.iterdir())


def test_warp_skip_of_tile_warp_walked_by_cells_is_refused_before_the_render(tmp_path, run_main):
    args = ("--overlay", "warp-skip", "--backend", "cpu", "--binning", "tile-warp:walk=cell")
    result = run_main("render", "--scene", "rgb", "--size", "32", *args, cwd=tmp_path)
    assert result.returncode == 2 and "rendering" not in result.stderr
    said = "warp-skip: tile-warp:bins=on,pixels=4,tile=32,walk=cell walks its circles by cells of lanes, not by warps"
    assert result.stderr.strip().splitlines()[-1] == f"error: {said} (name walk=warp)"
    assert not list(tmp_path.iterdir())


def test_each_output_is_said_as_it_is_written(tmp_path, run_main):
    out = tmp_path / "ok.png"
    result = run_main(
        "render", "--scene", "rgb", "--size", "32", "--backend", "cpu", "--out", out, "--raw", "/dev/full"
    )
    assert result.returncode == 1 and out.is_file()
    assert result.stdout.startswith(f"wrote {out} (rgb, 32x32, frame 0, cpu reference)")
    assert result.stderr.strip().splitlines()[-1].startswith("error: cannot write")


@pytest.mark.skipif(not gpu_problem(), reason="needs a machine without a usable GPU")
def test_without_a_gpu_cycles_exits_3_at_once(tmp_path, run_main):
    result = run_main("render", "--scene", "rgb", "--overlay", "cycles", cwd=tmp_path)
    assert result.returncode == 3 and "--overlay cycles needs a CUDA GPU" in result.stderr
    assert not list(tmp_path.iterdir())


@pytest.mark.skipif(not gpu_problem(), reason="with a usable GPU the default backend is cuda")
def test_without_a_gpu_binning_needs_no_backend_named(tmp_path, run_main):
    args = ("--scene", "rgb", "--size", "32", "--overlay", "candidates", "--binning", "tile-sort")
    result = run_main("render", *args, "--raw", tmp_path / "c.npy")
    assert result.returncode == 0, result.stderr
    assert np.array_equal(
        np.load(tmp_path / "c.npy"), candidate_counts(build_scene("rgb"), VARIANTS.parse("tile-sort"), 32, 32)[::-1]
    )


@pytest.mark.parametrize(
    "args,message",
    [
        (("--renderer", "spheres", "--scene", "classic", "--overlay", "depth"), "--renderer spheres has no overlays"),
        (("--scene", "rgb", "--overlay", "tiles", "--raw", "t.npy"), "a grid has no values"),
        (("--scene", "rgb", "--binning", "tile-sort"), "--binning applies with --overlay tiles, candidates"),
        (("--scene", "rgb", "--overlay", "depth", "--binning", "tile-sort", "--backend", "cpu"), "depth is the same"),
        (("--scene", "rgb", "--overlay", "candidates", "--binning", "tile-sort", "--backend", "cuda"), "--backend cpu"),
        (("--scene", "rgb", "--overlay", "tiles", "--binning", "tile-sort:tile=7", "--backend", "cpu"), "--binning: "),
        (("--scene", "rgb", "--overlay", "tiles", "--binning", "", "--backend", "cpu"), "--binning: "),
        (("--scene", "rgb", "--binning", ""), "--binning applies with --overlay"),
        (
            ("--scene", "rgb", "--overlay", "tiles", "--binning", "tile-warp:tile=64,tile=32", "--backend", "cpu"),
            "twice",
        ),
        (("--scene", "rgb", "--overlay", "cycles", "--backend", "cpu"), "measured on the GPU"),
        (
            ("--scene", "rgb", "--overlay", "cycles", "--binning", "tile-warp", "--backend", "cpu"),
            "measured on the GPU",
        ),
        (("--scene", "rgb", "--overlay", "cycles", "--raw", "c.npy", "--backend", "cpu"), "measured on the GPU"),
        # the options are checked before the scene is read: the missing file is not what is said
        (("--scene", "missing.json", "--overlay", "depth", "--binning", "tile-sort", "--backend", "cpu"), "depth is"),
    ],
)
def test_misuse_is_one_line_and_writes_nothing(tmp_path, run_main, args, message):
    result = run_main("render", *args, cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.startswith("error")]
    assert len(lines) == 1 and message in lines[0], result.stderr
    assert not list(tmp_path.iterdir())

"""The command line's sphere renderer: classic and shaded renders whose PNG and .npy equal the
reference, the usage errors of its options, and default output names that differ by frame and view."""

import numpy as np

from app.cli import main
from render.spheres.reference import trace_reference
from scenes.spheres import build_sphere_scene, random_spheres


def test_cli_renders_spheres_png_and_raw_top_down(tmp_path, run_main):
    png, raw = tmp_path / "c.png", tmp_path / "c.npy"
    args = ["render", "--renderer", "spheres", "--scene", "classic", "--size", "128", "--backend", "cpu"]
    result = run_main(*args, "--out", str(png), "--raw", str(raw))
    assert result.returncode == 0, result.stderr
    from PIL import Image

    expected = trace_reference(build_sphere_scene("classic"), 128)[::-1]
    assert np.array_equal(np.asarray(Image.open(png)), expected[..., :3])
    data = np.load(raw)
    assert data.dtype == np.float32 and data.shape == (128, 128, 4)
    assert np.array_equal(data, expected.astype(np.float32) / np.float32(255))


def test_cli_sphere_errors(run_main):
    assert "unknown sphere scene 'moon'" in run_main("render", "--renderer", "spheres", "--scene", "moon").stderr
    result = run_main("render", "--renderer", "spheres", "--scene", "classic", "--backend", "cpu", "--variant", "x")
    assert result.returncode == 2 and "valid variants are: global, constant, shared-tiled" in result.stderr
    result = run_main(
        "render", "--renderer", "spheres", "--scene", "classic", "--backend", "cpu", "--variant", "global"
    )
    assert result.returncode == 2 and "--variant applies to the cuda backend" in result.stderr
    assert (
        run_main("render", "--scene", "rgb", "--count", "3")
        .stderr.strip()
        .endswith("--count applies to --renderer spheres")
    )


def test_cli_renders_the_shaded_view(tmp_path, run_main):
    png, raw = tmp_path / "s.png", tmp_path / "s.npy"
    args = ["render", "--renderer", "spheres", "--scene", "random", "--count", "40", "--seed", "3", "--size", "96"]
    shading = ["--view", "shaded", "--azimuth", "70", "--elevation", "-10", "--roughness", "0.6", "--metalness", "0.3"]
    result = run_main(*args, *shading, "--backend", "cpu", "--out", str(png), "--raw", str(raw))
    assert result.returncode == 0, result.stderr
    assert "shaded, 96x96, frame 0, cpu reference" in result.stdout
    from PIL import Image

    from render.spheres.shading import ShadeSettings, shade_reference

    settings = ShadeSettings(azimuth=70, elevation=-10, roughness=0.6, metalness=0.3)
    expected = shade_reference(random_spheres(40, 3), 96, settings)[::-1]
    assert np.array_equal(np.asarray(Image.open(png)), expected[..., :3])
    assert np.array_equal(np.load(raw), expected.astype(np.float32) / np.float32(255))


def test_cli_shaded_view_errors(run_main):
    base = ("render", "--renderer", "spheres", "--scene", "classic", "--backend", "cpu")
    result = run_main(*base, "--roughness", "0.5", "--metalness", "1")
    assert result.returncode == 2 and "--roughness, --metalness apply to --view shaded" in result.stderr
    result = run_main(*base, "--view", "shaded", "--roughness", "1.5")
    assert result.returncode == 2 and "roughness must be a finite number in 0..1, got 1.5" in result.stderr
    result = run_main("render", "--scene", "rgb", "--view", "shaded")
    assert result.returncode == 2 and "--view applies to --renderer spheres" in result.stderr
    result = run_main("bench", "--chart", "c.png")
    assert result.returncode == 2 and "--chart applies to bench --renderer spheres" in result.stderr
    result = run_main("bench", "--renderer", "spheres", "--chart", "/nonexistent-folder/c.png")
    assert (
        result.returncode == 2 and "cannot write /nonexistent-folder/c.png: its folder does not exist" in result.stderr
    )
    result = run_main("gui", "--frames", "1", "--renderer", "circles", "--view", "shaded")
    assert result.returncode == 2 and "--view applies to --renderer spheres" in result.stderr


def test_default_output_names_tell_frames_and_views_apart(tmp_path, monkeypatch):
    # Before, every frame and every seed of a view went to one name (classic_spheres.png), so a
    # second render was refused or replaced the first.
    monkeypatch.chdir(tmp_path)
    base = ["render", "--renderer", "spheres", "--scene", "classic", "--size", "16", "--backend", "cpu"]
    for extra in ([], ["--frame", "1"], ["--view", "shaded", "--frame", "2"]):
        assert main([*base, *extra]) == 0
    names = ["classic_shaded_0002.png", "classic_spheres_0000.png", "classic_spheres_0001.png"]
    assert sorted(path.name for path in tmp_path.iterdir()) == names

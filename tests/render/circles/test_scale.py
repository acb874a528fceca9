"""The scale sweep: its two scene families, its per-circle memory arithmetic, and the ``scale`` command
run in-process with stand-ins for the GPU (timings, peak memory, the frames compared), so the table,
the exit code, the JSON, the chart and the saved scene files are what users get; on the GPU, a
small sweep for real."""

import json
import math

import numpy as np
import pytest
from PIL import Image

import app.commands
import render.circles.scale as scale
import render.core.gpu
from app.cli import main
from render.circles.bench import BenchRow
from render.circles.scale import FIXED_RADIUS, MEAN_DEPTH, ScaleRow, family_radius, family_scene
from render.core.renderer import RendererUnavailable
from scenes.files import load_scene
from shaders import SHADER_DIR


@pytest.mark.parametrize("count", [1000, 10**5, 10**8])
def test_the_depth_family_keeps_the_circles_total_area(count):
    assert math.pi * family_radius("depth", count) ** 2 * count == pytest.approx(MEAN_DEPTH)
    assert family_radius("fixed", count) == FIXED_RADIUS


def test_a_family_scene_is_uniform_flat_circles_of_one_radius():
    scene = family_scene("depth", 20_000, seed=3)
    assert scene.count == 20_000 and scene.name == "depth-20000" and scene.shading == "flat"
    assert np.all(scene.radius == np.float32(family_radius("depth", 20_000)))
    for field in (scene.position, scene.color):
        assert field.dtype == np.float32 and 0 <= field.min() and field.max() < 1
        assert abs(float(field.mean()) - 0.5) < 0.01  # uniform
    assert not scene.velocity.any()
    again = family_scene("depth", 20_000, seed=3)
    assert np.array_equal(scene.position, again.position) and np.array_equal(scene.color, again.color)
    assert not np.array_equal(scene.position, family_scene("depth", 20_000, seed=4).position)


def test_the_extra_memory_is_what_is_beyond_the_scene_arrays_and_the_image():
    row = ScaleRow("fixed", 1000, 64, 0.002, "tile-warp", 1.0, {}, 28_000 + 64 * 64 * 16 + 57_000, True, 0.0)
    assert (row.scene_bytes, row.image_bytes, row.extra_bytes_per_circle) == (28_000, 65_536, 57.0)
    assert ScaleRow("fixed", 1000, 64, 0.002, "auto", None, {}, 0, None, None, "no room").extra_bytes_per_circle is None


@pytest.fixture
def stand_ins(monkeypatch):
    """No GPU: auto's timing is 1 ms per 10^4 circles and its peak 100 bytes a circle over the scene
    and image; the frames compared come from a table (tile-scan differs at 2000 circles); the points
    run are recorded."""
    monkeypatch.setattr(app.commands, "_require_gpu", lambda command: None)
    monkeypatch.setattr(render.core.gpu, "gpu_name", lambda: "Fake GPU")
    points = []

    def scale_point(scene, family, size, frames, runs, against):
        points.append((family, scene.count, size, frames, runs, against, scene.name))
        if scene.count > 5000:
            return ScaleRow(
                family, scene.count, size, float(scene.radius[0]), "auto", None, {}, 0, None, None, "no room"
            )
        peak = scene.count * 128 + size * size * 16
        stages = {"binning": 0.1, "blending": 0.2}
        exact = not (against.startswith("tile-scan") and scene.count == 2000)
        diff = 0.0 if exact else 0.25
        return ScaleRow(
            family, scene.count, size, float(scene.radius[0]), "tile-warp", scene.count / 1e4, stages, peak, exact, diff
        )

    monkeypatch.setattr(scale, "scale_point", scale_point)
    return points


def call(capsys, *args):
    try:
        code = main(["scale", *args])
    except SystemExit as exit:  # argparse's own
        code = exit.code
    captured = capsys.readouterr()
    return code, captured.out.splitlines(), captured.err


def test_the_scale_command_sweeps_families_counts_and_sizes(capsys, stand_ins, tmp_path):
    out_json, out_png = tmp_path / "scale.json", tmp_path / "scale.png"
    args = [
        "--counts",
        "1000",
        "2000",
        "10000",
        "--sizes",
        "64",
        "128",
        "--json",
        str(out_json),
        "--chart",
        str(out_png),
    ]
    code, lines, err = call(capsys, *args)
    assert code == 0, err
    assert [point[:3] for point in stand_ins] == [
        (family, count, size) for family in ("fixed", "depth") for count in (1000, 2000, 10000) for size in (64, 128)
    ]
    assert {point[3:6] for point in stand_ins} == {(4, 2, "tile-sort:sort=cub,test=box,tile=16")}
    assert lines[0] == (
        "Fake GPU: auto by circle count and size, seed 0, frames 0-3, best of 2; "
        "exact: frame 0 against tile-sort:sort=cub,test=box,tile=16"
    )
    assert lines[1] == scale.HEADER
    rows = [line.split() for line in lines[3:15]]
    # fixed, 2000 circles at 128: radius 0.002 x 128 px, 0.2 ms, 128 bytes a circle less the scene's 28.
    assert rows[3] == ["fixed", "2,000", "128", "0.256", "tile-warp", "0.200", "0.100", "0.200", "0.5", "100.0", "yes"]
    assert rows[4][:4] == ["fixed", "10,000", "64", "0.128"] and " ".join(rows[4][4:]) == "unavailable: no room"
    assert lines[-2:] == [f"wrote {out_json}", f"wrote {out_png}"]
    figures = json.loads(out_json.read_text())
    assert (figures["fixed_radius"], figures["mean_depth"], len(figures["rows"])) == (FIXED_RADIUS, MEAN_DEPTH, 12)
    assert figures["rows"][3]["extra_bytes_per_circle"] == 100.0 and figures["rows"][4]["total_ms"] is None
    with Image.open(out_png) as chart:
        assert (
            chart.width == 2 * 520 and len(np.unique(np.asarray(chart).reshape(-1, 3), axis=0)) > 5
        )  # two families, lines drawn


def test_a_frame_unlike_the_others_variants_fails_the_sweep(capsys, stand_ins):
    code, lines, _ = call(capsys, "--counts", "2000", "--sizes", "32", "--families", "fixed", "--against", "tile-scan")
    assert code == 1
    assert lines[3].endswith("NO (max |diff| 0.25)")


def test_saved_scenes_are_the_files_timed(capsys, stand_ins, tmp_path):
    folder = tmp_path / "scenes"
    code, _, err = call(capsys, "--counts", "1000", "--sizes", "32", "--save-scenes", str(folder))
    assert code == 0, err
    assert sorted(path.name for path in folder.iterdir()) == ["depth-1000.npz", "fixed-1000.npz"]
    saved = load_scene(folder / "fixed-1000.npz")
    assert np.array_equal(saved.position, family_scene("fixed", 1000, 0).position)
    code, _, err = call(capsys, "--counts", "1000", "--sizes", "32", "--save-scenes", str(folder))
    assert code == 1 and "--overwrite" in err  # the files are there: not replaced unasked
    assert call(capsys, "--counts", "1000", "--sizes", "32", "--save-scenes", str(folder), "--overwrite")[0] == 0


def test_scenes_saved_into_a_file_are_refused_before_the_work(capsys, stand_ins, tmp_path):
    afile = tmp_path / "taken"
    afile.write_text("mine")
    code, _, err = call(capsys, "--counts", "1000", "--save-scenes", str(afile))
    assert code == 2 and "is not a folder" in err and not stand_ins and afile.read_text() == "mine"
    folder = tmp_path / "scenes"
    (folder / "fixed-1000.npz").mkdir(parents=True)
    code, _, err = call(capsys, "--counts", "1000", "--save-scenes", str(folder), "--overwrite")
    assert code == 2 and "something other than a file is there" in err and not stand_ins


def test_repeated_counts_and_sizes_are_swept_once(capsys, stand_ins):
    code, _, err = call(capsys, "--counts", "1000", "1000", "--sizes", "32", "32", "--families", "depth", "depth")
    assert code == 0, err
    assert [point[:3] for point in stand_ins] == [("depth", 1000, 32)]


def test_a_sweep_with_nothing_timed_writes_its_json_but_no_chart(capsys, stand_ins, tmp_path):
    out_json, out_png = tmp_path / "s.json", tmp_path / "s.png"
    code, lines, err = call(
        capsys, "--counts", "9000", "--sizes", "32", "--json", str(out_json), "--chart", str(out_png)
    )
    assert code == 1 and not out_png.exists()
    assert (
        err.strip().splitlines()[-1]
        == f"error: {out_png} not written: no figure was measured, so there is nothing to draw"
    )
    assert len(json.loads(out_json.read_text())["rows"]) == 2


def _point(monkeypatch, **fields):
    """scale_point's GPU calls stood in: a timed bench of ``resolved``, and frames from ``images``."""
    import render.circles.bench as bench
    import render.circles.check as check

    resolved = fields.get("resolved", "tile-warp:bins=on,pixels=4,tile=32")
    row = BenchRow("s", "auto", resolved, 1.0, {"binning": 0.1, "blending": 0.2}, None, 0, 0.0)
    monkeypatch.setattr(bench, "bench_one", lambda *args: row)
    monkeypatch.setattr("render.core.device_memory.peak_device_bytes", _no_peak)
    monkeypatch.setattr(check, "gpu_image", fields["gpu_image"])
    return scale.scale_point(family_scene("fixed", 10, 0), "fixed", 8, 1, 1, fields.get("against", "tile-sort"))


def test_a_frame_with_nan_pixels_is_unlike_another(monkeypatch):
    frames = {"auto": np.full((8, 8, 4), np.nan, np.float32), "tile-sort": np.zeros((8, 8, 4), np.float32)}
    row = _point(monkeypatch, gpu_image=lambda scene, variant, size, frame: frames[variant])
    assert row.exact is False and row.failed and math.isinf(row.max_abs_diff)


def test_auto_is_not_compared_with_the_variant_it_picked(monkeypatch):
    row = _point(monkeypatch, resolved="tile-sort", against="tile-sort", gpu_image=lambda *a: pytest.fail("compared"))
    assert row.exact is None and not row.failed and row.note == "auto picked it: not compared with itself"


def test_a_comparison_that_cannot_run_fails_the_point(monkeypatch):
    def gpu_image(scene, variant, size, frame):
        if variant != "auto":
            raise RendererUnavailable("file:k.cu: no such file")
        return np.zeros((8, 8, 4), np.float32)

    row = _point(monkeypatch, against="file:k.cu", gpu_image=gpu_image)
    assert row.failed and row.exact is None and row.note == "file:k.cu could not run: file:k.cu: no such file"
    assert scale.row_line(row).endswith("NO: file:k.cu could not run: file:k.cu: no such file")


def test_the_json_holds_no_infinity(capsys, monkeypatch, stand_ins, tmp_path):
    def scale_point(scene, family, size, frames, runs, against):
        return ScaleRow(family, scene.count, size, 0.1, "tile-warp", 1.0, {}, 10**6, False, float("inf"))

    monkeypatch.setattr(scale, "scale_point", scale_point)
    out = tmp_path / "s.json"
    code, _, _ = call(capsys, "--counts", "10", "--sizes", "8", "--families", "fixed", "--json", str(out))
    assert code == 1 and "Infinity" not in out.read_text()
    assert json.loads(out.read_text())["rows"][0]["max_abs_diff"] == "inf"


def test_a_kernel_file_gone_since_the_command_began_is_a_variant_that_cannot_run(tmp_path):
    from render.circles.variants import variant_to_run

    kernel = tmp_path / "k.cu"
    kernel.write_text((SHADER_DIR / "user" / "per_pixel.cu").read_text())
    assert variant_to_run(f"file:{kernel}").path == str(kernel)
    kernel.unlink()
    with pytest.raises(RendererUnavailable, match="no such file"):
        variant_to_run(f"file:{kernel}")


def test_a_point_whose_bench_failed_says_why(monkeypatch):
    """scale_point itself, its GPU calls stood in: a bench that could not run is the row's note."""
    import render.circles.bench as bench

    monkeypatch.setattr(
        bench, "bench_one", lambda *args: BenchRow("s", "auto", "auto", None, {}, None, 0, 0.0, "out of GPU memory")
    )
    monkeypatch.setattr("render.core.device_memory.peak_device_bytes", _no_peak)
    row = scale.scale_point(family_scene("fixed", 10, 0), "fixed", 64, 1, 1, "tile-sort")
    assert row.total_ms is None and row.note == "out of GPU memory" and row.extra_bytes_per_circle is None


class _Peak:
    bytes = 0


class _no_peak:
    def __enter__(self):
        return _Peak()

    def __exit__(self, *exc):
        return False


@pytest.mark.gpu
def test_a_small_sweep_on_the_gpu_is_exact_and_counts_its_memory():
    from render.circles.scale import run_scale

    rows = run_scale(
        (1000, 20_000), (256,), ("fixed", "depth"), 2, 1, "tile-sort", 0, lambda *a: None, lambda row: None
    )
    assert [(row.family, row.count) for row in rows] == [
        ("fixed", 1000),
        ("fixed", 20_000),
        ("depth", 1000),
        ("depth", 20_000),
    ]
    for row in rows:
        assert row.total_ms and row.total_ms > 0 and row.exact is True, row
        assert row.peak_bytes > row.scene_bytes + row.image_bytes  # the scene and image are on the GPU too

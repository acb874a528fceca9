"""The app's GPU paths (skipped without a CUDA GPU): interop display, live variant switches, checks.

Run on the lent GPU after the recipe of ``../shared/gpu/README.md`` (its ``setup.sh``: EGL and the GUI
wheels; with ``XVFB=1``, an X server for the real-window tests): ``python3 -m pytest -m gpu``.
"""

import dataclasses
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np
import pytest

from app.session import Session
from app.settings import Settings
from render.circles.reference import ReferenceRenderer
from render.circles.sorts import SORTS
from render.circles.variants import VARIANTS as CIRCLE_VARIANTS
from render.core.renderer import render_frame
from scenes.builtin import build_scene

pytestmark = pytest.mark.gpu


@pytest.mark.parametrize(
    "scene,size",
    [("rand10k", 1024), ("snowsingle", 512), ("rgb", 257), ("spheres:classic", 1024), ("spheres:shaded", 513)],
)
def test_interop_texture_equals_the_kernel_image(scene, size, probe_path):
    probe = probe_path("egl_interop_probe.py")
    result = subprocess.run([sys.executable, str(probe), scene, str(size)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["interop"] == {"path": "interop", "equal": True, "differing_values": 0, "notice": None}
    assert report["host copy"]["path"] == "host copy" and report["host copy"]["equal"]


@pytest.fixture
def session(tmp_path):
    made = Session(Settings(scene="bouncingballs", size=256, export_folder=str(tmp_path)), backend="cuda")
    yield made
    made.close()


def reference(name, size, frame):
    renderer = ReferenceRenderer()
    renderer.load(build_scene(name), size, size)
    return render_frame(renderer, frame)


def test_switching_variants_keeps_the_frame_and_stays_exact(session):
    for _ in range(3):
        session.step()
    expected = reference("bouncingballs", 256, 3)
    for label in ("per-pixel", "tile-scan:tile=32,scan=blelloch", "tile-sort:test=exact", "auto"):
        assert session.set_variant(label), session.status
        assert session.frame == 3 and session.update()
        assert np.array_equal(session.host_image(), expected), label
        assert set(session.history[-1]) == {"clear", "advance", "binning", "blending"}


def test_switching_tile_sorts_sort_live_keeps_the_pixels(tmp_path):
    """The panel's sort option, switched while the scene stays: the same image from every sort, and
    the binning stage timed under each (printed: run with -s to see what the switch does to it)."""
    session = Session(Settings(scene="rand100k", size=1024, export_folder=str(tmp_path)), backend="cuda")
    try:
        assert session.set_variant("tile-sort"), session.status
        images, binning = {}, {}
        for sort in SORTS:
            assert session.set_option("sort", sort), session.status
            assert session.variant.option("sort") == sort
            for _ in range(20):
                assert session.update()
            images[sort] = session.host_image()
            binning[sort] = statistics.median(times["binning"] for times in list(session.history)[-10:])
        for sort in SORTS:
            assert np.array_equal(images[sort], images["cub"]), sort
        print("rand100k at 1024, binning ms (median of the last 10 of 20 frames):", binning)
    finally:
        session.close()


@pytest.mark.parametrize("scene,size,variant", [("rand10k", 1024, "auto"), ("biglittle", 512, "tile-sort:tile=32")])
def test_overlays_in_the_app_on_the_gpu(scene, size, variant, probe_path):
    """Each overlay over a CUDA frame in the app: the texture is the frame with the overlay mixed in,
    the GPU's figures are the CPU's; turned off, the frame goes back through interop."""
    probe = probe_path("overlay_app_probe.py")
    result = subprocess.run([sys.executable, str(probe), scene, str(size), variant], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    for name in ("depth", "candidates", "tiles", "cycles"):
        assert report[name]["ready"] and report[name]["texture_equal"], report
        assert report[name].get("figures_equal", True), report
    assert report["cycles"]["shape_is_the_grid"] and report["cycles"]["all_positive"], report
    if report["none"]["rule"].startswith("tile-warp"):
        assert report["warp-skip"]["ready"] and report["warp-skip"]["figures_equal"], report
    else:
        assert report["warp-skip"]["error"].startswith("warp-skip: the warps of tile-warp"), report
    assert report["none"]["path"] == "interop", report


def test_ab_view_in_the_app_on_the_gpu(probe_path):
    """A/B on the GPU: no value differs from the reference or from another variant; a variant broken
    on purpose in one tile differs exactly there; the texture is the A/B picture each time."""
    probe = probe_path("ab_app_probe.py")
    result = subprocess.run([sys.executable, str(probe), "rand10k", "256"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    for b in ("reference", "tile-scan"):
        assert report[b]["ready"] and report[b]["differing_values"] == 0 and report[b]["texture_equal"], report
    broken = report["tile-sort:sort=merge,test=exact,tile=32"]
    assert broken["ready"] and broken["texture_equal"], report
    assert broken["differing_values"] == 256 and broken["largest"] == pytest.approx(0.5, abs=1e-6), report
    assert (broken["rows"], broken["columns"]) == ([32, 47], [48, 63]), report


def test_race_in_the_app_on_the_gpu(probe_path):
    """The Race section's runner on the GPU: every configuration and auto, all exact, no frame of the
    app's own rendered meanwhile, frames again after, the chart and figures saved."""
    probe = probe_path("race_app_probe.py")
    result = subprocess.run([sys.executable, str(probe), "rgb", "64"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    configurations = len(CIRCLE_VARIANTS.configurations()) + 1  # and auto
    assert not report["error"] and len(report["rows"]) == configurations, report
    assert all(row["exact"] for row in report["rows"]), report
    assert report["frames_rendered_during_the_race"] == 0 and report["renders_after"], report
    assert report["saved"] == ["race_rgb_64.json", "race_rgb_64.png"], report


def finished_check(session, timeout=120):
    """Start "check against reference" and wait for its result (None if it never comes)."""
    session.start_check()
    deadline = time.monotonic() + timeout
    result = None
    while result is None and time.monotonic() < deadline:
        result = session.poll_check()
        time.sleep(0.01)
    return result


def test_check_against_reference_passes(session):
    session.step()
    result = finished_check(session)
    assert result is not None and result.passed and result.size == 256
    assert session.status.startswith("check against reference: pass")


def test_headless_gui_uses_interop(tmp_path, run_main):
    stats, shot = tmp_path / "stats.json", tmp_path / "shot.png"
    command = ["gui", "--headless", "--scene", "rand10k", "--size", "512"]
    command += ["--frames", "30", "--vsync", "off", "--stats", str(stats), "--screenshot", str(shot)]
    result = run_main(*command, timeout=300, env={**os.environ, "RASTERLAB_CONFIG_DIR": str(tmp_path)})
    assert result.returncode == 0, result.stderr
    report = json.loads(stats.read_text())
    assert report["display_path"] == "interop" and report["stage_ms_median"]["display copy"] > 0
    # The app's own time a frame: between frames, less the GPU stages (the display copy included).
    stages = sum(ms for stage, ms in report["stage_ms_median"].items() if stage != "display copy")
    assert 0 < report["overhead_ms_median"] < report["wall_ms_median"] and stages > 0
    # Every pass delivers a frame on the GPU: its phases fit in the time between frames.
    assert 0 < sum(report["host_ms_median"].values()) <= 1.1 * report["wall_ms_median"]
    assert shot.exists()


def test_sphere_variants_in_the_app_stay_exact_while_orbiting(tmp_path):
    from render.spheres.shading import ORBIT_STEP_DEGREES, ShadeSettings, shade_reference
    from scenes.spheres import random_spheres

    settings = Settings(renderer="spheres", sphere_scene="random", sphere_count=500, sphere_seed=2, size=256)
    made = Session(dataclasses.replace(settings, sphere_view="shaded", export_folder=str(tmp_path)), backend="cuda")
    try:
        for _ in range(4):
            made.step()
        expected = shade_reference(random_spheres(500, 2), 256, ShadeSettings().orbited(4 * ORBIT_STEP_DEGREES))
        for variant in ("global", "constant", "shared-tiled", "readonly", "constant-divergent"):
            assert made.set_variant(variant), made.status
            assert made.frame == 4 and made.update()
            assert np.array_equal(made.device_image().get(), expected), variant
            assert set(made.history[-1]) == {"shade"} and made.history[-1]["shade"] > 0
        result = finished_check(made)
        assert result is not None and result.passed and result.max_abs_diff == 0
        assert made.set_sphere_count(3000) is False and "constant-divergent: 3000 spheres need" in made.status
        assert made.scene.count == 500
    finally:
        made.close()


def test_headless_gui_shows_spheres_through_interop(tmp_path, run_main):
    stats = tmp_path / "stats.json"
    command = ["gui", "--headless", "--renderer", "spheres", "--view", "shaded"]
    command += ["--scene", "random", "--count", "2000", "--size", "1024", "--frames", "30", "--vsync", "off"]
    command += ["--stats", str(stats)]
    env = {**os.environ, "RASTERLAB_CONFIG_DIR": str(tmp_path)}
    result = run_main(*command, timeout=300, env=env)
    assert result.returncode == 0, result.stderr
    report = json.loads(stats.read_text())
    assert report["renderer"] == "spheres" and report["display_path"] == "interop"
    assert report["stage_ms_median"]["shade"] > 0 and report["stage_ms_median"]["display copy"] > 0


@pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs an X server with the NVIDIA GL (XVFB=1 setup.sh)")
def test_real_window_uses_interop(tmp_path, run_main):
    stats = tmp_path / "stats.json"
    command = ["gui", "--scene", "pattern", "--size", "512", "--frames", "20", "--stats", str(stats)]
    result = run_main(*command, timeout=300, env={**os.environ, "RASTERLAB_CONFIG_DIR": str(tmp_path)})
    assert result.returncode == 0, result.stderr
    assert json.loads(stats.read_text())["display_path"] == "interop"


@pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs an X server with Mesa's GLX (XVFB=1 setup.sh)")
def test_real_window_on_mesa_falls_back_to_the_host_copy_and_says_so_once(tmp_path, run_main):
    # A window whose OpenGL is Mesa's llvmpipe: CUDA cannot register its buffers (a real failure).
    stats = tmp_path / "stats.json"
    command = ["gui", "--scene", "pattern", "--size", "512", "--frames", "20", "--stats", str(stats)]
    env = {**os.environ, "RASTERLAB_CONFIG_DIR": str(tmp_path), "__GLX_VENDOR_LIBRARY_NAME": "mesa"}
    env["LIBGL_DRIVERS_PATH"] = "/tmp/x/usr/lib/x86_64-linux-gnu/dri"
    result = run_main(*command, timeout=300, env=env)
    assert result.returncode == 0, result.stderr
    report = json.loads(stats.read_text())
    assert report["display_path"] == "host copy" and report["variant"].startswith("auto")
    notes = [line for line in result.stderr.splitlines() if "CUDA-GL interop unavailable" in line]
    assert len(notes) == 1 and "cudaGraphicsGLRegisterImage failed" in notes[0], result.stderr


@pytest.mark.faults_gpu
@pytest.mark.out_of_bounds_fault(needs_interop=True)
def test_a_kernel_file_edited_while_the_app_runs(probe_path):
    """A copy of the per-pixel template as file:PATH in the app: a saved edit replaces the build
    within a second and is checked exact; one that skips every circle reloads and fails the check;
    a syntax error shows its log while the previous build keeps drawing; a write far out of bounds
    is reported and the app goes on with the CPU reference."""
    probe = probe_path("kernel_file_app_probe.py")
    result = subprocess.run([sys.executable, str(probe)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    report = {part: value for line in result.stdout.splitlines() for part, value in json.loads(line).items()}
    assert report["start"]["backend"] == "cuda" and report["start"]["variant"].startswith("file:"), report
    assert report["comment"]["reload_s"] < 1.0 and report["comment"]["check"].startswith("pass"), report
    skips = report["skips_circles"]
    assert not skips["passed"] and skips["background_only"], report
    error = report["syntax_error"]
    assert "does not compile" in error["error"] and error["log_names_the_line"], report
    assert error["frames_kept_coming"] and error["previous_build_draws"], report
    failed = report["out_of_bounds"]
    assert failed["backend"] == "cpu" and "the GPU failed" in failed["status"] and failed["frames_after"] > 0, report
    assert report["closed"]["gl_abandoned"], report

"""The app's faults on the GPU: running out of GPU memory, interop failing, the GPU failing mid-run,
a new app after an out-of-bounds fault, 200 resizes with interop, a 20,000-frame soak, and 10
million circles (skipped without a CUDA GPU).

``RASTERLAB_REPORT_DIR=folder`` keeps each probe's JSON report there (docs/reliability.md).
"""

import json
import os

import numpy as np
import pytest

from app.session import Session
from app.settings import Settings
from render.circles.reference import ReferenceRenderer
from render.core.renderer import render_frame
from scenes.builtin import build_scene
from shaders import SHADER_DIR

pytestmark = pytest.mark.gpu
MiB = 2**20


def reference(name, size, frame=0):
    renderer = ReferenceRenderer()
    renderer.load(build_scene(name), size, size)
    return render_frame(renderer, frame)


@pytest.fixture
def session(tmp_path):
    made = Session(Settings(scene="rgb", size=256, export_folder=str(tmp_path)), backend="cuda")
    yield made
    made.close()


def test_a_scene_too_large_for_gpu_memory_keeps_the_previous_one(session, pool_limit):
    assert session.update()
    pool_limit(size=8 * MiB)
    assert not session.select_scene("rand1M")
    assert "rand1M (1000000 circles) at 256x256 does not fit in GPU memory" in session.status
    assert session.scene_name == "rgb" and session.scene.name == "rgb"
    assert session.update() and np.array_equal(session.host_image(), reference("rgb", 256))


def test_a_size_too_large_for_gpu_memory_keeps_the_previous_size(session, pool_limit):
    pool_limit(size=64 * MiB)  # a 4096 x 4096 float image alone is 256 MiB
    assert not session.set_size(4096)
    assert "at 4096x4096 does not fit in GPU memory" in session.status
    assert session.settings.size == 256 and session.update()
    assert np.array_equal(session.host_image(), reference("rgb", 256))


def test_a_variant_whose_binning_runs_out_of_memory_keeps_the_previous_variant(session, pool_limit):
    assert session.select_scene("biglittle") and session.set_size(1024)
    pool_limit(size=64 * MiB)
    assert not session.set_variant("tile-sort:tile=16")
    assert "tile-sort: " in session.status and "pairs need about" in session.status
    assert session.variant.label() == "auto" and session.update()


def test_spheres_too_large_for_gpu_memory_keep_the_previous_scene(tmp_path, pool_limit):
    settings = Settings(renderer="spheres", sphere_scene="classic", size=256, export_folder=str(tmp_path))
    made = Session(settings, backend="cuda")
    try:
        pool_limit(size=16 * MiB)
        assert not made.set_size(4096)
        assert "do not fit in GPU memory" in made.status and made.settings.size == 256
        assert made.update()
    finally:
        made.close()


def test_ten_million_circles_render_on_the_gpu(session, tmp_path, many_circles_file):
    path = tmp_path / "ten-million.npz"
    many_circles_file(path, 10_000_000)
    assert session.select_scene(str(path)), session.status
    assert session.set_size(1024) and session.update()
    assert session.scene.count == 10_000_000 and session.history[-1]["blending"] > 0


def test_interop_failing_mid_run_falls_back_to_the_host_copy(stress_probe):
    report = stress_probe("interop-lost")
    assert report["path_before"] == "interop" and report["display_path"] == "host copy"
    assert report["notice"].startswith("CUDA-GL interop failed, showing frames through a host copy from now on")
    assert report["texture_equals_frame"]
    assert report["interop"]["registered"] == report["interop"]["released"]


@pytest.mark.faults_gpu
def test_losing_the_gpu_mid_run_is_reported_and_the_app_goes_on_on_the_cpu(stress_probe):
    report = stress_probe("gpu-loss", timeout=300)
    assert report["path_before"] == "interop" and report["backend"] == "cpu"
    assert report["status"].startswith("the GPU failed (") and "continuing with the CPU reference" in report["status"]
    assert report["exact"] and report["display_path"] == "host copy"
    assert report["texture_equals_frame"]  # the window still shows frames: GL did not wait on dead CUDA work


@pytest.mark.faults_gpu
@pytest.mark.out_of_bounds_fault
def test_an_app_started_after_an_out_of_bounds_fault_shows_its_frames(tmp_path, run_main):
    # On the lent H100's driver no process maps an interop buffer after such a fault: the app must
    # find out in bounded time and go on by host copy; elsewhere it keeps interop.
    wild = tmp_path / "wild.cu"
    source = (SHADER_DIR / "user" / "per_pixel.cu").read_text()
    wild.write_text(source.replace("image[y * width + x] = pixel;", "image[(1ll << 40) + x] = pixel;"))
    render = ["render", "--scene", "rgb", "--size", "64", "--variant", f"file:{wild}", "--out", tmp_path / "o.png"]
    fault = run_main(*render)
    assert fault.returncode == 1 and "illegal memory access" in fault.stderr
    stats = tmp_path / "stats.json"
    command = ["gui", "--headless", "--scene", "rand10k", "--size", "256", "--frames", "30", "--stats", stats]
    result = run_main(*command, timeout=120, env={**os.environ, "RASTERLAB_CONFIG_DIR": str(tmp_path)})
    assert result.returncode == 0, result.stderr
    report = json.loads(stats.read_text())
    assert report["frames_measured"] > 0 and report["display_path"] in ("interop", "host copy")
    notes = [line for line in result.stderr.splitlines() if "CUDA-GL interop unavailable" in line]
    if report["display_path"] == "host copy":
        assert len(notes) == 1 and "hand-over did not finish within 2 s" in notes[0], result.stderr
    else:
        assert notes == [], result.stderr


@pytest.mark.whole_gpu_memory
def test_200_resizes_with_interop_reregister_and_leak_nothing(stress_probe, check_resize_report):
    report = stress_probe("resize", "cuda", 200)
    check_resize_report(report, 200)
    counts = report["interop"]
    assert report["display_path"] == "interop" and counts["registered"] - counts["released"] == 1
    assert counts["registered"] >= report["render_sizes"]
    assert report["interop_after_close"]["registered"] == report["interop_after_close"]["released"]


@pytest.mark.whole_gpu_memory
def test_soak_20000_frames_switching_variants_every_100(stress_probe):
    report = stress_probe("soak", 20000, 100, timeout=600)
    assert report["failures"] == [] and report["switches"] == 199 and report["exact"]
    assert report["backend"] == "cuda" and report["display_path"] == "interop"
    settled = [sample for sample in report["samples"] if sample["shown"] > report["first_pass_frames"]]
    assert len(settled) >= 10, report["samples"]
    for key, allowed in (("device_used", 8), ("pool_used", 1), ("python_heap", 2), ("host_rss", 64)):
        values = [sample[key] for sample in settled]
        assert max(values) - min(values) <= allowed, (key, values)

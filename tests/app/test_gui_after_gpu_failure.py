"""After a GPU failure the app ends without tearing down GL (Xvfb, Mesa, the failure injected): on
the lent H100 a kernel fault left eglDestroyContext waiting forever. The stats, the settings, the
panel layout and the exit code are still those of a normal end; the interpreter's teardown does not
run."""

import json
import os
import subprocess
import sys

import pytest


@pytest.mark.parametrize("headless", [False, True], ids=["xvfb-window", "egl-headless"])
def test_the_app_ends_without_gl_teardown_after_a_gpu_failure(x_display, config, tmp_path, headless, probe_path):
    stats, marker = tmp_path / "stats.json", tmp_path / "run"
    args = ["gui", "--scene", "rgb", "--size", "256", "--frames", "6", "--window", "800x500", "--backend", "cpu"]
    args += ["--stats", str(stats)] + (["--headless"] if headless else [])
    command = [sys.executable, str(probe_path("gui_after_gpu_failure.py")), str(marker), "3", *args]
    env = dict(os.environ)
    if headless:  # as run_gui would set it, but the probe imports OpenGL first
        env.pop("DISPLAY", None)
        env["PYOPENGL_PLATFORM"] = "egl"
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, env=env)
    assert result.returncode == 0, result.stderr
    assert json.loads(marker.with_suffix(".closed").read_text()) == {"gl_abandoned": True}
    assert not marker.with_suffix(".atexit").exists()  # ended by os._exit, after the flushes
    assert json.loads(stats.read_text())["scene"] == "rgb"  # written before the end
    if not headless:  # an offscreen app keeps no layout
        assert (config / "settings.json").exists() and (config / "imgui.ini").stat().st_size > 0
    assert "the GPU failed (cudaErrorIllegalAddress: injected)" in result.stderr


def test_a_normal_end_tears_gl_down(x_display, config, tmp_path, probe_path):
    stats = tmp_path / "stats.json"
    args = ["gui", "--scene", "rgb", "--size", "256", "--frames", "6", "--window", "800x500", "--backend", "cpu"]
    marker = tmp_path / "run"
    command = [
        sys.executable,
        str(probe_path("gui_after_gpu_failure.py")),
        str(marker),
        "0",
        *args,
        "--stats",
        str(stats),
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert json.loads(marker.with_suffix(".closed").read_text()) == {"gl_abandoned": False}
    assert marker.with_suffix(".atexit").exists()
    assert json.loads(stats.read_text())["scene"] == "rgb"
    assert (config / "settings.json").exists() and (config / "imgui.ini").stat().st_size > 0

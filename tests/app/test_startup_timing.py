"""The app's start-up time: ``first_frame_s`` counts from the process's start as the kernel records
it (odd command names included), ``gui --stats`` reports it, and the measuring tool
(docs/tools/startup_switch_timing.py) runs its start-ups from the command line (on the CPU here;
its kernel-cache and switch figures need the GPU)."""

import json
import statistics
import subprocess
import sys
import time

import pytest

from app.startup_clock import process_age, seconds_since_process_start


@pytest.mark.parametrize("command", ["python3", "a b", "x) (y z", ")"])
def test_process_age_reads_the_start_after_any_command_name(command):
    fields_3_to_21 = ["S"] + ["7"] * 18
    stat = f"4242 ({command}) " + " ".join([*fields_3_to_21, "250", "12345678", "99"])  # start: tick 250
    assert process_age(stat, "10.00 20.00\n", 100) == pytest.approx(7.5)


def test_the_age_of_a_process_counts_its_interpreter_start(repo_root):
    script = "import time; time.sleep(0.5); from app.startup_clock import seconds_since_process_start as s; print(s())"
    started = time.monotonic()
    result = subprocess.run([sys.executable, "-c", script], cwd=repo_root, capture_output=True, text=True, timeout=60)
    outside = time.monotonic() - started
    age = float(result.stdout)
    assert 0.5 <= age <= outside + 0.02  # ticks and uptime read in steps of 10 ms
    assert seconds_since_process_start() > age  # this test process is older


def test_the_timing_tool_reports_cold_and_warm_start_ups(repo_root, config):
    command = [sys.executable, str(repo_root / "docs/tools/startup_switch_timing.py"), "--backend", "cpu"]
    command += ["--scene", "rgb", "--size", "256", "--cold-runs", "1", "--warm-runs", "2"]
    result = subprocess.run(command, cwd=repo_root, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    runs = report["start_up"]["cold"] + report["start_up"]["warm"]
    assert len(runs) == 3 and all(run["variant"] == "reference" for run in runs)
    assert all(0.1 < run["first_frame_s"] < run["process_wall_s"] + 0.02 for run in runs), runs
    warm = statistics.median(run["first_frame_s"] for run in runs[1:])
    assert report["start_up"]["warm_first_frame_s_median"] == pytest.approx(warm)
    assert "gui --headless --frames 2 --no-settings" in report["command"] and "switches" not in report
    bad = subprocess.run([*command[:4], "--size", "99999"], cwd=repo_root, capture_output=True, text=True, timeout=600)
    assert bad.returncode != 0 and "exited with 2" in bad.stderr


def test_the_phase_tool_marks_a_start_in_order_up_to_its_first_frame(repo_root, config, tmp_path):
    stats = tmp_path / "stats.json"
    command = [sys.executable, str(repo_root / "docs/tools/startup_phases.py"), "gui", "--headless", "--frames", "2"]
    command += ["--no-settings", "--backend", "cpu", "--scene", "rgb", "--size", "256", "--stats", str(stats)]
    result = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    marks = [line.split(maxsplit=1) for line in lines[:-1]]
    seconds = [float(at) for at, _ in marks]
    assert seconds == sorted(seconds) and 0 < seconds[0]
    order = [what for _, what in marks if what in ("EglSurface start", "session start", "App.run end")]
    assert order == ["EglSurface start", "session start", "App.run end"]
    first_frame = float(lines[-1].removeprefix("first_frame_s "))
    assert first_frame == json.loads(stats.read_text())["first_frame_s"]
    assert seconds[0] < first_frame <= seconds[-1] + 0.02  # shown during the run (its clock: 10 ms steps)

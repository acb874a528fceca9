"""Assertions on the reports of tests/app_stress_probe.py, shared by the CPU and the GPU tests."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_probe(*args, timeout=600) -> dict:
    """Run the probe in a process of its own; its JSON report (also saved under
    $RASTERLAB_REPORT_DIR when set, for docs/reliability.md)."""
    command = [sys.executable, str(ROOT / "tests" / "app_stress_probe.py"), *map(str, args)]
    env = {**os.environ, "RASTERLAB_CONFIG_DIR": os.environ.get("RASTERLAB_CONFIG_DIR", "/tmp/rasterlab-probe")}
    result = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env)
    assert result.returncode == 0, result.stderr[-4000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    folder = os.environ.get("RASTERLAB_REPORT_DIR")
    if folder:
        Path(folder, "-".join(map(str, args)) + ".json").write_text(json.dumps(report, indent=1))
    return report


def check_resize_report(report: dict, resizes: int) -> None:
    assert report["exact"] and report["frames_played_after"] >= 3, report
    assert report["minimized_frames"] == 3 * (resizes // 25)
    assert report["render_sizes"] > resizes // 2
    assert not any(word in report["status"] for word in ("failed", "cannot", "error")), report["status"]
    first, last = report["memory"][0], report["memory"][-1]
    # The same scene at the same size again: the Python heap is back where it was.
    assert abs(last["python_heap"] - first["python_heap"]) < 2, report["memory"]
    if "device_used" in first:
        # CuPy's cached blocks are handed back after each change of size: its pool ends where it began.
        assert (last["pool_used"], last["pool_held"]) == (first["pool_used"], first["pool_held"]), report["memory"]
        # The GL driver keeps a high-water mark of its pbuffers and textures (800 resizes level off at
        # +71 MiB, docs/reliability.md); one leaked 1800x1200 buffer per resize would be +1.6 GiB here.
        driver = [sample["device_used"] - sample["pool_held"] for sample in report["memory"]]
        assert driver[-1] - driver[0] <= 128, report["memory"]

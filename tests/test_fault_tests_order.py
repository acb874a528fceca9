"""The order tests/conftest.py gives the tests that fault on purpose: after every other test; of
those, the ones that write out of bounds last, the one among them that needs interop first."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def collected(*options: str) -> list[str]:
    command = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *options, "tests"]
    result = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    return [line for line in result.stdout.splitlines() if "::" in line]


def test_the_faulting_tests_come_last_and_those_that_write_out_of_bounds_after_the_others():
    faulting = collected("-m", "faults_gpu")
    out_of_bounds = collected("-m", "faults_gpu and out_of_bounds_fault")
    assert len(faulting) >= 3 and len(out_of_bounds) >= 2
    assert faulting[-len(out_of_bounds) :] == out_of_bounds
    assert collected("-m", "out_of_bounds_fault") == out_of_bounds  # each is a faults_gpu test too
    assert out_of_bounds[0].endswith("test_gpu_app.py::test_a_kernel_file_edited_while_the_app_runs")
    assert out_of_bounds[-1].endswith("test_a_kernel_that_writes_far_out_of_bounds_ends_render_with_one_line")
    everything = collected()
    assert everything[-len(faulting) :] == faulting

"""The order tests/conftest.py gives the tests that fault on purpose: after every other test, and
the one that leaves later GPU processes hanging on the lent machine after those."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def collected(*options: str) -> list[str]:
    command = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *options, "tests"]
    result = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    return [line for line in result.stdout.splitlines() if "::" in line]


def test_the_faulting_tests_come_last_and_the_one_that_stalls_the_gpu_after_them():
    faulting = collected("-m", "faults_gpu")
    assert len(faulting) >= 3
    assert faulting[-1].endswith("test_gpu_app.py::test_a_kernel_file_edited_while_the_app_runs")
    everything = collected()
    assert everything[-len(faulting) :] == faulting

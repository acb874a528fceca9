"""NumPy's OpenBLAS asked for one thread in rasterlab's processes, before NumPy loads."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from render.core.blas_threads import one_blas_thread

ROOT = Path(__file__).resolve().parents[3]

# The command's entry as the `rasterlab` script runs it, reporting what NumPy's load would see.
ENTRY = """
import os, sys
from app.entry import main
loaded_before = 'numpy' in sys.modules
sys.argv = ['rasterlab', '--version']
try:
    main()
except SystemExit:
    pass
print(loaded_before, os.environ.get('OPENBLAS_NUM_THREADS'))
"""


def test_one_thread_is_asked_for_unless_the_environment_says_otherwise(monkeypatch):
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    one_blas_thread()
    assert os.environ["OPENBLAS_NUM_THREADS"] == "1"
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "3")
    one_blas_thread()
    assert os.environ["OPENBLAS_NUM_THREADS"] == "3"


@pytest.mark.parametrize("own", [None, "3"])
def test_the_command_asks_before_numpy_loads(own):
    # Before, under a low limit on processes (ulimit -u), OpenBLAS's refused thread ended NumPy's
    # import in a KeyboardInterrupt, which the command reported as "interrupted".
    env = {key: value for key, value in os.environ.items() if key != "OPENBLAS_NUM_THREADS"}
    if own is not None:
        env["OPENBLAS_NUM_THREADS"] = own
    result = subprocess.run(
        [sys.executable, "-c", ENTRY], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.stdout.splitlines()[-1] == f"False {own or 1}", result.stderr

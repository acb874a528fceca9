"""NumPy's OpenBLAS asked for one thread in rasterlab's processes, before NumPy loads."""

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from render.core import blas_threads, process_room
from render.core.blas_threads import one_blas_thread, openblas_threads

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
    monkeypatch.setattr(blas_threads, "has_room", lambda _threads: True)
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    assert one_blas_thread() is None
    assert os.environ["OPENBLAS_NUM_THREADS"] == "1"
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "3")
    assert one_blas_thread() is None
    assert os.environ["OPENBLAS_NUM_THREADS"] == "3"


@pytest.mark.parametrize(
    ("value", "threads"),
    [("1", 0), ("3", 2), (" +3x", 2), ("64", 7), ("0", 7), ("-2", 7), ("", 7), ("many", 7), ("+", 7)],
)
def test_the_threads_openblas_starts_on_8_cpus(value, threads):
    assert openblas_threads(value, 8) == threads


@pytest.mark.parametrize(
    ("own", "room", "after", "lowered"), [("4", False, "1", "4"), ("4", True, "4", None), ("1", False, "1", None)]
)
def test_a_users_value_is_lowered_only_where_the_limit_leaves_no_room(monkeypatch, own, room, after, lowered):
    monkeypatch.setattr(blas_threads, "has_room", lambda _threads: room)
    monkeypatch.setattr(os, "cpu_count", lambda: 8)
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", own)
    assert one_blas_thread() == lowered
    assert os.environ["OPENBLAS_NUM_THREADS"] == after


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


@pytest.mark.skipif(
    (os.cpu_count() or 1) < 2, reason="on one CPU, OpenBLAS starts no thread whatever the variable says"
)
def test_the_command_lowers_a_users_value_that_the_limit_has_no_room_for():
    # Before, OpenBLAS's refused thread raised SIGINT in NumPy's import: "interrupted", exit 130.
    # A soft limit under the user's processes (root is not bound by it, an ordinary user is not
    # refused here either: the command starts no thread before the lowering).
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "4"}
    limit = max(1, process_room.user_tasks(os.getuid()) - 1)
    hard = resource.getrlimit(resource.RLIMIT_NPROC)[1]
    result = subprocess.run(
        [sys.executable, "-c", ENTRY],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NPROC, (limit, hard)),
    )
    assert result.stdout.splitlines()[-1] == "False 1", result.stderr
    assert result.stderr.splitlines() == [
        "note: OPENBLAS_NUM_THREADS=4 lowered to 1: the limit on processes (ulimit -u) leaves no room for its threads"
    ]

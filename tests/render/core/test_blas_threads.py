"""NumPy's OpenBLAS asked for one thread in rasterlab's processes, before NumPy loads, and a user's
own count lowered where the limit on processes (``ulimit -u``) leaves no room for its threads."""

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from render.core import blas_threads
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


@pytest.mark.parametrize(
    ("environ", "threads"),
    [
        ({"OPENBLAS_NUM_THREADS": "1"}, 0),
        ({"OPENBLAS_NUM_THREADS": "3"}, 2),
        ({"OPENBLAS_NUM_THREADS": " +3x"}, 2),
        ({"OPENBLAS_NUM_THREADS": "64"}, 7),  # at most the CPUs
        ({"OPENBLAS_NUM_THREADS": "0"}, 7),  # 0 or no number: the next variable, else every CPU
        ({"OPENBLAS_NUM_THREADS": "-2"}, 7),
        ({"OPENBLAS_NUM_THREADS": "many"}, 7),
        ({"OPENBLAS_NUM_THREADS": "9" * 5000}, 7),  # atoi's -1
        ({"OPENBLAS_NUM_THREADS": "0", "OMP_NUM_THREADS": "1"}, 0),
        ({"OPENBLAS_NUM_THREADS": "0", "GOTO_NUM_THREADS": "2", "OMP_NUM_THREADS": "1"}, 1),
        ({"OPENBLAS_NUM_THREADS": "\x1c1"}, 7),  # not C's white space: no number
    ],
)
def test_the_threads_openblas_starts_on_8_cpus(environ, threads):
    assert openblas_threads(environ, 8) == threads


def _one(monkeypatch, environ, reason, cpus=8, address_limit=None):
    asked = []
    monkeypatch.setattr(blas_threads, "shortage", lambda threads: asked.append(threads) or reason)
    monkeypatch.setattr(blas_threads, "limit_bytes", lambda: address_limit)
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: set(range(cpus)))
    return one_blas_thread(environ), asked


def test_one_thread_is_asked_for_where_the_environment_says_nothing(monkeypatch):
    environ: dict[str, str] = {}
    assert _one(monkeypatch, environ, "no room") == (None, [])
    assert environ == {"OPENBLAS_NUM_THREADS": "1"}


@pytest.mark.parametrize(
    ("own", "reason", "cpus", "after", "asked"),
    [
        ("4", "no room", 8, "1", [3]),  # lowered: 3 threads beside the caller's did not fit
        ("4", None, 8, "4", [3]),  # kept: they fit
        ("4", "no room", 1, "4", []),  # one CPU the process may run on: no thread to fit
        ("1", "no room", 8, "1", []),
    ],
)
def test_a_users_value_is_lowered_only_where_its_threads_do_not_fit(monkeypatch, own, reason, cpus, after, asked):
    environ = {"OPENBLAS_NUM_THREADS": own}
    lowered, counted = _one(monkeypatch, environ, reason, cpus)
    assert lowered == (None if after == own else (own, reason))
    assert environ["OPENBLAS_NUM_THREADS"] == after
    assert counted == asked


def test_a_users_value_is_lowered_under_a_limit_on_address_space(monkeypatch):
    # As `nobody` with SciPy installed, OPENBLAS_NUM_THREADS=2 and ulimit -v 604,000-620,000, SciPy's
    # OpenBLAS (which Numba loads) could not start its thread and raised SIGINT ("interrupted", exit
    # 130), or crashed (exit 139).
    environ = {"OPENBLAS_NUM_THREADS": "2"}
    lowered, _ = _one(monkeypatch, environ, None, address_limit=620_000 * 1024)
    assert lowered == ("2", "the limit on memory (ulimit -v 620000) may leave no room for its threads' buffers")
    assert environ["OPENBLAS_NUM_THREADS"] == "1"
    environ = {"OPENBLAS_NUM_THREADS": "1"}  # no thread beside the caller's: nothing to lower
    assert _one(monkeypatch, environ, None, address_limit=620_000 * 1024) == (None, [])


def _entry(env, limit=None, command=None, **options):
    hard = resource.getrlimit(resource.RLIMIT_NPROC)[1]
    return subprocess.run(
        command or [sys.executable, "-c", ENTRY],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=None if limit is None else lambda: resource.setrlimit(resource.RLIMIT_NPROC, (limit, hard)),
        **options,
    )


@pytest.mark.parametrize("own", [None, "3"])
def test_the_command_asks_before_numpy_loads(own):
    env = {key: value for key, value in os.environ.items() if key != "OPENBLAS_NUM_THREADS"}
    if own is not None:
        env["OPENBLAS_NUM_THREADS"] = own
    result = _entry(env)
    assert result.stdout.splitlines()[-1] == f"False {own or 1}", result.stderr


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="on one CPU, OpenBLAS starts no thread")
@pytest.mark.parametrize("own", ["4", "4\x1b[2J\n"])
def test_the_command_lowers_a_users_value_that_the_limit_has_no_room_for(bound_by_the_limit, own):
    # Before, OpenBLAS's refused thread raised SIGINT in NumPy's import: "interrupted", exit 130.
    env = {**os.environ, "OPENBLAS_NUM_THREADS": own}
    result = _entry(env, limit=16, command=[*bound_by_the_limit, sys.executable, "-c", ENTRY])
    assert result.stdout.splitlines()[-1] == "False 1", result.stderr
    [note] = result.stderr.splitlines()
    shown = own.replace("\x1b", "\\x1b").replace("\n", "\\n")
    assert note.startswith(f"note: OPENBLAS_NUM_THREADS={shown} lowered to 1: the limit on processes (ulimit -u 16)")


def test_root_keeps_its_value_under_the_limit():
    if os.getuid() != 0:
        pytest.skip("needs root")
    result = _entry({**os.environ, "OPENBLAS_NUM_THREADS": "4"}, limit=16)
    assert result.stdout.splitlines()[-1] == "False 4", result.stderr
    assert result.stderr == ""


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="on one CPU, OpenBLAS starts no thread")
@pytest.mark.parametrize("redirect", ["2>&-", "2>/dev/full"])
def test_a_closed_or_full_standard_error_takes_no_note(bound_by_the_limit, redirect):
    command = ["bash", "-c", f'exec "$@" {redirect}', "-", *bound_by_the_limit, sys.executable, "-c", ENTRY]
    result = _entry({**os.environ, "OPENBLAS_NUM_THREADS": "4"}, limit=16, command=command)
    assert (result.returncode, result.stdout.splitlines()[-1]) == (0, "False 1"), result.stderr


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="on one CPU, OpenBLAS starts no thread")
def test_a_stop_while_the_processes_are_counted_is_one_line():
    # The scan of /proc can take a quarter of a second among thousands of processes.
    stalled = (
        "import os, signal, time\n"
        "from render.core import process_room\n"
        "process_room.system_tasks = lambda: 10**9\n"
        "process_room._root = lambda: False\n"
        "def slow(_uid):\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "    time.sleep(5)\n"
        "process_room.user_tasks = slow\n"
        "import resource\n"
        "resource.setrlimit(resource.RLIMIT_NPROC, (16, resource.getrlimit(resource.RLIMIT_NPROC)[1]))\n"
    )
    result = _entry({**os.environ, "OPENBLAS_NUM_THREADS": "4"}, command=[sys.executable, "-c", stalled + ENTRY])
    assert result.stderr.splitlines() == ["interrupted"], result.stderr

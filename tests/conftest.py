"""Shared by every test: the repository on sys.path, GPU tests skipped without a GPU, and fixtures
that run main.py or a probe script in a process of its own, cap CuPy's pool, or write large scenes."""

import contextlib
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _fault_order(item) -> tuple[bool, bool, bool]:
    out_of_bounds = item.get_closest_marker("out_of_bounds_fault")
    needs_interop = out_of_bounds is not None and out_of_bounds.kwargs.get("needs_interop", False)
    return "faults_gpu" in item.keywords, out_of_bounds is not None, not needs_interop


def pytest_collection_modifyitems(config, items):
    # Tests that make a kernel fault on purpose run after every other. After an out-of-bounds fault
    # in any process, some lent H100s hang every later process that shows frames through interop
    # (docs/results/reliability/interop-map-after-an-out-of-bounds-fault-009bdea.txt), so a later
    # test that needs interop would fail for it, not for what it tests.
    items.sort(key=_fault_order)
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = pytest.mark.skip(reason="reads the whole GPU's used memory, which other workers change: no -n")
        stalls = pytest.mark.skip(reason="may leave interop stalled for the other workers' tests: no -n")
        for item in items:
            if "whole_gpu_memory" in item.keywords:
                item.add_marker(shared)
            if "out_of_bounds_fault" in item.keywords:
                item.add_marker(stalls)
    from render.core.gpu import gpu_problem

    problem = gpu_problem()
    if problem is None:
        return
    skip = pytest.mark.skip(reason=f"needs a CUDA GPU: {problem}")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def pool_limit():
    """Caps CuPy's pool for one test, so running out of GPU memory is real but cheap to reach."""
    import cupy

    pool = cupy.get_default_memory_pool()
    pool.free_all_blocks()
    yield pool.set_limit
    pool.set_limit(size=0)
    pool.free_all_blocks()


@pytest.fixture(scope="session")
def repo_root() -> Path:
    """The repository's root folder, for scripts run with ``python -c`` that import the project."""
    return ROOT


@pytest.fixture
def main_command() -> list[str]:
    """The start of a command line that runs main.py with this interpreter; add the arguments."""
    return [sys.executable, str(ROOT / "main.py")]


@pytest.fixture
def run_main(main_command):
    """``run_main(*args, **options)``: main.py run with ``args`` in a process of its own, returning the
    CompletedProcess with stdout and stderr captured as text. ``options`` go to ``subprocess.run``
    and override those defaults (``env``, ``cwd``, ``timeout``, ``text=False`` for bytes, ...)."""

    def run(*args, **options) -> subprocess.CompletedProcess:
        options = {"capture_output": True, "text": True, "timeout": 300, **options}
        return subprocess.run([*main_command, *map(str, args)], **options)

    return run


@pytest.fixture(scope="session")
def run_own_group():
    """``run_own_group(command, timeout=60, **options)``: ``subprocess.run`` of ``command`` in a
    process group of its own (so a test can signal the whole group, as a terminal does), stdout and
    stderr captured as text. The group is killed when the command ends or times out, so a hang
    fails the test (TimeoutExpired) and leaves no process of it behind."""

    def run(command, timeout=60, **options) -> subprocess.CompletedProcess:
        options = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, "text": True, **options}
        with subprocess.Popen(command, start_new_session=True, **options) as process:
            try:
                stdout, stderr = process.communicate(timeout=timeout)
            finally:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
        return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)

    return run


@pytest.fixture(scope="session")
def probe_path():
    """``probe_path(name)``: the path of a script in tests/probes/, which tests run as a process."""
    return lambda name: ROOT / "tests" / "probes" / name


def _write_many_circles(path, count: int, seed: int = 10) -> dict:
    rng = np.random.default_rng(seed)
    arrays = {
        "position": rng.random((count, 3), np.float32),
        "radius": rng.uniform(1e-4, 2e-3, count).astype(np.float32),
        "color": rng.random((count, 3), np.float32),
    }
    np.savez(path, kind=np.array("circles"), **arrays)
    return arrays


@pytest.fixture(scope="session")
def many_circles_file():
    """``many_circles_file(path, count, seed=10)``: save ``count`` small random flat circles as an
    uncompressed .npz scene file; returns the arrays written (position (count, 3), radius (count,),
    color (count, 3), float32). Session-wide, so module-scoped fixtures can write with it too."""
    return _write_many_circles


@pytest.fixture
def ranges(monkeypatch):
    """The NVTX calls made while the test runs, as ("push", name) and ("pop",); ranges off after."""
    from cupy.cuda import nvtx as cupy_nvtx

    from render.core import nvtx

    calls = []
    monkeypatch.setattr(cupy_nvtx, "RangePush", lambda name: calls.append(("push", name)))
    monkeypatch.setattr(cupy_nvtx, "RangePop", lambda: calls.append(("pop",)))
    yield calls
    nvtx.set_nvtx(False)


# The CPU reference's frames of the built-in scenes take about a second at the app's test sizes: a
# question from this many seconds on makes them ask as slow changes do, wherever the machine stands.
QUICK_QUESTION_SECONDS = 0.2


@pytest.fixture
def quick_questions(monkeypatch):
    """The slow-change question asked from QUICK_QUESTION_SECONDS on (returned)."""
    monkeypatch.setattr("app.slow_changes.CPU_WARN_SECONDS", QUICK_QUESTION_SECONDS)
    return QUICK_QUESTION_SECONDS


@pytest.fixture(scope="session")
def bound_by_the_limit():
    """The start of a command line that runs its command as a user the limit on processes binds
    in rasterlab's eyes: root in a user namespace of its own (``unshare -U``), with no ID mapped,
    whom the kernel still exempts, so that the command runs whatever the limit."""
    if os.getuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("needs root and unshare")
    if subprocess.run(["unshare", "-U", "true"], capture_output=True).returncode != 0:
        pytest.skip("no user namespaces here")
    return ["unshare", "-U"]

"""The limit on address space (``ulimit -v``): the room a step checks for before native code that
would abort the process where an allocation fails (LLVM compiling the CPU reference's blend), the
note that names the limit, and the room the blend's compile really takes. Each limit is set in a
process of its own: set here, it would bind every later test."""

import os
import signal
import subprocess
import sys

import pytest

from render.circles.flat_blend import COMPILE_ROOM, SCIPY_BLAS_ROOM
from render.core.address_space import MIB


def _python(code: str, repo_root) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=repo_root, timeout=60)


def test_without_a_limit_nothing_is_checked_or_noted(repo_root):
    code = (
        "import resource; from render.core import address_space as a\n"
        "resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))\n"
        "a.ensure_room(1 << 50, 'map a petabyte')\n"
        "print(a.limit_bytes(), repr(a.limit_note()))"
    )
    result = _python(code, repo_root)
    assert result.stdout == "None ''\n", result.stderr


def test_a_limit_is_named_in_kilobytes_and_checked_against_the_room_left(repo_root):
    code = (
        "import re, resource; from render.core import address_space as a\n"
        "size = int(re.search(r'VmSize:\\s+(\\d+)', open('/proc/self/status').read()).group(1)) * 1024\n"
        "limit = size + (256 << 20)\n"
        "resource.setrlimit(resource.RLIMIT_AS, (limit, resource.RLIM_INFINITY))\n"
        "print(limit // 1024)\n"
        "a.ensure_room(64 << 20, 'fit')\n"
        "print(a.limit_bytes() == limit, a.limit_note())\n"
        "try:\n"
        "    a.ensure_room(512 << 20, 'load a big thing')\n"
        "except a.AddressSpaceShort as error:\n"
        "    print(isinstance(error, MemoryError), error)\n"
    )
    result = _python(code, repo_root)
    kilobytes, fits, short = result.stdout.splitlines()
    assert fits == f"True ; under the limit on memory (ulimit -v {kilobytes}), which may be too low: raise it"
    assert short == (
        f"True the limit on memory (ulimit -v {kilobytes}) leaves too little room to load a big thing "
        "(512 MiB more): raise it"
    )


def _unchecked_outcome(command: list[str], env: dict) -> str:
    """How the probe's unchecked compile ended: ``aborted``, ``hung`` (on the H200 machine, where
    SciPy's OpenBLAS runs 16 threads, it never ended), or its exit code and output."""
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=60, env=env)
    except subprocess.TimeoutExpired:
        return "hung"
    return "aborted" if result.returncode == -signal.SIGABRT else f"{result.returncode}: {result.stdout}{result.stderr}"


def test_the_blend_compiled_with_too_little_room_is_refused_where_llvm_would_abort(probe_path, tmp_path):
    # Unchecked, the compile fails in several ways as the room shrinks: a MemoryError or SystemError
    # Python sees, or an abort (std::bad_alloc, "Buffer allocation failed": here with 1, 3 and 15 MiB
    # left; on the H200 machine, where SciPy's OpenBLAS runs 16 threads, a hang).
    probe = [sys.executable, str(probe_path("address_space_probe.py")), "compile"]
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    failed = [
        h for h in range(1, 23, 2) if _unchecked_outcome([*probe, str(h), "unchecked"], env) in ("aborted", "hung")
    ]
    assert failed, "no room left made the unchecked compile abort or hang: the test would not see a missing check"
    for headroom in failed:
        checked = subprocess.run(
            [*probe, str(headroom), "checked"], capture_output=True, text=True, timeout=120, env=env
        )
        assert checked.returncode == 0 and checked.stderr == "", checked.stderr
        assert checked.stdout.startswith("short: the limit on memory (ulimit -v ")
        assert checked.stdout.endswith(
            ") leaves too little room to compile the CPU reference's blend (32 MiB more): raise it\n"
        )


def test_the_blend_compiles_within_its_room(probe_path, tmp_path):
    probe = [sys.executable, str(probe_path("address_space_probe.py")), "compile"]
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    for _ in range(2):  # compiled, then loaded from the cache
        taken = subprocess.run([*probe, "0", "measure"], capture_output=True, text=True, timeout=120, env=env)
        assert 4 * MIB < int(taken.stdout) <= COMPILE_ROOM, taken.stderr
    room = subprocess.run([*probe, str(COMPILE_ROOM // MIB), "checked"], capture_output=True, text=True, env=env)
    assert room.stdout == "done\n", room.stdout + room.stderr


def test_scipys_blas_loads_within_its_room(repo_root):
    # Where SciPy is installed, Numba loads its BLAS at the first compile: with one OpenBLAS thread, as
    # the command asks under a limit, 82 MiB. Without room, OpenBLAS looped for good (SIGTERM unheard).
    code = (
        "import importlib.util, os, re, sys\n"
        "os.environ['OPENBLAS_NUM_THREADS'] = '1'\n"
        "def size(field):\n"
        "    return int(re.search(field + r':\\s+(\\d+)', open('/proc/self/status').read()).group(1)) * 1024\n"
        "import numba\n"
        "if importlib.util.find_spec('scipy') is None:\n"
        "    sys.exit('no SciPy')\n"
        "before = size('VmSize')\n"
        "import numba.np.arraymath\n"
        "print(size('VmPeak') - before)\n"
    )
    result = _python(code, repo_root)
    if result.stderr == "no SciPy\n":
        pytest.skip("SciPy is not installed here")
    assert 16 * MIB < int(result.stdout) <= SCIPY_BLAS_ROOM, result.stderr


def test_a_blend_compiled_already_checks_no_room_again(monkeypatch):
    # The app compiles at every scene it loads: once compiled, a later load under a tight limit must
    # not be refused for room nothing will take.
    from render.circles import flat_blend

    flat_blend.compile_now()

    def refuse(need, purpose):
        raise AssertionError(f"checked again: {purpose}")

    monkeypatch.setattr(flat_blend, "ensure_room", refuse)
    flat_blend.compile_now()

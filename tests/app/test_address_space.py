"""The limit on address space (``ulimit -v``) where the app's window loads: imgui_bundle's C++
set-up aborts the process where an allocation fails as it loads, so the app first checks that the
room it needs is there; and the one line each command prints where a check refuses. Each limit is
set in a process of its own."""

import os
import signal
import subprocess
import sys

from app.entry import COMMAND_LINE_ROOM
from app.launch import WINDOW_ROOM
from render.core.address_space import MIB

LIMIT = 32 << 30  # far above what the commands take, so that only the room asked for decides


def _probe(probe_path, headroom: int, mode: str) -> subprocess.CompletedProcess:
    command = [sys.executable, str(probe_path("address_space_probe.py")), "window", str(headroom), mode]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def test_the_window_loaded_with_too_little_room_is_refused_where_imgui_would_abort(probe_path):
    # Unchecked, the import fails in one of several ways as the room shrinks: a library's segment
    # not mapped, a MemoryError, or (here, with 56-63 MiB left) nanobind's abort.
    aborted = [h for h in range(40, 82, 2) if _probe(probe_path, h, "unchecked").returncode == -signal.SIGABRT]
    assert aborted, "no room left aborted the unchecked import: the test would not see a missing check"
    for headroom in aborted:
        checked = _probe(probe_path, headroom, "checked")
        assert checked.returncode == 0 and checked.stdout.startswith("short: the limit on memory"), checked.stderr
        assert "leaves too little room to open the window (1152 MiB more): raise it" in checked.stdout


def test_the_window_loads_within_its_room(probe_path):
    taken = _probe(probe_path, 0, "measure")
    assert 16 * MIB < int(taken.stdout) <= WINDOW_ROOM, taken.stderr
    loaded = _probe(probe_path, WINDOW_ROOM // MIB + 8, "checked")
    assert loaded.stdout == "done\n", loaded.stdout + loaded.stderr


def _main_with_room(repo_root, module: str, constant: str, args: list[str], cwd, first: str = "", env=None):
    """main.py run with ``args`` under LIMIT, where ``module.constant``, the room a step checks for,
    is more than the limit; ``first``, a line of Python, runs before."""
    code = (
        "import importlib, resource, runpy, sys\n"
        f"sys.path.insert(0, {str(repo_root)!r})\n"
        f"resource.setrlimit(resource.RLIMIT_AS, ({LIMIT}, resource.getrlimit(resource.RLIMIT_AS)[1]))\n"
        f"setattr(importlib.import_module({module!r}), {constant!r}, {2 * LIMIT})\n"
        f"{first}\n"
        f"sys.argv = ['main.py', *{args!r}]\n"
        f"runpy.run_path({str(repo_root / 'main.py')!r}, run_name='__main__')\n"
    )
    command = [sys.executable, "-c", code]
    return subprocess.run(command, capture_output=True, text=True, cwd=cwd, timeout=120, env=env)


def test_render_says_in_one_line_that_the_limit_leaves_no_room_to_compile(repo_root, tmp_path):
    args = ["render", "--scene", "rand10k", "--size", "64", "--backend", "cpu", "--out", "out/r.png"]
    (tmp_path / "out").mkdir()
    # A cache of its own, which a compile before the check would have written to.
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    result = _main_with_room(repo_root, "render.circles.flat_blend", "COMPILE_ROOM", args, tmp_path, env=env)
    assert result.returncode == 1
    assert not (tmp_path / "cache").exists() or list((tmp_path / "cache").rglob("*.nbi")) == []
    assert result.stderr.splitlines()[-1] == (
        f"error: the limit on memory (ulimit -v {LIMIT // 1024}) leaves too little room to compile the CPU "
        f"reference's blend ({2 * LIMIT // MIB} MiB more): raise it"
    )
    assert "Traceback" not in result.stderr and list((tmp_path / "out").iterdir()) == []


def test_gui_says_in_one_line_that_the_limit_leaves_no_room_for_the_window(repo_root, tmp_path):
    args = ["gui", "--headless", "--backend", "cpu", "--no-settings", "--frames", "2", "--screenshot", "s.png"]
    # imgui_bundle made unimportable shows that the check comes first: after it, the line would name it.
    first = "sys.modules['imgui_bundle'] = None"
    result = _main_with_room(repo_root, "app.launch", "WINDOW_ROOM", args, tmp_path, first)
    assert result.returncode == 1
    assert result.stderr.splitlines()[-1] == (
        f"error: the limit on memory (ulimit -v {LIMIT // 1024}) leaves too little room to open the window "
        f"({2 * LIMIT // MIB} MiB more): raise it"
    )
    assert "Traceback" not in result.stderr and list(tmp_path.iterdir()) == []


def test_the_command_line_says_the_limit_leaves_no_room_before_numpy_loads(repo_root, tmp_path):
    # NumPy's OpenBLAS ends the process where its buffer finds no room ("OpenBLAS error: Memory
    # allocation still failed after 10 retries, giving up.", exit 1, at 70,000-95,000 KB). NumPy
    # made unimportable shows that the check comes first: after it, the line would name NumPy.
    code = (
        "import resource, runpy, sys\n"
        f"sys.path.insert(0, {str(repo_root)!r})\n"
        f"resource.setrlimit(resource.RLIMIT_AS, ({LIMIT}, resource.getrlimit(resource.RLIMIT_AS)[1]))\n"
        "import app.entry\n"
        f"app.entry.COMMAND_LINE_ROOM = {2 * LIMIT}\n"
        "sys.modules['numpy'] = None\n"
        "sys.argv = ['main.py', '--version']\n"
        f"runpy.run_path({str(repo_root / 'main.py')!r}, run_name='__main__')\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert result.returncode == 1
    assert result.stderr == (
        f"error: the limit on memory (ulimit -v {LIMIT // 1024}) leaves too little room to load the command "
        f"line's libraries ({2 * LIMIT // MIB} MiB more): raise it\n"
    )


def test_the_command_line_loads_within_its_room(repo_root):
    code = (
        "import os, re, sys\n"
        "os.environ['OPENBLAS_NUM_THREADS'] = '1'\n"  # as the entry asks, before NumPy loads
        "def size(field):\n"
        "    return int(re.search(field + r':\\s+(\\d+)', open('/proc/self/status').read()).group(1)) * 1024\n"
        "import app.entry\n"
        "before = size('VmSize')\n"
        "import app.cli\n"
        "print(size('VmPeak') - before)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=repo_root, timeout=120)
    assert 16 * MIB < int(result.stdout) <= COMMAND_LINE_ROOM, result.stderr


def test_the_window_runs_its_first_frames_within_its_room(repo_root, tmp_path):
    # From the check to the end of a short run on the CPU reference: the window's libraries, Mesa's
    # shaders, ImGui's frames and the CPU frames' thread. With less, under a limit, the run aborted
    # in Mesa's LLVM, crashed, or printed OpenGL's out-of-memory tracebacks.
    code = (
        "import atexit, os, re, runpy, sys\n"
        f"sys.path.insert(0, {str(repo_root)!r})\n"
        "def size(field):\n"
        "    return int(re.search(field + r':\\s+(\\d+)', open('/proc/self/status').read()).group(1)) * 1024\n"
        "import app.launch as launch\n"
        # No CuPy either: on a GPU machine CUDA's start, which the app makes to say whether a GPU is
        # usable, reserves 9-14 GB of address space even with no device visible; under a limit it
        # fails, and the app goes on without it.
        "sys.modules['cupy'] = None\n"
        "checked = []\n"
        "real = launch.ensure_room\n"
        "def spy(need, purpose):\n"
        "    checked.append(size('VmSize'))\n"
        "    real(need, purpose)\n"
        "launch.ensure_room = spy\n"
        "atexit.register(lambda: print(size('VmPeak') - checked[0]))\n"
        "sys.argv = ['main.py', 'gui', '--headless', '--backend', 'cpu', '--no-settings', '--frames', '5']\n"
        f"runpy.run_path({str(repo_root / 'main.py')!r}, run_name='__main__')\n"
    )
    # One malloc arena: glibc reserves 64 MiB of address space for each further thread's arena, which
    # it does without where a limit leaves no room, and which grow with the CPUs.
    env = {**os.environ, "MALLOC_ARENA_MAX": "1"}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=300, env=env
    )
    assert 400 * MIB < int(result.stdout.splitlines()[-1]) <= WINDOW_ROOM, result.stderr

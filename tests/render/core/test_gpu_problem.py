"""Why no GPU is usable, where CuPy itself does not load: not installed, or installed with a library
that cannot load (a shared object the limit on address space leaves no room for: CuPy's own
ImportError, pages of advice, or, through its library finder, a RuntimeError). The commands then
run on the CPU reference and say why in one line; each case runs main.py in a process of its own,
with CuPy's import made to fail as it does."""

import os
import subprocess
import sys

import pytest

from render.core.gpu import NVIDIA_DRIVER

FAILING_IMPORT = """
import importlib.abc, runpy, sys
class Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == "cupy":
            {raise_it}
sys.meta_path.insert(0, Refuse())
sys.argv = ["main.py", *sys.argv[1:]]
runpy.run_path("main.py", run_name="__main__")
"""

CAUSED = (
    "try:\n"
    "                raise OSError('libcublasLt.so.13: failed to map segment')\n"
    "            except OSError as e:\n"
)
FAILURES = {
    "not-installed": ("raise ModuleNotFoundError(\"No module named 'cupy'\", name='cupy')", "CuPy is not installed"),
    "import-error": (
        CAUSED + "                raise ImportError('=====\\nFailed to import CuPy.\\n\\nadvice') from e",
        "CuPy did not load (libcublasLt.so.13: failed to map segment)",
    ),
    "runtime-error": (
        CAUSED + "                raise RuntimeError('Failed to dlopen libcublasLt.so.13') from e",
        "CuPy did not load (libcublasLt.so.13: failed to map segment)",
    ),
    "memory-error": ("raise MemoryError()", "CuPy did not load (MemoryError)"),
}


@pytest.mark.parametrize("failure", FAILURES)
def test_cupy_that_does_not_load_leaves_the_cpu_reference_and_one_line(repo_root, tmp_path, failure):
    raise_it, why = FAILURES[failure]
    code = FAILING_IMPORT.format(raise_it=raise_it)
    out = tmp_path / "rgb.png"
    command = [sys.executable, "-c", code, "render", "--scene", "rgb", "--size", "8", "--out", str(out)]
    result = subprocess.run(command, capture_output=True, text=True, cwd=repo_root, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stderr == f"backend: cpu (reference renderer; {why})\n"
    assert out.is_file()


def test_cupy_that_does_not_load_under_gui_is_a_note_and_the_app_runs(repo_root, tmp_path):
    # Before, CuPy's RuntimeError escaped the app's start, and then the command's own look-up of
    # CuPy's error types: two tracebacks.
    raise_it, why = FAILURES["runtime-error"]
    shot = tmp_path / "s.png"
    args = ["gui", "--headless", "--no-settings", "--frames", "2", "--size", "256", "--screenshot", str(shot)]
    code = FAILING_IMPORT.format(raise_it=raise_it)
    result = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=repo_root)
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines()[0] == f"note: CPU reference backend: {why}"
    assert shot.is_file()


@pytest.mark.skipif(os.path.exists(NVIDIA_DRIVER), reason="a machine without an NVIDIA driver")
def test_no_gpu_at_all_is_not_blamed_on_a_limit_on_address_space(repo_root, tmp_path):
    # Before, every command on a machine without a GPU, under a limit, was told to raise the limit.
    code = (
        "import resource, runpy, sys\n"
        "resource.setrlimit(resource.RLIMIT_AS, (32 << 30, resource.getrlimit(resource.RLIMIT_AS)[1]))\n"
        f"sys.argv = ['main.py', 'render', '--scene', 'rgb', '--size', '8', '--out', {str(tmp_path / 'a.png')!r}]\n"
        "runpy.run_path('main.py', run_name='__main__')\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=repo_root, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stderr.startswith("backend: cpu (reference renderer; ") and "ulimit" not in result.stderr

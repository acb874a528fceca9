"""rasterlab run by a Python that lacks its packages (``python3 main.py`` outside the checkout's
environment, the most common slip), or by one too old: one line naming what is missing and how to
get it, never a traceback."""

import ast
import importlib.metadata
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from app import missing_package
from app.missing_package import PACKAGE_OF_MODULE, import_failure


def _declared_packages(repo_root) -> set[str]:
    """pyproject.toml's dependencies and its default CUDA extra's, by name."""
    project = tomllib.loads((repo_root / "pyproject.toml").read_text())["project"]
    requirements = project["dependencies"] + project["optional-dependencies"]["cuda13"]
    return {re.match(r"[A-Za-z0-9_.-]+", requirement).group(0) for requirement in requirements}


def test_every_declared_package_is_known_by_its_module(repo_root):
    assert set(PACKAGE_OF_MODULE.values()) == _declared_packages(repo_root)
    installed = importlib.metadata.packages_distributions()
    checked = [module for module in PACKAGE_OF_MODULE if module in installed]
    assert {"numpy", "PIL", "glfw", "OpenGL", "imgui_bundle", "tqdm", "numba"} <= set(checked)
    for module in checked:
        names = {name.lower() for name in installed[module]}
        assert PACKAGE_OF_MODULE[module].lower() in names, (module, names)


def _python(repo_root, code: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=repo_root, timeout=120
    )


def _main_without(repo_root, module: str, *args: str) -> subprocess.CompletedProcess:
    """main.py run with ``args`` where ``module`` cannot be imported, as if it were not installed."""
    code = (
        "import runpy, sys\n"
        f"sys.modules[{module!r}] = None\n"  # its import raises ModuleNotFoundError, as a missing one's does
        "sys.argv = ['main.py', *sys.argv[1:]]\n"
        "runpy.run_path('main.py', run_name='__main__')\n"
    )
    return _python(repo_root, code, *args)


@pytest.mark.parametrize(("module", "called"), [("numpy", "numpy"), ("PIL", "pillow (module PIL)"), ("tqdm", "tqdm")])
def test_a_package_the_command_line_needs_missing_is_one_line(repo_root, module, called):
    result = _main_without(repo_root, module, "render", "--scene", "rgb", "--size", "8", "--out", "-")
    assert result.returncode == 1 and result.stdout == "" and "Traceback" not in result.stderr
    # NumPy and Pillow are missed as the command line loads, tqdm once the render has begun.
    assert (
        result.stderr.splitlines()[-1] == f"error: the package {called} is not installed in {sys.executable}: {_hint()}"
    )


def test_the_window_s_package_missing_is_one_line(repo_root, tmp_path):
    args = [
        "gui",
        "--headless",
        "--backend",
        "cpu",
        "--no-settings",
        "--frames",
        "1",
        "--screenshot",
        str(tmp_path / "s.png"),
    ]
    result = _main_without(repo_root, "imgui_bundle", *args)
    assert result.returncode == 1 and list(tmp_path.iterdir()) == []
    assert result.stderr.splitlines()[-1] == (
        f"error: the package imgui-bundle (module imgui_bundle) is not installed in {sys.executable}: {_hint()}"
    )


def test_a_python_started_without_its_site_packages_is_told_so(repo_root):
    # -S: no site-packages. Before, the line said NumPy was not installed in this Python, which has it.
    result = subprocess.run(
        [sys.executable, "-S", "main.py", "render", "--scene", "rgb"], capture_output=True, text=True, cwd=repo_root
    )
    assert result.returncode == 1
    assert result.stderr == (
        f"error: the package numpy cannot be found: {sys.executable} was started without its site-packages (-S)\n"
    )


def _hint() -> str:
    return missing_package._setup_hint()


def test_the_hint_points_to_the_checkout_s_environment_where_another_python_runs(tmp_path, monkeypatch):
    monkeypatch.setattr(missing_package, "CHECKOUT", tmp_path)
    assert _hint() == "install the requirements (pip install -r requirements.txt in the checkout)"
    (tmp_path / ".venv").mkdir()
    (tmp_path / ".venv" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    assert _hint() == f"activate the checkout's environment first (. {tmp_path}/.venv/bin/activate)"
    monkeypatch.setattr(sys, "prefix", str(tmp_path / ".venv"))
    assert _hint() == "install the requirements (pip install -r requirements.txt in the checkout)"


def test_lines_for_each_kind_of_import_failure(monkeypatch):
    monkeypatch.setattr(missing_package, "_setup_hint", lambda: "HINT")
    python = sys.executable

    def missing(name):
        return ModuleNotFoundError(f"No module named {name!r}", name=name)

    assert (
        import_failure(missing("OpenGL")) == f"the package PyOpenGL (module OpenGL) is not installed in {python}: HINT"
    )
    assert import_failure(missing("numpy._core")) == (
        f"the package numpy is incomplete in {python} (no module numpy._core): HINT"
    )
    assert import_failure(missing("render.circles.tile_warp")) == (
        "rasterlab's own module render.circles.tile_warp is missing: "
        "the installation is incomplete (pip install -e . again)"
    )
    assert import_failure(missing("llvmlite")) == (
        f"cannot load a library: No module named 'llvmlite': a package is incomplete in {python}; HINT"
    )
    assert import_failure(ImportError("libGL.so.1: cannot open shared object file", name="x")) == (
        "cannot load a library: libGL.so.1: cannot open shared object file"
    )
    partial = ImportError("cannot import name 'GL' from 'OpenGL' (/x/OpenGL/__init__.py)", name="OpenGL")
    assert import_failure(partial) == (
        f"the package PyOpenGL is incomplete in {python} (cannot import name 'GL' from 'OpenGL' "
        "(/x/OpenGL/__init__.py)): HINT"
    )


def test_a_python_older_than_3_11_is_told_in_one_line(repo_root):
    code = (
        "import runpy, sys\n"
        "sys.version_info = (3, 10, 13, 'final', 0)\n"
        "runpy.run_path('main.py', run_name='__main__')\n"
    )
    result = _python(repo_root, code)
    assert result.returncode == 1
    assert result.stderr == f"error: rasterlab needs Python 3.11 or newer; {sys.executable} is Python 3.10\n"


FAILING_IMPORT = """
import importlib.abc, runpy, sys
class Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == {module!r}:
            {raise_it}
sys.meta_path.insert(0, Refuse())
sys.argv = ["main.py", "render", "--scene", "rgb", "--size", "8", "--out", "-"]
runpy.run_path("main.py", run_name="__main__")
"""


@pytest.mark.parametrize(
    ("module", "raise_it", "line"),
    [
        (
            "numpy",
            "raise RuntimeError('NumPy was built with baseline optimizations (X86_V2)\\nbut this machine lacks them')",
            "cannot load the command line's libraries (RuntimeError: NumPy was built with baseline optimizations "
            "(X86_V2))",
        ),
        (
            "PIL",
            "raise OSError('libjpeg.so.8: cannot open shared object file')",
            "cannot load the command line's libraries (OSError: libjpeg.so.8: cannot open shared object file)",
        ),
        ("numpy", "raise MemoryError()", "not enough memory to load the command line's libraries (MemoryError)"),
        (
            "numpy",
            "raise ImportError('\\nIMPORTANT: PLEASE READ THIS FOR ADVICE\\n...') "
            "from OSError('_umath_linalg.so: failed to map segment from shared object')",
            "cannot load a library: _umath_linalg.so: failed to map segment from shared object",
        ),
    ],
    ids=["runtime-error", "os-error", "memory-error", "numpy-advice"],
)
def test_a_library_that_fails_as_the_command_line_loads_is_one_line(repo_root, module, raise_it, line):
    # Before, anything but an ImportError printed a traceback, and NumPy's own ImportError, pages of
    # advice blaming the installation, was printed whole on one line.
    result = _python(repo_root, FAILING_IMPORT.format(module=module, raise_it=raise_it))
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr == f"error: {line}\n"


def test_out_of_memory_even_for_the_error_line_is_one_line(repo_root):
    # With about 456,000 KB of address space, the handler of a MemoryError ran out of memory making
    # its own line: a traceback.
    code = (
        "import runpy, sys\n"
        "import app.cli\n"
        "def out_of_memory(*args):\n"
        "    raise MemoryError()\n"
        "app.cli.main = out_of_memory\n"
        "sys.argv = ['main.py', '--version']\n"
        "runpy.run_path('main.py', run_name='__main__')\n"
    )
    result = _python(repo_root, code)
    assert result.returncode == 1
    assert result.stderr == "error: not enough memory to go on\n"


def test_main_py_parses_in_python_3_4():
    # Its version check must run in the Pythons it refuses: ast refuses the syntax later versions
    # brought (f-strings, annotations, :=, match) where asked to parse as 3.4.
    ast.parse(Path(missing_package.CHECKOUT, "main.py").read_text(), feature_version=(3, 4))


def test_older_pythons_where_present_refuse_in_one_line(repo_root):
    # The same in real interpreters, where the machine has them (pyenv's); the test above stands for
    # them elsewhere.
    found = sorted(Path("/root/.pyenv/versions").glob("[23].*/bin/python")) if os.access("/root", os.X_OK) else []
    old = [python for python in found if not python.parent.parent.name.startswith(("3.11", "3.12", "3.13", "3.14"))]
    if not old:
        pytest.skip("no Python older than 3.11 on this machine")
    for python in old:
        result = subprocess.run([str(python), "main.py", "--version"], capture_output=True, text=True, cwd=repo_root)
        assert result.returncode == 1, python
        assert result.stderr.startswith("error: rasterlab needs Python 3.11 or newer; "), result.stderr


def test_the_entry_that_cannot_load_is_one_line(repo_root):
    # Under ulimit -v 15,000-20,000 the entry's own modules (the math module's shared object) did
    # not load: a traceback from main.py.
    code = "import runpy, sys\nsys.modules['app.entry'] = None\nrunpy.run_path('main.py', run_name='__main__')\n"
    result = _python(repo_root, code)
    assert result.returncode == 1
    assert result.stderr == "error: cannot start rasterlab: import of app.entry halted; None in sys.modules\n"


@pytest.mark.parametrize(
    ("module", "raise_it", "line"),
    [
        ("numba", "raise RuntimeError('blocked numba')", "cannot load a library (RuntimeError: blocked numba)"),
        # A ValueError is what Numba's import raises for a NUMBA_* variable it refuses (NUMBA_NUM_THREADS=0).
        (
            "numba",
            "raise ValueError('blocked numba')",
            "the CPU reference cannot run: Numba did not load (blocked numba)",
        ),
    ],
)
def test_a_library_a_command_loads_that_fails_as_it_loads_is_one_line(repo_root, tmp_path, module, raise_it, line):
    # Numba loads once the render has begun: a RuntimeError or another error from its import was a
    # traceback.
    code = FAILING_IMPORT.format(module=module, raise_it=raise_it).replace(
        '"--out", "-"', f'"--backend", "cpu", "--out", {str(tmp_path / "a.png")!r}'
    )
    result = _python(repo_root, code)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.splitlines()[-1] == f"error: {line}"
    assert list(tmp_path.iterdir()) == []

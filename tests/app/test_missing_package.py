"""rasterlab run by a Python that lacks its packages (``python3 main.py`` outside the checkout's
environment, the most common slip), or by one too old: one line naming what is missing and how to
get it, never a traceback."""

import importlib.metadata
import re
import subprocess
import sys
import tomllib

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


def test_a_python_without_site_packages_is_told_what_is_missing(repo_root):
    # -S: no site-packages, as a Python other than the environment's would have none of rasterlab's.
    result = subprocess.run(
        [sys.executable, "-S", "main.py", "render", "--scene", "rgb"], capture_output=True, text=True, cwd=repo_root
    )
    assert result.returncode == 1
    assert re.fullmatch(r"error: the package numpy is not installed in .+: .+\n", result.stderr), result.stderr


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


def test_a_python_older_than_3_11_is_told_in_one_line(repo_root):
    code = (
        "import runpy, sys\n"
        "sys.version_info = (3, 10, 13, 'final', 0)\n"
        "runpy.run_path('main.py', run_name='__main__')\n"
    )
    result = _python(repo_root, code)
    assert result.returncode == 1
    assert result.stderr == f"error: rasterlab needs Python 3.11 or newer; {sys.executable} is Python 3.10\n"

"""The one line for a library that does not import: most often rasterlab run by a Python that lacks
its packages (``python3 main.py`` outside the checkout's environment), or an installation that
lost a file."""

from __future__ import annotations

import sys
from pathlib import Path

from render.core.address_space import limit_note
from render.core.gpu import first_line

# The module each of rasterlab's packages (pyproject.toml's dependencies and CUDA extras) is
# imported as, by the name pip installs it under; a test holds the two lists equal.
PACKAGE_OF_MODULE = {
    "numpy": "numpy",
    "PIL": "pillow",
    "glfw": "glfw",
    "OpenGL": "PyOpenGL",
    "imgui_bundle": "imgui-bundle",
    "tqdm": "tqdm",
    "numba": "numba",
    "cupy": "cupy-cuda13x",
    "cuda": "cuda-bindings",
}
OWN_MODULES = ("app", "render", "scenes", "shaders")
CHECKOUT = Path(__file__).resolve().parents[1]


def _setup_hint() -> str:
    """How to get the packages: the checkout's own environment where this Python is not it, else
    the README's install."""
    environment = CHECKOUT / ".venv"
    if (environment / "pyvenv.cfg").is_file() and Path(sys.prefix).resolve() != environment.resolve():
        return f"activate the checkout's environment first (. {environment}/bin/activate)"
    return "install the requirements (pip install -r requirements.txt in the checkout)"


def import_failure(error: ImportError) -> str:
    """The one line (without ``error:``) for ``error``: which package is missing or broken, in this
    Python, and how to get it, where the module is one of rasterlab's packages or its own; else the
    error's own text."""
    name = error.name or ""
    top = name.partition(".")[0]
    if not isinstance(error, ModuleNotFoundError) or not top:
        package = PACKAGE_OF_MODULE.get(top)
        if package is not None and str(error).startswith("cannot import name"):
            return (
                f"the package {package} is incomplete in {sys.executable or 'this Python'} ({error}): {_setup_hint()}"
            )
        # NumPy's and CuPy's own ImportErrors are pages of advice, raised from the error that says what failed.
        return f"cannot load a library: {first_line(error.__cause__ or error)}"
    if top in OWN_MODULES:
        return f"rasterlab's own module {name} is missing: the installation is incomplete (pip install -e . again)"
    package = PACKAGE_OF_MODULE.get(top)
    python = sys.executable or "this Python"
    if package is None:
        return f"cannot load a library: {error}: a package is incomplete in {python}; {_setup_hint()}"
    if name != top:
        return f"the package {package} is incomplete in {python} (no module {name}): {_setup_hint()}"
    called = package if package == top else f"{package} (module {top})"
    if sys.flags.no_site:
        return f"the package {called} cannot be found: {python} was started without its site-packages (-S)"
    return f"the package {called} is not installed in {python}: {_setup_hint()}"


def load_failure(error: Exception) -> str:
    """The one line (without ``error:``) for a failure to load the command line's libraries: a
    missing or broken package (``import_failure``), one that ran out of memory as it loaded, or one
    that failed otherwise."""
    if isinstance(error, ImportError):
        line = import_failure(error)
    elif isinstance(error, MemoryError | SystemError):
        line = f"not enough memory to load the command line's libraries ({named(error)})"
    else:
        line = f"cannot load the command line's libraries ({named(error)})"
    return line + limit_note()


def named(error: BaseException) -> str:
    """``Type: first line of its text``, or the type alone where it says nothing."""
    text, kind = first_line(error), type(error).__name__
    return kind if text == kind else f"{kind}: {text}"

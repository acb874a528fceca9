"""The app as the GPU probes run it: offscreen through EGL on the CUDA backend, its config and exports
in a new temporary folder. Import it after setting PYOPENGL_PLATFORM=egl."""

import os
import tempfile
from pathlib import Path

from app.session import Session
from app.settings import Settings
from app.surfaces import EglSurface
from app.window import App


def offscreen_app(scene: str, size: int, variant: str = "auto") -> tuple[App, str]:
    """(the app showing ``scene`` at ``size`` with ``variant``, its temporary folder)."""
    folder = tempfile.mkdtemp()
    os.environ["RASTERLAB_CONFIG_DIR"] = str(Path(folder) / "config")
    settings = Settings(scene=scene, size=size, variant=variant, vsync=False, export_folder=folder)
    return App(EglSurface(900, 700), Session(settings, backend="cuda")), folder

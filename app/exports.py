"""Exporting the shown frame as a PNG at render resolution, never over an existing file."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from app.export_folder import MissingFolder, check_folder
from render.core.image_io import png_encoder, to_rgb8
from render.core.overlay import Overlay
from render.core.overlay_picture import overlay_picture
from scenes.safe_write import OutputError, write_new_file


def safe_name(text: str) -> str:
    """``text`` with every run of characters other than letters, digits, ``.`` and ``-`` made ``_``."""
    return re.sub(r"[^A-Za-z0-9.-]+", "_", text)


def export_name(scene: str, variant: str, frame: int) -> str:
    """``<scene>_<variant>_<frame>.png`` with the variant's options made file-name safe."""
    return f"{Path(scene).stem}_{safe_name(variant.replace('=', '-'))}_{frame:04d}.png"


def export_png(
    image: np.ndarray, folder: str, name: str, overlay: Overlay | None = None
) -> tuple[Path | MissingFolder | None, str]:
    """Write ``image`` float32 (H, W, 4), row 0 = bottom (with ``overlay`` over it and its legend
    under it, when given), as ``folder/name`` (or the next free ``-N`` name); returns the path
    written, the folder when it does not exist (it is not made here: the user is asked first), or
    None, and the status line saying what happened."""
    target, missing, problem = check_folder(folder)
    if problem:
        return None, f"export failed: cannot write to {target}: {problem}"
    if missing:
        return missing, missing.status()
    try:
        pixels = to_rgb8(image) if overlay is None else overlay_picture(image, overlay)
        path = write_new_file(target / name, png_encoder(pixels))
    except OutputError as error:
        return None, f"export failed: {error}"
    except OSError as error:  # the folder went away, or refused the file
        return None, f"export failed: cannot write to {target}: {error.strerror or error}"
    return path, f"saved {path}"

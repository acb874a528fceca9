"""The files of a recording, in the app and on the command line: one PNG per frame,
``frame_00012.png`` (the real frame number), and an animated GIF of them.

The GIF plays at GIF_FPS and loops forever; each frame gets its own adaptive 256-colour palette
(Pillow's), so it is close to the PNGs but not equal to them. Pillow holds every GIF frame in
memory until the file is written, so a long recording of a large render is scaled down in the GIF
(never in the PNGs) to keep its frames within GIF_MAX_BYTES.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import BinaryIO

import numpy as np

from app.exports import export_name
from render.core.image_io import write_png_rgb8
from scenes.safe_write import NEW_FILE, Placement, write_output

# 25 frames a second is 40 ms a frame, which a GIF (counting in hundredths of a second) keeps exactly.
GIF_FPS = 25
GIF_MAX_BYTES = 256 * 2**20  # of 8-bit palette pixels, over all the GIF's frames


def recording_name(scene: str, label: str, first: int, last: int) -> str:
    """``<scene>_<variant>_<first>-<last>``: the export name of the first frame, plus the last."""
    return f"{Path(export_name(scene, label, first)).stem}-{last:04d}"


def frame_file_name(frame: int) -> str:
    """``frame_00012.png`` for frame 12."""
    return f"frame_{frame:05d}.png"


def make_new_folder(parent: str | Path, name: str) -> Path:
    """Make ``parent/name``, or ``name-2``, ``name-3``, ... when the name is taken (by anything, even
    something made meanwhile: the folder is claimed in one step) in the folder ``parent``, which
    must exist. Returns the folder made; raises OSError when none can be."""
    parent = Path(parent).expanduser()
    number = 1
    while True:
        folder = parent / (name if number == 1 else f"{name}-{number}")
        try:
            folder.mkdir()
            return folder
        except FileExistsError:
            number += 1


def write_frame(folder: Path, frame: int, pixels: np.ndarray, how: Placement = NEW_FILE) -> Path:
    """Save ``pixels`` uint8 (H, W, 3), row 0 = top, as ``folder/frame_NNNNN.png``, placed as
    ``how`` says (by default never over an existing file); raises OutputError when it cannot."""
    return Path(write_png_rgb8(pixels, folder / frame_file_name(frame), how))


def gif_side(side: int, frames: int) -> int:
    """The GIF's width and height for ``frames`` frames rendered at ``side`` x ``side``: the same,
    unless that would take more than GIF_MAX_BYTES."""
    return max(1, min(side, math.isqrt(GIF_MAX_BYTES // max(frames, 1))))


def gif_encoder(frame_files: Sequence[Path], fps: int = GIF_FPS) -> Callable[[BinaryIO], None]:
    """A function writing the PNGs ``frame_files`` (square, all one size) as an animated GIF to a
    binary stream, at ``fps`` frames a second, looping forever. The PNGs are read as it goes."""
    from PIL import Image

    if not frame_files:
        raise ValueError("a GIF needs at least one frame")

    def frames(side: int):
        for path in frame_files:
            with Image.open(path) as picture:
                rgb = picture.convert("RGB")
            yield rgb if rgb.width == side else rgb.resize((side, side), Image.Resampling.BOX)

    def write(stream: BinaryIO) -> None:
        with Image.open(frame_files[0]) as first:
            side = gif_side(first.width, len(frame_files))
        pictures = frames(side)
        # Identical frames in a row become one frame shown for their total time (Pillow merges them).
        next(pictures).save(stream, format="GIF", save_all=True, append_images=pictures, duration=1000 // fps, loop=0)

    return write


def write_gif(frame_files: Sequence[Path], path: str | Path, how: Placement = NEW_FILE) -> Path:
    """The animated GIF of ``frame_files`` (see ``gif_encoder``) at ``path``, placed as ``how``
    says; returns the path written (another name when ``how.next_free`` and the name is taken)."""
    return Path(write_output(path, gif_encoder(frame_files), how))


def remove_if_empty(folder: Path) -> None:
    """Remove ``folder`` when nothing is in it (a recording that wrote no frame); else keep it."""
    try:
        os.rmdir(folder)
    except OSError:
        pass  # not empty (a file was written there meanwhile), or already gone: left as it is

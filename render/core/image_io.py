"""Writing rendered images: PNG the way the course's PPM writer quantizes, and raw float32 arrays.

Every writer places its file through ``scenes.safe_write.write_output`` as its ``Placement`` says: a
new regular file whole or not at all, an existing one replaced only with permission, or a stream
(``-``, a FIFO, ``/dev/null``) written into. Failures raise ``scenes.safe_write.OutputError``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

import numpy as np

from render.core.renderer import image_top_down
from scenes.safe_write import NEW_FILE, Placement, write_output

QUANTIZE_BAND_ROWS = 512


def quantize_rgb8(image: np.ndarray) -> np.ndarray:
    """uint8 (H, W, 3) in the image's row order, each channel trunc(255 * clamp(v, 0, 1)).

    image: float32 (H, W, 4). NaN maps to 0. The display's GPU kernel (shaders/to_rgba8.cu)
    applies the same rule.
    """
    out = np.empty((*image.shape[:2], 3), np.uint8)
    # In bands of rows: a 16384-square image is 1 GiB of floats, and a signal is only acted on between
    # NumPy calls, so one call over all of it would hold Ctrl-C off for seconds.
    for top in range(0, image.shape[0], QUANTIZE_BAND_ROWS):
        band = slice(top, top + QUANTIZE_BAND_ROWS)
        rgb = np.nan_to_num(image[band, :, :3], nan=0.0)
        out[band] = (np.float32(255) * np.clip(rgb, np.float32(0), np.float32(1))).astype(np.uint8)
    return out


def rgb8(image: np.ndarray) -> np.ndarray:
    """uint8 (H, W, 3): a float32 (H, W, 4) image quantized, or the RGB of a uint8 (H, W, 4) one."""
    return image[..., :3] if image.dtype == np.uint8 else quantize_rgb8(image)


def to_rgb8(image: np.ndarray) -> np.ndarray:
    """uint8 (H, W, 3), top row = top of the picture; ``image`` float32 (H, W, 4), row 0 = bottom."""
    return image_top_down(quantize_rgb8(image))


def write_text_file(text: str, path: str | Path, how: Placement = NEW_FILE) -> str:
    """Save ``text`` as UTF-8 (reports, JSON figures); see ``scenes.safe_write.write_output``."""
    return write_output(path, lambda stream: stream.write(text.encode()), how)


def write_png(image: np.ndarray, path: str | Path, how: Placement = NEW_FILE) -> str:
    """Save ``image`` float32 (H, W, 4), row 0 = bottom, as an 8-bit RGB PNG."""
    return write_png_rgb8(to_rgb8(image), path, how)


def write_png_rgb8(pixels: np.ndarray, path: str | Path, how: Placement = NEW_FILE) -> str:
    """Save ``pixels`` uint8 (H, W, 3), row 0 = top, as a PNG."""
    return write_output(path, png_encoder(pixels), how)


def png_encoder(pixels: np.ndarray) -> Callable[[BinaryIO], None]:
    """A function writing ``pixels`` uint8 (H, W, 3), row 0 = top, as PNG to a binary stream."""
    from PIL import Image

    picture = Image.fromarray(pixels, "RGB")
    return lambda stream: picture.save(stream, format="PNG")


def write_raw(image: np.ndarray, path: str | Path, how: Placement = NEW_FILE) -> str:
    """Save ``image`` as float32 (H, W, 4) RGBA .npy, unclamped, row 0 = top of the picture."""
    return write_raw_top_down(image_top_down(image.astype(np.float32, copy=False)), path, how)


def write_raw_top_down(data: np.ndarray, path: str | Path, how: Placement = NEW_FILE) -> str:
    """Save ``data`` float32 (H, W, 4), already row 0 = top, as .npy."""
    return write_output(path, lambda stream: np.save(stream, np.asarray(data, np.float32)), how)


def write_values(values: np.ndarray, path: str | Path, how: Placement = NEW_FILE) -> str:
    """Save ``values`` (rows, cols), row 0 = bottom, as .npy of their own dtype with row 0 = top."""
    top_down = np.ascontiguousarray(values[::-1])
    return write_output(path, lambda stream: np.save(stream, top_down), how)

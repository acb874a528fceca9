"""Writing rendered images: PNG the way the course's PPM writer quantizes, and raw float32 arrays.

Both write to a temporary file in the target folder and rename it, so a failure never leaves a
partial file behind.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from render.base import image_top_down
from scenes.safe_write import write_atomically


class ExportError(OSError):
    """The image could not be written; the message names the path and the reason."""


def quantize_rgb8(image: np.ndarray) -> np.ndarray:
    """uint8 (H, W, 3) in the image's row order, each channel trunc(255 * clamp(v, 0, 1)).

    image: float32 (H, W, 4). NaN maps to 0. The display's GPU kernel (shaders/to_rgba8.cu)
    applies the same rule.
    """
    rgb = np.nan_to_num(image[..., :3], nan=0.0)
    scaled = np.float32(255) * np.clip(rgb, np.float32(0), np.float32(1))
    return scaled.astype(np.uint8)


def rgb8(image: np.ndarray) -> np.ndarray:
    """uint8 (H, W, 3): a float32 (H, W, 4) image quantized, or the RGB of a uint8 (H, W, 4) one."""
    return image[..., :3] if image.dtype == np.uint8 else quantize_rgb8(image)


def to_rgb8(image: np.ndarray) -> np.ndarray:
    """uint8 (H, W, 3), top row = top of the picture; ``image`` float32 (H, W, 4), row 0 = bottom."""
    return image_top_down(quantize_rgb8(image))


def _atomic_write(path: Path, write) -> Path:
    try:
        return write_atomically(path, write)
    except OSError as error:
        # NumPy reports a short write without an errno: "N requested and M written".
        reason = error.strerror or f"the disk took only part of the data ({error})"
        raise ExportError(f"cannot write {path}: {reason}") from None


def write_text_file(text: str, path: str | Path) -> Path:
    """Save ``text`` as UTF-8 (reports, JSON figures) without ever leaving a partial file."""
    return _atomic_write(Path(path), lambda stream: stream.write(text.encode()))


def write_png(image: np.ndarray, path: str | Path) -> Path:
    """Save ``image`` float32 (H, W, 4), row 0 = bottom, as an 8-bit RGB PNG."""
    return write_png_rgb8(to_rgb8(image), path)


def write_png_rgb8(pixels: np.ndarray, path: str | Path) -> Path:
    """Save ``pixels`` uint8 (H, W, 3), row 0 = top, as a PNG."""
    from PIL import Image

    picture = Image.fromarray(pixels, "RGB")
    return _atomic_write(Path(path), lambda stream: picture.save(stream, format="PNG"))


def write_raw(image: np.ndarray, path: str | Path) -> Path:
    """Save ``image`` as float32 (H, W, 4) RGBA .npy, unclamped, row 0 = top of the picture."""
    return write_raw_top_down(image_top_down(image.astype(np.float32, copy=False)), path)


def write_raw_top_down(data: np.ndarray, path: str | Path) -> Path:
    """Save ``data`` float32 (H, W, 4), already row 0 = top, as .npy."""
    return _atomic_write(Path(path), lambda stream: np.save(stream, np.asarray(data, np.float32)))

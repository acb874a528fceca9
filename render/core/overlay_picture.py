"""An overlay drawn over its picture: the values through the turbo colour map, or the grid of
cells, and under the picture a legend strip (the colour bar with its min and max, the unit and the
statistics, or the grid's cell size)."""

from __future__ import annotations

import numpy as np

from render.core.image_io import to_rgb8
from render.core.overlay import Overlay, figure, overlay_stats

# Turbo (Mikhailov, 2019) as the degree-5 polynomial fit of Du: red, green and blue, each as the
# coefficients of x^0 ... x^5 for x in [0, 1].
TURBO = np.array(
    [
        [0.13572138, 4.61539260, -42.66032258, 132.13108234, -152.94239396, 59.28637943],
        [0.09140261, 2.19418839, 4.84296658, -14.18503333, 4.27729857, 2.82956604],
        [0.10667330, 12.64194608, -60.58204836, 110.36276771, -89.90310912, 27.34824973],
    ]
)
HEAT_SHARE = 179  # of 256: how much of a pixel the colour map takes; the picture shows through the rest
GRID_SHARE = 160  # of 256: how white the grid's lines are
LEGEND_HEIGHT = 62  # the colour bar, then three lines: min and max, the unit, the statistics
LINE_HEIGHT = 14  # a legend line's advance: a line too long for the picture's width wraps onto more
MIN_WIDTH = 360  # narrower pictures get a wider canvas, so that the legend's text fits
BAND_ROWS = 1024  # rows coloured at a time: a 16384-wide picture's heat is 48 MiB a band
INK, PAPER = (0, 0, 0), (255, 255, 255)


def turbo(x: np.ndarray) -> np.ndarray:
    """uint8 (..., 3): the colour of each value of ``x`` (float, any shape), clamped to [0, 1]."""
    powers = np.clip(np.asarray(x, np.float64), 0, 1)[..., None] ** np.arange(6)
    return np.round(np.clip(powers @ TURBO.T, 0, 1) * 255).astype(np.uint8)


def overlay_picture(image: np.ndarray, overlay: Overlay) -> np.ndarray:
    """uint8 (H + L, max(W, MIN_WIDTH), 3), row 0 = top: ``image`` float32 (H, W, 4), row 0 =
    bottom, with ``overlay`` over it and its legend under it, L = LEGEND_HEIGHT plus LINE_HEIGHT
    for each line the legend's text wraps onto."""
    pixels = overlaid_rgb8(image, overlay)
    height, width = pixels.shape[:2]
    legend = _legend(max(width, MIN_WIDTH), overlay)
    canvas = np.full((height + legend.shape[0], legend.shape[1], 3), 255, np.uint8)
    canvas[:height, :width] = pixels
    canvas[height:] = legend
    return canvas


def overlaid_rgb8(image: np.ndarray, overlay: Overlay) -> np.ndarray:
    """uint8 (H, W, 3), row 0 = top: ``image`` float32 (H, W, 4), row 0 = bottom, quantized as the
    PNG writer does, with ``overlay``'s colours (or grid) mixed in."""
    pixels = to_rgb8(image)
    if overlay.values is None:
        _draw_grid(pixels, overlay.cell)
    else:
        _colour(pixels, overlay)
    return pixels


def _colour(pixels: np.ndarray, overlay: Overlay) -> None:
    """Mix the colour of each pixel's cell into ``pixels`` uint8 (H, W, 3), row 0 = top."""
    assert overlay.values is not None
    height, width = pixels.shape[:2]
    stats = overlay_stats(overlay.values)
    span = stats.high - stats.low
    scaled = (overlay.values - stats.low) / span if span > 0 else np.zeros(overlay.values.shape)
    colours = turbo(scaled)  # (rows, cols, 3), row 0 = bottom
    cell_w, cell_h = overlay.cell
    columns = np.arange(width) // cell_w
    for top in range(0, height, BAND_ROWS):
        rows = (height - 1 - np.arange(top, min(top + BAND_ROWS, height))) // cell_h
        heat = colours[rows][:, columns].astype(np.uint16)
        band = pixels[top : top + len(rows)]
        band[...] = ((band.astype(np.uint16) * (256 - HEAT_SHARE) + heat * HEAT_SHARE) >> 8).astype(np.uint8)


def _draw_grid(pixels: np.ndarray, cell: tuple[int, int]) -> None:
    """Lighten the first column and the bottom row of every cell in ``pixels`` (row 0 = top)."""
    height, width = pixels.shape[:2]
    lines = np.zeros((height, width), bool)
    lines[:, :: cell[0]] = True
    lines[height - 1 :: -cell[1]] = True
    mixed = (pixels[lines].astype(np.uint16) * (256 - GRID_SHARE) + 255 * GRID_SHARE) >> 8
    pixels[lines] = mixed.astype(np.uint8)


def _legend(width: int, overlay: Overlay) -> np.ndarray:
    """uint8 (LEGEND_HEIGHT + LINE_HEIGHT x wrapped lines, width, 3): the overlay's colour bar and
    figures, or its grid's cell, each text wrapped at spaces to fit the width (a word longer than the
    width is cut with an ellipsis)."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.load_default(size=12)
    margin = 8
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))

    def wrapped(text: str) -> list[str]:
        room, lines = width - 2 * margin, [""]
        for word in text.split(" "):
            joined = f"{lines[-1]} {word}" if lines[-1] else word
            if measure.textlength(joined, font=font) <= room or not lines[-1]:
                lines[-1] = joined
            else:
                lines.append(word)
        for k, line in enumerate(lines):
            while measure.textlength(line, font=font) > room and len(line) > 1:
                line = line[:-2] + "\u2026"
            lines[k] = line
        return lines

    if overlay.values is None:  # the grid: two texts from the top
        cell = f"{overlay.name}: {overlay.cell[0]} x {overlay.cell[1]} pixels"
        texts, top = wrapped(cell) + wrapped(overlay.unit), 8
    else:  # under the colour bar and its figures
        stats = overlay_stats(overlay.values)
        texts, top = wrapped(f"{overlay.name}: {overlay.unit}") + wrapped(stats.line()), 32
    strip = Image.new("RGB", (width, LEGEND_HEIGHT + LINE_HEIGHT * (len(texts) - 2)), PAPER)
    draw = ImageDraw.Draw(strip)
    for k, text in enumerate(texts):
        draw.text((width // 2, top + LINE_HEIGHT * k), text, fill=INK, font=font, anchor="ma")
    if overlay.values is not None:
        # One value everywhere is drawn in the map's first colour (``_colour``): the bar says so.
        span = np.linspace(0, 1, width - 2 * margin) if stats.high > stats.low else np.zeros(width - 2 * margin)
        strip.paste(Image.fromarray(np.repeat(turbo(span)[None], 12, axis=0), "RGB"), (margin, 4))
        if stats.high > stats.low:
            draw.text((margin, 18), figure(stats.low), fill=INK, font=font)
            draw.text((width - margin, 18), figure(stats.high), fill=INK, font=font, anchor="ra")
        else:
            draw.text((width // 2, 18), f"every value {figure(stats.low)}", fill=INK, font=font, anchor="ma")
    return np.asarray(strip)

"""The sphere benchmark as a PNG chart, drawn with Pillow (no plotting library needed).

One column per image size. Top row: kernel milliseconds against the sphere count, both axes
logarithmic. Bottom row: each variant's speed relative to ``global`` (global ms / variant ms, log
scale, above 1 = faster than global), which is where constant memory's win or loss shows.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from render.core.image_io import write_png_rgb8
from scenes.safe_write import NEW_FILE, Placement

PANEL = (420, 300)  # width, height of one plot, margins included
MIN_WIDTH = 840  # fewer sizes get wider plots, so the title and the count labels fit
MARGIN = (62, 28, 16, 46)  # left, top, right, bottom inside a panel
COLOURS = {
    "global": (31, 119, 180),
    "constant": (214, 39, 40),
    "shared-tiled": (44, 160, 44),
    "readonly": (148, 103, 189),
    "constant-divergent": (255, 127, 14),
}
FALLBACK_COLOUR = (90, 90, 90)


class _LogAxes:
    """Maps (x, y) data to pixels in one panel, both axes logarithmic (base 2 for x, 10 or 2 for y)."""

    def __init__(self, origin: tuple[int, int], width: int, x_range, y_range) -> None:
        self.left = origin[0] + MARGIN[0]
        self.top = origin[1] + MARGIN[1]
        self.right = origin[0] + width - MARGIN[2]
        self.bottom = origin[1] + PANEL[1] - MARGIN[3]
        self.x_log = (math.log(x_range[0]), math.log(x_range[1]))
        self.y_log = (math.log(y_range[0]), math.log(y_range[1]))

    def point(self, x: float, y: float) -> tuple[float, float]:
        fx = (math.log(x) - self.x_log[0]) / (self.x_log[1] - self.x_log[0])
        fy = (math.log(y) - self.y_log[0]) / (self.y_log[1] - self.y_log[0])
        return (self.left + fx * (self.right - self.left), self.bottom - fy * (self.bottom - self.top))


def _padded_range(values: list[float], pad: float = 1.25) -> tuple[float, float]:
    return (min(values) / pad, max(values) * pad)


def _y_ticks(low: float, high: float, ratio: bool) -> list[float]:
    if ratio:
        ticks = [2.0**k for k in range(math.floor(math.log2(low)), math.ceil(math.log2(high)) + 1)]
        return [t for t in ticks if low <= t <= high]
    ticks = []
    for decade in range(math.floor(math.log10(low)), math.ceil(math.log10(high)) + 1):
        ticks.extend(m * 10.0**decade for m in (1, 2, 5))
    return [t for t in ticks if low <= t <= high]


def _tick_label(value: float, ratio: bool) -> str:
    if ratio:
        return f"{value:g}x" if value >= 1 else f"1/{1 / value:g}"
    return f"{value:g}"


def _draw_axes(draw: ImageDraw.ImageDraw, axes: _LogAxes, counts, y_ticks, ratio, title, font) -> None:
    draw.rectangle((axes.left, axes.top, axes.right, axes.bottom), outline=(0, 0, 0))
    label_end = -math.inf
    for count in counts:
        x, _ = axes.point(count, math.exp(axes.y_log[0]))
        draw.line((x, axes.top, x, axes.bottom), fill=(225, 225, 225))
        half = draw.textlength(str(count), font=font) / 2
        if x - half > label_end + 4:  # skip a label that would overlap the previous one
            draw.text((x, axes.bottom + 4), str(count), fill=(0, 0, 0), font=font, anchor="ma")
            label_end = x + half
    for tick in y_ticks:
        _, y = axes.point(math.exp(axes.x_log[0]), tick)
        colour = (150, 150, 150) if ratio and tick == 1 else (225, 225, 225)
        draw.line((axes.left, y, axes.right, y), fill=colour)
        draw.text((axes.left - 5, y), _tick_label(tick, ratio), fill=(0, 0, 0), font=font, anchor="rm")
    draw.text(((axes.left + axes.right) / 2, axes.top - 6), title, fill=(0, 0, 0), font=font, anchor="md")
    draw.text(((axes.left + axes.right) / 2, axes.bottom + 22), "spheres", fill=(0, 0, 0), font=font, anchor="ma")


def _series(rows: list[dict], size: int, variant: str, ratio: bool) -> list[tuple[int, float]]:
    """(count, value) points of one variant at one size: ms, or global ms / ms when ``ratio``."""
    timed = {(r["variant"], r["count"]): r["kernel_ms"] for r in rows if r["size"] == size and "kernel_ms" in r}
    points = []
    for (name, count), ms in sorted(timed.items(), key=lambda item: item[0][1]):
        if name != variant:
            continue
        if not ratio:
            points.append((count, ms))
        elif ("global", count) in timed:
            points.append((count, timed[("global", count)] / ms))
    return points


def sphere_bench_chart(rows: list[dict], path: str | Path, title: str, how: Placement = NEW_FILE) -> str:
    """Draw ``run_sphere_bench`` rows (dicts: variant, count, size, kernel_ms or unavailable) to a
    PNG at ``path``, placed as ``how`` says; returns the path written."""
    timed = [r for r in rows if "kernel_ms" in r]
    if not timed:
        raise ValueError("no timed rows to chart")
    sizes = sorted({r["size"] for r in timed})
    counts = sorted({r["count"] for r in timed})
    variants = list(dict.fromkeys(r["variant"] for r in timed))
    font = ImageFont.load_default(size=12)
    legend_height = 40
    panel_width = max(PANEL[0], MIN_WIDTH // len(sizes))
    image = Image.new("RGB", (panel_width * len(sizes), PANEL[1] * 2 + legend_height), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    draw.text((10, 8), title, fill=(0, 0, 0), font=ImageFont.load_default(size=15))
    x_range = _padded_range([float(c) for c in counts], 1.3)
    for row_index, ratio in enumerate((False, True)):
        values = [v for size in sizes for name in variants for _, v in _series(timed, size, name, ratio)]
        y_range = _padded_range(values)
        for column, size in enumerate(sizes):
            origin = (column * panel_width, legend_height + row_index * PANEL[1])
            axes = _LogAxes(origin, panel_width, x_range, y_range)
            label = f"speed vs global, {size}x{size}" if ratio else f"kernel ms, {size}x{size}"
            _draw_axes(draw, axes, counts, _y_ticks(*y_range, ratio), ratio, label, font)
            for name in variants:
                points = [axes.point(c, v) for c, v in _series(timed, size, name, ratio)]
                colour = COLOURS.get(name, FALLBACK_COLOUR)
                if len(points) > 1:
                    draw.line(points, fill=colour, width=2)
                for x, y in points:
                    draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=colour)
    x = 10
    for name in variants:
        colour = COLOURS.get(name, FALLBACK_COLOUR)
        draw.line((x, 32, x + 24, 32), fill=colour, width=3)
        draw.text((x + 30, 32), name, fill=(0, 0, 0), font=font, anchor="lm")
        x += 50 + int(draw.textlength(name, font=font))
    return write_png_rgb8(np.asarray(image), path, how)

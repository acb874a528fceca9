"""The sphere benchmark as a PNG chart, drawn with Pillow (no plotting library needed).

One column per image size. Top row: kernel milliseconds against the sphere count, both axes
logarithmic. Bottom row: each variant's speed relative to ``global`` (global ms / variant ms, log
scale, above 1 = faster than global), which is where constant memory's win or loss shows.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from render.core.image_io import write_png_rgb8
from render.core.log_chart import PANEL_HEIGHT, LogAxes, draw_axes, draw_legend, padded_range, y_ticks
from scenes.safe_write import NEW_FILE, Placement

PANEL_WIDTH = 420  # one plot, margins included
MIN_WIDTH = 840  # fewer sizes get wider plots, so the title and the count labels fit
COLOURS = {
    "global": (31, 119, 180),
    "constant": (214, 39, 40),
    "shared-tiled": (44, 160, 44),
    "readonly": (148, 103, 189),
    "constant-divergent": (255, 127, 14),
}
FALLBACK_COLOUR = (90, 90, 90)


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
    panel_width = max(PANEL_WIDTH, MIN_WIDTH // len(sizes))
    image = Image.new("RGB", (panel_width * len(sizes), PANEL_HEIGHT * 2 + legend_height), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    draw.text((10, 8), title, fill=(0, 0, 0), font=ImageFont.load_default(size=15))
    x_range = padded_range([float(c) for c in counts], 1.3)
    for row_index, ratio in enumerate((False, True)):
        values = [v for size in sizes for name in variants for _, v in _series(timed, size, name, ratio)]
        y_range = padded_range(values)
        for column, size in enumerate(sizes):
            origin = (column * panel_width, legend_height + row_index * PANEL_HEIGHT)
            axes = LogAxes(origin, panel_width, x_range, y_range)
            label = f"speed vs global, {size}x{size}" if ratio else f"kernel ms, {size}x{size}"
            ticks = y_ticks(*y_range, ratio)
            draw_axes(draw, axes, counts, lambda count: str(int(count)), ticks, ratio, label, "spheres", font)
            for name in variants:
                points = [axes.point(c, v) for c, v in _series(timed, size, name, ratio)]
                colour = COLOURS.get(name, FALLBACK_COLOUR)
                if len(points) > 1:
                    draw.line(points, fill=colour, width=2)
                for x, y in points:
                    draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=colour)
    draw_legend(draw, [(name, COLOURS.get(name, FALLBACK_COLOUR)) for name in variants], 32, font)
    return write_png_rgb8(np.asarray(image), path, how)

"""The sort bench as a PNG chart (Pillow). Left: keys per second against the key count, a line per
sort over the random keys and a square per scene's binning keys; right: each sort's extra device
memory against the key count. Both axes logarithmic: a radix sort's throughput levels off, a merge
sort's falls as log n grows."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from render.core.image_io import write_png_rgb8
from render.core.log_chart import (
    BLACK,
    LEGEND_HEIGHT,
    PANEL_HEIGHT,
    PANEL_WIDTH,
    LogAxes,
    NothingToChart,
    draw_axes,
    draw_legend,
    padded_range,
    y_ticks,
)
from scenes.safe_write import NEW_FILE, Placement

COLOURS = {"cub": (31, 119, 180), "onesweep": (214, 39, 40), "merge": (44, 160, 44)}
FALLBACK_COLOUR = (90, 90, 90)


def _power_label(count: float) -> str:
    exponent = math.log2(count)
    return f"2^{exponent:.0f}" if exponent == round(exponent) else f"{count:.3g}"


def _label(draw: ImageDraw.ImageDraw, placed: list, at: tuple[float, float], text: str, font) -> None:
    """Write ``text`` beside the point ``at``, above or below it, where it overlaps no label in
    ``placed`` (scenes' key counts can be close); adds its box to ``placed``."""
    x, y = at
    width = draw.textlength(text, font=font)
    for dx, dy in ((6, -14), (6, 4), (-6 - width, -14), (-6 - width, 4), (6, -28), (6, 18)):
        box = (x + dx, y + dy, x + dx + width, y + dy + 12)
        if not any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3] for b in placed):
            break
    placed.append(box)
    draw.text(box[:2], text, fill=BLACK, font=font)


def sort_bench_chart(rows: list[dict], path: str | Path, title: str, how: Placement = NEW_FILE) -> str:
    """Draw sort bench rows (dicts: keys, count, sort, keys_per_second, extra_bytes) to a PNG at
    ``path``, placed as ``how`` says; returns the path written."""
    rows = [row for row in rows if row["count"] > 0 and row["keys_per_second"] > 0]
    if not rows:
        raise NothingToChart("no figure was measured, so there is nothing to draw")
    font = ImageFont.load_default(size=12)
    image = Image.new("RGB", (2 * PANEL_WIDTH, PANEL_HEIGHT + LEGEND_HEIGHT), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    draw.text((10, 6), title, fill=BLACK, font=ImageFont.load_default(size=15))
    sorts = list(dict.fromkeys(row["sort"] for row in rows))
    random_counts = sorted({row["count"] for row in rows if row["keys"] == "random"})
    x_range = padded_range([float(row["count"]) for row in rows], 1.4)
    panels = (
        ("G keys/s", lambda row: row["keys_per_second"] / 1e9),
        ("extra MiB", lambda row: row["extra_bytes"] / 2**20),
    )
    for column, (label, value) in enumerate(panels):
        placed: list[tuple[float, float, float, float]] = []  # the panel's scene labels, not to overlap
        shown = [row for row in rows if value(row) > 0]
        y_range = padded_range([value(row) for row in shown])
        axes = LogAxes((column * PANEL_WIDTH, LEGEND_HEIGHT), PANEL_WIDTH, x_range, y_range)
        draw_axes(draw, axes, random_counts, _power_label, y_ticks(*y_range, False), False, label, "keys", font)
        for sort in sorts:
            colour = COLOURS.get(sort, FALLBACK_COLOUR)
            line = [
                axes.point(row["count"], value(row)) for row in shown if row["sort"] == sort and row["keys"] == "random"
            ]
            if len(line) > 1:
                draw.line(line, fill=colour, width=2)
            for x, y in line:
                draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=colour)
            for row in shown:
                if row["sort"] == sort and row["keys"] != "random":
                    x, y = axes.point(row["count"], value(row))
                    draw.rectangle((x - 4, y - 4, x + 4, y + 4), outline=colour, width=2)
                    if sort == sorts[0]:
                        _label(draw, placed, (x, y), row["keys"], font)
    legend = [(sort, COLOURS.get(sort, FALLBACK_COLOUR)) for sort in sorts]
    draw_legend(draw, legend, 32, font)
    draw.text(
        (2 * PANEL_WIDTH - 10, 32),
        "dots: random 32-bit keys; squares: a scene's binning keys",
        fill=BLACK,
        font=font,
        anchor="rm",
    )
    return write_png_rgb8(np.asarray(image), path, how)

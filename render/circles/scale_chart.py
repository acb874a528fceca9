"""The scale sweep as a PNG chart (Pillow): time (top) and peak device memory (bottom) against the
circle count, a panel per family and a line per image size, every axis logarithmic."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from render.core import log_chart as chart
from render.core.image_io import write_png_rgb8
from scenes.safe_write import NEW_FILE, Placement

SIZE_COLOURS = ((31, 119, 180), (255, 127, 14), (44, 160, 44), (214, 39, 40), (148, 103, 189), (90, 90, 90))


def _count_label(count: float) -> str:
    exponent = np.log10(count)
    return f"1e{exponent:.0f}" if exponent == round(exponent) else f"{count:.3g}"


def scale_chart(rows: list[dict], path: str | Path, title: str, how: Placement = NEW_FILE) -> str:
    """Draw scale rows (dicts: family, count, size, total_ms, peak_bytes; total_ms None where the
    point did not run) to a PNG at ``path``, placed as ``how`` says; returns the path written."""
    rows = [row for row in rows if row["total_ms"] and row["peak_bytes"] > 0]
    if not rows:
        raise chart.NothingToChart("no figure was measured, so there is nothing to draw")
    font = ImageFont.load_default(size=12)
    families = list(dict.fromkeys(row["family"] for row in rows))
    sizes = sorted({row["size"] for row in rows})
    colours = {size: SIZE_COLOURS[min(i, len(SIZE_COLOURS) - 1)] for i, size in enumerate(sizes)}
    image = Image.new(
        "RGB", (len(families) * chart.PANEL_WIDTH, 2 * chart.PANEL_HEIGHT + chart.LEGEND_HEIGHT), (255, 255, 255)
    )
    draw = ImageDraw.Draw(image)
    draw.text((10, 6), title, fill=chart.BLACK, font=ImageFont.load_default(size=15))
    counts = sorted({row["count"] for row in rows})
    x_range = chart.padded_range([float(count) for count in counts], 1.4)
    measures = (("ms a frame", lambda row: row["total_ms"]), ("peak MiB", lambda row: row["peak_bytes"] / 2**20))
    for line, (label, value) in enumerate(measures):
        y_range = chart.padded_range([value(row) for row in rows])
        for column, family in enumerate(families):
            origin = (column * chart.PANEL_WIDTH, chart.LEGEND_HEIGHT + line * chart.PANEL_HEIGHT)
            axes = chart.LogAxes(origin, chart.PANEL_WIDTH, x_range, y_range)
            ticks = chart.y_ticks(*y_range, False)
            chart.draw_axes(draw, axes, counts, _count_label, ticks, False, f"{family}: {label}", "circles", font)
            for size in sizes:
                ours = sorted(
                    (row for row in rows if row["family"] == family and row["size"] == size), key=lambda r: r["count"]
                )
                points = [axes.point(row["count"], value(row)) for row in ours]
                if len(points) > 1:
                    draw.line(points, fill=colours[size], width=2)
                for x, y in points:
                    draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=colours[size])
    chart.draw_legend(draw, [(f"{size}x{size}", colours[size]) for size in sizes], 32, font)
    return write_png_rgb8(np.asarray(image), path, how)

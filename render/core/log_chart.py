"""Logarithmic plot panels drawn with Pillow, for the benchmark charts (no plotting library needed):
axes that map data to pixels, their ticks and labels, and a legend line."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from PIL import ImageDraw, ImageFont


class NothingToChart(ValueError):
    """A chart asked for with no figure to draw."""


PANEL_HEIGHT = 300  # one plot, margins included
PANEL_WIDTH = 520
LEGEND_HEIGHT = 44  # the title and legend lines above the panels
MARGIN = (62, 28, 16, 46)  # left, top, right, bottom inside a panel
GRID = (225, 225, 225)
BLACK = (0, 0, 0)


class LogAxes:
    """Maps (x, y) data to pixels in one panel at ``origin`` (its top left), ``width`` wide, both
    axes logarithmic over ``x_range`` and ``y_range``."""

    def __init__(self, origin: tuple[int, int], width: int, x_range, y_range) -> None:
        self.left = origin[0] + MARGIN[0]
        self.top = origin[1] + MARGIN[1]
        self.right = origin[0] + width - MARGIN[2]
        self.bottom = origin[1] + PANEL_HEIGHT - MARGIN[3]
        self.x_log = (math.log(x_range[0]), math.log(x_range[1]))
        self.y_log = (math.log(y_range[0]), math.log(y_range[1]))

    def point(self, x: float, y: float) -> tuple[float, float]:
        fx = (math.log(x) - self.x_log[0]) / (self.x_log[1] - self.x_log[0])
        fy = (math.log(y) - self.y_log[0]) / (self.y_log[1] - self.y_log[0])
        return (self.left + fx * (self.right - self.left), self.bottom - fy * (self.bottom - self.top))


def padded_range(values: Sequence[float], pad: float = 1.25) -> tuple[float, float]:
    """From the smallest value over ``pad`` to the largest times ``pad``."""
    return (min(values) / pad, max(values) * pad)


def y_ticks(low: float, high: float, ratio: bool) -> list[float]:
    """Ticks within [low, high]: powers of two for a ratio, else 1, 2 and 5 of each decade."""
    if ratio:
        ticks = [2.0**k for k in range(math.floor(math.log2(low)), math.ceil(math.log2(high)) + 1)]
        return [t for t in ticks if low <= t <= high]
    ticks = []
    for decade in range(math.floor(math.log10(low)), math.ceil(math.log10(high)) + 1):
        ticks.extend(m * 10.0**decade for m in (1, 2, 5))
    return [t for t in ticks if low <= t <= high]


def tick_label(value: float, ratio: bool) -> str:
    if ratio:
        return f"{value:g}x" if value >= 1 else f"1/{1 / value:g}"
    return f"{value:g}"


def draw_axes(
    draw: ImageDraw.ImageDraw,
    axes: LogAxes,
    xs: Sequence[float],
    x_label: Callable[[float], str],
    ticks: Sequence[float],
    ratio: bool,
    title: str,
    x_title: str,
    font: ImageFont.ImageFont | ImageFont.FreeTypeFont,
) -> None:
    """The panel's frame, a grid line and label at each of ``xs`` and ``ticks``, its title above and
    ``x_title`` below; labels that would overlap the one before are left out."""
    draw.rectangle((axes.left, axes.top, axes.right, axes.bottom), outline=BLACK)
    label_end = -math.inf
    for value in xs:
        x, _ = axes.point(value, math.exp(axes.y_log[0]))
        draw.line((x, axes.top, x, axes.bottom), fill=GRID)
        text = x_label(value)
        half = draw.textlength(text, font=font) / 2
        if x - half > label_end + 4:
            draw.text((x, axes.bottom + 4), text, fill=BLACK, font=font, anchor="ma")
            label_end = x + half
    for tick in ticks:
        _, y = axes.point(math.exp(axes.x_log[0]), tick)
        draw.line((axes.left, y, axes.right, y), fill=(150, 150, 150) if ratio and tick == 1 else GRID)
        draw.text((axes.left - 5, y), tick_label(tick, ratio), fill=BLACK, font=font, anchor="rm")
    draw.text(((axes.left + axes.right) / 2, axes.top - 6), title, fill=BLACK, font=font, anchor="md")
    draw.text(((axes.left + axes.right) / 2, axes.bottom + 22), x_title, fill=BLACK, font=font, anchor="ma")


def draw_legend(draw: ImageDraw.ImageDraw, entries: Sequence[tuple[str, tuple[int, int, int]]], y: int, font) -> None:
    """A coloured line and a name for each (name, colour), left to right from x = 10."""
    x = 10
    for name, colour in entries:
        draw.line((x, y, x + 24, y), fill=colour, width=3)
        draw.text((x + 30, y), name, fill=BLACK, font=font, anchor="lm")
        x += 50 + int(draw.textlength(name, font=font))

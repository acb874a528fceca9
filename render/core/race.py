"""A variant race: every configuration of a renderer on one scene and size, timed and checked against
the CPU reference, ranked by time; its table, its JSON figures and its chart (a bar per variant,
fastest first, the bar split into the frame's stages, each marked exact or not)."""

from __future__ import annotations

import dataclasses

import numpy as np

from scenes.safe_write import Placement, write_output

STAGE_COLOURS = {
    "clear": (150, 150, 150),
    "advance": (120, 170, 230),
    "binning": (240, 160, 60),
    "blending": (70, 130, 180),
    "shade": (70, 130, 180),
    "trace": (70, 130, 180),
}
OTHER = (200, 200, 200)  # the part of a frame's time that no stage's events cover (launches, syncs)
CUT_AT = 20  # bars longer than this many times the fastest are cut, so the fast ones stay readable


@dataclasses.dataclass
class RaceRow:
    """One variant's run: ``total_ms`` (None: it could not run, ``note`` says why) and its stages'
    times; ``exact`` whether its frame equals the reference's (None: not compared)."""

    variant: str
    resolved: str
    total_ms: float | None
    stage_ms: dict[str, float]
    exact: bool | None
    max_abs_diff: float | None
    note: str = ""


def ranked(rows: list[RaceRow]) -> list[RaceRow]:
    """Fastest first; the variants that could not run last, in their order."""
    return sorted(rows, key=lambda row: (row.total_ms is None, row.total_ms or 0.0))


def race_lines(rows: list[RaceRow], title: str) -> list[str]:
    """The race's table: ``title``, a heading, then a line per variant, fastest first."""
    stages = list(dict.fromkeys(stage for row in rows for stage in row.stage_ms))
    header = f"{'#':>3} {'variant':<48} {'total ms':>9} " + " ".join(f"{s:>9}" for s in stages) + "  exact"
    lines = [title, header, "-" * len(header)]
    for place, row in enumerate(rows, 1):
        shown = row.variant if row.resolved == row.variant else f"{row.variant} -> {row.resolved}"
        if row.total_ms is None:
            lines.append(f"{'-':>3} {shown:<48} unavailable: {row.note}")
            continue
        times = " ".join(f"{row.stage_ms.get(s, 0.0):>9.3f}" for s in stages)
        verdict = {True: "yes", False: f"NO (max |diff| {row.max_abs_diff:.3g})", None: "-"}[row.exact]
        lines.append(f"{place:>3} {shown:<48} {row.total_ms:>9.3f} {times}  {verdict}")
    return lines


def race_payload(rows: list[RaceRow], **about) -> dict:
    """Every figure of the race for its JSON file, with ``about`` (scene, size, GPU, ...)."""
    return {**about, "rows": [dataclasses.asdict(row) for row in rows]}


def race_chart(rows: list[RaceRow], title: str, path: str, how: Placement) -> str:
    """Draw the race as a PNG at ``path``: a bar per variant that ran, fastest on top, split into its
    stages' CUDA-event times and the rest of its frame time, with its total and exactness."""
    from PIL import Image, ImageDraw, ImageFont

    from render.core.image_io import png_encoder

    ran = [row for row in rows if row.total_ms is not None]
    stages = list(dict.fromkeys(stage for row in ran for stage in row.stage_ms))
    font, big = ImageFont.load_default(size=12), ImageFont.load_default(size=15)
    label_w, bar_w, row_h, top = 330, 520, 20, 58
    width, height = label_w + bar_w + 150, top + row_h * max(len(ran), 1) + 16
    picture = Image.new("RGB", (width, height), (255, 255, 255))
    draw = ImageDraw.Draw(picture)
    draw.text((10, 8), title, fill=(0, 0, 0), font=big)
    x = 10
    for name, colour in [(s, STAGE_COLOURS.get(s, OTHER)) for s in stages] + [("rest of the frame", OTHER)]:
        draw.rectangle((x, 34, x + 12, 46), fill=colour)
        draw.text((x + 16, 34), name, fill=(0, 0, 0), font=font)
        x += 24 + int(draw.textlength(name, font=font))
    lengths = [max(row.total_ms or 0.0, sum(row.stage_ms.values())) for row in ran]
    longest = min(max(lengths, default=0.0), CUT_AT * min(lengths, default=0.0)) or 1.0
    if max(lengths, default=0.0) > longest:
        draw.text((x, 34), f"(bars past {CUT_AT}x the fastest are cut: //)", fill=(0, 0, 0), font=font)
    for k, row in enumerate(ran):
        y = top + k * row_h
        shown = row.variant if row.resolved == row.variant else f"{row.variant} -> {row.resolved}"
        draw.text((10, y + 3), shown, fill=(0, 0, 0), font=font)
        scale = bar_w / max(longest, lengths[k])  # a cut bar is drawn to the end, its parts in proportion
        left = float(label_w)
        for stage in stages:
            span = scale * row.stage_ms.get(stage, 0.0)
            draw.rectangle((left, y + 3, left + span, y + row_h - 3), fill=STAGE_COLOURS.get(stage, OTHER))
            left += span
        end = max(label_w + scale * (row.total_ms or 0.0), left)
        if end > left:
            draw.rectangle((left, y + 3, end, y + row_h - 3), fill=OTHER)
        if lengths[k] > longest:
            draw.text((label_w + bar_w - 24, y + 3), "//", fill=(255, 255, 255), font=font)
        verdict = {True: "exact", False: "DIFFERS", None: ""}[row.exact]
        colour = (0, 120, 0) if row.exact else (200, 0, 0)
        draw.text((end + 6, y + 3), f"{row.total_ms:.3f} ms", fill=(0, 0, 0), font=font)
        draw.text((end + 80, y + 3), verdict, fill=colour, font=font)
    return write_output(path, png_encoder(np.asarray(picture)), how)

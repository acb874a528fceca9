"""The panel's Overlay section: which overlay the frame shows, its legend, its statistics and the
histogram of its values."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from imgui_bundle import imgui, implot

from app.overlay_view import NONE
from app.panel_widgets import tip, warning_wrapped
from render.core.overlay import overlay_stats
from render.core.overlay_picture import turbo

if TYPE_CHECKING:
    from app.window import App

TIPS = {
    NONE: "the frame alone",
    "tiles": "the grid of pixels one block of the kernel owns",
    "depth": "per pixel, how many circles cover its center: the blending work no binning can remove",
    "candidates": "per tile, how many circles the variant tests there (on the CPU backend: for the variant "
    "named in Kernel): tile-scan's compacted list, tile-sort's key range, tile-warp's bin list",
    "cycles": "per block of the blend kernel, the SM clock cycles from its first thread starting to its last "
    "ending, measured by a build of the same variant with clocks in it (the frame's own build has none)",
    "warp-skip": "tile-warp: per warp, the share of the circles it tested (those touching its tile) that missed "
    "its own region of the tile, so it skipped them",
}
LEGEND_STEPS = 48
HISTOGRAM_BINS = 32
HISTOGRAM_HEIGHT = 140  # unscaled pixels


def draw_overlay(app: App) -> None:
    """The overlay combo, then the shown overlay's legend, figures and histogram."""
    view, session = app.overlay, app.session
    names = [NONE, *session.kind.overlays]
    if len(names) == 1:
        imgui.text_disabled(f"{session.kind.label}: no overlays")
        return
    changed, index = imgui.combo("overlay", names.index(view.name) if view.name in names else 0, names)
    if changed:
        app.choose_overlay(names[index])
    tip(TIPS.get(view.name, ""))
    if view.error:
        warning_wrapped(view.error)
    if not view.active(session):
        return
    overlay = view.overlay
    if overlay is None or not view.ready(session):
        if not view.error:  # a failed overlay is not being computed
            imgui.text_disabled("computing ...")
        return
    imgui.text_wrapped(overlay.unit)
    if overlay.values is None or view.values is None:
        imgui.text(f"{overlay.cell[0]} x {overlay.cell[1]} pixels a block")
        return
    stats = overlay_stats(overlay.values)
    _legend_bar(stats.low, stats.high)
    imgui.text_wrapped(stats.line())
    tip("max/mean: how much more the busiest cell has than the average one (1.00 = even)")
    _histogram(view.values, f"{overlay.cell_name}s")


def _legend_bar(low: float, high: float) -> None:
    """The colour map from ``low`` to ``high``, as wide as the panel."""
    width = max(imgui.get_content_region_avail().x, 1.0)
    height = imgui.get_text_line_height()
    corner = imgui.get_cursor_screen_pos()
    draw = imgui.get_window_draw_list()
    step = width / LEGEND_STEPS
    for k, (red, green, blue) in enumerate(turbo(np.linspace(0, 1, LEGEND_STEPS)).tolist()):
        colour = imgui.get_color_u32(imgui.ImVec4(red / 255, green / 255, blue / 255, 1.0))
        left = corner.x + k * step
        draw.add_rect_filled(imgui.ImVec2(left, corner.y), imgui.ImVec2(left + step + 1, corner.y + height), colour)
    imgui.dummy(imgui.ImVec2(width, height))
    start = imgui.get_cursor_pos_x()
    imgui.text(f"{low:g}")
    imgui.same_line()
    imgui.set_cursor_pos_x(start + max(width - imgui.calc_text_size(f"{high:g}").x, 0))
    imgui.text(f"{high:g}")


def _histogram(values: np.ndarray, what: str) -> None:
    """How many cells (``what``: pixels, tiles, ...) have each value, in HISTOGRAM_BINS bins."""
    scale = imgui.get_style().font_scale_dpi
    if not implot.begin_plot("##overlay histogram", imgui.ImVec2(-1, HISTOGRAM_HEIGHT * scale)):
        return
    implot.setup_axes("value", what, implot.AxisFlags_.auto_fit, implot.AxisFlags_.auto_fit)
    implot.plot_histogram("##values", values, HISTOGRAM_BINS)
    implot.end_plot()

"""The panel's Race section: one button races every configuration on the scene and size shown; then
a bar per variant, fastest first, its stages stacked, marked exact or not, and a button that saves
the chart and the figures."""

from __future__ import annotations

from typing import TYPE_CHECKING

from imgui_bundle import imgui

from app.panel_widgets import BAD, GOOD, tip, warning_wrapped
from render.core.race import OTHER, STAGE_COLOURS, RaceRow

if TYPE_CHECKING:
    from app.window import App


def draw_race(app: App) -> None:
    """The race button, its progress, and the last race's bars."""
    runner, session = app.race, app.session
    on_gpu = session.backend == "cuda"
    imgui.begin_disabled(not on_gpu or runner.running)
    if imgui.button("Race every variant"):
        runner.start(session)
    imgui.end_disabled()
    tip(
        "time every configuration on this scene and size with the bench protocol and check each against "
        "the CPU reference; the app renders no frame meanwhile" + ("" if on_gpu else "\n(needs the GPU)")
    )
    if runner.running:
        done, total, label = runner.progress
        imgui.progress_bar(done / total, imgui.ImVec2(-1, 0), f"{done}/{total} {label}")
        return
    if runner.error:
        warning_wrapped(runner.error)
    outcome = runner.outcome
    if outcome is None:
        return
    rows = [RaceRow(**row) for row in outcome.payload["rows"]]
    imgui.text_wrapped(f"{runner.what}: fastest first")
    _bars(rows)
    if imgui.button("Save chart and figures"):
        runner.save(session.settings.export_folder)
    tip("the race's chart (PNG) and figures (JSON) in the export folder, never over a file")
    if runner.saved:
        imgui.text_wrapped(runner.saved)


def _bars(rows: list[RaceRow]) -> None:
    """A line per variant: its stacked stage bar scaled to the slowest, its total, exact or not."""
    ran = [row for row in rows if row.total_ms is not None]
    slowest = max((row.total_ms or 0.0 for row in ran), default=1.0) or 1.0
    width = max(imgui.get_content_region_avail().x * 0.45, 1.0)
    height = imgui.get_text_line_height()
    draw = imgui.get_window_draw_list()
    for row in rows:
        if row.total_ms is None:
            imgui.text_disabled(f"{row.variant}: {row.note}")
            continue
        corner = imgui.get_cursor_screen_pos()
        left = corner.x
        for stage, ms in list(row.stage_ms.items()) + [("", max(row.total_ms - sum(row.stage_ms.values()), 0.0))]:
            red, green, blue = STAGE_COLOURS.get(stage, OTHER) if stage else OTHER
            span = width * ms / slowest
            colour = imgui.get_color_u32(imgui.ImVec4(red / 255, green / 255, blue / 255, 1.0))
            bottom_right = imgui.ImVec2(left + span, corner.y + height - 2)
            draw.add_rect_filled(imgui.ImVec2(left, corner.y + 2), bottom_right, colour)
            left += span
        imgui.dummy(imgui.ImVec2(width, height))
        imgui.same_line()
        imgui.text_colored(GOOD if row.exact else BAD, f"{row.total_ms:.3f} ms {'exact' if row.exact else 'DIFFERS'}")
        imgui.same_line()
        imgui.text(row.variant if row.resolved == row.variant else f"{row.variant} -> {row.resolved}")

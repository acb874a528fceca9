"""The panel's timing section: the frame rate, each stage's time (last and mean) in a table, and a
chart of the recent frames with the stages stacked, so that the stage that dominates shows."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

import numpy as np
from imgui_bundle import imgui, implot

from app.panel_widgets import WARNING, tip

if TYPE_CHECKING:
    from app.window import App

MOVING_AVERAGE = 30  # frames in the chart's moving average of the total
CHART_HEIGHT = 170.0  # unscaled pixels


def moving_average(values: np.ndarray, window: int) -> np.ndarray:
    """Trailing mean of float ``values`` (N,) over up to ``window`` samples; same shape."""
    sums = np.cumsum(np.concatenate([[0.0], values]))
    index = np.arange(1, len(values) + 1)
    start = np.maximum(index - window, 0)
    return (sums[index] - sums[start]) / (index - start)


def stage_table(history) -> tuple[list[str], np.ndarray]:
    """The stages of the newest frame in ``history`` (a sequence of {stage: ms} dicts) and their
    times in every frame, float64 (frames, stages); a stage a frame lacks counts 0 there."""
    stages = list(history[-1])
    times = np.array([[frame.get(stage, 0.0) for stage in stages] for frame in history], np.float64)
    return stages, times.reshape(len(history), len(stages))


def frame_rows(frame_log, frames: int) -> list[tuple[str, float, float]]:
    """(name, last ms, mean ms) over the newest ``frames`` entries of the window's frame log: the
    time between frames and, where the log has it (on the GPU), the app's own share of it (the
    time between frames less the GPU stages, the display copy included); none before a frame."""
    recent = list(itertools.islice(reversed(frame_log), frames))[::-1]
    rows = []
    for key, name in (("wall", "between frames"), ("overhead", "app's own")):
        values = [entry[key] for entry in recent if key in entry]
        if values:
            rows.append((name, values[-1], float(np.mean(values))))
    return rows


def stacked(times: np.ndarray) -> np.ndarray:
    """Running sums over the stages of float ``times`` (frames, stages), with zeros first: float64
    (stages + 1, frames), row k + 1 the top of stage k's band (rows contiguous, as ImPlot wants)."""
    return np.ascontiguousarray(np.concatenate([np.zeros((1, len(times))), np.cumsum(times, axis=1).T]))


def draw_timings(app: App) -> None:
    session = app.session
    fps = app.delivered_fps()
    # New frames only: redrawing the last one while the CPU works is not a frame delivered.
    imgui.text("frames/s: -" if fps is None else f"frames/s: {fps:.3g}" if fps < 10 else f"frames/s: {fps:.0f}")
    tip("new frames shown per second (median of the last 30); the window redraws more often")
    if session.busy:
        imgui.same_line()
        imgui.text_colored(WARNING, "rendering on the CPU...")
    if not session.history:
        return
    stages, times = stage_table(session.history)
    _table(stages, times, app.display.copy_ms, frame_rows(app.frame_log, len(times)))
    if len(times) < 2:  # one point gives the chart no x range to draw
        imgui.text_disabled("the chart starts at the second frame")
        return
    _chart(stages, times)


def _table(
    stages: list[str], times: np.ndarray, copy_ms: dict[str, float], frames: list[tuple[str, float, float]]
) -> None:
    flags = imgui.TableFlags_.sizing_stretch_prop | imgui.TableFlags_.row_bg
    if not imgui.begin_table("##stages", 3, flags):
        return
    for title in ("stage", "last ms", f"mean of {len(times)}"):
        imgui.table_setup_column(title)
    imgui.table_headers_row()
    rows = [(stage, times[-1, k], times[:, k].mean()) for k, stage in enumerate(stages)]
    totals = times.sum(axis=1)
    rows.append(("total", totals[-1], totals.mean()))
    rows += [(stage, value, None) for stage, value in copy_ms.items()]
    rows += frames
    for stage, last, mean in rows:
        imgui.table_next_row()
        imgui.table_next_column()
        imgui.text(stage)
        imgui.table_next_column()
        imgui.text(f"{last:.3f}")
        imgui.table_next_column()
        imgui.text("" if mean is None else f"{mean:.3f}")
    imgui.end_table()


def _chart(stages: list[str], times: np.ndarray) -> None:
    scale = imgui.get_style().font_scale_dpi
    if not implot.begin_plot("##frame times", imgui.ImVec2(-1, CHART_HEIGHT * scale)):
        return
    implot.setup_axes("frame", "ms", implot.AxisFlags_.auto_fit, implot.AxisFlags_.auto_fit)
    # Beside the bands rather than over them: the legend would hide the stage it names.
    implot.setup_legend(implot.Location_.south, implot.LegendFlags_.outside | implot.LegendFlags_.horizontal)
    frames = np.arange(len(times), dtype=np.float64)
    bands = stacked(times)
    for k, stage in enumerate(stages):
        implot.plot_shaded(stage, frames, bands[k], bands[k + 1])
    implot.plot_line(f"total, mean of {MOVING_AVERAGE}", frames, moving_average(bands[-1], MOVING_AVERAGE))
    implot.end_plot()

"""The panel's Record control: how many frames, Record, and while it records its progress and Stop.
Every widget calls the App's ``Recorder`` (``app.recorder``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from imgui_bundle import imgui

from app.panel_widgets import tip
from app.printable import printable
from render.core.limits import RECORD_FRAMES

if TYPE_CHECKING:
    from app.window import App

COUNT_WIDTH = 120


def recording_controls(app: App) -> None:
    """Record N frames (RECORD_FRAMES) from the current one, or the recording under way and Stop."""
    recorder = app.recorder
    if recorder.active:
        if imgui.button("Stop"):
            recorder.stop()
        tip("end the recording here: the frames taken so far and their GIF are kept")
        imgui.same_line()
        imgui.text_wrapped(printable(recorder.progress_line()))
        return
    if imgui.button("Record"):
        recorder.start()
    tip("save the next frames at render resolution as PNGs and a GIF, in a new folder under the export folder")
    imgui.same_line()
    imgui.set_next_item_width(COUNT_WIDTH)
    flags = imgui.SliderFlags_.logarithmic | imgui.SliderFlags_.always_clamp
    changed, count = imgui.slider_int(
        "frames##record", recorder.count, int(RECORD_FRAMES.low), int(RECORD_FRAMES.high), "%d", flags
    )
    if changed:
        recorder.set_count(count)
    tip(f"how many frames to record, {RECORD_FRAMES.text()}, from the one shown (ctrl+click to type)")

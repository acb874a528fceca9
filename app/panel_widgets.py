"""Small pieces every panel section uses: the tooltip helper and the colours of notes."""

from __future__ import annotations

from imgui_bundle import imgui

WARNING = imgui.ImVec4(1.0, 0.75, 0.3, 1.0)
GOOD = imgui.ImVec4(0.4, 0.9, 0.4, 1.0)  # a check or race row that passed
BAD = imgui.ImVec4(1.0, 0.4, 0.4, 1.0)  # one that did not


def tip(text: str) -> None:
    """A tooltip for the last widget, also while it is disabled (then it often says why)."""
    if imgui.is_item_hovered(imgui.HoveredFlags_.allow_when_disabled | imgui.HoveredFlags_.delay_short):
        imgui.set_tooltip(text)


def warning_wrapped(text: str) -> None:
    """``text`` in the warning colour, wrapped to the panel's width: an error's message may be long."""
    imgui.push_style_color(imgui.Col_.text, WARNING)
    imgui.text_wrapped(text)
    imgui.pop_style_color()

"""The question before a change the CPU backend would take long to render (``Session.pending``,
``app.slow_changes``): "Render anyway" makes it, Cancel keeps everything as it was."""

from __future__ import annotations

from typing import TYPE_CHECKING

from imgui_bundle import imgui

from app.printable import printable

if TYPE_CHECKING:
    from app.window import App

TITLE = "Slow on the CPU"


def confirm_slow_change(app: App) -> None:
    """Open the question while a change waits, and act on the answer."""
    session = app.session
    if session.pending is not None and not imgui.is_popup_open(TITLE):
        imgui.open_popup(TITLE)
    if not imgui.begin_popup_modal(TITLE, None, imgui.WindowFlags_.always_auto_resize)[0]:
        return
    pending = session.pending
    if pending is None:
        imgui.close_current_popup()
    else:
        imgui.text(printable(pending.question()))
        if imgui.button("Render anyway"):
            session.confirm_pending()
            imgui.close_current_popup()
        imgui.same_line()
        if imgui.button("Cancel"):
            session.cancel_pending()
            imgui.close_current_popup()
    imgui.end_popup()

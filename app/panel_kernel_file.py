"""The panel's part for a user's kernel file: the button that loads one, what is watched, whether the
latest edit compiled, the check against the reference of the build drawing now, and the compiler's
log in a window of its own."""

from __future__ import annotations

from typing import TYPE_CHECKING

from imgui_bundle import imgui

from app.panel_widgets import BAD, GOOD, WARNING, tip, warning_wrapped
from app.printable import printable

if TYPE_CHECKING:
    from app.window import App

LOG_WINDOW = "Compiler log"
LOG_SIZE = (720, 360)  # unscaled pixels
NEVER_ENDS = (
    "a kernel that never ends cannot be stopped on the GPU: the window stops with it and the app must be "
    "closed; save a fixed file first, then start the app again"
)


def draw_kernel_file(app: App) -> None:
    """Under the variant: "Load kernel file...", and for a file variant what is watched and how its
    latest build fared."""
    session, watch = app.session, app.kernel_watch
    imgui.begin_disabled(session.backend != "cuda")
    app.panel.files.load_kernel()
    imgui.end_disabled()
    if not session.variant.path or session.backend != "cuda":
        return
    headers = len(watch.files) - 1
    imgui.text_wrapped(
        f"watching {printable(session.variant.path)}" + (f" and {headers} headers" if headers > 0 else "")
    )
    tip(
        "a saved change compiles in the background and replaces the kernel at the next frame, then is checked "
        f"against the reference;\n{NEVER_ENDS}"
    )
    if watch.error:
        imgui.text_colored(WARNING, "the latest edit does not compile; the previous build draws")
        if imgui.button("Compiler log"):
            app.panel.show_compiler_log = True
        tip("the compiler's messages, FILE(LINE): error: ...")
    elif watch.reloads:
        imgui.text_disabled(f"reloaded {watch.reloads} time{'s' * (watch.reloads > 1)}")
    if session.last_check is not None:
        colour = GOOD if session.last_check.passed else BAD
        imgui.text_colored(colour, session.last_check.summary())
        tip("this build against the CPU reference on the current frame")


def draw_compiler_log(app: App) -> None:
    """The compiler's log of the latest build that failed, while asked for and there is one."""
    log = app.kernel_watch.log
    if not app.panel.show_compiler_log or not log:
        return
    scale = imgui.get_style().font_scale_dpi
    imgui.set_next_window_size(imgui.ImVec2(LOG_SIZE[0] * scale, LOG_SIZE[1] * scale), imgui.Cond_.first_use_ever)
    opened, keep = imgui.begin(LOG_WINDOW, True)
    if opened:
        warning_wrapped(printable(app.kernel_watch.error))
        imgui.separator()
        imgui.input_text_multiline("##log", log, imgui.ImVec2(-1, -1), imgui.InputTextFlags_.read_only)
    imgui.end()
    app.panel.show_compiler_log = keep

"""Starting the app: the interactive window (``python main.py``) and ``python main.py gui``.

The window remembers its settings between runs; ``gui`` (used by tests and docs) starts from the
saved settings with its arguments on top, and saves nothing.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys

from app.camera import store_look
from app.cuda_start import CudaStart
from app.interop_check import start_interop_check
from app.printable import printable
from app.settings import Settings, load_settings, save_settings
from app.signals import Stopped
from app.software_gl import fit_software_gl_to_process_limit
from render.core.address_space import MIB, AddressSpaceShort, ensure_room, limit_note
from render.core.image_io import write_text_file
from render.kinds import KINDS
from scenes.safe_write import NEW_FILE, Placement

# The address space the window takes from its OpenGL context to its first frames on the CPU
# reference, which it cannot do without: native code aborts or crashes the process where an
# allocation fails there (Mesa creating the context and compiling the software renderer's shaders
# with LLVM, imgui_bundle's C++ set-up as it loads, ImGui's frames). Measured by
# tests/app/test_address_space.py: 790 MiB with one malloc arena, 1,160 MiB with glibc's arenas on
# 2 CPUs. With 640 MiB checked here, runs under ulimit -v 1,175,000-1,250,000 still crashed; with
# this, the lowest limit that runs is about 1,300,000 KB.
WINDOW_ROOM = 1152 * MIB


@dataclasses.dataclass
class GuiOptions:
    renderer: str | None = None  # circles or spheres; scene, variant and seed apply to it
    count: int | None = None  # the random sphere scene's count
    view: str | None = None  # the sphere view
    look: dict = dataclasses.field(default_factory=dict)  # the shaded view's camera and material, by option name
    scene: str | None = None
    variant: str | None = None
    size: int | None = None
    seed: int | None = None
    backend: str | None = None
    frames: int | None = None  # None: until the window closes
    screenshot: str | None = None
    headless: bool = False
    window: tuple[int, int] | None = None
    vsync: bool | None = None
    force_host_copy: bool | None = None
    stats: str | None = None  # JSON file for the frame-time medians
    placements: dict[str, Placement] = dataclasses.field(default_factory=dict)  # how each output is written
    persist: bool = False  # save settings and the panel layout on exit (interactive runs only)
    fresh: bool = False  # start from the default settings, not the saved ones
    dev: bool = False  # reload the built-in shaders when they change


NO_DISPLAY_ADVICE = (
    "use `rasterlab gui --headless --frames 60 --screenshot shot.png` to run the app offscreen, or "
    "the headless commands (render, record, check, bench)"
)


def _say(text: str) -> None:
    print(text, file=sys.stderr)


def _apply(settings: Settings, options: GuiOptions) -> None:
    if options.renderer is not None:
        settings.renderer = options.renderer
    fields = KINDS[settings.renderer].settings_fields
    # scene, variant and seed are the shown kind's; count and view belong to the kinds that have them.
    owner = {role: fields.get(role) for role in ("scene", "variant", "seed")}
    for kind in KINDS.values():
        for role in ("count", "view"):
            owner[role] = owner.get(role) or kind.settings_fields.get(role)
    for option, field in (*owner.items(), ("size", "size"), ("vsync", "vsync"), ("force_host_copy", "force_host_copy")):
        value = getattr(options, option)
        if value is not None and field is not None:
            setattr(settings, field, value)
    store_look(settings, options.look)
    if options.size is not None:
        settings.fit_to_window = False
    if options.window is not None:
        settings.window_width, settings.window_height = options.window


def _start_session(settings: Settings, options: GuiOptions):
    """The app's session; None, after saying why, when the scene named on the command line did not
    open (running the built-in scene in its place would pass for the one asked for)."""
    from app.session import Session

    session = Session(settings, options.backend)
    if session.backend_note:
        _say(f"note: {session.backend_note}")
    if session.start_problem is None:
        return session
    if options.scene is None:
        _say(f"warning: {session.status}")
        session.status = ""  # said once, not again at exit
        return session
    _say(f"error: {session.start_problem}")
    session.close()
    return None


def _end_without_teardown(code: int) -> None:
    """End the process now: after a GPU failure the GL driver's own teardown at exit could wait
    forever on CUDA work that never ends (App.close left the context for this reason)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):  # closed, or a pipe with no reader
            pass
    os._exit(code)


def run_gui(options: GuiOptions) -> int:
    """Open the app, run it, close it; returns the process exit code."""
    replaced = fit_software_gl_to_process_limit()
    if replaced is not None:
        own, reason = replaced
        _say(f"note: LP_NUM_THREADS={printable(own)} replaced by 0 for the software renderer: {printable(reason)}")
    if options.headless:
        # PyOpenGL picks its platform on first import: EGL needs no X server.
        os.environ["PYOPENGL_PLATFORM"] = "egl"
    from app.displays import display_problem

    problem = None if options.headless else display_problem()
    if problem:
        _say(f"error: no display: the window cannot open here ({problem}); {NO_DISPLAY_ADVICE}")
        return 1
    settings, warning = (Settings(), None) if options.fresh else load_settings()
    if warning:
        _say(f"warning: {warning}")
    _apply(settings, options)
    cuda = CudaStart() if options.backend != "cpu" else None
    # Asked of a child from the start, beside CUDA's own: on some drivers interop can hang for good,
    # and the child takes about as long as the app takes to reach its first frame. Started even where
    # frames are forced through the host: the panel can turn that off.
    interop_check = start_interop_check() if cuda is not None else None
    try:
        code, abandoned = _open_and_run(options, settings, cuda, interop_check)
    finally:
        if interop_check is not None:
            interop_check.close()
    if abandoned:
        _end_without_teardown(code)
    return code


def _open_and_run(options: GuiOptions, settings: Settings, cuda, interop_check) -> tuple[int, bool]:
    """run_gui's window, session and loop: (the exit code, whether the GL context was abandoned)."""
    from app.surfaces import EglSurface, GlfwWindow, NoDisplay

    try:
        ensure_room(WINDOW_ROOM, "open the window")
    except AddressSpaceShort as error:
        _say(f"error: {error}")
        return 1, False
    try:
        if options.headless:
            surface = EglSurface(settings.window_width, settings.window_height)
        else:
            surface = GlfwWindow(settings.window_width, settings.window_height, "rasterlab")
    except NoDisplay as error:
        _say(f"error: {error}" + (limit_note() if options.headless else f"; {NO_DISPLAY_ADVICE}"))
        return 1, False
    from app.window import App

    if cuda is not None:
        cuda.join()
    session = _start_session(settings, options)
    if session is None:
        surface.close()
        return 1, False
    app = App(surface, session, keep_layout=options.persist, dev=options.dev, interop_check=interop_check)
    if app.config_warning:
        _say(f"warning: {app.config_warning}")
    said = session.status  # printed at exit only when something changed it

    def keep_settings() -> None:
        if options.persist and app.config_folder is not None:
            settings.window_width, settings.window_height = surface.window_size()
            problem = save_settings(settings)
            if problem:
                _say(f"warning: {problem}")

    try:
        app.run(options.frames, options.screenshot, options.placements.get(options.screenshot, NEW_FILE))
        if options.stats:
            report = json.dumps(app.stats(), indent=2, allow_nan=False)
            write_text_file(report, options.stats, options.placements.get(options.stats, NEW_FILE))
        keep_settings()
    except Stopped:
        # Ctrl-C, SIGTERM or SIGHUP ends the app as closing its window does: with the settings kept
        # (later stops are swallowed until the process ends, so the save is not cut short). Not on
        # an error, whose cause a setting may be.
        keep_settings()
        raise
    finally:
        # A scripted run has no window to read it in; the interactive app showed it already.
        scripted = options.frames is not None
        if scripted and session.status and session.status != said and app.screenshot_error is None:
            _say(session.status)
        if app.display.notice:
            _say(f"note: {app.display.notice}")
        app.close()
    code = 0
    if options.screenshot and app.last_screenshot is None:
        _say(f"error: {app.screenshot_error or f'no screenshot written to {options.screenshot}'}")
        code = 1
    return code, app.gl_abandoned

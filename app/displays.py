"""Whether a window can open here, and in a few words why not: the command line falls back to its
headless render and ``gui`` says so in one line, whatever is wrong with the display.

The environment is read first: a DISPLAY that names no X display, a local X server that does not
answer, a WAYLAND_DISPLAY that GLFW cannot use. Then GLFW is started on what is left, as the window
will be: an X server may answer and still refuse the app (no authority to connect). What GLFW and
Xlib say meanwhile goes into the reason, not onto the terminal.

An X server started without ``-noreset`` (Xvfb's default) resets whenever its last client leaves,
and refuses connections while it does: a check that connected and left just before the window's
connection made the window fail about one time in three. So the local probe's connection stays open
until GLFW has started, and GLFW, once it runs, is left running for the window (whose close ends it).
"""

from __future__ import annotations

import contextlib
import os
import socket
import tempfile
from collections.abc import Iterator

# Long enough for a loaded machine's X server to accept; a local socket answers at once or never.
PROBE_SECONDS = 2


def _connected(path: str) -> socket.socket | None:
    """A connection to the local socket ``path``, for the caller to close; None where nothing listens."""
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.settimeout(PROBE_SECONDS)
        probe.connect(path)
    except OSError:
        probe.close()
        return None
    return probe


def _answers(path: str) -> bool:
    """Whether something listens on the local socket ``path``."""
    probe = _connected(path)
    if probe is None:
        return False
    probe.close()
    return True


def _x_problem(held: contextlib.ExitStack) -> str | None:
    """Why DISPLAY cannot be used; None when it may be. A local display (``:N``) is asked whether it
    answers (a closed session's leaves a stale DISPLAY), its connection left open in ``held``; a
    remote one is left to GLFW's start."""
    display = os.environ.get("DISPLAY", "")
    if not display:
        return "DISPLAY is not set"
    host, colon, number = display.rpartition(":")
    number = number.split(".")[0]
    if not colon or not number.isdigit():
        return f"DISPLAY {display!r} names no X display, which looks like :0 or host:0"
    if host not in ("", "unix"):
        return None
    probe = _connected(f"/tmp/.X11-unix/X{number}")
    if probe is None:
        return f"no X server answers on DISPLAY {display}"
    held.enter_context(probe)
    return None


def _wayland_problem(glfw) -> str | None:
    """Why WAYLAND_DISPLAY cannot be used by this GLFW; None when it may be."""
    name = os.environ.get("WAYLAND_DISPLAY", "")
    if not glfw.platform_supported(glfw.PLATFORM_WAYLAND):
        return f"WAYLAND_DISPLAY {name!r} is set, but this GLFW has no Wayland support"
    path = name if os.path.isabs(name) else os.path.join(os.environ.get("XDG_RUNTIME_DIR", ""), name)
    if _answers(path):
        return None
    return f"no Wayland compositor answers on WAYLAND_DISPLAY {name!r}"


@contextlib.contextmanager
def _descriptor_2_kept(lines: list[str]) -> Iterator[None]:
    """Within the block, what is written to descriptor 2 (Xlib writes its reasons there) goes into
    ``lines`` instead of the terminal."""
    with tempfile.TemporaryFile() as kept:
        saved = os.dup(2)
        os.dup2(kept.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            kept.seek(0)
            # Xlib's reason first: GLFW's follows from it.
            lines[:0] = [line.strip() for line in kept.read().decode(errors="replace").splitlines() if line.strip()]


@contextlib.contextmanager
def glfw_errors_kept(glfw, said: list[str]) -> Iterator[None]:
    """Within the block, GLFW's errors go into ``said`` (for a reason's line) instead of being
    printed as warnings."""
    previous = glfw.set_error_callback(lambda _code, text: said.append(text.decode(errors="replace")))
    try:
        yield
    finally:
        glfw.set_error_callback(previous)


def start_glfw(glfw, capture_descriptor_2: bool = False) -> str | None:
    """Start GLFW; why it cannot, in its own words (and, with ``capture_descriptor_2``, Xlib's),
    or None once it runs."""
    said: list[str] = []
    with glfw_errors_kept(glfw, said):
        with _descriptor_2_kept(said) if capture_descriptor_2 else contextlib.nullcontext():
            started = glfw.init()
    return None if started else "; ".join(said) or "GLFW did not start"


def display_problem() -> str | None:
    """Why no window can open here, in a few words; None when one can, and GLFW is then left
    started for the window (``glfw.terminate()`` ends it)."""
    import glfw

    with contextlib.ExitStack() as held:  # the X server's probe, open until GLFW has connected
        problem = _x_problem(held)
        if problem and os.environ.get("WAYLAND_DISPLAY"):
            wayland = _wayland_problem(glfw)
            problem = f"{problem}; {wayland}" if wayland else None
        if problem:
            return problem
        # Nothing else writes to descriptor 2 yet: Xlib's reasons can be taken from it.
        return start_glfw(glfw, capture_descriptor_2=True)


def has_display() -> bool:
    return display_problem() is None

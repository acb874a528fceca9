"""The command line that renders the app's frame again, bit for bit: ``rasterlab render`` with the
scene (its name, or its file's absolute path), the seed and count the scene is made from, the frame,
size, backend or variant, view, camera and material."""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable
from pathlib import Path

from app.camera import LOOK_OPTIONS
from app.exports import export_name
from app.printable import printable
from render.core.limits import ANIMATED_FRAME
from scenes.safe_write import free_name

MAX_NAME_BYTES = 255  # the longest file name that Linux file systems take


class NotReproducible(ValueError):
    """The command line cannot render the frame shown; the message says why."""


def render_command(session, folder: str | Path = ".") -> str:
    """The ``rasterlab render ...`` line, shell-quoted, that writes the ``Session``'s current frame
    to a PNG named after the scene, variant and frame, free in ``folder`` (where the command is
    expected to run). Raises NotReproducible where the command line refuses that frame."""
    kind, settings, scene = session.kind, session.settings, session.scene_name
    look = session.look()
    if session.scene is not None and kind.animated(session.scene, look) and not ANIMATED_FRAME.contains(session.frame):
        raise NotReproducible(
            f"frame {session.frame} is outside the command line's frames of an animated scene, "
            f"{ANIMATED_FRAME.text()} (Reset goes back to frame 0)"
        )
    words = ["rasterlab", "render", "--renderer", kind.name]
    # A file by its absolute path: the command may run in another folder than the app.
    words += _option("--scene", scene if scene in kind.scene_names else os.path.abspath(scene))
    for role in kind.scene_inputs(scene):
        words += _option(f"--{role}", getattr(settings, kind.settings_fields[role]))
    words += _option("--frame", session.frame) + _option("--size", settings.size)
    words += ["--backend", "cpu"] if session.backend == "cpu" else _option("--variant", session.variant.label())
    if look.view:
        words += _option("--view", look.view)
    if session.orbits:
        for name in LOOK_OPTIONS:
            words += _option(f"--{name}", getattr(look.shading, name))
    name = export_name(scene, session.export_label(), session.frame)
    if len(os.fsencode(name)) > MAX_NAME_BYTES:  # after a scene file's very long name
        name = export_name(kind.name, session.export_label(), session.frame)
    words += _option("--out", os.path.basename(free_name(Path(folder) / name)))
    return shlex.join(words)


def _option(flag: str, value) -> list[str]:
    """``flag`` and ``value`` as command-line words; a value with a leading ``-`` is attached with
    ``=``, as argparse would read it as an option of its own."""
    text = _text(value)
    return [f"{flag}={text}"] if text.startswith("-") else [flag, text]


def _text(value) -> str:
    """Numbers as Python reads them back exactly (``repr`` of a float is its shortest exact form);
    pairs as ``X,Y``."""
    if isinstance(value, tuple):
        return ",".join(_text(part) for part in value)
    return repr(float(value)) if isinstance(value, float) else str(value)


def copy_render_command(session, copy: Callable[[str], object], folder: str | Path = ".") -> str | None:
    """Hand ``copy`` (the clipboard) the ``render_command`` of the ``Session``'s frame and say so in
    its status line; None, with the reason in the status line, when there is none."""
    try:
        command = render_command(session, folder)
    except NotReproducible as error:
        session.status = f"cannot copy a command: {error}"
        return None
    except OSError as error:  # the working folder was removed: a relative file has no absolute path
        session.status = f"cannot copy a command: {error.strerror or error}"
        return None
    # The clipboard takes UTF-8 text: a file name that is not UTF-8 has no line to paste.
    if not _is_utf8(command):
        session.status = f"cannot copy a command: the scene file's name cannot be pasted ({printable(command)})"
        return None
    copy(command)
    session.status = f"copied: {printable(command)}"
    return command


def _is_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True

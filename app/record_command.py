"""The parts of ``record`` beyond what it shares with ``render``: the frame range, the output
folder, and the frames rendered one after another into it as PNGs (``app.recording``)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from app.cli_args import UsageError
from app.outputs import check_names_in_folder
from app.printable import printable
from app.progress import StepBar
from app.recording import frame_file_name, remove_if_empty, write_frame
from render.core.image_io import to_rgb8
from render.core.limits import ANIMATED_FRAME, OutOfRange
from render.core.renderer import Renderer, render_frames
from scenes.safe_write import OutputError, Placement

EXAMPLE = "for example 0:59"


def frame_range(text: str) -> tuple[int, int]:
    """``A:B`` as (A, B): plain whole numbers in ANIMATED_FRAME with B >= A; raises UsageError
    naming what is wrong otherwise."""
    first, colon, last = text.partition(":")
    if not colon:
        raise UsageError(f"--frames {text}: give the first and the last frame as A:B, {EXAMPLE}")
    # Python's int() also reads ' 5', '1_0' and other scripts' digits; a command line takes plain ASCII.
    if not all(part.isascii() and part.isdigit() for part in (first, last)):
        raise UsageError(f"--frames {text}: A and B must be whole numbers, {EXAMPLE}")
    try:
        first_frame, last_frame = (ANIMATED_FRAME.check(int(part)) for part in (first, last))
    except OutOfRange as error:
        raise UsageError(f"--frames {text}: {error}") from None
    except ValueError:  # more digits than Python turns into a number
        raise UsageError(f"--frames {text[:20]}...: A and B must be in {ANIMATED_FRAME.text()}") from None
    if last_frame < first_frame:
        raise UsageError(f"--frames {text}: the last frame ({last_frame}) comes before the first ({first_frame})")
    return first_frame, last_frame


@contextlib.contextmanager
def recording_folder(path: str, new: bool) -> Iterator[Path]:
    """The output folder, made first when ``new`` (as ``app.outputs.claim_folder`` found it); a
    folder made here that is still empty when the block ends, however it ends, is removed again."""
    folder = Path(path)
    made = False
    if new:
        try:
            folder.mkdir()
            made = True
        except FileExistsError:
            pass  # made by another program meanwhile: its files are never replaced without --overwrite
        except OSError as error:
            raise OutputError(f"cannot make {path}: {error.strerror or error}") from None
    try:
        yield folder
    finally:
        if made:
            remove_if_empty(folder)


def check_frame_names(folder: Path, first: int, last: int) -> None:
    """Before the work: every frame's name in ``folder`` is free or a file that may be replaced."""
    check_names_in_folder(folder / frame_file_name(frame) for frame in range(first, last + 1))


def default_gif(folder: Path) -> Path:
    """``folder/<folder's name>.gif`` (``recording.gif`` for a folder without one, such as /)."""
    name = Path(os.path.abspath(folder)).name or "recording"
    return folder / f"{name}.gif"


def record_frames(
    renderer: Renderer,
    frames: tuple[int, int],
    static: bool,
    folder: Path,
    how: Placement,
    steps: int,
    bar: StepBar,
) -> list[Path]:
    """Render ``frames`` (first, last) with the loaded ``renderer``, each saved as
    ``folder/frame_NNNNN.png`` placed as ``how`` says; a ``static`` scene is rendered once, its
    frames being one picture. ``bar`` shows the frame of ``steps``. Returns the paths written. When
    stopped or failing part-way, the frames written are kept, and said."""
    first, last = frames
    written: list[Path] = []
    images = render_frames(renderer, first)
    pixels = None
    try:
        for frame in range(first, last + 1):
            bar.progress(frame - first, steps, f"frame {frame}")
            if pixels is None or not static:
                pixels = to_rgb8(next(images))
            written.append(write_frame(folder, frame, pixels, how))
    except BaseException:
        if written:
            count = f"{len(written)} frame" + ("s" if len(written) > 1 else "")
            bar.write(printable(f"kept {count} in {folder} ({written[0].name} .. {written[-1].name})"))
        raise
    return written

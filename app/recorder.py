"""The app's Record control: the next N frames of the shown scene, from the current one, saved at
render resolution as a PNG sequence and an animated GIF (``app.recording``) in a new folder under
the export folder.

The window loop calls ``Recorder.update`` once per pass. When the frame shown is the one due, the
recorder takes its pixels and steps the session one frame on; the CPU backend renders the next
frame in its worker meanwhile, and a writer thread encodes the PNGs and the GIF, so the window keeps
responding. Anything else that moves the frames (playing, stepping, a reset, another scene, size or
view, the GPU failing) ends the recording there; stopping keeps the frames written and writes the
GIF of them, a failed write keeps the frames written before it.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING

from app.export_folder import RECORD, check_folder
from app.recording import make_new_folder, recording_name, remove_if_empty, write_frame, write_gif
from render.core.gpu import gpu_failures
from render.core.image_io import to_rgb8
from render.core.limits import RECORD_FRAMES
from scenes.safe_write import Placement

if TYPE_CHECKING:
    from app.session import Session

DEFAULT_RECORD_FRAMES = 60
# Frames taken but not yet written: past this the recorder waits before stepping on, so a fast GPU
# cannot pile up frames in memory faster than PNGs are encoded.
MAX_PENDING_WRITES = 4


@dataclasses.dataclass
class _Take:
    """One recording under way: frames ``first`` .. ``first + count - 1`` into ``folder``."""

    folder: Path
    first: int
    count: int
    renderer: object  # the session's renderer when it started: a new one means new frames
    backend: str
    due: int = 0  # the frame to take next
    stepped: bool = True  # whether the session has been stepped on to ``due``
    taken: int = 0
    written: list[Path] = dataclasses.field(default_factory=list)  # appended by the writer thread
    failure: str | None = None  # the first write that failed, set by the writer thread
    stopped: bool = False
    stop_reason: str = ""  # what ended it before its last frame, when not the Stop button
    gif: concurrent.futures.Future | None = None
    pending: list[concurrent.futures.Future] = dataclasses.field(default_factory=list)


class Recorder:
    """Records what ``session`` shows; ``count`` frames (RECORD_FRAMES) at the next ``start``."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.count = DEFAULT_RECORD_FRAMES
        self._take: _Take | None = None
        self._writer = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="rasterlab-record")

    @property
    def active(self) -> bool:
        """True from ``start`` until the GIF is written (or the recording failed)."""
        return self._take is not None

    def set_count(self, count: int) -> None:
        """The number of frames the next recording takes, clamped to RECORD_FRAMES."""
        self.count = RECORD_FRAMES.clamp(int(count))

    def progress_line(self) -> str:
        """``recording 12/60 -> <folder>`` while frames are taken, then ``writing the GIF -> ...``."""
        take = self._take
        if take is None:
            return ""
        if take.gif is not None:
            return f"writing the GIF of {len(take.written)} frames -> {take.folder}"
        return f"recording {take.taken}/{take.count} -> {take.folder}"

    def start(self) -> bool:
        """Record ``count`` frames from the current one into a new folder under the export folder;
        False, with the status line saying why, when it cannot start."""
        session = self.session
        if self.active:
            return False
        if session.renderer is None:
            session.status = "nothing to record: no scene is shown"
            return False
        _, missing, problem = check_folder(session.settings.export_folder, RECORD)
        if missing or problem:  # a missing export folder is made only once the user says so
            session.missing_folder = missing
            session.status = missing.status() if missing else f"recording failed: {problem}"
            return False
        first, last = session.frame, session.frame + self.count - 1
        name = recording_name(session.scene_name, session.export_label(), first, last)
        try:
            folder = make_new_folder(session.settings.export_folder, name)
        except OSError as error:
            where = error.filename or session.settings.export_folder
            session.status = f"recording failed: cannot make a folder in {where}: {error.strerror or error}"
            return False
        session.playing = False  # the recorder steps the frames itself
        self._take = _Take(folder, first, self.count, session.renderer, session.backend, due=first)
        static = "" if session.animated else f" ({session.scene.name} is static: every frame is the same picture)"
        session.status = f"recording {self.count} frames to {folder}{static}"
        return True

    def stop(self, reason: str = "") -> None:
        """End the recording now (``reason``: why, when the user did not ask), keeping the frames
        taken and writing their GIF."""
        take = self._take
        if take is not None and take.gif is None:
            take.stopped, take.stop_reason = True, reason
            self._finish(take)

    def update(self, fresh: bool) -> None:
        """Once per pass of the window loop, after the session's update; ``fresh``: a new frame was
        shown in this pass."""
        take = self._take
        if take is None:
            return
        if take.gif is None:
            self._record(take, fresh)
        if take.failure is not None:
            self._end(f"recording failed {take.failure}; {self._kept(take)}")
        elif take.gif is not None and take.gif.done():
            self._end(self._result(take))

    def close(self) -> None:
        """Stop a recording under way and wait until its files are written."""
        self.stop("the window closed")
        self._writer.shutdown(wait=True)
        if self._take is not None:
            self.update(False)

    # -- taking frames ---------------------------------------------------------------------------

    def _record(self, take: _Take, fresh: bool) -> None:
        session = self.session
        moved = self._moved_by_someone_else(take)
        if moved:
            self.stop(moved)
            return
        if take.stepped and (fresh or take.taken == 0) and not session.frame_outstanding:
            if not self._take_frame(take):
                return
            if take.taken == take.count:
                self._finish(take)
                return
        take.pending = [job for job in take.pending if not job.done()]
        if not take.stepped and len(take.pending) < MAX_PENDING_WRITES:
            session.step()
            take.stepped = True

    def _moved_by_someone_else(self, take: _Take) -> str | None:
        """Why the frames no longer follow the recording, or None while they do."""
        session = self.session
        if session.renderer is not take.renderer:
            # Only a GPU failure changes the backend of a running session.
            return "the GPU failed" if session.backend != take.backend else "the scene, size or view changed"
        if session.playing:
            return "playback started"
        expected = take.due if take.stepped else take.due - 1
        if session.frame != expected:
            return f"the frame was moved to {session.frame}"
        return None

    def _take_frame(self, take: _Take) -> bool:
        """Queue the shown frame's PNG; False when the GPU failed reading it (the recording stops)."""
        try:
            image = self.session.host_image()
        except gpu_failures() as error:
            self.session.gpu_failed(error)
            self.stop("the GPU failed")
            return False
        if image is None:
            return False
        pixels, frame = to_rgb8(image), take.due
        take.pending.append(self._writer.submit(_write_frame, take, frame, pixels))
        take.taken += 1
        take.due += 1
        take.stepped = False
        return True

    # -- finishing -------------------------------------------------------------------------------

    def _finish(self, take: _Take) -> None:
        """No more frames: the writer makes the GIF once the frames taken are written."""
        take.gif = self._writer.submit(_write_gif, take)

    def _result(self, take: _Take) -> str:
        """The status line of a finished recording."""
        error = take.gif.exception() if take.gif is not None else None
        if not take.written:
            line = "nothing recorded"
        elif error is not None:
            line = f"{self._kept(take)}; the GIF failed: {_describe(error)}"
        else:
            line = f"recorded {len(take.written)} frames to {take.folder} (GIF {take.gif.result()})"
        if not take.stopped:
            return line
        why = f" ({take.stop_reason})" if take.stop_reason else ""
        return f"recording stopped{why} after {take.taken} of {take.count} frames: {line}"

    @staticmethod
    def _kept(take: _Take) -> str:
        return f"{len(take.written)} frames kept in {take.folder}"

    def _end(self, status: str) -> None:
        take, self._take = self._take, None
        for job in take.pending:
            job.cancel()
        if not take.written:
            remove_if_empty(take.folder)
        self.session.status = status


def _write_frame(take: _Take, frame: int, pixels) -> None:
    """In the writer thread: one frame's PNG, unless an earlier write failed (no gaps)."""
    if take.failure is not None:
        return
    try:
        take.written.append(write_frame(take.folder, frame, pixels))
    except (OSError, MemoryError) as error:
        take.failure = f"at frame {frame}: {_describe(error)}"


def _describe(error: BaseException) -> str:
    """The error's message, or its type where it has none (a MemoryError says nothing else)."""
    return str(error) or type(error).__name__


def _write_gif(take: _Take) -> Path | None:
    """In the writer thread, after the frames: the GIF of the frames written, in the folder."""
    if take.failure is not None or not take.written:
        return None
    return write_gif(take.written, take.folder / f"{take.folder.name}.gif", Placement(next_free=True))

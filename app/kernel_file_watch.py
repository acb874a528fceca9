"""Hot reload in the window. The kernel file of a ``file:`` variant and the headers it includes are
watched (with ``--dev``, every built-in shader too): when one changes, the file compiles in a
background thread while the previous build keeps drawing. A build that compiles replaces it at the
next frame and is checked against the CPU reference at once; one that does not leaves its compiler
log in ``log``, for the panel to show."""

from __future__ import annotations

import concurrent.futures
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from render.core.kernels import MODULES
from render.core.renderer import RendererUnavailable
from shaders import SHADER_DIR

if TYPE_CHECKING:
    from app.session import Session

POLL_S = 0.1  # how often the files' times are read
Stamps = dict[Path, tuple[int, int, int] | None]


def stamps(paths: list[Path]) -> Stamps:
    """(modification time, size, inode) of each of ``paths``; None for one that is gone."""
    found: Stamps = {}
    for path in paths:
        try:
            info = os.stat(path)
            found[path] = (info.st_mtime_ns, info.st_size, info.st_ino)
        except OSError:
            found[path] = None
    return found


def built_in_shaders() -> list[Path]:
    return sorted([*SHADER_DIR.glob("*.cu"), *SHADER_DIR.glob("*.cuh")])


class KernelFileWatch:
    """Polled once per frame (``poll``) on the main thread. ``build(path)`` reads and compiles a
    kernel file (raising ``RendererUnavailable``, with a ``log`` attribute when it did not compile)
    and ``headers(source)`` lists what it includes: the circle renderer's, unless given."""

    def __init__(self, dev: bool = False, build: Callable | None = None, headers: Callable | None = None) -> None:
        if build is None or headers is None:
            from render.circles.user_file import includes
            from render.circles.user_kernel import build_user_kernel

            build, headers = build_user_kernel, includes
        self._build, self._headers = build, headers
        self._pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="kernel-file")
        self._job: concurrent.futures.Future | None = None
        self._job_for = ""
        self._label = ""  # the file variant watched, by label
        self.files: list[Path] = []  # the file, then the headers it includes
        self._stamps: Stamps = {}
        self.set_dev(dev)
        self._last_poll = 0.0
        self.log = ""  # the compiler's log of the latest build that failed; "" once one compiles
        self.error = ""  # its one line
        self.reloads = 0  # builds that replaced the one drawing

    def poll(self, session: Session) -> bool:
        """Follow the session's variant; True when a new build replaced the one drawing."""
        if session.backend != "cuda":
            return False
        if self._job is not None:
            return self._finish(session) if self._job.done() else False
        now = time.monotonic()
        if now - self._last_poll < POLL_S:
            return False
        self._last_poll = now
        if self.dev and self._shaders_changed():
            MODULES.forget()
            session.set_variant(session.variant)  # compiled in the background, as any switch
        variant = session.variant
        if not variant.path:
            self._label, self.files = "", []
            return False
        if variant.label() != self._label:  # a file just loaded: its build is the one drawing
            self._label, self.log, self.error = variant.label(), "", ""
            self._watch(Path(variant.path).expanduser().resolve(), None)
            return False
        now_stamps = stamps(self.files)
        if now_stamps != self._stamps:
            self._stamps = now_stamps
            self._job_for = self._label
            self._job = self._pool.submit(self._build, variant.path)
        return False

    def _finish(self, session: Session) -> bool:
        job, self._job = self._job, None
        assert job is not None
        if self._job_for != session.variant.label():
            return False  # the variant changed meanwhile
        try:
            source = job.result()[0]
        except Exception as failure:  # a build's failure in its thread, whatever it raised, is never the window's
            said = str(failure)
            if not isinstance(failure, RendererUnavailable):
                said = f"file:{session.variant.path}: the build failed: {failure}"
            self.error, self.log = said, getattr(failure, "log", "") or said
            session.status = f"{said}; the previous build keeps drawing"
            return False
        self._watch(source.path, source)
        if not session.set_variant(session.variant):
            self.error = self.log = session.status
            return False
        self.log = self.error = ""
        self.reloads += 1
        session.start_check()
        return True

    def _watch(self, path: Path, source) -> None:
        """Watch ``path`` and the headers ``source`` (None: read it now) includes, from now."""
        if source is None:
            from render.circles.user_file import read_user_source

            try:
                source = read_user_source(str(path))
            except ValueError:
                source = None
        self.files = [path, *(self._headers(source) if source is not None else [])]
        self._stamps = stamps(self.files)

    def _shaders_changed(self) -> bool:
        now = stamps(built_in_shaders())
        changed = now != self._shader_stamps
        self._shader_stamps = now
        return changed

    def set_dev(self, on: bool) -> None:
        """Reload the built-in shaders when they change (``on``), from their state now."""
        self.dev = on
        self._shader_stamps = stamps(built_in_shaders()) if on else {}

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

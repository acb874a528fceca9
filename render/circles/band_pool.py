"""The worker processes that render a parallel reference frame's bands (``reference.py``).

Each worker is a process with a pipe of its own: the command hands it one band at a time and reads
the band back, so the workers share no queue and none can wait on a lock that a dead one held. The
workers start from a forkserver (not fork: the caller may run CUDA or OpenGL threads, which a
forked child must not inherit), so scripts that render need the usual ``if __name__ ==
"__main__":`` guard; a frame rendered at a script's top level outside one is refused before any
worker starts (``main_guard``). They ignore the stops sent to the whole process group (``worker_preload``);
the command stops them through a flag they read between circles. However a frame ends (done,
stopped, failed, a worker killed), its workers are gone when ``render_bands`` returns: those still
there END_SECONDS after the flag are killed, so the command never waits on one for ever.

The scene's arrays reach the workers through shared memory (``SharedScene``), copied there once a
frame: a worker's start carries only their handle, so it does not pickle and pipe the whole scene
(about 40 MB at a million circles) once a worker, and the workers hold no copies of their own.
"""

from __future__ import annotations

import contextlib
import errno
import mmap
import multiprocessing
import os
import resource
import signal
import time
from collections.abc import Callable
from multiprocessing import connection, forkserver, reduction, resource_tracker
from typing import Any

import numpy as np

from render.circles import forkserver_guard, main_guard
from render.core import progress, stops
from render.core.renderer import RendererUnavailable
from scenes.model import CircleScene

# Why a script that renders at its top level is refused (main_guard).
UNGUARDED = (
    "a CPU frame renders at the top level of the script, which each of its worker processes runs again"
    ' as it starts: put it under `if __name__ == "__main__":`'
)

# A -W filter (the start of the message, then the category) for Numba's warning about a variable.
QUIET_NUMBA_VARIABLES = "ignore:Environment variable 'NUMBA_:RuntimeWarning"
# A worker reads the flag at least every REPORT_SECONDS; this leaves room for a loaded machine.
END_SECONDS = 2.0

# blend(scene, planes, row0, full_height): the circles blended into one band (``reference.blend_rows``).
Blend = Callable[[CircleScene, np.ndarray, int, int], None]


# A shared scene's float32 values a circle: position (3), color (3) and radius.
_FLOATS_PER_CIRCLE = 7
SHARED_BYTES_PER_CIRCLE = 4 * _FLOATS_PER_CIRCLE


# The descriptors a frame's start holds beyond those open before it, measured on CPython 3.11: W
# workers start where the limit on open descriptors is at least those open + 9 + 3 W, and the last
# one fails one below it. Two more beside, for a thread that opens a file meanwhile.
DESCRIPTORS_A_WORKER = 3
DESCRIPTORS_BESIDE = 9 + 2
# Where /proc cannot list them, the open descriptors are counted one by one under a limit this low;
# above it, the frame's few are taken to fit.
_COUNTED_LIMIT = 4096


def _open_descriptors(soft: int) -> int | None:
    """The descriptors this process has open (under ``soft``, where /proc cannot list them; None
    where that limit is too high to count under)."""
    try:
        return len(os.listdir("/proc/self/fd")) - 1  # less the listing's own
    except OSError as error:
        if error.errno == errno.EMFILE:
            return soft
    if soft > _COUNTED_LIMIT:
        return None
    count = 0
    for fd in range(soft):  # a descriptor at or above the limit takes no place a new one could
        try:
            os.fstat(fd)
        except OSError:
            continue
        count += 1
    return count


def workers_within_descriptors(wanted: int) -> int:
    """How many of ``wanted`` workers a frame can start within this process's limit on open
    descriptors (the soft RLIMIT_NOFILE), given those open now: 0 where none can."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or (open_now := _open_descriptors(soft)) is None:
        return wanted
    left = soft - open_now - DESCRIPTORS_BESIDE
    return max(0, min(wanted, left // DESCRIPTORS_A_WORKER))


def _scene_bytes(count: int) -> int:
    """The bytes of a shared scene of ``count`` circles (a map is never empty)."""
    return max(1, SHARED_BYTES_PER_CIRCLE * count)


def _arrays(pages, count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A shared scene's position (N, 3), color (N, 3) and radius (N,), float32 views of ``pages``."""
    flat = np.frombuffer(pages, np.float32, count=_FLOATS_PER_CIRCLE * count)
    return (
        flat[: 3 * count].reshape(count, 3),
        flat[3 * count : 6 * count].reshape(count, 3),
        flat[6 * count :],
    )


class NoWorkers(RendererUnavailable):
    """The frame's worker processes cannot share its scene's memory (no memfd, no descriptors left,
    a map refused) or cannot start (no descriptors left, the limit lowered meanwhile, no process
    left): the caller may render the frame in one thread instead."""


def _unshareable(error: OSError) -> Exception:
    """What a failure to make or map a shared scene is to the caller: MemoryError where memory ran
    out, else NoWorkers naming the cause (not an OSError, which the command would take for a
    failed write)."""
    if error.errno in (errno.ENOMEM, errno.ENOSPC):
        return MemoryError()
    return NoWorkers(f"cannot share the scene with the CPU worker processes: {error.strerror or error}")


class SharedScene:
    """A scene for the workers: its arrays in memory they share, the rest as it is.

    The arrays, float32 [position (N, 3), color (N, 3), radius (N,)], lie in an anonymous
    memory file (``memfd_create``) whose pages are taken when it is made (``posix_fallocate``), so
    that a host out of memory is a MemoryError here rather than a SIGBUS at a later write. Pickled
    into a worker's start, it passes the file's descriptor (``SceneHandle``), and the worker maps
    the same pages.
    """

    _NAMES = ("name", "shading", "background", "animation")

    def __init__(self, scene: CircleScene) -> None:
        """``scene``'s arrays copied into a new shared file; whatever stops the copy, the file is
        closed again."""
        self.count = scene.count
        self.fields = {name: getattr(scene, name) for name in self._NAMES}
        try:
            self.fd = os.memfd_create("rasterlab-scene", os.MFD_CLOEXEC)
        except OSError as error:
            raise _unshareable(error) from None
        try:
            try:
                os.posix_fallocate(self.fd, 0, _scene_bytes(self.count))
                self._map = mmap.mmap(self.fd, _scene_bytes(self.count))
            except OSError as error:
                raise _unshareable(error) from None
            try:
                self._fill(scene)
            except BaseException:
                self._map.close()
                raise
        except BaseException:
            os.close(self.fd)
            raise

    def _fill(self, scene: CircleScene) -> None:
        position, color, radius = _arrays(self._map, self.count)
        try:
            position[...], color[...], radius[...] = scene.position, scene.color, scene.radius
        finally:
            del position, color, radius  # the map closes only once no array is over it

    def __reduce__(self):
        return SceneHandle, (reduction.DupFd(self.fd), self.count, self.fields)

    def close(self) -> None:
        """Unmap the file and close it here (a worker keeps its own map until it exits)."""
        self._map.close()
        os.close(self.fd)


class SceneHandle:
    """A shared scene as a worker receives it: the file's descriptor (a ``DupFd``), until mapped."""

    def __init__(self, fd, count: int, fields: dict[str, Any]) -> None:
        self.fd, self.count, self.fields = fd, count, fields

    def scene(self) -> CircleScene:
        """The scene over the shared file's pages, read-only; with no velocity to advance (a
        zero-stride view of (N, 3) zeros), as the bands never move it. RendererUnavailable where
        the pages cannot be mapped."""
        try:
            with open(self.fd.detach(), "rb", buffering=0) as file:
                pages = mmap.mmap(file.fileno(), _scene_bytes(self.count), prot=mmap.PROT_READ)
        except OSError as error:
            raise RendererUnavailable(f"a CPU worker process cannot map the scene: {error.strerror or error}") from None
        position, color, radius = _arrays(pages, self.count)
        still = np.broadcast_to(np.float32(0), (self.count, 3))
        return CircleScene(position=position, velocity=still, color=color, radius=radius, **self.fields)


class _Abandoned(Exception):
    """A worker's band was given up: the frame it belongs to was stopped."""


def worker_context() -> multiprocessing.context.ForkServerContext:
    """How the worker processes start: from a forkserver that preloads ``worker_preload``."""
    # A worker loading a script whose top level renders, which the command did not refuse
    # (``render_bands``: its source unreadable), ends here rather than start workers of its own.
    if main_guard.starting():
        raise SystemExit(f"error: {UNGUARDED}")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["__main__", "render.circles.worker_preload"])  # a no-op once it runs
    # Started with the stops blocked, the forkserver and multiprocessing's resource tracker begin
    # immune to one sent to the whole process group: the preload then ignores them, and the tracker
    # ignores SIGINT and SIGTERM and keeps SIGHUP blocked. A stop that reaches this process meanwhile
    # waits, blocked, until the mask is restored. The tracker is started on its own first: starting
    # it unblocks SIGINT and SIGTERM in this thread.
    # What Numba's import says of a NUMBA_* variable it cannot parse, the command has said in one
    # line: the forkserver and every worker it starts are told to ignore it (PYTHONWARNINGS, read as
    # the forkserver's Python starts), wherever they import Numba.
    warned = os.environ.get("PYTHONWARNINGS")
    os.environ["PYTHONWARNINGS"] = ",".join(filter(None, (warned, QUIET_NUMBA_VARIABLES)))
    try:
        for start in (resource_tracker.ensure_running, forkserver.ensure_running):
            blocked = signal.pthread_sigmask(signal.SIG_BLOCK, stops.SIGNALS)
            try:
                start()
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
    finally:
        if warned is None:
            del os.environ["PYTHONWARNINGS"]
        else:
            os.environ["PYTHONWARNINGS"] = warned
    return context


def _render_band(blend: Blend, scene: CircleScene, job: tuple, stop, done) -> np.ndarray | Exception:
    """One band in a worker: its rows rendered, or the error that stopped them (for the command)."""
    planes, row0, full_height, slot = job

    def report(fraction: float) -> None:
        if stop.value:
            raise _Abandoned
        done[slot] = fraction

    try:
        with progress.reporting(report):
            blend(scene, planes, row0, full_height)
    except _Abandoned:
        raise
    except Exception as error:
        return error
    done[slot] = 1.0
    return planes


def _serve(pipe, blend: Blend, shared: SceneHandle, stop, done) -> None:
    """A worker process: ignores the stops sent to the process group, takes the command's limit on
    open descriptors back from the forkserver, then serves its bands."""
    # The preload did this already, unless another part of the process started the forkserver first.
    for number in stops.SIGNALS:
        signal.signal(number, signal.SIG_IGN)
    forkserver_guard.restore_limit()
    serve_bands(pipe, blend, shared, stop, done)


def serve_bands(pipe, blend: Blend, shared: SceneHandle, stop, done) -> None:
    """Renders each band that comes through ``pipe`` and sends it back, until the command closes
    the pipe or gives the frame up. Where the scene cannot be mapped, sends back the error for each
    band instead, which ends the frame with it."""
    with contextlib.suppress(EOFError, OSError, _Abandoned):
        try:
            scene = shared.scene()
        except RendererUnavailable as error:
            while True:
                pipe.recv()
                pipe.send(error)
        while True:
            pipe.send(_render_band(blend, scene, pipe.recv(), stop, done))


class _Worker:
    """One worker process and the command's end of its pipe."""

    def __init__(self, context, blend: Blend, shared: SharedScene, stop, done) -> None:
        try:
            self.pipe, theirs = context.Pipe()
        except OSError as error:
            raise NoWorkers(f"cannot start a CPU worker process: {error}") from None
        self.process = context.Process(target=_serve, args=(theirs, blend, shared, stop, done))
        try:
            self.process.start()
        except (OSError, EOFError) as error:
            # EOFError: the forkserver dropped the request, whose descriptors did not all arrive.
            self.pipe.close()
            raise NoWorkers(f"cannot start a CPU worker process: {error!r}") from None
        finally:
            theirs.close()  # so that the pipe ends when the worker does

    def hand(self, job: tuple) -> None:
        try:
            self.pipe.send(job)
        except OSError:
            raise self._died() from None

    def take(self) -> np.ndarray:
        try:
            result = self.pipe.recv()
        except (EOFError, OSError):
            raise self._died() from None
        if isinstance(result, Exception):
            raise result
        return result

    def _died(self) -> RendererUnavailable:
        self.process.join(END_SECONDS)
        code = self.process.exitcode
        if code is not None and code < 0:
            how = f"was killed by {signal.Signals(-code).name}"
            if code == -signal.SIGKILL:
                how += " (the system may be out of memory)"
        else:
            how = f"ended unexpectedly (exit code {code})"
        return RendererUnavailable(f"a CPU worker process {how}")


def _report(done) -> None:
    """Tell the listener and the counter how far the bands are together (``done``: each one's fraction)."""
    fractions = list(done)
    if (bands := progress.counter()) is not None:
        bands.reach(fractions.count(1.0), sum(fractions) / len(fractions))
    if (report := progress.listener()) is not None:
        report(sum(fractions) / len(fractions))


def _share(crew: list[_Worker], planes: np.ndarray, rows: list[tuple[int, int]], done) -> None:
    """Hand the bands out, one to each idle worker at a time, and put each back into ``planes``."""
    height = planes.shape[1]
    waiting = list(enumerate(rows))[::-1]
    idle = list(crew)
    busy: dict[Any, tuple[_Worker, int, int]] = {}  # a busy worker's pipe: the worker, its band's rows
    due = time.monotonic() + progress.REPORT_SECONDS
    while waiting or busy:
        while idle and waiting:
            worker, (slot, (a, b)) = idle.pop(), waiting.pop()
            worker.hand((planes[:, a:b], a, height, slot))
            busy[worker.pipe] = worker, a, b
        for pipe in connection.wait(list(busy), progress.REPORT_SECONDS):
            worker, a, b = busy.pop(pipe)
            planes[:, a:b] = worker.take()
            idle.append(worker)
        if time.monotonic() >= due:
            due = time.monotonic() + progress.REPORT_SECONDS
            _report(done)


def _end(crew: list[_Worker]) -> None:
    """Close the workers' pipes and wait for them to exit, END_SECONDS at most; kill those left."""
    for worker in crew:
        worker.pipe.close()
    deadline = time.monotonic() + END_SECONDS
    for worker in crew:
        worker.process.join(max(0.0, deadline - time.monotonic()))
        if worker.process.exitcode is None:
            worker.process.kill()
            worker.process.join()


def render_bands(
    blend: Blend, scene: CircleScene, planes: np.ndarray, rows: list[tuple[int, int]], workers: int
) -> None:
    """Render the bands ``rows`` (rows [a, b)) of ``planes``, float32 (4, H, W), in place, in
    ``workers`` processes. NoWorkers (``planes`` untouched) where the scene cannot be shared with
    them or they cannot start."""
    if (where := main_guard.unguarded()) is not None:
        raise RendererUnavailable(f"{where}: {UNGUARDED}")
    shared = SharedScene(scene)  # first: where it cannot be made, nothing else has started
    try:
        try:
            context = worker_context()
            stop, done = context.RawValue("b", 0), context.RawArray("d", len(rows))
        except OSError as error:
            raise NoWorkers(f"cannot start the CPU worker processes: {error}") from None
        counter = progress.counter()
        if counter is not None:
            counter.start(len(rows), workers)
        crew: list[_Worker] = []
        try:
            with stops.uncut():  # a worker started but not yet in the crew would be ended by no one
                for _ in range(min(workers, len(rows))):
                    crew.append(_Worker(context, blend, shared, stop, done))
            _share(crew, planes, rows, done)
        finally:
            stop.value = 1  # the workers drop their bands: none has one left once the frame is done
            _end(crew)
    finally:
        shared.close()
    if counter is not None:
        counter.reach(len(rows), 1.0)

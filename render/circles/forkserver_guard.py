"""Keeps the forkserver that starts the band workers alive where descriptors run short.

The forkserver inherits the limit on open descriptors that the command had when the server started,
and receives each worker's descriptors from the command. Where the command ran out of descriptors
while sending a request, or the server itself did (the command's limit raised since the server
started), CPython 3.11's server dies with a traceback (an EOFError or an AssertionError from
``multiprocessing.reduction.recvfds``, or an EMFILE from its accept), and every later worker start
fails. ``guard``, run in the server by its preload, raises the server's own soft limit to its hard
limit, and has a request whose descriptors did not all arrive dropped, the ones that came closed
again, as the server's loop drops a connection aborted: the command then sees that worker's start
fail, and renders the frame in one thread. A fork the system refuses (the limit on processes,
``ulimit -u``, reached) drops the request the same way, where the server died of it before. Each
worker the server starts takes the command's limit back (``restore_limit``). A worker whose command
gave its start up before sending it its work (a descriptor refused to the command just after the
fork) reads the end of that work when the command exits, and ends without a traceback.
"""

import array
import contextlib
import errno
import os
import resource
import socket
import sys
from collections.abc import Callable
from multiprocessing import reduction

# The descriptors of the request the server is serving, which it must close where its fork fails.
_request: list[int] = []


def receive_descriptors(sock: socket.socket, size: int) -> list[int]:
    """At most ``size`` descriptors sent over ``sock`` with a one-byte count of them (what
    ``reduction.sendfds`` sends), or ConnectionAbortedError where they did not all arrive."""
    fds = array.array("i")
    message, ancillary, flags, _ = sock.recvmsg(1, socket.CMSG_SPACE(size * fds.itemsize))
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(data[: len(data) - len(data) % fds.itemsize])
    # At least a request's own two (the child's pipe ends), as the server's loop unpacks them.
    if message and not flags & socket.MSG_CTRUNC and len(fds) % 256 == message[0] and len(fds) >= 2:
        _request[:] = fds
        return list(fds)
    for fd in fds:
        os.close(fd)
    raise ConnectionAbortedError(errno.ECONNABORTED, "a worker start's descriptors did not all arrive")


def dropping_refused_forks(fork: Callable[[], int]) -> Callable[[], int]:
    """``fork``, where a fork refused drops the request being served (its descriptors, received by
    ``receive_descriptors``, closed) with ConnectionAbortedError, as the server's loop drops a
    connection aborted: the command reads the end of its pipe instead of a process id."""

    def fork_or_drop() -> int:
        received = _request[:]
        _request.clear()  # the server's to close or keep once the fork is made: never closed here again
        try:
            return fork()
        except OSError as error:
            for fd in received:
                with contextlib.suppress(OSError):
                    os.close(fd)
            raise ConnectionAbortedError(errno.ECONNABORTED, f"cannot fork a worker: {error.strerror}") from None

    return fork_or_drop


def quiet_when_given_up(server: int, hook: Callable) -> Callable:
    """``hook`` for ``sys.excepthook``, except in a child of process ``server`` that meets an
    EOFError: the server's loop reports with it a child that failed before it ran, and a worker
    meets the end of its work unsent only where its command gave its start up."""

    def report(kind, value, trace) -> None:
        if os.getpid() != server and issubclass(kind, EOFError):
            return
        hook(kind, value, trace)

    return report


# The soft limit on open descriptors the command had when the server started, where the server
# raised its own: its workers, forked from it, inherit this module as it is.
_command_soft: int | None = None


def guard() -> None:
    """In the forkserver: the soft limit on open descriptors raised to the hard one, requests
    received with ``receive_descriptors``, forks refused dropping theirs, and a worker given up
    before it ran ending without a traceback."""
    global _command_soft
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard and hard != resource.RLIM_INFINITY:
        _command_soft = soft
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):
            pass  # over the system's own ceiling: the limit stays as the command had it
    reduction.recvfds = receive_descriptors
    os.fork = dropping_refused_forks(os.fork)
    sys.excepthook = quiet_when_given_up(os.getpid(), sys.excepthook)


def restore_limit() -> None:
    """In a worker: the soft limit on open descriptors the command had, where the server raised its own."""
    if _command_soft is not None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (_command_soft, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))

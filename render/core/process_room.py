"""Room under the limit on processes (``ulimit -u``, RLIMIT_NPROC), which counts the processes and
threads of the user's real ID. A library whose thread it refuses may not survive that: Mesa's
llvmpipe waits for the thread forever, OpenBLAS raises SIGINT. So those libraries are asked for
fewer threads where the limit leaves no room for theirs.
"""

from __future__ import annotations

import os
import resource

# Free processes kept beside a library's threads: the app's own processes and threads, whose
# refusal it survives (the CPU reference's workers) or reports in one line.
RESERVE = 8

# The initial PID namespace's number (PROC_PID_INIT_INO), fixed in the kernel.
INITIAL_PID_NAMESPACE = "pid:[4026531836]"


def system_tasks(loadavg: str = "/proc/loadavg") -> int:
    """The processes and threads of every user (the count in ``loadavg``): at least one user's.
    Raises OSError or ValueError where it cannot be read."""
    with open(loadavg, "rb") as file:
        fields = file.read().split()
    try:
        return int(fields[3].split(b"/")[1])
    except IndexError:
        raise ValueError(f"{loadavg} has no count of tasks") from None


def _status(path: str) -> dict[bytes, bytes]:
    with open(path, "rb") as file:
        return dict(line.split(b":", 1) for line in file.read().splitlines() if b":" in line)


def user_tasks(uid: int, proc: str = "/proc") -> int:
    """The processes and threads of real user ``uid`` that ``proc`` shows: what the limit counts.
    Raises OSError where that count would be short: ``proc`` cannot be listed or does not show this
    process, or this process runs in a PID namespace of its own, whose processes alone it can list
    (the limit counts the user's in every namespace)."""
    try:
        namespace = os.readlink(f"{proc}/self/ns/pid")
    except OSError as error:
        raise OSError(f"{proc} does not show this process: {error}") from error
    if namespace != INITIAL_PID_NAMESPACE:
        raise OSError(f"{proc} shows the processes of this PID namespace ({namespace}) only")
    total = 0
    for entry in os.scandir(proc):
        if not entry.name.isdigit():
            continue
        try:
            fields = _status(f"{proc}/{entry.name}/status")
            if int(fields[b"Uid"].split()[0]) == uid:
                total += int(fields[b"Threads"])
        except (OSError, KeyError, ValueError, IndexError):  # ended meanwhile, or unreadable
            continue
    return total


def has_room(threads: int) -> bool:
    """Whether the soft limit on processes leaves this user room for ``threads`` more threads
    beside RESERVE: always where it is unlimited; never where the counts cannot be read. Root,
    whom the limit does not bind, is counted as anyone else."""
    needed = threads + RESERVE
    limit = resource.getrlimit(resource.RLIMIT_NPROC)[0]
    if limit == resource.RLIM_INFINITY:
        return True
    try:
        # The whole system's count first, one read: where even it leaves room, the user's does.
        if limit - system_tasks() >= needed:
            return True
    except (OSError, ValueError):
        pass
    try:
        return limit - user_tasks(os.getuid()) >= needed
    except OSError:
        return False

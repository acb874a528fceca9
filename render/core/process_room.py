"""Room under the limit on processes (``ulimit -u``, RLIMIT_NPROC), which counts the processes and
threads of the user's real ID. A library whose thread it refuses may not survive that: Mesa's
llvmpipe waits for the thread forever, OpenBLAS raises SIGINT. So those libraries are asked for
fewer threads where the limit leaves no room for theirs.
"""

from __future__ import annotations

import os
import resource

# Free processes kept beside a library's threads: the app's own processes and threads, whose
# refusal it survives (the CPU reference's workers) or reports in one line, and a library's threads
# that it can do without (Mesa starts three more here).
RESERVE = 8


def system_tasks() -> int:
    """The processes and threads of every user (/proc/loadavg's count): at least one user's.
    Raises OSError or ValueError where it cannot be read."""
    with open("/proc/loadavg", "rb") as loadavg:
        fields = loadavg.read().split()
    try:
        return int(fields[3].split(b"/")[1])
    except IndexError:
        raise ValueError("/proc/loadavg has no count of tasks") from None


def user_tasks(uid: int) -> int:
    """The processes and threads of real user ``uid`` that /proc shows: what the limit counts.
    Raises OSError where /proc cannot be listed."""
    total = 0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/status", "rb") as status:
                fields = dict(line.split(b":", 1) for line in status.read().splitlines() if b":" in line)
            if int(fields[b"Uid"].split()[0]) == uid:
                total += int(fields[b"Threads"])
        except (OSError, KeyError, ValueError, IndexError):  # ended meanwhile, hidden, or unreadable
            continue
    return total


def has_room(threads: int) -> bool:
    """Whether the soft limit on processes leaves this user room for ``threads`` more threads
    beside RESERVE: always where it is unlimited; never where the counts cannot be read."""
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

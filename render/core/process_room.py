"""Room under the limit on processes (``ulimit -u``, RLIMIT_NPROC), which counts the processes and
threads of the user's real ID. A library whose thread it refuses may not survive that: Mesa's
llvmpipe waits for the thread forever, OpenBLAS raises SIGINT. So those libraries are asked for
fewer threads where the limit leaves no room for theirs, their variables read as they read them.
"""

from __future__ import annotations

import os
import re
import sys

# Free processes kept beside a library's threads: the app's own processes and threads, whose
# refusal it survives (the CPU reference's workers) or reports in one line.
RESERVE = 8

# The initial PID namespace's number (PROC_PID_INIT_INO), fixed in the kernel.
INITIAL_PID_NAMESPACE = "pid:[4026531836]"

# The initial user namespace's map of user IDs: every ID to itself.
INITIAL_UID_MAP = ["0", "0", "4294967295"]

# What strtol takes before its number: C's white space (isspace), then a sign; then its digits.
_C_SPACE_AND_SIGN = re.compile(r"[ \t\n\v\f\r]*([+-]?)")
_C_DIGITS = {8: re.compile(r"[0-7]*"), 10: re.compile(r"[0-9]*"), 16: re.compile(r"[0-9a-fA-F]*")}


def _c_digits(text: str, at: int, base: int) -> str:
    """The digits of ``base`` in ``text`` from ``at`` on (none: an empty string)."""
    found = _C_DIGITS[base].match(text, at)
    return found.group() if found else ""


def c_int(text: str, base: int) -> int | None:
    """``text`` read as a C library reads an int from it: ``(int) strtol(text, NULL, base)``, base
    10 or 0 (a 0x prefix for hexadecimal, a 0 for octal): ASCII white space and digits only, long's
    range saturated, then its low 32 bits as a signed int. None where strtol finds no digits."""
    sign = _C_SPACE_AND_SIGN.match(text)
    negative, at = (sign.group(1) == "-", sign.end()) if sign else (False, 0)
    if base == 0:
        if text[at : at + 2] in ("0x", "0X") and _c_digits(text, at + 2, 16):
            base, at = 16, at + 2
        else:
            base = 8 if text[at : at + 1] == "0" else 10
    found = _c_digits(text, at, base)
    if not found:
        return None
    digits = found.lstrip("0") or "0"
    # Long's range needs at most 64 bits: longer digit strings saturate without being converted.
    magnitude = int(digits, base) if len(digits) <= 64 else 1 << 64
    value = max(-(1 << 63), min(-magnitude if negative else magnitude, (1 << 63) - 1))
    return (value + (1 << 31)) % (1 << 32) - (1 << 31)


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


def _root(proc: str = "/proc") -> bool:
    """Whether this process is root of the initial user namespace, whom the limit does not bind."""
    if os.getuid() != 0:
        return False
    try:
        with open(f"{proc}/self/uid_map") as file:
            return file.read().split() == INITIAL_UID_MAP
    except OSError:
        return False


def shortage(threads: int) -> str | None:
    """Why the soft limit on processes leaves this user no room for ``threads`` more threads beside
    RESERVE, in a few words; None where it does (always where it is unlimited, or for root), and on
    systems other than Linux, whose processes are not counted here. Where the user's processes
    cannot be counted on Linux, that is the reason."""
    if sys.platform != "linux":
        return None
    import resource  # Unix only

    needed = threads + RESERVE
    limit = resource.getrlimit(resource.RLIMIT_NPROC)[0]
    if limit == resource.RLIM_INFINITY or _root():
        return None
    try:
        # The whole system's count first, one read: where even it leaves room, the user's does.
        if limit - system_tasks() >= needed:
            return None
    except (OSError, ValueError):
        pass
    try:
        tasks = user_tasks(os.getuid())
    except OSError as error:
        return (
            f"this user's processes and threads cannot be counted under the limit on processes "
            f"(ulimit -u {limit}): {error}"
        )
    if limit - tasks >= needed:
        return None
    return (
        f"the limit on processes (ulimit -u {limit}) leaves fewer than {needed} free: this user has {tasks} "
        "processes and threads"
    )

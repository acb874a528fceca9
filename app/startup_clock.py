"""How long this process has been running, from the kernel's record of its start: the start-up
time of the app (``gui --stats``'s ``first_frame_s``) counts from the process's start, interpreter
and imports included, not from when Python code first ran."""

from __future__ import annotations

import os
from pathlib import Path


def process_age(stat: str, uptime: str, ticks_per_second: int) -> float:
    """Seconds between a process's start and now, from its ``/proc/<pid>/stat`` line (start time in
    clock ticks after boot, field 22) and ``/proc/uptime`` (seconds since boot, first field)."""
    # Field 2, the command name, is in parentheses and may itself hold spaces and ")": the fields
    # after it start after the last ")".
    fields_from_3 = stat[stat.rindex(")") + 1 :].split()
    start_ticks = int(fields_from_3[22 - 3])
    return float(uptime.split()[0]) - start_ticks / ticks_per_second


def seconds_since_process_start() -> float | None:
    """Seconds since this process started (10 ms resolution); None where ``/proc`` cannot tell."""
    try:
        return process_age(
            Path("/proc/self/stat").read_text(), Path("/proc/uptime").read_text(), os.sysconf("SC_CLK_TCK")
        )
    except (OSError, ValueError, IndexError):
        return None

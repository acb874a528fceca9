"""How much host memory the system can still give, from the kernel's own estimate."""

from __future__ import annotations

MEMINFO = "/proc/meminfo"


def available_host_bytes() -> int | None:
    """Linux's MemAvailable (what can be allocated without swapping), in bytes; None where the system
    does not say (not Linux, or a /proc that cannot be read)."""
    try:
        with open(MEMINFO, encoding="ascii") as info:
            for line in info:
                name, _, value = line.partition(":")
                if name == "MemAvailable":
                    number, unit = value.split()
                    return int(number) * 1024 if unit == "kB" else None
    except (OSError, ValueError):
        return None
    return None

"""Run as a script by the address-space tests: loads what a step needs first, then sets the limit on
address space (RLIMIT_AS) to the process's size now plus HEADROOM MiB, and takes the step:

    address_space_probe.py compile|window HEADROOM checked|unchecked|measure

``compile`` is the CPU reference's blend compiled by Numba (``flat_blend.compile_now``), ``window``
the import of imgui_bundle as the app's window makes it (after glfw), each with the room check the
app makes before it (``checked``) or without it (``unchecked``). Prints ``short: <message>`` where
the check refuses, ``failed: <error>`` for a failure Python can catch, ``done`` where the step
succeeds; a native abort ends the process with SIGABRT. ``measure`` sets no limit and prints the
address space the step took: its peak size less the size before, in bytes.
"""

import re
import resource
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root

from render.core.address_space import AddressSpaceShort  # noqa: E402


def _status(field: str) -> int:
    with open("/proc/self/status") as status:
        return int(re.search(rf"{field}:\s+(\d+)", status.read()).group(1)) * 1024


def main() -> int:
    step, headroom, mode = sys.argv[1], int(sys.argv[2]) << 20, sys.argv[3]
    if step == "compile":
        import numba.np.arraymath  # noqa: F401  (loaded before the limit, as compile_now loads it before its check)

        from render.circles import flat_blend

        if mode == "unchecked":
            flat_blend.ensure_room = lambda need, purpose: None
        take = flat_blend.compile_now
    else:
        import glfw  # noqa: F401  (as app.window imports it, before imgui_bundle)

        from app import launch

        def take() -> None:
            if mode == "checked":
                launch.ensure_room(launch.WINDOW_ROOM, "open the window")
            import imgui_bundle  # noqa: F401

    before = _status("VmSize")
    if mode != "measure":
        resource.setrlimit(resource.RLIMIT_AS, (before + headroom, resource.RLIM_INFINITY))
    try:
        take()
    except AddressSpaceShort as error:
        print(f"short: {error}")
        return 0
    except (ImportError, MemoryError, SystemError) as error:
        print(f"failed: {type(error).__name__}: {error}")
        return 0
    print(_status("VmPeak") - before if mode == "measure" else "done")
    return 0


if __name__ == "__main__":
    sys.exit(main())

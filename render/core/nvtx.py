"""NVTX ranges around a frame's GPU stages (clear, advance, binning, blending, the display's copy), so
that Nsight Systems shows the frame's structure on its timeline. Off unless switched on (``--nvtx``,
the app's Display section): a range costs a call into the NVTX library on each side."""

from __future__ import annotations

_ranges = {"on": False}


def set_nvtx(on: bool) -> None:
    """Mark the stages with NVTX ranges from now on (or stop)."""
    _ranges["on"] = on


def nvtx_on() -> bool:
    return _ranges["on"]


def push(name: str) -> None:
    """Open the range ``name`` on this thread, when ranges are on."""
    if _ranges["on"]:
        from cupy.cuda import nvtx

        nvtx.RangePush(name)


def pop() -> None:
    """Close this thread's innermost range, when ranges are on."""
    if _ranges["on"]:
        from cupy.cuda import nvtx

        nvtx.RangePop()

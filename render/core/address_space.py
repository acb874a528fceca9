"""The limit on address space (``ulimit -v``, RLIMIT_AS): every mapping of a process counts against
it, libraries' code, NumPy's arrays and CUDA's reservations alike. Under a low limit a library
fails to load or an allocation fails, which the command reports in one line that names the limit;
but native code that cannot report such a failure aborts, crashes or hangs the whole process (LLVM
as Numba compiles, OpenBLAS finding no room for its buffers, Mesa and imgui_bundle as the window
opens), so those steps first check that the room they need is there (``ensure_room``)."""

from __future__ import annotations

import mmap

MIB = 1 << 20


class AddressSpaceShort(MemoryError):
    """The limit on address space leaves less room than a step needs."""


def limit_bytes() -> int | None:
    """The soft limit on this process's address space in bytes; None where there is none (or the
    system has no such limit)."""
    try:
        import resource
    except ImportError:  # not a Unix
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return None if soft == resource.RLIM_INFINITY else soft


def limit_words(limit: int) -> str:
    """How a message names a limit of ``limit`` bytes: as ``ulimit -v`` sets it, in KB."""
    return f"the limit on memory (ulimit -v {limit // 1024})"


def limit_note() -> str:
    """``; under the limit on memory (ulimit -v N), which may be too low`` where a limit is set, to
    end the line of a failure that a lack of address space can cause; else empty."""
    limit = limit_bytes()
    return "" if limit is None else f"; under {limit_words(limit)}, which may be too low: raise it"


def ensure_room(need: int, purpose: str) -> None:
    """Raise AddressSpaceShort unless ``need`` more bytes of address space can be mapped now, to
    ``purpose`` (a phrase such as ``open the window``). It maps them, read-only and untouched, and
    gives them back at once. Nothing is checked where no limit is set."""
    limit = limit_bytes()
    if limit is None:
        return
    try:
        room = mmap.mmap(-1, need, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS, prot=mmap.PROT_READ)
    except OSError:
        raise AddressSpaceShort(
            f"{limit_words(limit)} leaves too little room to {purpose} ({need // MIB} MiB more): raise it"
        ) from None
    room.close()

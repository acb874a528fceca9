"""Launch geometry shared by the renderers' kernels."""

from __future__ import annotations

THREADS_1D = 256  # threads per block of the one-thread-per-item kernels
BLOCK_2D = (16, 16)  # threads per block of the one-thread-per-pixel kernels


def grid_1d(count: int) -> tuple[int]:
    """Blocks of THREADS_1D covering ``count`` items (at least one block)."""
    return (max(1, (count + THREADS_1D - 1) // THREADS_1D),)


def grid_2d(width: int, height: int, block: tuple[int, int]) -> tuple[int, int]:
    """Blocks of ``block`` (x, y) threads covering a width x height image."""
    return ((width + block[0] - 1) // block[0], (height + block[1] - 1) // block[1])

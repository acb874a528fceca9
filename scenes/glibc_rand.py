"""glibc's ``rand()`` (the TYPE_3 additive feedback generator), re-implemented in NumPy.

The CS149 scenes and the "CUDA by Example" spheres are drawn from glibc's ``rand()``; to regenerate
them bit for bit we need the identical stream. The recurrence is linear mod 2**32:
``r[i] = r[i-31] + r[i-3]``, so a block of B consecutive values is a fixed integer matrix (B x 34)
times the last 34 values. Building that matrix once makes millions of draws a few matrix products
instead of millions of Python steps.
"""

from __future__ import annotations

import functools

import numpy as np

_MASK32 = np.uint64(0xFFFFFFFF)
_LAG_LONG = 31
_LAG_SHORT = 3
_WINDOW = 34  # enough history for both lags
_DISCARD = 344 - _WINDOW  # glibc discards the first 310 values after seeding
_BLOCK = 4096
RAND_MAX = 2147483647


@functools.cache
def _block_matrix(block: int) -> np.ndarray:
    """Coefficients (block, 34) uint64: row j gives r[s + j] from the window r[s-34 .. s-1].

    Coefficients only matter mod 2**32, and uint64 arithmetic wraps mod 2**64, which preserves that.
    """
    rows = np.zeros((_WINDOW + block, _WINDOW), dtype=np.uint64)
    rows[:_WINDOW] = np.eye(_WINDOW, dtype=np.uint64)
    with np.errstate(over="ignore"):
        for t in range(_WINDOW, _WINDOW + block):
            rows[t] = rows[t - _LAG_LONG] + rows[t - _LAG_SHORT]
    return rows[_WINDOW:]


class GlibcRand:
    """The stream of ``rand()`` after ``srand(seed)``; seed 0 behaves as seed 1, as in glibc."""

    def __init__(self, seed: int) -> None:
        seed = int(seed) & 0xFFFFFFFF
        if seed == 0:
            seed = 1
        r = [0] * _WINDOW
        r[0] = seed
        # glibc computes 16807 * r mod (2**31 - 1) on the signed 32-bit value; the seed is read as
        # a signed int, so seeds >= 2**31 start from a negative word.
        word = seed - (1 << 32) if seed >= (1 << 31) else seed
        for i in range(1, 31):
            hi, lo = divmod(word, 127773)
            if word < 0:  # C division truncates toward zero
                hi, lo = -((-word) // 127773), -((-word) % 127773)
            word = 16807 * lo - 2836 * hi
            if word < 0:
                word += 2147483647
            r[i] = word & 0xFFFFFFFF
        for i in range(31, _WINDOW):
            r[i] = r[i - 31]
        self._window = np.array(r, dtype=np.uint64)
        self._buffer = np.empty(0, dtype=np.int64)
        self._advance_raw(_DISCARD)

    def _advance_raw(self, count: int) -> np.ndarray:
        """Next ``count`` raw 32-bit words of the recurrence, uint64 (count,)."""
        out = np.empty(count, dtype=np.uint64)
        done = 0
        with np.errstate(over="ignore"):
            while done < count:
                step = min(_BLOCK, count - done)
                matrix = _block_matrix(_BLOCK)[:step]
                values = (matrix @ self._window) & _MASK32
                out[done : done + step] = values
                self._window = np.concatenate([self._window, values])[-_WINDOW:]
                done += step
        return out

    def ints(self, count: int) -> np.ndarray:
        """Next ``count`` outputs of ``rand()``, int64 (count,), each in [0, RAND_MAX]."""
        return (self._advance_raw(count) >> np.uint64(1)).astype(np.int64)

    def floats(self, count: int) -> np.ndarray:
        """Next ``count`` values of ``float(rand()) / RAND_MAX`` evaluated in float32, (count,).

        ``rand()`` rounds to the nearest float32 and RAND_MAX as a float is exactly 2**31, so the
        result is ``round_to_float32(rand()) * 2**-31`` and can be exactly 1.0.
        """
        return self.ints(count).astype(np.float32) * np.float32(2.0**-31)

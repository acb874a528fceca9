"""glibc's float functions, called through ctypes where bit-exactness with C code matters.

NumPy's float32 ``power``, ``sin`` and ``cos`` are not glibc's ``powf``, ``sinf`` and ``cosf``; a
float64 evaluation rounded to float32 also differs in rare inputs (88 of 100000 for ``powf``).
These are only used on scene generation paths (at most a few hundred thousand calls).
"""

from __future__ import annotations

import ctypes
import ctypes.util

import numpy as np

_libm = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
for _name in ("powf", "sinf", "cosf"):
    getattr(_libm, _name).restype = ctypes.c_float
_libm.powf.argtypes = (ctypes.c_float, ctypes.c_float)
_libm.sinf.argtypes = (ctypes.c_float,)
_libm.cosf.argtypes = (ctypes.c_float,)


def powf(base: np.ndarray, exponent: float) -> np.ndarray:
    """Elementwise glibc ``powf(base, exponent)``; base float32 (N,) -> float32 (N,)."""
    e = float(np.float32(exponent))
    return np.array([_libm.powf(float(b), e) for b in base], dtype=np.float32)


def sinf(x: float | np.float32) -> np.float32:
    """glibc ``sinf`` of a float32 scalar."""
    return np.float32(_libm.sinf(float(np.float32(x))))


def cosf(x: float | np.float32) -> np.float32:
    """glibc ``cosf`` of a float32 scalar."""
    return np.float32(_libm.cosf(float(np.float32(x))))

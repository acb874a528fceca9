"""NumPy's OpenBLAS kept to one thread in rasterlab's processes.

None of them multiplies matrices large enough to gain from more, and every thread OpenBLAS starts
counts against the limit on processes (``ulimit -u``): where that limit refuses one, OpenBLAS prints
four lines of its own, and in the command NumPy's import then ends in a KeyboardInterrupt, which
would read as a stop. A user's own ``OPENBLAS_NUM_THREADS`` is kept.
"""

import os


def one_blas_thread() -> None:
    """OpenBLAS asked for one thread, unless the environment says otherwise; to take effect, called
    before the process first imports NumPy."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

"""The ``rasterlab`` command and ``main.py``. The stops (Ctrl-C, SIGTERM, SIGHUP) are answered from
here on, before the command line loads, so a stop while Python loads or parses it ends with the same
one line and exit code as one during the work; and once the exit code is decided, none can change
it. Only the interpreter's own start comes before."""

import sys

from app.message_stream import take_messages
from app.missing_package import load_failure
from app.printable import printable
from app.signals import Stopped, guard_exit, unwinding
from render.core.blas_threads import one_blas_thread


def _exit_code(code) -> int:
    """The status ``sys.exit(code)`` gives the process."""
    if code is None:
        return 0
    return code if isinstance(code, int) else 1


def main() -> int:
    code = 1  # what an error that escapes everything below gives
    take_messages()  # a standard error closed, broken or full drops the lines below
    try:
        with unwinding():
            lowered = one_blas_thread()  # before the command line loads NumPy
            if lowered is not None:
                own, reason = lowered
                print(f"note: OPENBLAS_NUM_THREADS={printable(own)} lowered to 1: {printable(reason)}", file=sys.stderr)
            try:
                from app.cli import main as run
            except (ImportError, MemoryError, SystemError) as error:
                # A package the command line needs (NumPy, Pillow) missing, or one that could not load
                # for want of memory (the SystemError of a C extension whose set-up ran out of it).
                print(f"error: {printable(load_failure(error))}", file=sys.stderr)
                return code
            code = run()
    except Stopped as stop:  # before or after the command's own handling: imports, argument parsing
        code = 128 + stop.signum
        print(stop.note, file=sys.stderr)
    except SystemExit as done:  # --help, --version, a command line that does not parse
        code = _exit_code(done.code)
        raise
    finally:
        guard_exit(code)
    return code

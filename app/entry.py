"""The ``rasterlab`` command and ``main.py``. The stops (Ctrl-C, SIGTERM, SIGHUP) are answered from
here on, before the command line loads, so a stop while Python loads or parses it ends with the same
one line and exit code as one during the work; and once the exit code is decided, none can change
it. Only the interpreter's own start comes before."""

import io
import os
import sys
import warnings

from app.message_stream import take_messages
from app.missing_package import load_failure
from app.printable import printable
from app.signals import Stopped, guard_exit, unwinding
from render.core.address_space import MIB, AddressSpaceShort, ensure_room, limit_note
from render.core.blas_threads import one_blas_thread
from render.core.gpu import first_line

# The address space the command line's libraries take as they load (tests/app/test_address_space.py
# measures it: about 96 MiB, most of it NumPy's OpenBLAS, which ends the process where its buffer
# finds no room), with room to spare.
COMMAND_LINE_ROOM = 128 * MIB


def _exit_code(code) -> int:
    """The status ``sys.exit(code)`` gives the process."""
    if code is None:
        return 0
    return code if isinstance(code, int) else 1


def _one_line_warning(message, category, filename, lineno, line=None) -> str:
    """A library's warning as the command's lines read: ``warning: `` and the first line of its text
    (Numba's about a NUMBA_* variable it cannot parse carries a traceback's text after it)."""
    return f"warning: {printable(first_line(message))}\n"


def main() -> int:
    code = 1  # what an error that escapes everything below gives
    take_messages()  # a standard error closed, broken or full drops the lines below
    warnings.formatwarning = _one_line_warning
    # A name the output's encoding cannot take (PYTHONIOENCODING=ascii, a C locale) is written as its
    # escapes, rather than failing the line that says a file was written.
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(errors="backslashreplace")
    # Written where even a line cannot be made for want of memory: made before it runs out.
    out_of_memory = f"error: not enough memory to go on{limit_note()}\n".encode()
    try:
        with unwinding():
            lowered = one_blas_thread()  # before the command line loads NumPy
            if lowered is not None:
                own, reason = lowered
                print(f"note: OPENBLAS_NUM_THREADS={printable(own)} lowered to 1: {printable(reason)}", file=sys.stderr)
            try:
                ensure_room(COMMAND_LINE_ROOM, "load the command line's libraries")
                from app.cli import main as run
            except AddressSpaceShort as error:
                print(f"error: {error}", file=sys.stderr)
                return code
            except Exception as error:
                # A package the command line needs (NumPy, Pillow) missing, or one that could not load:
                # for want of memory (the SystemError of a C extension whose set-up ran out of it), or
                # of a CPU feature (NumPy's RuntimeError).
                print(f"error: {printable(load_failure(error))}", file=sys.stderr)
                return code
            code = run()
    except Stopped as stop:  # before or after the command's own handling: imports, argument parsing
        code = 128 + stop.signum
        print(stop.note, file=sys.stderr)
    except SystemExit as done:  # --help, --version, a command line that does not parse
        code = _exit_code(done.code)
        raise
    except MemoryError:  # out of memory even for the line that says so
        os.write(2, out_of_memory)
    finally:
        guard_exit(code)
    return code

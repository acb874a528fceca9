"""The command line: ``render``, ``record``, ``check``, ``bench``, ``gui`` and ``scene save``; with no
command, the app.

Exit codes: 0 success; 1 a check found differences, or a runtime failure (an output exists or could
not be written, a scene file that cannot be read, standard output closed or full, out of memory);
2 bad arguments (the usage is printed only when the command line itself cannot be parsed); 3 the
command needs a CUDA GPU and none is usable; 128 + N when stopped by signal N (130 for Ctrl-C). A
stopped or failed command leaves no partial or temporary file behind.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import sys

from app.circle_timing import CIRCLE_TIMING_COMMANDS
from app.cli_args import UsageError, build_parser
from app.commands import COMMANDS, note
from app.message_stream import take_messages
from app.missing_package import import_failure, named
from app.outputs import OutputExists, OutputRefused, writes_to_stdout
from app.signals import Stopped, unwinding
from render.core.address_space import AddressSpaceShort, limit_note
from render.core.gpu import gpu_failures, is_out_of_memory
from render.core.nvtx import set_nvtx
from render.core.renderer import NoGpu, OutOfHostMemory, RendererUnavailable
from render.kinds import KINDS
from scenes.file_reading import WrongKind
from scenes.files import SceneFileError
from scenes.safe_write import OutputError, free_name

# Where each command's output files are, so that messages move to stderr when one of them is stdout.
_OUTPUT_OPTIONS = ("out", "raw", "json", "chart", "screenshot", "stats", "file")
# Errors that say an argument names nothing usable (exit code 2).
_USAGE_ERRORS = (UsageError, *(error for kind in KINDS.values() for error in kind.scene_errors))
# What the command found while it worked: an existing output, a file, a GPU or host out of room (1).
_RUNTIME_ERRORS = (OutputExists, SceneFileError, RendererUnavailable, OutputError)


def _silence_stdout() -> None:
    """Point descriptor 1 at /dev/null, so the interpreter's last flush of a closed or full standard
    output cannot fail again at exit ("Exception ignored ...")."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.close(devnull)


def _flush_stdout() -> str | None:
    """Flush standard output; the reason when it cannot take the data (closed pipe, full disk)."""
    try:
        if sys.stdout is not None:  # None: started with descriptor 1 closed
            sys.stdout.flush()
    except OSError as error:
        _silence_stdout()
        return error.strerror or str(error)
    return None


def _quiet_teardown() -> None:
    """After a GPU failure the CUDA context is lost: each of CuPy's objects would print its own
    failure as it is freed at exit, under the one line already said. Drop those reports."""
    sys.unraisablehook = lambda unraisable: None
    sys.excepthook = lambda *args: None


REFUSED = (
    "the system refused a new process or thread: its limit on processes (ulimit -u) or on memory (ulimit -v) is reached"
)


def _host_failure(error: BaseException) -> str | None:
    """The one line for a failure of the host rather than of the command, None for any other error:
    a process or thread refused (a fork's EAGAIN, where a write to a non-blocking output, which gives
    EAGAIN too, says how much of it was written; or the RuntimeError of a thread Python could not
    start, for want of processes or of memory alike), the SystemError of a library that ran out of
    memory under a limit on address space, a library that did not load (an
    ImportError, or an OSError without an error number, which a write's failure always has: its
    shared object found no room under ``ulimit -v``, say; or with ENOMEM, which no write gives), or a
    working folder removed under the
    command where something other than its writes, which name their files, looked for it."""
    if not isinstance(error, ImportError) and _raised_in_import(error):
        return _load_failure_line(error)
    if isinstance(error, RuntimeError) and str(error).startswith("can't allocate"):  # a lock, in a thread
        return f"not enough memory ({error})"
    if isinstance(error, SystemError):  # a C extension whose allocation failed and left no exception
        return f"a library ran out of memory ({error})" if limit_note() else None
    if isinstance(error, RuntimeError):
        return REFUSED if str(error) == "can't start new thread" else None
    if isinstance(error, ImportError):
        return import_failure(error)
    if isinstance(error, OSError):
        if error.errno is None:
            return str(error)
        if error.errno == errno.ENOMEM:  # never a write's: a library's mapping (llvmlite's, under ulimit -v)
            return f"not enough memory: {error}"
        if error.errno == errno.EAGAIN and error.filename is None and not hasattr(error, "characters_written"):
            return REFUSED
        if error.errno == errno.ENOENT and error.filename is None and not _working_folder_exists():
            # A library that reads the working folder (coverage, loaded by numba, does at import).
            return f"the working folder was removed: {error.strerror}"
    return None


GL_OUT_OF_MEMORY = 0x0505


def _raised_in_import(error: BaseException) -> bool:
    """Whether ``error`` came out of a module's import (a library that failed as it loaded, in some
    other way than an ImportError: Numba's RuntimeError, say)."""
    frame = error.__traceback__
    while frame is not None:
        if frame.tb_frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.tb_next
    return False


def _load_failure_line(error: BaseException) -> str:
    return f"cannot load a library ({named(error)})"


def _gl_out_of_memory(error: Exception) -> bool:
    """Whether ``error`` is PyOpenGL's report of GL_OUT_OF_MEMORY (the software renderer's, under a
    limit on address space)."""
    gl = sys.modules.get("OpenGL.error")
    return gl is not None and isinstance(error, gl.GLError) and error.err == GL_OUT_OF_MEMORY


def _working_folder_exists() -> bool:
    try:
        os.getcwd()
    except FileNotFoundError:
        return False
    return True


def _run(args: argparse.Namespace) -> int:
    """The command, with every failure turned into one line and an exit code."""
    set_nvtx(getattr(args, "nvtx", False))
    try:
        return (COMMANDS | CIRCLE_TIMING_COMMANDS)[args.action](args)
    except NoGpu as error:
        note(f"error: {error}")
        return 3
    except OutOfHostMemory as error:
        note(f"error: {error}{limit_note()}")
        return 1
    except WrongKind as error:
        note(f"error: {error}; it is a {error.found} scene file: add --renderer {error.found}")
        return 1
    except _RUNTIME_ERRORS as error:
        note(f"error: {error}")
        return 1
    except (*_USAGE_ERRORS, OutputRefused) as error:
        note(f"error: {error}")
        return 2
    except AddressSpaceShort as error:
        note(f"error: {error}")
        return 1
    except MemoryError:
        # Under a limit on address space the limit is the likelier cause than the frame's size.
        advice = limit_note() or " (try a smaller size or count)"
        note(f"error: not enough host memory for this {args.command}{advice}")
        return 1
    except gpu_failures() as error:  # a kernel that faulted (a user's, say), a lost GPU, or no memory left
        what = "ran out of memory" if is_out_of_memory(error) else "failed"
        note(f"error: the GPU {what} while the {args.action} ran: {error}{limit_note()}")
        _quiet_teardown()
        return 1
    except (OSError, RuntimeError, ImportError, SystemError) as error:
        if (line := _host_failure(error)) is not None:
            note(f"error: {line}{limit_note()}")
            return 1
        if not isinstance(error, OSError):
            raise
        if error.errno in (errno.EMFILE, errno.ENFILE) and error.filename is None:
            # A write never takes a descriptor: something the command opened (a pipe, a library's
            # process) found none left.
            note(f"error: no file descriptor left ({error.strerror}): raise the limit on open files (ulimit -n)")
            return 1
        # Files are written through scenes.safe_write, which names them; an OSError without a file
        # name comes from printing to a closed or full standard output.
        if error.filename is None:
            _silence_stdout()
        note(f"error: cannot write to {error.filename or 'standard output'}: {error.strerror or error}")
        return 1
    except Exception as error:
        if _gl_out_of_memory(error):
            call = getattr(error.baseOperation, "__name__", "a call")
            note(f"error: OpenGL ran out of memory in {call}{limit_note()}")
        elif _raised_in_import(error):
            note(f"error: {_load_failure_line(error)}{limit_note()}")
        else:
            raise
        return 1
    except KeyboardInterrupt:
        note("interrupted")
        return 130
    except Stopped as stop:
        note(stop.note)
        return 128 + stop.signum


def main(argv: list[str] | None = None) -> int:
    take_messages()
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except OSError as error:  # --help into a closed or full standard output
        _silence_stdout()
        note(f"error: cannot write to standard output: {error.strerror or error}")
        return 1
    except SystemExit:
        broken = _flush_stdout()  # after --help: fails here rather than at exit
        if broken:
            note(f"error: cannot write to standard output: {broken}")
            return 1
        raise
    if args.command is None:
        from app.displays import has_display

        try:
            display = has_display()  # loads glfw, which starts a process
        except (OSError, RuntimeError, ImportError) as error:
            if (line := _host_failure(error)) is None:
                raise
            note(f"error: {line}{limit_note()}")
            return 1
        if display:
            from app.launch import GuiOptions, run_gui

            return run_gui(GuiOptions(persist=True))
        out = free_name("rand10k.png")
        note(f"note: no display; rendering {out} instead (rasterlab gui --headless runs the app offscreen)")
        args = parser.parse_args(["render", "--scene", "rand10k"])
        # Should another program take the name meanwhile, the next free one is used at the write.
        args.out, args.next_free_name = out, True
    to_stdout = any(writes_to_stdout(getattr(args, name, None)) for name in _OUTPUT_OPTIONS)
    # With a file going to standard output, every message goes to stderr instead.
    messages = contextlib.redirect_stdout(sys.stderr) if to_stdout else contextlib.nullcontext()
    with unwinding(), messages:
        code = _run(args)
    broken = _flush_stdout()
    if broken:
        note(f"error: cannot write to standard output: {broken}")
        return 1
    return code

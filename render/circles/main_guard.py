"""Whether the command's script renders at its top level, which its worker processes would repeat.

A parallel CPU frame's worker processes start from a forkserver, and each loads the script that
started the command (the ``__main__`` module's file) as ``__mp_main__`` before it runs: what the
script does at its top level, outside an ``if __name__ == "__main__":`` block, each worker does
again as it starts, rendering among it, whose workers would load the script again. ``unguarded``
finds that case in the command, before any worker starts, from the line its script stands at and
the script's source; ``starting`` tells a process that is itself loading the script that way.
"""

from __future__ import annotations

import ast
import functools
import inspect
import multiprocessing
import sys
from pathlib import Path


def starting() -> bool:
    """True in a process multiprocessing is starting: one loading its parent's script, where
    CPython's own check of this case (``spawn._check_not_importing_main``) reads the same flag."""
    return bool(getattr(multiprocessing.current_process(), "_inheriting", False))


def unguarded() -> str | None:
    """Where the caller runs under a statement at the top level of the command's script that lies
    outside an ``if __name__ == "__main__":`` block, as "PATH:LINE"; None when it lies inside one,
    or there is no script file (an interactive session, ``python -c``), or its source cannot be
    read, or the script is a package's ``__main__``, which the workers do not load."""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if main is None or not isinstance(path, str):
        return None
    name = getattr(getattr(main, "__spec__", None), "name", "")
    if name == "__main__" or name.endswith(".__main__"):
        return None  # a package's __main__ (python -m PACKAGE): multiprocessing does not load it again
    frame = inspect.currentframe()
    while frame is not None and not (frame.f_code.co_name == "<module>" and frame.f_globals is vars(main)):
        frame = frame.f_back
    if frame is None:
        return None
    guarded = _guarded_lines(path)
    if guarded is None or frame.f_lineno in guarded:
        return None
    return f"{path}:{frame.f_lineno}"


@functools.lru_cache(maxsize=8)
def _guarded_lines(path: str) -> frozenset[int] | None:
    """The lines of the script at ``path`` inside its top-level ``if __name__ == "__main__":``
    blocks; None if its source cannot be read or parsed."""
    try:
        tree = ast.parse(Path(path).read_bytes(), path)
    except (OSError, SyntaxError, ValueError):
        return None
    lines: set[int] = set()
    for statement in tree.body:
        if isinstance(statement, ast.If) and _is_main_test(statement.test) and statement.end_lineno:
            lines.update(range(statement.lineno, statement.end_lineno + 1))
    return frozenset(lines)


def _is_main_test(test: ast.expr) -> bool:
    """True for ``__name__ == "__main__"``, either way round."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return False
    sides = {ast.dump(test.left), ast.dump(test.comparators[0])}
    return sides == {ast.dump(ast.Name("__name__", ast.Load())), ast.dump(ast.Constant("__main__"))}

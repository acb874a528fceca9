"""Compiled kernel modules by source file and defines, safe to ask from several threads at once: the
app compiles in a background thread while the main thread renders (and may ask for the same module).
"""

from __future__ import annotations

import concurrent.futures
import threading
from collections.abc import Callable, Iterable, Mapping
from typing import Any

# One module to build: a ``shaders/`` file name and its ``-D`` defines (name -> value).
Build = tuple[str, Mapping[str, object]]
Key = tuple[str, tuple[tuple[str, object], ...]]


def build_key(source: str, defines: Mapping[str, object]) -> Key:
    """The cache key of a build: the same defines in any order give the same key."""
    return source, tuple(sorted(defines.items()))


class ModuleCache:
    """``compile(source, defines)`` (defines as sorted ``(name, value)`` pairs) run at most once per
    key: a thread that asks for a module another thread is compiling waits for that compile and
    gets its module (or its error). A failed compile is not kept, so the next request tries again.
    """

    def __init__(self, compile: Callable[[str, tuple[tuple[str, object], ...]], Any]) -> None:
        self._compile = compile
        self._lock = threading.Lock()
        self._modules: dict[Key, Any] = {}
        self._compiling: dict[Key, concurrent.futures.Future] = {}

    def load(self, source: str, defines: Mapping[str, object]) -> Any:
        """The module of ``source`` with ``defines``, compiled now unless it was before."""
        key = build_key(source, defines)
        with self._lock:
            if key in self._modules:
                return self._modules[key]
            running = self._compiling.get(key)
            if running is None:
                running = self._compiling[key] = concurrent.futures.Future()
                compiles_here = True
            else:
                compiles_here = False
        if not compiles_here:
            return running.result()
        try:
            module = self._compile(*key)
        except BaseException as error:
            with self._lock:
                del self._compiling[key]
            running.set_exception(error)
            raise
        with self._lock:
            self._modules[key] = module
            del self._compiling[key]
        running.set_result(module)
        return module

    def forget(self) -> None:
        """Drop every module compiled so far (their sources changed): the next ``load`` compiles
        again. Compiles under way finish for those who wait for them."""
        with self._lock:
            self._modules.clear()

    def ready(self, builds: Iterable[Build]) -> bool:
        """Whether every one of ``builds`` is compiled (loading them would not compile)."""
        with self._lock:
            return all(build_key(source, defines) in self._modules for source, defines in builds)

    def warm(self, builds: Iterable[Build]) -> None:
        """Compile each of ``builds`` that is not compiled yet; raises the first compile error."""
        for source, defines in builds:
            self.load(source, defines)

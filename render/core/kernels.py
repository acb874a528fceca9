"""Building the ``shaders/*.cu`` modules: one list of options for NVRTC at run time (through CuPy)
and for ``nvcc`` in the CI compile test, so both build exactly the same code.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from render.core.address_space import limit_note
from render.core.gpu import first_line
from render.core.module_cache import Build, ModuleCache
from render.core.renderer import RendererUnavailable
from shaders import SHADER_DIR

ARCH = "sm_90"

# --fmad=false: the reference rounds every float32 product and sum separately (see circle_common.cuh).
# --ftz=true: CuPy appends it to every NVRTC build, after ours, so it is stated here for nvcc in CI
# to build the same code. Subnormal float32 results flush to zero on the GPU, where NumPy keeps
# them: pixels below 2^-126 differ from the reference (by less than 2^-126;
# tests/render/circles/test_gpu_tile_warp.py).
BASE_OPTIONS = ("-std=c++17", "--fmad=false", "--ftz=true")


def define_flags(defines: dict[str, object]) -> tuple[str, ...]:
    """``-DKEY=value`` for each define, in a fixed order (the module cache's key depends on it)."""
    return tuple(f"-D{key}={value}" for key, value in sorted(defines.items()))


def nvrtc_options(defines: Mapping[str, object], include_dirs: Iterable[str | Path] = (SHADER_DIR,)) -> tuple[str, ...]:
    """The options the app gives NVRTC for a module with ``-D`` defines whose headers are found in
    ``include_dirs`` (``shaders/`` for ours; a user's kernel folder, then ``shaders/``, for theirs).
    CuPy adds the target architecture and its own include folders."""
    return (*BASE_OPTIONS, *(f"-I{folder}" for folder in include_dirs), *define_flags(dict(defines)))


def nvcc_command(source: str, defines: dict[str, object], output: str) -> list[str]:
    """The nvcc command line that compiles ``shaders/<source>`` to a cubin for the Hopper target."""
    return [
        "nvcc",
        f"-arch={ARCH}",
        "-cubin",
        *BASE_OPTIONS,
        f"-I{SHADER_DIR}",
        *define_flags(defines),
        "-o",
        output,
        str(SHADER_DIR / source),
    ]


# A build whose source starts with this is a library's kernels (CuPy's sort) rather than a file of
# ours: they load on their first call, which can take a frame's time many times over, so a renderer
# that calls them asks for them as builds too, and the app loads them off the main thread.
LIBRARY = "cupy:"
LIBRARY_WARM_ELEMENTS = 1 << 20


def _load_library(name: str, defines: Mapping[str, object]) -> str:
    """Call the library kernels ``name`` once, so that later calls find them loaded; returns
    ``name``. ``cupy:sort`` sorts keys of ``KEY_T`` and scans int32 counts into int64, on arrays large
    enough to take the many-block paths a frame takes (small ones run other kernels)."""
    if name != LIBRARY + "sort":
        raise ValueError(f"unknown library build {name!r}")
    import cupy

    key_type = {"unsigned int": cupy.uint32, "unsigned long long": cupy.uint64}[str(defines["KEY_T"])]
    # A pool of its own (the allocator is per thread): blocks it freed into the app's pool could be
    # split for a renderer's arrays and then never handed back while the renderer lives.
    pool = cupy.cuda.MemoryPool()
    try:
        with cupy.cuda.using_allocator(pool.malloc):
            _sort_and_scan_once(cupy, key_type)
    finally:
        pool.free_all_blocks()
    return name


def _sort_and_scan_once(cupy, key_type) -> None:
    # Descending keys made in int64 and then cast: an unsigned arange cannot take a step of -1.
    descending = LIBRARY_WARM_ELEMENTS - cupy.arange(LIBRARY_WARM_ELEMENTS, dtype=cupy.int64)
    cupy.sort(descending.astype(key_type))
    cupy.cumsum(cupy.ones(LIBRARY_WARM_ELEMENTS, cupy.int32), dtype=cupy.int64)
    cupy.cuda.get_current_stream().synchronize()


def compile_module(source: str, defines: tuple[tuple[str, object], ...]):
    """Compile ``shaders/<source>`` with ``defines`` (sorted ``(name, value)`` pairs) through NVRTC,
    uncached here (CuPy keeps compiled binaries on disk, in ``CUPY_CACHE_DIR``); a ``LIBRARY`` build
    loads that library's kernels instead."""
    if source.startswith(LIBRARY):
        return _load_library(source, dict(defines))
    import cupy

    path = SHADER_DIR / source
    code = numbered_source(path, path.read_text())
    module = cupy.RawModule(code=code, options=nvrtc_options(dict(defines)))
    try:
        module.compile()
    except RuntimeError as error:
        # CuPy loads NVRTC at the first compile; where its shared object does not load (no room under
        # ulimit -v, say) CuPy's library finder raises a RuntimeError from the OSError.
        if not isinstance(error.__cause__, OSError):
            raise
        raise RendererUnavailable(
            f"CUDA's compiler (NVRTC) did not load ({first_line(error.__cause__)}){limit_note()}"
        ) from None
    return module


def numbered_source(path: str | Path, text: str) -> str:
    """``text`` for NVRTC, which compiles a string: a ``#line`` first, so that its messages name the
    file ``path`` and the line they are about."""
    return f'#line 1 "{c_string(str(path))}"\n' + text


def c_string(text: str) -> str:
    """``text`` as the inside of a C string literal: backslashes and quotes escaped, control
    characters (a newline in a file name, say) shown as ``?``."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return "".join("?" if ord(c) < 32 or ord(c) == 127 else c for c in escaped)


# Every module the process compiles; the app's background compiler and the renderers share it.
MODULES = ModuleCache(compile_module)


def load_module(source: str, **defines: object):
    """The compiled CuPy ``RawModule`` of ``shaders/<source>`` with ``-D`` defines (cached)."""
    return MODULES.load(source, defines)


def warm(builds: Iterable[Build]) -> None:
    """Compile each of ``builds`` (``(source, defines)``) not compiled yet, so loading it later is fast."""
    MODULES.warm(builds)


def module_loader(shared: Mapping[str, object]):
    """``load(source, **defines)``: ``load_module`` with a renderer's ``shared`` constants defined too,
    which its kernels refuse to build without."""

    def load(source: str, **defines: object):
        return load_module(source, **shared, **defines)

    return load

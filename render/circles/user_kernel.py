"""The strategy of ``file:PATH``: a user's kernel, compiled from its file with the built-in kernels'
options and launched as its declaration says (``render.circles.user_launch``), with the arguments
``shaders/rasterlab.cuh`` promises."""

from __future__ import annotations

from typing import Any

import numpy as np

from render.circles.strategies import Strategy, usable_device_bytes
from render.circles.user_file import UserSource, read_user_source
from render.core.kernels import numbered_source, nvrtc_options
from render.core.renderer import RendererUnavailable

MAX_LOG_ERRORS = 1  # compiler errors a one-line message quotes; the app shows the whole log


class UserKernelError(RendererUnavailable):
    """A user kernel that cannot run: ``log`` holds the compiler's whole log when it did not compile."""

    def __init__(self, message: str, log: str = "") -> None:
        super().__init__(message)
        self.log = log


class UserKernel(Strategy):
    """Reads, compiles and launches the file of ``choice.path`` (read again at each load)."""

    def prepare(self, scene, width, height):
        self.source, self.kernel, self.binning = build_user_kernel(self.choice.path)
        self.launch = self.source.launch
        self.build_defines = {}
        self._allocate_scratch(scene, width, height)

    def _allocate_scratch(self, scene, width: int, height: int) -> None:
        import cupy

        try:
            size = self.launch.scratch_bytes(scene.count, width, height)
        except ValueError as error:
            raise UserKernelError(f"{self.choice.label()}: {error}") from None
        usable = usable_device_bytes()
        if size > usable:
            raise UserKernelError(
                f"{self.choice.label()}: scratch = {self.launch.scratch} is {size} bytes here, "
                f"the GPU has {usable} free"
            )
        self.scratch_size = size
        self.scratch = cupy.zeros(max(size, 1), cupy.uint8)

    @property
    def has_binning(self) -> bool:
        return self.binning is not None

    def bin(self, scene, width, height):
        assert self.binning is not None
        self.scratch.fill(0)
        geometry = (scene.position, scene.radius, np.int32(scene.count), np.int32(width), np.int32(height))
        arguments = (*geometry, self.scratch, np.int64(self.scratch_size))
        block = self.launch.binning_block
        if self.launch.binning_grid == "circles":
            if scene.count:
                self.binning((-(-scene.count // block),), (block,), arguments)
        else:
            self.binning(self.launch.blend_grid(width, height), (block,), arguments)

    def blend_launch(self, scene, image, width, height, clear):
        scratch = (self.scratch, np.int64(self.scratch_size))
        arguments = (*self.scene_arguments(scene, image, width, height, clear), *scratch)
        return self.launch.blend_grid(width, height), self.launch.block, arguments

    def candidates(self, scene, width, height):
        raise RendererUnavailable(f"candidates: not known for {self.choice.label()}, whose binning is its own")

    def measuring_module(self, define: str):
        raise RendererUnavailable(f"{self.choice.label()}: no measuring build (its source is not ours to instrument)")


def build_user_kernel(path: str) -> tuple[UserSource, Any, Any]:
    """(source, blend kernel, binning kernel or None) of the kernel file ``path``, read and compiled
    now; raises UserKernelError, with the compiler's log when it does not compile."""
    label = f"file:{path}"
    try:
        source = read_user_source(path)
    except ValueError as error:
        raise UserKernelError(str(error)) from None
    module = compile_user_module(source, label)
    binning = _function(module, source.launch.binning, label) if source.launch.binning else None
    return source, _function(module, source.launch.kernel, label), binning


def compile_user_module(source: UserSource, label: str):
    """The CuPy module of ``source``, compiled through NVRTC like the built-in kernels, its folder
    and ``shaders/`` on the include path; raises UserKernelError with the log when it does not
    compile."""
    import cupy

    code = numbered_source(source.path, source.text)
    try:
        module = cupy.RawModule(code=code, options=nvrtc_options({}, source.include_dirs()))
        module.compile()
    except cupy.cuda.compiler.CompileException as error:
        log = error.get_message() if hasattr(error, "get_message") else str(error)
        raise UserKernelError(f"{label} does not compile: {first_errors(log)}", log) from None
    return module


def first_errors(log: str) -> str:
    """The compiler log's first error line (``FILE(LINE): error: ...``) and how many more there are."""
    errors = [line.strip() for line in log.splitlines() if ": error" in line or line.strip().startswith("error")]
    if not errors:
        lines = [line.strip() for line in log.splitlines() if line.strip()]
        return lines[0] if lines else "the compiler gave no message"
    more = len(errors) - MAX_LOG_ERRORS
    return "; ".join(errors[:MAX_LOG_ERRORS]) + (f" (and {more} more error{'s' * (more > 1)})" if more > 0 else "")


def _function(module, name: str, label: str):
    """Kernel ``name`` of ``module``; a missing one is a UserKernelError."""
    import cupy

    try:
        return module.get_function(name)
    except cupy.cuda.driver.CUDADriverError:
        raise UserKernelError(f'{label}: no kernel {name!r} in the file (declare it extern "C" __global__)') from None

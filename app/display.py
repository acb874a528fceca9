"""The rendered frame on screen: an RGBA8 texture filled through CUDA-GL interop or a host copy.

Interop: the texture itself is registered with CUDA once per size; each frame ``shaders/to_rgba8.cu``
converts the float image into an 8-bit buffer of CUDA's, and the texture, mapped, takes a copy of it
made by CUDA, so OpenGL's part of the frame is only to draw. Host copy (no GPU, Mesa, a GL context on
another device, or forced from the panel): the float image comes to the host, is quantized with the
same rule and uploaded. Needs a current OpenGL 3.3 context.
"""

from __future__ import annotations

import time

import numpy as np
from OpenGL import GL

from render.core import nvtx
from render.core.image_io import rgb8
from shaders import SHADER_DIR


class InteropUnavailable(RuntimeError):
    """CUDA cannot share the display's OpenGL texture; the message says why."""


# The interop check's child is usually done before the first frame, or stuck by 2 s after it is
# ready (about when the first frame comes); a slower one does not hold the window longer than this:
# frames go by host copy until it is done.
CHECK_FIRST_WAIT_S = 5.0


def _compile_program() -> int:
    stages = []
    for name, kind in (("frame.vert", GL.GL_VERTEX_SHADER), ("frame.frag", GL.GL_FRAGMENT_SHADER)):
        shader = GL.glCreateShader(kind)
        GL.glShaderSource(shader, (SHADER_DIR / name).read_text())
        GL.glCompileShader(shader)
        if not GL.glGetShaderiv(shader, GL.GL_COMPILE_STATUS):
            raise RuntimeError(f"{name}: {GL.glGetShaderInfoLog(shader).decode(errors='replace')}")
        stages.append(shader)
    program = GL.glCreateProgram()
    for shader in stages:
        GL.glAttachShader(program, shader)
    GL.glLinkProgram(program)
    if not GL.glGetProgramiv(program, GL.GL_LINK_STATUS):
        raise RuntimeError(f"frame shaders: {GL.glGetProgramInfoLog(program).decode(errors='replace')}")
    for shader in stages:
        GL.glDeleteShader(shader)
    return program


def check_cuda(result, what: str):
    """Unpack a cuda.bindings call's (error, *values), raising InteropUnavailable on an error
    (``what`` names the call)."""
    error, *values = result if isinstance(result, tuple) else (result,)
    if int(error) != 0:
        raise InteropUnavailable(f"{what} failed: {getattr(error, 'name', error)} ({int(error)})")
    return values[0] if len(values) == 1 else values


def _unpooled(nbytes: int):
    """``nbytes`` of device memory outside CuPy's pool, so that a resize gives it back to the device
    rather than to the pool's cache; where the device is full, the pool's cached blocks go back
    first and the allocation is tried once more."""
    import cupy

    try:
        return cupy.cuda.Memory(nbytes)
    except cupy.cuda.runtime.CUDARuntimeError:
        cupy.get_default_memory_pool().free_all_blocks()
        return cupy.cuda.Memory(nbytes)


class _InteropTexture:
    """The display's RGBA8 texture registered with CUDA; ``write(image)`` puts a cupy image in it.

    The class counts registrations and releases, so tests can see that none is leaked.
    """

    registered = 0
    released = 0

    def __init__(self, texture: int, width: int, height: int) -> None:
        try:
            from cuda.bindings import runtime
        except ImportError as error:
            raise InteropUnavailable(f"cuda.bindings is not installed ({error})") from None
        import cupy

        from render.core.kernels import load_module

        self._runtime = runtime
        self.width, self.height = width, height
        # The 8-bit frame, made here and copied into the texture: a texture is an array, which a
        # kernel cannot write as a plain pointer. Made, with the kernel, before the registration,
        # so that a failure leaves nothing registered.
        memory = cupy.cuda.MemoryPointer(_unpooled(width * height * 4), 0)
        self._rgba8 = cupy.ndarray((height, width, 4), cupy.uint8, memory)
        self._convert = load_module("to_rgba8.cu").get_function("to_rgba8")
        flags = runtime.cudaGraphicsRegisterFlags.cudaGraphicsRegisterFlagsWriteDiscard
        self.resource = check_cuda(
            runtime.cudaGraphicsGLRegisterImage(texture, GL.GL_TEXTURE_2D, flags), "cudaGraphicsGLRegisterImage"
        )
        _InteropTexture.registered += 1

    def write(self, image) -> None:
        """image: cupy (height, width, 4), float32 (converted) or uint8 (copied as it is)."""
        import cupy

        runtime = self._runtime
        if image.shape != (self.height, self.width, 4) or image.dtype not in (cupy.float32, cupy.uint8):
            wanted = f"({self.height}, {self.width}, 4) float32 or uint8"
            raise ValueError(f"the display takes {wanted} frames, not {image.shape} {image.dtype}")
        image = cupy.ascontiguousarray(image)  # the kernel and the copy read it row after row
        if image.dtype == cupy.uint8:
            source = image
        else:
            pixels = self.width * self.height
            threads = 256
            self._convert(((pixels + threads - 1) // threads,), (threads,), (image, self._rgba8, np.int32(pixels)))
            source = self._rgba8
        stream = cupy.cuda.get_current_stream().ptr
        check_cuda(runtime.cudaGraphicsMapResources(1, self.resource, stream), "cudaGraphicsMapResources")
        try:
            array = check_cuda(
                runtime.cudaGraphicsSubResourceGetMappedArray(self.resource, 0, 0),
                "cudaGraphicsSubResourceGetMappedArray",
            )
            row = self.width * 4
            kind = runtime.cudaMemcpyKind.cudaMemcpyDeviceToDevice
            copy = runtime.cudaMemcpy2DToArrayAsync(array, 0, 0, source.data.ptr, row, row, self.height, kind, stream)
            check_cuda(copy, "cudaMemcpy2DToArrayAsync")
        finally:
            check_cuda(runtime.cudaGraphicsUnmapResources(1, self.resource, stream), "cudaGraphicsUnmapResources")

    def release(self) -> None:
        """Unregister; a failing unregister (the GPU is gone) is ignored, there is nothing to keep."""
        if self.resource is not None:
            self._runtime.cudaGraphicsUnregisterResource(self.resource)
            self.resource = None
            _InteropTexture.released += 1


class FrameDisplay:
    """Shows the session's image; ``path`` is "interop" or "host copy", ``notice`` why not interop."""

    def __init__(self, force_host_copy: bool = False, texture_filter: str = "nearest", interop_check=None) -> None:
        """``interop_check``: an ``app.interop_check.InteropCheck`` whose verdict comes before the
        first registration (frames go by host copy while it is out, after a first wait of at most
        CHECK_FIRST_WAIT_S), or None to register straight away."""
        self.force_host_copy = force_host_copy
        self._interop_check = interop_check
        self._check_wait_s = CHECK_FIRST_WAIT_S
        self.texture_filter = texture_filter  # for enlarging: "nearest" or "linear"
        self.notice: str | None = None  # set once, when interop first fails
        self.copy_ms: dict[str, float] = {}
        self._program = _compile_program()
        self._vao = GL.glGenVertexArrays(1)
        self._texture = GL.glGenTextures(1)
        self._size = (0, 0)
        self._interop: _InteropTexture | None = None
        self._interop_failed = False
        self._shown_by = "host copy"
        self._events = None
        self._copy_unread = False  # the events hold an interop copy whose time is not read yet
        GL.glBindTexture(GL.GL_TEXTURE_2D, self._texture)
        for parameter, value in (
            (GL.GL_TEXTURE_MIN_FILTER, GL.GL_LINEAR),
            (GL.GL_TEXTURE_WRAP_S, GL.GL_CLAMP_TO_EDGE),
            (GL.GL_TEXTURE_WRAP_T, GL.GL_CLAMP_TO_EDGE),
        ):
            GL.glTexParameteri(GL.GL_TEXTURE_2D, parameter, value)

    @property
    def path(self) -> str:
        """How the latest frame reached the texture: "interop" or "host copy"."""
        return self._shown_by

    @property
    def size(self) -> tuple[int, int]:
        return self._size

    def _resize(self, width: int, height: int) -> None:
        # CUDA must let go of the texture before GL reallocates it.
        self._release_interop()
        GL.glBindTexture(GL.GL_TEXTURE_2D, self._texture)
        GL.glTexImage2D(GL.GL_TEXTURE_2D, 0, GL.GL_RGBA8, width, height, 0, GL.GL_RGBA, GL.GL_UNSIGNED_BYTE, None)
        self._size = (width, height)

    def _try_interop(self) -> _InteropTexture | None:
        if self._interop is None and not self._interop_failed:
            check = self._interop_check
            if check is not None and not check.decided(self._check_wait_s):
                self._check_wait_s = 0.0  # asked again at the next frame, without waiting
                return None
            try:
                if check is not None and check.stuck_reason:
                    raise InteropUnavailable(check.stuck_reason)
                self._interop = _InteropTexture(int(self._texture), *self._size)
            except (InteropUnavailable, RuntimeError) as error:
                self._interop_failed = True
                self.notice = f"CUDA-GL interop unavailable, showing frames through a host copy: {error}"
        return self._interop

    def _interop_lost(self, error: InteropUnavailable) -> None:
        self._release_interop()
        self._interop_failed = True
        self.notice = f"CUDA-GL interop failed, showing frames through a host copy from now on: {error}"

    def upload(self, device_image=None, host_image: np.ndarray | None = None) -> None:
        """Put a frame in the texture: cupy ``device_image`` (H, W, 4) through interop when possible,
        else a host copy of it (or ``host_image`` (H, W, 4)); row 0 = bottom. float32 images are
        quantized like the PNG writer, uint8 RGBA images (the sphere tracer's) shown as they are."""
        image = device_image if device_image is not None else host_image
        height, width = image.shape[:2]
        if (width, height) != self._size:
            self._resize(width, height)
        nvtx.push("display")
        try:
            self._shown_by = self._upload(device_image, host_image)
        finally:
            nvtx.pop()

    def _upload(self, device_image, host_image) -> str:
        """Put the frame in the texture; returns the path it took."""
        if device_image is not None and not self.force_host_copy and self._try_interop():
            try:
                self._upload_interop(device_image)
                return "interop"
            except InteropUnavailable as error:
                self._interop_lost(error)
        self._upload_host(self._timed_download(device_image) if device_image is not None else host_image)
        return "host copy"

    def _cuda_events(self):
        import cupy

        if self._events is None:
            self._events = (cupy.cuda.Event(), cupy.cuda.Event())
        return self._events

    def _upload_interop(self, image) -> None:
        import cupy

        start, stop = self._cuda_events()
        # The copy's time is read at the next copy, when it is long done: waiting for this pass's
        # would hold the host until OpenGL ends the pass before (the map waits for it), about 0.3 ms
        # a frame. Not waiting is safe: the session has already waited for the render's events, so
        # OpenGL can wait only on this frame's conversion and copy. Nothing to read (the first
        # copy, or the host's copy before): no figure, rather than the host's.
        self.copy_ms = {}
        if self._copy_unread:
            self._copy_unread = False
            stop.synchronize()
            self.copy_ms = {"display copy": cupy.cuda.get_elapsed_time(start, stop)}
        start.record()
        self._interop.write(image)
        stop.record()
        self._copy_unread = True

    def _timed_download(self, image) -> np.ndarray:
        import cupy

        start, stop = self._cuda_events()
        start.record()
        host = image.get()
        stop.record()
        stop.synchronize()
        self.copy_ms = {"display copy": cupy.cuda.get_elapsed_time(start, stop)}
        self._copy_unread = False
        return host

    def _upload_host(self, image: np.ndarray) -> None:
        started = time.perf_counter()
        rgb = np.ascontiguousarray(rgb8(image))
        GL.glPixelStorei(GL.GL_UNPACK_ALIGNMENT, 1)
        self._tex_sub_image(GL.GL_RGB, rgb)
        GL.glPixelStorei(GL.GL_UNPACK_ALIGNMENT, 4)
        self.copy_ms["host upload"] = (time.perf_counter() - started) * 1000

    def _tex_sub_image(self, layout: int, pixels: np.ndarray) -> None:
        GL.glBindTexture(GL.GL_TEXTURE_2D, self._texture)
        width, height = self._size
        GL.glTexSubImage2D(GL.GL_TEXTURE_2D, 0, 0, 0, width, height, layout, GL.GL_UNSIGNED_BYTE, pixels)

    def placement(self, x: int, y: int, width: int, height: int) -> tuple[int, int, int, int]:
        """Where ``draw`` puts the frame in the GL rectangle (x, y, width, height): as large as fits,
        centred, with square pixels; (x, y, 0, 0) before the first frame."""
        frame_w, frame_h = self._size
        if not frame_w or width <= 0 or height <= 0:
            return (x, y, 0, 0)
        scale = min(width / frame_w, height / frame_h)
        shown_w, shown_h = max(1, int(frame_w * scale)), max(1, int(frame_h * scale))
        return (x + (width - shown_w) // 2, y + (height - shown_h) // 2, shown_w, shown_h)

    def draw(self, x: int, y: int, width: int, height: int) -> tuple[int, int, int, int]:
        """Draw the frame, opaque, where ``placement`` puts it; returns that rectangle."""
        left, bottom, shown_w, shown_h = self.placement(x, y, width, height)
        if not shown_w:
            return (left, bottom, 0, 0)
        GL.glViewport(left, bottom, shown_w, shown_h)
        GL.glUseProgram(self._program)
        GL.glActiveTexture(GL.GL_TEXTURE0)
        GL.glBindTexture(GL.GL_TEXTURE_2D, self._texture)
        magnify = GL.GL_LINEAR if self.texture_filter == "linear" else GL.GL_NEAREST
        GL.glTexParameteri(GL.GL_TEXTURE_2D, GL.GL_TEXTURE_MAG_FILTER, magnify)
        GL.glBindVertexArray(self._vao)
        GL.glDrawArrays(GL.GL_TRIANGLE_STRIP, 0, 4)
        GL.glBindVertexArray(0)
        GL.glUseProgram(0)
        return (left, bottom, shown_w, shown_h)

    def read_texture(self) -> np.ndarray:
        """The texture's pixels, uint8 (H, W, 4), row 0 = bottom (for tests: texture == kernel)."""
        width, height = self._size
        framebuffer = GL.glGenFramebuffers(1)
        GL.glBindFramebuffer(GL.GL_FRAMEBUFFER, framebuffer)
        GL.glFramebufferTexture2D(GL.GL_FRAMEBUFFER, GL.GL_COLOR_ATTACHMENT0, GL.GL_TEXTURE_2D, self._texture, 0)
        GL.glPixelStorei(GL.GL_PACK_ALIGNMENT, 1)
        data = GL.glReadPixels(0, 0, width, height, GL.GL_RGBA, GL.GL_UNSIGNED_BYTE)
        GL.glBindFramebuffer(GL.GL_FRAMEBUFFER, 0)
        GL.glDeleteFramebuffers(1, [framebuffer])
        return np.frombuffer(data, np.uint8).reshape(height, width, 4).copy()

    def _release_interop(self) -> None:
        if self._interop is not None:
            self._interop.release()
            self._interop = None

    def release(self) -> None:
        """Unregister from CUDA, then delete the GL objects (in that order)."""
        self._release_interop()
        GL.glDeleteTextures(1, [self._texture])
        GL.glDeleteVertexArrays(1, [self._vao])
        GL.glDeleteProgram(self._program)

"""Where the app draws: a GLFW window on a display, or an offscreen EGL pbuffer without one.

Both make an OpenGL context current and report the framebuffer size; only the window has input.
``PYOPENGL_PLATFORM=egl`` must be set before OpenGL is first imported for the EGL surface, which
``app.cli`` does for ``--headless``.
"""

from __future__ import annotations

import ctypes

import numpy as np

from app.displays import glfw_errors_kept, start_glfw


class NoDisplay(RuntimeError):
    """No window can be opened here; the message says what to use instead."""


def _fitted_to_screen(glfw, width: int, height: int) -> tuple[int, int]:
    """``width`` x ``height`` shrunk to the primary monitor's work area (the screen less panels and
    docks), so a size saved on a larger screen still opens whole; as given when GLFW sees no monitor."""
    monitor = glfw.get_primary_monitor()
    if not monitor:
        return width, height
    _, _, area_width, area_height = glfw.get_monitor_workarea(monitor)
    if area_width <= 0 or area_height <= 0:  # some Wayland compositors report no work area
        return width, height
    return min(width, area_width), min(height, area_height)


class GlfwWindow:
    """A resizable window with a GL 3.3 context (core where offered, else compatibility)."""

    interactive = True

    def __init__(self, width: int, height: int, title: str, visible: bool = True) -> None:
        import glfw

        self.glfw = glfw
        problem = start_glfw(glfw)
        if problem:
            raise NoDisplay(f"no display: the window cannot open here ({problem})")
        self.handle = None
        width, height = _fitted_to_screen(glfw, width, height)
        said: list[str] = []
        with glfw_errors_kept(glfw, said):
            for core in (True, False):
                glfw.default_window_hints()
                glfw.window_hint(glfw.VISIBLE, visible)
                glfw.window_hint(glfw.CONTEXT_VERSION_MAJOR, 3)
                glfw.window_hint(glfw.CONTEXT_VERSION_MINOR, 3)
                if core:
                    glfw.window_hint(glfw.OPENGL_PROFILE, glfw.OPENGL_CORE_PROFILE)
                    glfw.window_hint(glfw.OPENGL_FORWARD_COMPAT, True)
                self.handle = glfw.create_window(width, height, title, None, None)
                if self.handle:
                    break
        if not self.handle:
            glfw.terminate()
            reason = f" ({'; '.join(dict.fromkeys(said))})" if said else ""
            raise NoDisplay(f"the display offers no OpenGL 3.3 context{reason}")
        glfw.make_context_current(self.handle)
        self.dropped: list[str] = []
        glfw.set_drop_callback(self.handle, lambda _window, paths: self.dropped.extend(paths))

    @property
    def pointer(self) -> int:
        return ctypes.cast(self.handle, ctypes.c_void_p).value

    def framebuffer_size(self) -> tuple[int, int]:
        return self.glfw.get_framebuffer_size(self.handle)

    def should_close(self) -> bool:
        return bool(self.glfw.window_should_close(self.handle))

    def poll(self) -> None:
        self.glfw.poll_events()

    def set_vsync(self, on: bool) -> None:
        self.glfw.swap_interval(1 if on else 0)

    def set_size(self, width: int, height: int) -> None:
        """Resize the window; 0 x 0 minimizes it (and a later size restores it first)."""
        glfw = self.glfw
        if width <= 0 or height <= 0:
            glfw.iconify_window(self.handle)
            return
        if glfw.get_window_attrib(self.handle, glfw.ICONIFIED):
            glfw.restore_window(self.handle)
        glfw.set_window_size(self.handle, width, height)

    def window_size(self) -> tuple[int, int]:
        return self.glfw.get_window_size(self.handle)

    def content_scale(self) -> float:
        """The monitor's content scale (its DPI setting) where the window is, 1.0 when unknown."""
        scale = self.glfw.get_window_content_scale(self.handle)[0]
        return scale if scale > 0 else 1.0

    def swap(self) -> None:
        self.glfw.swap_buffers(self.handle)

    def close(self) -> None:
        self.glfw.destroy_window(self.handle)
        self.glfw.terminate()


class EglSurface:
    """An offscreen pbuffer with a desktop OpenGL context (no display needed).

    ``set_size`` stands in for the window manager: a new pbuffer of the new size, or, for 0 x 0, a
    minimized window (the framebuffer reports 0 x 0 and the old pbuffer waits for the restore).
    """

    interactive = False

    def __init__(self, width: int, height: int) -> None:
        from OpenGL import EGL
        from OpenGL.error import GLError

        self.egl = EGL
        self.display = _initialized_display(EGL)
        attributes = [EGL.EGL_SURFACE_TYPE, EGL.EGL_PBUFFER_BIT, EGL.EGL_RENDERABLE_TYPE, EGL.EGL_OPENGL_BIT]
        attributes += [EGL.EGL_RED_SIZE, 8, EGL.EGL_GREEN_SIZE, 8, EGL.EGL_BLUE_SIZE, 8, EGL.EGL_NONE]
        config, count = EGL.EGLConfig(), EGL.EGLint()
        config_list = (EGL.EGLint * len(attributes))(*attributes)
        problem = "EGL could not create an OpenGL 3.3 context with a pbuffer"
        try:
            chosen = EGL.eglChooseConfig(self.display, config_list, ctypes.pointer(config), 1, ctypes.pointer(count))
            if not chosen or count.value < 1:
                raise NoDisplay("EGL offers no pbuffer configuration for desktop OpenGL")
            self.config = config
            self.surface = self._pbuffer(width, height)
            EGL.eglBindAPI(EGL.EGL_OPENGL_API)
            version = [EGL.EGL_CONTEXT_MAJOR_VERSION, 3, EGL.EGL_CONTEXT_MINOR_VERSION, 3, EGL.EGL_NONE]
            context_attributes = (EGL.EGLint * len(version))(*version)
            self.context = EGL.eglCreateContext(self.display, config, EGL.EGL_NO_CONTEXT, context_attributes)
            if not self.surface or not self.context:
                raise NoDisplay(problem)
            EGL.eglMakeCurrent(self.display, self.surface, self.surface, self.context)
        except GLError as error:  # PyOpenGL raises where a call fails (a Mesa told to offer only OpenGL 2.1)
            EGL.eglTerminate(self.display)
            code = getattr(error, "err", None)  # an EGL constant, such as EGL_BAD_MATCH
            raise NoDisplay(f"{problem} ({getattr(code, 'name', code) or type(error).__name__})") from None
        self._size = self._pbuffer_size = (width, height)
        self.dropped: list[str] = []

    def _pbuffer(self, width: int, height: int):
        egl = self.egl
        attributes = (egl.EGLint * 5)(egl.EGL_WIDTH, width, egl.EGL_HEIGHT, height, egl.EGL_NONE)
        return egl.eglCreatePbufferSurface(self.display, self.config, attributes)

    def framebuffer_size(self) -> tuple[int, int]:
        return self._size

    def window_size(self) -> tuple[int, int]:
        return self._size

    def content_scale(self) -> float:
        """An offscreen surface has no monitor: unscaled."""
        return 1.0

    def should_close(self) -> bool:
        return False

    def poll(self) -> None:
        pass

    def set_vsync(self, on: bool) -> None:
        pass

    def set_size(self, width: int, height: int) -> None:
        if width <= 0 or height <= 0:
            self._size = (0, 0)
            return
        if (width, height) != self._pbuffer_size:
            surface = self._pbuffer(width, height)
            if not surface:
                raise NoDisplay(f"EGL could not create a {width}x{height} pbuffer")
            self.egl.eglMakeCurrent(self.display, surface, surface, self.context)
            self.egl.eglDestroySurface(self.display, self.surface)
            self.surface, self._pbuffer_size = surface, (width, height)
        self._size = (width, height)

    def swap(self) -> None:
        self.egl.eglSwapBuffers(self.display, self.surface)

    def close(self) -> None:
        egl = self.egl
        egl.eglMakeCurrent(self.display, egl.EGL_NO_SURFACE, egl.EGL_NO_SURFACE, egl.EGL_NO_CONTEXT)
        egl.eglDestroyContext(self.display, self.context)
        egl.eglDestroySurface(self.display, self.surface)
        egl.eglTerminate(self.display)


# EGL_PLATFORM_SURFACELESS_MESA: Mesa's display for machines with neither X nor a GPU.
_PLATFORM_SURFACELESS_MESA = 0x31DD


def _initialized_display(EGL):
    """The default EGL display (NVIDIA's driver offers it headless), else Mesa's surfaceless one."""
    from OpenGL.error import GLError

    attempts = (
        lambda: EGL.eglGetDisplay(EGL.EGL_DEFAULT_DISPLAY),
        lambda: EGL.eglGetPlatformDisplayEXT(_PLATFORM_SURFACELESS_MESA, EGL.EGL_DEFAULT_DISPLAY, None),
    )
    reasons = []
    for attempt in attempts:
        major, minor = EGL.EGLint(), EGL.EGLint()
        try:
            display = attempt()
            if display and EGL.eglInitialize(display, ctypes.pointer(major), ctypes.pointer(minor)):
                return display
        except (GLError, ctypes.ArgumentError) as error:
            reasons.append(str(getattr(error, "err", error)))
    raise NoDisplay(f"EGL could not be initialized for offscreen rendering ({'; '.join(reasons) or 'no display'})")


def read_framebuffer(width: int, height: int) -> np.ndarray:
    """The current framebuffer (what the window shows, UI included), uint8 (H, W, 3), row 0 = top."""
    from OpenGL import GL

    GL.glPixelStorei(GL.GL_PACK_ALIGNMENT, 1)
    data = GL.glReadPixels(0, 0, width, height, GL.GL_RGB, GL.GL_UNSIGNED_BYTE)
    return np.frombuffer(data, np.uint8).reshape(height, width, 3)[::-1].copy()

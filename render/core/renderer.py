"""What every renderer offers, CPU or CUDA, circles or spheres, and the course's frame protocol."""

from __future__ import annotations

import abc
import contextlib
from collections.abc import Iterator

import numpy as np

from render.core.variants import VariantChoice


class RendererUnavailable(RuntimeError):
    """A backend or variant cannot run this input here (no GPU, too large, ...); the message says why."""


class NoGpu(RendererUnavailable):
    """No CUDA GPU is usable here, and what was asked for runs only on one; the message says why."""


class OutOfHostMemory(RendererUnavailable):
    """The host could not allocate what a frame needs; the message says what."""


@contextlib.contextmanager
def host_memory(what: str):
    """Turn a MemoryError inside the block into OutOfHostMemory saying what did not fit."""
    try:
        yield
    except MemoryError:
        raise OutOfHostMemory(f"not enough host memory for {what}") from None


class Renderer(abc.ABC):
    """Owns one scene at one resolution; ``clear``, ``advance`` and ``render`` make one frame.

    ``name`` says what renders (a variant's label, or ``reference``); ``resolved`` is the variant
    choice that actually runs (what ``auto`` picked), None for a CPU reference.
    """

    name: str
    resolved: VariantChoice | None = None

    @abc.abstractmethod
    def load(self, scene, width: int, height: int) -> None:
        """Take ``scene`` (the renderer's own scene type; a private copy where frames change it)
        and allocate a (height, width) RGBA image."""

    @abc.abstractmethod
    def clear(self) -> None:
        """Reset the image to the scene's background."""

    @abc.abstractmethod
    def advance(self) -> None:
        """One animation step of the scene (a no-op for static scenes)."""

    @property
    @abc.abstractmethod
    def animated(self) -> bool:
        """Whether ``advance`` changes the loaded scene; False means every frame is the same picture."""

    @abc.abstractmethod
    def render(self) -> None:
        """Blend every circle over the image in index order."""

    @abc.abstractmethod
    def image(self) -> np.ndarray:
        """The image on the host, float32 (height, width, 4) RGBA, row 0 = bottom of the picture."""

    def device_image(self):
        """The image on the GPU (a CuPy array, row 0 = bottom: float32 (height, width, 4), or uint8
        for 8-bit renderers), without a copy; None for CPU renderers."""
        return None

    @abc.abstractmethod
    def stage_times_ms(self) -> dict[str, float]:
        """The latest frame's time per stage in milliseconds (CUDA events on the GPU)."""

    @abc.abstractmethod
    def poison(self) -> None:
        """Fill the image with values no frame produces, so a pixel a later frame fails to write
        shows up in a comparison."""


def render_frame(renderer: Renderer, frame: int) -> np.ndarray:
    """The course's frame ``frame``: rendered after frame + 1 advances; returns ``image()``.

    Advancing never reads the image, so the clear and the render happen once, after the advances.
    A static scene's frames are all frame 0, so any frame costs one (no-op) advance.
    """
    if frame < 0:
        raise ValueError(f"frame must be >= 0, got {frame}")
    for _ in range(frame + 1 if renderer.animated else 1):
        renderer.advance()
    renderer.clear()
    renderer.render()
    return renderer.image()


def render_frames(renderer: Renderer, first: int) -> Iterator[np.ndarray]:
    """Frames ``first``, ``first + 1``, ... in order, each the same picture as ``render_frame`` of
    its number: ``render_frame(renderer, first)``, then one advance per frame. Yields ``image()``,
    float32 (height, width, 4), row 0 = bottom."""
    image = render_frame(renderer, first)
    while True:
        yield image
        renderer.advance()
        renderer.clear()
        renderer.render()
        image = renderer.image()


def image_top_down(image: np.ndarray) -> np.ndarray:
    """Flip a bottom-up image (row 0 = bottom) to top-down (row 0 = top); same shape and dtype."""
    return np.ascontiguousarray(image[::-1])

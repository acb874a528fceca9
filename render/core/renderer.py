"""What every circle renderer offers, CPU or CUDA, and the course's frame protocol."""

from __future__ import annotations

import abc
import contextlib

import numpy as np

from scenes.model import CircleScene


class RendererUnavailable(RuntimeError):
    """A backend or variant cannot run this input here (no GPU, too large, ...); the message says why."""


class OutOfHostMemory(RendererUnavailable):
    """The host could not allocate what a frame needs; the message says what."""


@contextlib.contextmanager
def host_memory(what: str):
    """Turn a MemoryError inside the block into OutOfHostMemory saying what did not fit."""
    try:
        yield
    except MemoryError:
        raise OutOfHostMemory(f"not enough host memory for {what}") from None


class CircleRenderer(abc.ABC):
    """Owns one scene at one resolution; ``clear``, ``advance`` and ``render`` make one frame."""

    name: str

    @abc.abstractmethod
    def load(self, scene: CircleScene, width: int, height: int) -> None:
        """Take a private copy of ``scene`` and allocate a (height, width) RGBA float32 image."""

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


def render_frame(renderer: CircleRenderer, frame: int) -> np.ndarray:
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


def image_top_down(image: np.ndarray) -> np.ndarray:
    """Flip a bottom-up image (row 0 = bottom) to top-down (row 0 = top); same shape and dtype."""
    return np.ascontiguousarray(image[::-1])

"""The circle scene model shared by generators, files, the CPU reference and the CUDA renderer."""

from __future__ import annotations

import dataclasses
from typing import TypedDict, cast

import numpy as np

SHADINGS = ("flat", "snowflake")
NAMED_BACKGROUNDS = ("white", "snow")
ANIMATIONS = ("none", "bouncingballs", "hypnosis", "fireworks", "snow")

Background = str | tuple[float, float, float]


@dataclasses.dataclass
class CircleScene:
    """N circles blended in index order.

    position, velocity, color: float32 (N, 3); radius: float32 (N,). Screen space is [0,1]^2 with
    y up; z is depth, used only by snowflake shading and the snow animation.
    """

    name: str
    position: np.ndarray
    velocity: np.ndarray
    color: np.ndarray
    radius: np.ndarray
    shading: str = "flat"
    background: Background = "white"
    animation: str = "none"

    @property
    def count(self) -> int:
        return int(self.radius.shape[0])

    @property
    def snowflake(self) -> int:
        """1 when the circles are shaded as snowflakes, else 0 (as the kernels take it)."""
        return int(self.shading == "snowflake")

    def copy(self) -> CircleScene:
        """A deep copy whose arrays can be advanced without touching this scene."""
        return dataclasses.replace(
            self,
            position=self.position.copy(),
            velocity=self.velocity.copy(),
            color=self.color.copy(),
            radius=self.radius.copy(),
        )

    def background_rgb(self) -> tuple[float, float, float] | None:
        """The constant clear color, or None for the snow gradient."""
        if self.background == "snow":
            return None
        if self.background == "white":
            return (1.0, 1.0, 1.0)
        return cast(tuple[float, float, float], tuple(float(v) for v in self.background))


class CircleArrays(TypedDict):
    """A scene's per-circle arrays, by ``CircleScene`` field name."""

    position: np.ndarray
    velocity: np.ndarray
    color: np.ndarray
    radius: np.ndarray


def empty_arrays(count: int) -> CircleArrays:
    """Zeroed float32 arrays for a scene of ``count`` circles."""
    return {
        "position": np.zeros((count, 3), np.float32),
        "velocity": np.zeros((count, 3), np.float32),
        "color": np.zeros((count, 3), np.float32),
        "radius": np.zeros(count, np.float32),
    }

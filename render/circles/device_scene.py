"""A circle scene's arrays on the GPU, and its animation step there.

Device arrays mirror ``CircleScene``: position, velocity, color float32 (N*3,) interleaved;
radius float32 (N,). A still scene's velocities stay on the host.
"""

from __future__ import annotations

import numpy as np

from render.circles.constants import load_circle_module
from render.core.grids import THREADS_1D, grid_1d
from scenes import fireworks
from scenes.animation import noise_tables
from scenes.model import CircleScene


class DeviceScene:
    """A scene's arrays on the GPU, plus what its animation rule needs."""

    def __init__(self, scene: CircleScene) -> None:
        import cupy

        self.count = scene.count
        self.snowflake = scene.snowflake
        self.animation = scene.animation
        self.background = scene.background_rgb()
        self.position = cupy.asarray(scene.position.reshape(-1))
        # Only the animation rules read velocities, and a still scene never changes them: it keeps
        # them on the host, 12 bytes a circle of device memory fewer.
        self.host_velocity = scene.velocity
        self.velocity = cupy.asarray(scene.velocity.reshape(-1)) if scene.animation != "none" else None
        self.color = cupy.asarray(scene.color.reshape(-1))
        # No animation rule changes a color, so facts about the colors can be found on the host,
        # with no CuPy kernel to compile on the way to a first frame.
        self.host_color = scene.color
        self.radius = cupy.asarray(scene.radius)
        if scene.animation == "snow":
            self.noise = tuple(cupy.asarray(table) for table in noise_tables())
        if scene.animation == "fireworks":
            start_pos, start_vel = fireworks.spark_start(scene.position)
            self.spark_position = cupy.asarray(start_pos.reshape(-1))
            self.spark_velocity = cupy.asarray(start_vel.reshape(-1))

    def to_host(self, name: str) -> CircleScene:
        """The current (possibly advanced) arrays as a host scene."""
        position = self.position.get().reshape(-1, 3)
        return CircleScene(
            name=name,
            position=position,
            velocity=self.host_velocity if self.velocity is None else self.velocity.get().reshape(-1, 3),
            color=self.color.get().reshape(-1, 3),
            radius=self.radius.get(),
            shading="snowflake" if self.snowflake else "flat",
            background="snow" if self.background is None else self.background,
            animation=self.animation,
        )


def host_colors(scene: CircleScene | DeviceScene) -> np.ndarray:
    """The scene's colors on the host: float32 (N, 3)."""
    return scene.host_color if isinstance(scene, DeviceScene) else scene.color


def advance_on_gpu(scene: DeviceScene) -> None:
    """One animation step on the GPU, bit-identical to ``scenes.animation.advance``."""
    rule = scene.animation
    if rule == "none":
        return
    module = load_circle_module("animate.cu")
    n = np.int32(scene.count)
    if rule == "bouncingballs":
        module.get_function("advance_bouncing_balls")(
            grid_1d(scene.count), (THREADS_1D,), (scene.position, scene.velocity, n)
        )
    elif rule == "hypnosis":
        module.get_function("advance_hypnosis")(grid_1d(scene.count), (THREADS_1D,), (scene.radius, n))
    elif rule == "fireworks":
        sparks = fireworks.CENTERS * fireworks.SPARKS
        module.get_function("advance_fireworks")(
            grid_1d(sparks),
            (THREADS_1D,),
            (
                scene.position,
                scene.velocity,
                scene.spark_position,
                scene.spark_velocity,
                np.int32(fireworks.CENTERS),
                np.int32(fireworks.SPARKS),
            ),
        )
    elif rule == "snow":
        module.get_function("advance_snow")(
            grid_1d(scene.count),
            (THREADS_1D,),
            (scene.position, scene.velocity, scene.radius, n, *scene.noise),
        )
    else:
        raise ValueError(f"unknown animation rule {rule!r}")

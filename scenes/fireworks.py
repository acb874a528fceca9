"""Layout of the fireworks scene: 15 centers, then 20 sparks per center, in that index order."""

from __future__ import annotations

import numpy as np

from scenes.libm import cosf, sinf

CENTERS = 15
SPARKS = 20
COUNT = CENTERS + CENTERS * SPARKS
CENTER_RADIUS = np.float32(0.005)
SPARK_RADIUS = np.float32(0.01)
_PI = np.float32(3.14159)


def spark_start(position: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where each spark starts, given the scene's positions (COUNT, 3) float32.

    Returns (position, velocity), each float32 (CENTERS*SPARKS, 3): sparks sit on a ring of radius
    0.005 around their center and fly outward. The scene generator and the animation's reset both
    use this, so a reset spark is bit-identical to a freshly loaded one.
    """
    pos = np.zeros((CENTERS * SPARKS, 3), np.float32)
    vel = np.zeros((CENTERS * SPARKS, 3), np.float32)
    for j in range(SPARKS):
        angle = np.float32(np.float32(j * 2) * _PI) / np.float32(SPARKS)
        cos_a, sin_a = cosf(angle), sinf(angle)
        # The C code multiplies and divides by double literals, then stores floats.
        dx = np.float32(float(cos_a) * 0.005)
        dy = np.float32(float(sin_a) * 0.005)
        rows = np.arange(CENTERS) * SPARKS + j
        pos[rows, 0] = position[:CENTERS, 0] + dx
        pos[rows, 1] = position[:CENTERS, 1] + dy
        vel[rows, 0] = np.float32(float(cos_a) / 5.0)
        vel[rows, 1] = np.float32(float(sin_a) / 5.0)
    return pos, vel

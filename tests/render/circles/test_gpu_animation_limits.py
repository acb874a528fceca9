"""The snow rule on the GPU against the reference where its noise's float-to-int conversions leave
int32's range: positions a scene file may hold (up to 1e18) move on the GPU as on the CPU, bit for
bit, step after step."""

import numpy as np
import pytest

from scenes.animation import advance
from scenes.model import CircleScene, empty_arrays

pytestmark = pytest.mark.gpu


def test_snow_beyond_int32_moves_as_the_reference():
    from render.circles.device_scene import DeviceScene, advance_on_gpu

    positions = [
        (0.5, 0.5, 0.5),
        (2e8, 0.5, 0.5),
        (-3e8, 2.5e8, 0.2),
        (0.25, 0.75, 3e7),  # 255 z beyond 2^31
        (0.5, 0.5, -3e7),
        (1e18, -1e18, 1e18),
        (2.147483e8, -2.147484e8, 8.42e6),  # 10 x or 255 z at int32's ends
    ]
    arrays = empty_arrays(len(positions))
    arrays["position"][:] = np.array(positions, np.float32)
    arrays["velocity"][:] = np.float32(0.01)
    arrays["radius"][:] = np.float32(0.05)
    arrays["color"][:] = np.float32(0.8)
    reference = CircleScene("far snow", **arrays, shading="snowflake", background="snow", animation="snow")
    device = DeviceScene(reference.copy())
    for step in range(4):
        advance(reference)
        advance_on_gpu(device)
        moved = device.to_host("far snow")
        assert np.array_equal(moved.position, reference.position), step
        assert np.array_equal(moved.velocity, reference.velocity), step

"""The floor under a circle scene's frame: what must happen at least, at what the device can do.

* compute: every covered (pixel, circle) pair computes what it must at least: a flat one its
  color's blend (its coverage may be decided for a whole region at once, and its alpha step taken
  with others in one addition), a snowflake its test and its shading. ``PAIR_INSTRUCTIONS`` counts
  the PTX instructions of that work in ``shaders/floor.cu`` (CI recounts them), and an SM issues at
  most one warp instruction per scheduler and clock: 4 x 32 thread-instructions.
* memory: the circle arrays are read once and the float4 image written once, at the device's
  bandwidth measured by a device-to-device copy.
* protocol: the course's three synchronized steps a frame, with an empty kernel launched in the steps
  that must launch (render always, advance when the scene moves; clear is done inside render).

floor = max(compute, memory) + protocol: the arithmetic and the traffic can overlap, the launches and
synchronizations that bracket them cannot.
"""

from __future__ import annotations

import dataclasses
import statistics

SOURCE = "floor.cu"  # the empty kernel and the pair kernels the counts below come from
# PTX instructions one covered pair executes, by shading, memory and moves left out (shaders/floor.cu).
PAIR_INSTRUCTIONS = {"flat": 3, "snowflake": 55}
# Thread-instructions an SM issues per clock: 4 schedulers, one warp instruction of 32 lanes each.
ISSUE_PER_SM_CLOCK = 4 * 32
CIRCLE_BYTES = 28  # float32 position (3), radius (1) and color (3) of one circle
PIXEL_BYTES = 16  # a float4 pixel of the image
COPY_BYTES = 1 << 30  # the bandwidth probe's buffer: far larger than any cache (less where memory is short)
PROBE_REPEATS = 5  # the bandwidth probe's copies; the fastest is kept
# Frames a run of the empty protocol averages: its frames are alike, and microseconds long, so more
# of them than a scene's run steady the mean.
PROTOCOL_FRAMES = 200


@dataclasses.dataclass(frozen=True)
class DeviceLimits:
    """What the device does at best, measured once per bench: thread-instructions issued per second,
    bytes moved per second, and the protocol's milliseconds per frame with one and two launches."""

    issue_per_s: float
    bytes_per_s: float
    protocol_ms: dict[int, float]  # launches a frame -> milliseconds a frame


@dataclasses.dataclass(frozen=True)
class Floor:
    """A scene's floor in milliseconds, by part."""

    compute_ms: float
    memory_ms: float
    protocol_ms: float

    @property
    def total_ms(self) -> float:
        return max(self.compute_ms, self.memory_ms) + self.protocol_ms


def scene_floor(
    pairs: int, shading: str, count: int, width: int, height: int, animated: bool, limits: DeviceLimits
) -> Floor:
    """The floor of a frame of ``count`` circles shaded ``shading`` covering ``pairs`` (pixel, circle)
    pairs at ``width`` x ``height``; ``animated`` when the scene moves each frame (its advance launches)."""
    return Floor(
        compute_ms=pairs * PAIR_INSTRUCTIONS[shading] / limits.issue_per_s * 1e3,
        memory_ms=(count * CIRCLE_BYTES + width * height * PIXEL_BYTES) / limits.bytes_per_s * 1e3,
        protocol_ms=limits.protocol_ms[2 if animated else 1],
    )


def issue_rate(props: dict) -> float:
    """Thread-instructions per second at the device's highest clock, from its properties
    (``multiProcessorCount``, ``clockRate`` in kHz)."""
    return props["multiProcessorCount"] * ISSUE_PER_SM_CLOCK * props["clockRate"] * 1e3


def copy_bandwidth() -> float:
    """Bytes per second of the fastest of PROBE_REPEATS device-to-device copies of COPY_BYTES (or a
    quarter of the free memory, if less), timed with CUDA events: each copy reads and writes every
    byte once."""
    import cupy

    free, _ = cupy.cuda.runtime.memGetInfo()
    size = min(COPY_BYTES, free // 4) // 4 * 4
    source = cupy.ones(size // 4, cupy.float32)
    target = cupy.empty_like(source)
    start, stop = cupy.cuda.Event(), cupy.cuda.Event()
    best = float("inf")
    for _ in range(PROBE_REPEATS + 1):  # the first is a warm-up
        start.record()
        target[...] = source
        stop.record()
        stop.synchronize()
        best = min(best, cupy.cuda.get_elapsed_time(start, stop))
    return 2 * size / (best * 1e-3)


def protocol_ms(launches: int, frames: int, runs: int) -> float:
    """The bench's protocol with no work: per frame the three steps, each synchronized, an empty
    kernel launched in the last ``launches`` of them; the best of ``runs`` of the mean of ``frames``."""
    from render.circles.constants import load_circle_module
    from render.circles.protocol import timed_frames

    empty = load_circle_module(SOURCE).get_function("protocol_empty")

    def launch() -> None:
        empty((1,), (1,), ())

    def idle() -> None:
        pass

    steps = [launch if launches > 2 - k else idle for k in range(3)]  # clear, advance, render
    return min(statistics.mean(timed_frames(steps, frames)) for _ in range(runs))


def measure_device_limits(runs: int) -> DeviceLimits:
    """The device's limits, measured now (its bandwidth, and its protocol as the best of ``runs``)
    or read off it (its issue rate)."""
    import cupy

    props = cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id)
    protocol_ms(1, PROTOCOL_FRAMES, 1)  # compiles the empty kernel and warms the launch path
    return DeviceLimits(
        issue_per_s=issue_rate(props),
        bytes_per_s=copy_bandwidth(),
        protocol_ms={launches: protocol_ms(launches, PROTOCOL_FRAMES, runs) for launches in (1, 2)},
    )

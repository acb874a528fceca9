"""Per block of the blend at 1024: its SM, the globaltimer (ns) at its first thread's start and at
its last thread's end, and the SM clock at both, into an .npz; a summary on stdout. Runs in a tree
patched with probe-P.diff (instrument.cuh's BlockClock records %globaltimer << 8 | %smid), from
that tree's root: python3 timeline.py SCENE VARIANT OUT.npz"""

import sys

import cupy
import numpy as np

sys.path.insert(0, ".")

from render.circles import measures  # noqa: E402
from render.circles.renderer import CudaRenderer  # noqa: E402
from render.circles.variants import VARIANTS  # noqa: E402
from scenes.builtin import build_scene  # noqa: E402

scene_name, variant, out = sys.argv[1], sys.argv[2], sys.argv[3]
renderer = CudaRenderer(VARIANTS.parse(variant))
renderer.load(build_scene(scene_name), 1024, 1024)
for _ in range(3):
    renderer.clear()
    renderer.render()
print(scene_name, variant, "blend", renderer.stage_times_ms()["blending"])
image = renderer.image_buffer
height, width = image.shape[:2]
grid, _, _ = renderer.strategy.blend_launch(renderer.scene, image, width, height, renderer._cleared_frame())
blocks = grid[0] * grid[1]
clocks = cupy.zeros((4 * blocks,), cupy.uint64)


def reset() -> None:
    clocks[0::2] = measures.ALL_ONES
    clocks[1::2] = 0


build = ("cycles", "BLOCK_CYCLES", "block_clocks")
measures._measure(renderer.strategy, renderer.scene, image, renderer._cleared_frame(), build, clocks, reset)
raw = clocks.get()
timer = raw[: 2 * blocks].reshape(blocks, 2)
sm_clock = raw[2 * blocks :].reshape(blocks, 2)
sm = (timer[:, 0] & 255).astype(np.int32)
start, end = timer[:, 0] >> 8, timer[:, 1] >> 8
np.savez(out, sm=sm, g0=start, g1=end, k0=sm_clock[:, 0], k1=sm_clock[:, 1])
start, end = start.astype(np.int64), end.astype(np.int64)
t0 = start.min()
print("span us", (end.max() - t0) / 1e3, "start spread us", (start.max() - t0) / 1e3)
print("block ends us: min", (end.min() - t0) / 1e3, "median", np.median(end - t0) / 1e3, "max", (end.max() - t0) / 1e3)
sms = np.unique(sm)
ends = np.array([(end[sm == s].max() - t0) / 1e3 for s in sms])
per_sm = np.array([(sm == s).sum() for s in sms])
print("SMs", len(ends), "blocks per SM", np.bincount(per_sm), "SM ends us", ends.min(), np.median(ends), ends.max())
for count in sorted(set(per_sm)):
    print("  SMs with", count, "blocks: end mean us", ends[per_sm == count].mean())

"""The CUDA circle renderer (CuPy + ``shaders/*.cu``): GPU clear, GPU animation, and the blending
strategy of the chosen variant. Stage times come from CUDA events.

The image is float32 (H, W, 4) on the GPU, row 0 = bottom.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from render.circles import measures
from render.circles.auto import choose_auto
from render.circles.constants import load_circle_module
from render.circles.device_scene import DeviceScene, advance_on_gpu
from render.circles.strategies import PerPixel, TileBlock, TileSort
from render.circles.tile_warp import TileWarp
from render.circles.user_kernel import UserKernel
from render.circles.variants import VARIANTS
from render.core.address_space import limit_note
from render.core.frame_graph import CaptureFailed, FrameGraphs, capture_graph, graphs_available
from render.core.gpu import gpu_problem
from render.core.grids import BLOCK_2D, THREADS_1D, grid_1d, grid_2d
from render.core.nvtx import nvtx_on
from render.core.renderer import NoGpu, Renderer, RendererUnavailable
from render.core.timing import StageMarks, StageTimer
from render.core.variants import VariantChoice
from scenes.model import CircleScene

STAGES = ("clear", "advance", "binning", "blending")
# The table's ``launch`` column names one of these.
STRATEGIES = {
    "per-pixel": PerPixel,
    "tile-block": TileBlock,
    "tile-sort": TileSort,
    "tile-warp": TileWarp,
    "user-file": UserKernel,
}


@dataclass(frozen=True)
class CapturedFrame:
    """One frame's binning and blend as a CUDA graph (``cupy.cuda.graph.Graph``), and the stage
    marks its launch makes."""

    graph: Any
    marks: StageMarks


class CudaRenderer(Renderer):
    """One variant of the CUDA renderer: ``choice`` from the circle variant table."""

    def __init__(self, choice: VariantChoice) -> None:
        problem = gpu_problem()
        if problem:
            raise NoGpu(problem)
        self.choice = choice
        self.name = choice.label()
        self.timer = StageTimer(STAGES)

    def load(self, scene: CircleScene, width: int, height: int) -> None:
        import cupy

        choice = choose_auto(scene, width, height) if self.choice.name == "auto" else self.choice
        self.resolved = choice
        self.strategy = STRATEGIES[VARIANTS[choice.name].launch](choice)
        self.width, self.height = width, height
        self._clear_due = False
        self._frames: FrameGraphs[CapturedFrame] | None = None  # none until the strategy is prepared
        try:
            self.scene = DeviceScene(scene)
            self.image_buffer = cupy.empty((height, width, 4), cupy.float32)
        except cupy.cuda.memory.OutOfMemoryError as error:
            raise RendererUnavailable(
                f"{scene.name} ({scene.count} circles) at {width}x{height} does not fit in GPU memory: {error}"
                + limit_note()
            ) from None
        self._clear_module = load_circle_module("image_ops.cu")
        if scene.animation != "none":
            load_circle_module("animate.cu")
        self.strategy.prepare(self.scene, width, height)
        if self.strategy.captures_frames and graphs_available():
            self._frames = FrameGraphs()
            # The protocol's frames, and the app's, render right after a clear: that frame is
            # captured now, so that the first one launches a graph that is ready.
            self._clear_due = True
            self._captured_frame()
            self._clear_due = False

    def poison(self) -> None:
        """Fill the image with NaN."""
        self.image_buffer.fill(np.nan)

    def clear(self) -> None:
        """Due, not done: the next ``render`` starts every pixel from the background in its blending
        launch. The stage still reads (0 ms), so every frame reports the same stages."""
        self._clear_due = True
        self.timer.idle("clear")

    def _clear_arguments(self) -> tuple:
        """(clear, snow, red, green, blue) for the kernels: whether a clear is due, and its colors."""
        rgb = self.scene.background or (0.0, 0.0, 0.0)
        return (np.int32(self._clear_due), np.int32(self.scene.background is None), *(np.float32(c) for c in rgb))

    def _clear_now(self) -> None:
        """A clear that no render took over (``image()`` right after ``clear()``)."""
        self._clear_module.get_function("clear_image")(
            grid_2d(self.width, self.height, BLOCK_2D),
            BLOCK_2D,
            (self.image_buffer, np.int32(self.width), np.int32(self.height), *self._clear_arguments()[1:]),
        )
        self._clear_due = False

    @property
    def animated(self) -> bool:
        return self.scene.animation != "none"

    def advance(self) -> None:
        if not self.animated:
            self.timer.idle("advance")
            return
        self.timer.start("advance")
        advance_on_gpu(self.scene)
        self.timer.stop("advance")

    def render(self) -> None:
        """Bin and blend, as the frame's captured graph (one host call), or stage by stage where the
        strategy's launches cannot be captured or NVTX ranges are on (each stage in its own range)."""
        import cupy

        try:
            self.strategy.before_frame()
            frame = None if nvtx_on() else self._captured_frame()
            if frame is None:
                self._launch_frame()
            else:
                frame.graph.launch()
                self.timer.replay(frame.marks)
            self._clear_due = False
        except cupy.cuda.memory.OutOfMemoryError as error:
            raise RendererUnavailable(f"{self.name}: out of GPU memory while rendering ({error})") from None

    def _launch_frame(self) -> None:
        """Queue the frame's stages, each between its timer's events (binning's stop, the blend's
        start, is recorded beside the stream, so that the blend follows the binning's last kernel
        straight away)."""
        if self.strategy.has_binning:
            self.timer.start("binning")
            self.strategy.bin(self.scene, self.width, self.height)
            self.timer.switch("binning", "blending")
        else:
            self.timer.idle("binning")
            self.timer.start("blending")
        self.strategy.blend(self.scene, self.image_buffer, self.width, self.height, self._clear_arguments())
        self.timer.stop("blending")

    def _captured_frame(self) -> CapturedFrame | None:
        """The graph of a frame in the renderer's state (captured now if the state is new), or None
        where the strategy's launches cannot be captured or CUDA refused: frames are then launched
        stage by stage."""
        if self._frames is None:
            return None
        try:
            return self._frames.get(self._clear_due, self.strategy.frame_key(), self._capture_frame)
        except CaptureFailed:
            self._frames = None
            return None

    def _capture_frame(self) -> CapturedFrame:
        """The frame's stages as they would be launched now, captured as one graph."""
        graph, marks = self.timer.capture(lambda: capture_graph(self._launch_frame))
        return CapturedFrame(graph, marks)

    def image(self) -> np.ndarray:
        if self._clear_due:
            self._clear_now()
        return self.image_buffer.get()

    def device_image(self):
        if self._clear_due:
            self._clear_now()
        return self.image_buffer

    def stage_times_ms(self) -> dict[str, float]:
        return self.timer.times_ms()

    def _geometry(self) -> tuple:
        """The leading arguments of image_ops.cu's counting kernels: the circles and the size."""
        scene = self.scene
        return (scene.position, scene.radius, np.int32(scene.count), np.int32(self.width), np.int32(self.height))

    def covered_pairs(self) -> int:
        """How many (pixel, circle) pairs the current scene covers at this size."""
        import cupy

        total = cupy.zeros(1, cupy.uint64)
        count_pairs = self._clear_module.get_function("count_covered_pairs")
        count_pairs(grid_1d(self.scene.count), (THREADS_1D,), (*self._geometry(), total))
        return int(total.get()[0])

    def depth_counts(self) -> np.ndarray:
        """int32 (H, W), row 0 = bottom: the circles covering each pixel's center this frame."""
        import cupy

        depth = cupy.zeros((self.height, self.width), cupy.int32)
        count_depth = self._clear_module.get_function("count_depth")  # a warp per circle
        count_depth(grid_1d(self.scene.count * 32), (THREADS_1D,), (*self._geometry(), depth))
        return depth.get()

    def candidate_counts(self) -> np.ndarray:
        """int32 (rows, cols) over the blend's blocks, row 0 = bottom: the circles each block
        tests, from the last frame's binning (render first)."""
        return self.strategy.candidates(self.scene, self.width, self.height).get()

    def _cleared_frame(self) -> tuple:
        """The clear arguments of a frame that starts from the background."""
        return (np.int32(1), *self._clear_arguments()[1:])

    def block_cycles(self) -> np.ndarray:
        """float32 (rows, cols) over the blend's blocks, row 0 = bottom: the SM clock cycles each
        block of this frame's blend takes, from a run of the measuring build (render first)."""
        return measures.block_cycles(self.strategy, self.scene, self.image_buffer, self._cleared_frame())

    def warp_skips(self) -> np.ndarray:
        """float32 (rows, cols) over tile-warp's warp regions, row 0 = bottom: the share of the
        circles each warp tested this frame that missed its region (render first)."""
        return measures.warp_skips(self.strategy, self.scene, self.image_buffer, self._cleared_frame())

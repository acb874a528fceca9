"""Frames captured as one CUDA graph at load and launched with one call draw and time what frames
launched stage by stage do (those of NVTX mode, each stage in its range, and those of a renderer
whose capture CUDA refused)."""

import re
import sys
import threading

import numpy as np
import pytest

from render.circles import renderer as circle_renderer
from render.circles.renderer import CudaRenderer
from render.circles.variants import VARIANTS as CIRCLE_VARIANTS
from render.core import nvtx
from render.core.compare import compare_images
from render.core.frame_graph import CaptureFailed
from render.core.gpu import synchronize_device
from render.core.renderer import render_frame
from scenes.builtin import build_scene

pytestmark = pytest.mark.gpu


def _counting_stage_launches(monkeypatch, renderer) -> list[int]:
    """Counts the renderer's stage-by-stage launches of a frame: at a capture, or a frame not captured."""
    launches: list[int] = []
    launch_frame = renderer._launch_frame
    monkeypatch.setattr(renderer, "_launch_frame", lambda: launches.append(1) or launch_frame())
    return launches


def _three_frames(renderer) -> list[np.ndarray]:
    """Frame 0; the next frame; then a render without a clear, which blends the circles again over it."""
    renderer.poison()
    images = [render_frame(renderer, 0)]
    renderer.advance()
    renderer.clear()
    renderer.render()
    images.append(renderer.image())
    renderer.render()
    images.append(renderer.image())
    return images


@pytest.mark.parametrize(
    "name, variant",
    [
        ("rgb", "auto"),  # per-pixel
        ("pattern", "auto"),  # tile-warp without bins
        ("rand10k", "auto"),  # tile-warp's bins
        ("snowsingle", "tile-warp:walk=cell"),
        ("bouncingballs", "tile-warp"),  # moving circles: other lists each frame
        ("rand10k", "tile-scan"),  # tile-block's launch
    ],
)
def test_captured_frames_draw_what_frames_launched_stage_by_stage_do(monkeypatch, ranges, name, variant):
    captured = CudaRenderer(CIRCLE_VARIANTS.parse(variant))
    captured.load(build_scene(name), 256, 256)
    captures = _counting_stage_launches(monkeypatch, captured)
    from_graphs = _three_frames(captured)
    assert captures == [1]  # the render without a clear: its own graph; the others replayed the load's
    nvtx.set_nvtx(True)
    launched = CudaRenderer(CIRCLE_VARIANTS.parse(variant))
    launched.load(build_scene(name), 256, 256)
    launches = _counting_stage_launches(monkeypatch, launched)
    one_by_one = _three_frames(launched)
    assert launches == [1, 1, 1] and ("push", "blending") in ranges
    assert not np.array_equal(from_graphs[1], from_graphs[2])  # the third frame blended again
    for graph_image, launched_image in zip(from_graphs, one_by_one, strict=True):
        assert np.array_equal(graph_image, launched_image)


def test_a_frame_is_captured_at_load_and_launched_again_each_frame(monkeypatch, reference_frame):
    captures = []
    capture_graph = circle_renderer.capture_graph
    monkeypatch.setattr(circle_renderer, "capture_graph", lambda launch: captures.append(1) or capture_graph(launch))
    renderer = CudaRenderer(CIRCLE_VARIANTS.parse("tile-warp"))
    renderer.load(build_scene("rand10k"), 256, 256)
    assert len(captures) == 1 and renderer.stage_times_ms() == {}  # the capture timed no frame
    for frame in range(3):
        render_frame(renderer, frame)
    assert len(captures) == 1
    times = renderer.stage_times_ms()
    assert times["binning"] > 0 and times["blending"] > 0 and times["clear"] == times["advance"] == 0
    nvtx.set_nvtx(True)  # frames launched stage by stage in between keep the graph
    render_frame(renderer, 0)
    nvtx.set_nvtx(False)
    renderer.poison()
    assert compare_images(reference_frame("rand10k", 256), render_frame(renderer, 0)).passed
    assert len(captures) == 1
    renderer.render()  # without a clear: another graph, whose blend keeps the image
    assert len(captures) == 2


def test_lists_that_change_capture_the_frame_again(monkeypatch, reference_frame, shorten_lists):
    renderer = CudaRenderer(CIRCLE_VARIANTS.parse("tile-warp"))
    renderer.load(build_scene("rand100k"), 256, 256)
    captures = _counting_stage_launches(monkeypatch, renderer)
    strategy = renderer.strategy
    shorten_lists(strategy, 1000)  # the binning's and the blend's arguments change
    want = reference_frame("rand100k", 256)
    renderer.poison()
    assert compare_images(want, render_frame(renderer, 0)).passed  # drawn from every circle
    assert captures == [1]
    renderer.poison()
    assert compare_images(want, render_frame(renderer, 0)).passed  # the lists grew: captured again
    assert captures == [1, 1] and strategy.capacity > 1000


def test_lists_that_cannot_grow_keep_their_frame(monkeypatch, reference_frame, shorten_lists):
    import cupy

    renderer = CudaRenderer(CIRCLE_VARIANTS.parse("tile-warp"))
    renderer.load(build_scene("rand100k"), 256, 256)
    captures = _counting_stage_launches(monkeypatch, renderer)
    strategy = renderer.strategy
    shorten_lists(strategy, 1000)
    render_frame(renderer, 0)
    assert captures == [1]

    def out_of_memory(count: int):
        raise cupy.cuda.memory.OutOfMemoryError(16 * count, 0)

    monkeypatch.setattr(strategy, "_entries", out_of_memory)
    renderer.poison()
    assert compare_images(reference_frame("rand100k", 256), render_frame(renderer, 0)).passed
    assert captures == [1] and strategy.capacity == 1000  # the same lists, the same graph


def test_a_renderer_whose_capture_cuda_refuses_launches_stage_by_stage(monkeypatch, reference_frame):
    def refuse(launch):
        raise CaptureFailed("refused")

    monkeypatch.setattr(circle_renderer, "capture_graph", refuse)
    renderer = CudaRenderer(CIRCLE_VARIANTS.parse("tile-warp"))
    renderer.load(build_scene("rand10k"), 256, 256)
    assert renderer._frames is None
    renderer.poison()
    assert compare_images(reference_frame("rand10k", 256), render_frame(renderer, 0)).passed
    assert renderer.stage_times_ms()["binning"] > 0


def test_without_cuda_bindings_frames_are_launched_stage_by_stage(monkeypatch, reference_frame):
    monkeypatch.setitem(sys.modules, "cuda.bindings", None)
    monkeypatch.setitem(sys.modules, "cuda.bindings.runtime", None)
    renderer = CudaRenderer(CIRCLE_VARIANTS.parse("auto"))
    renderer.load(build_scene("rand10k"), 256, 256)
    assert renderer._frames is None
    renderer.poison()
    assert compare_images(reference_frame("rand10k", 256), render_frame(renderer, 0)).passed


def test_captures_and_another_threads_device_synchronizes_take_turns():
    """A race's frames synchronize the device in a thread of their own while the app loads a
    renderer: CUDA would refuse the capture, and the synchronize, were they at the same time."""
    errors: list[BaseException] = []
    done = threading.Event()

    def synchronize_until_done() -> None:
        try:
            while not done.is_set():
                synchronize_device()
        except BaseException as error:  # reported by the assertion below
            errors.append(error)

    thread = threading.Thread(target=synchronize_until_done)
    thread.start()
    try:
        for _ in range(20):
            renderer = CudaRenderer(CIRCLE_VARIANTS.parse("tile-warp"))
            renderer.load(build_scene("rand10k"), 128, 128)
            assert renderer._frames is not None  # captured, not refused
    finally:
        done.set()
        thread.join()
    assert errors == []


def _dot_graph(dot: str) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """A CUDA graph's DOT print as {node: its attributes' text} and [(node, node after it)]."""
    nodes = {m.group(1): m.group(2) for m in re.finditer(r'^\s*"([^"]+)"\s*\[(.*?)\];?\s*$', dot, re.M | re.S)}
    edges = re.findall(r'"([^"]+)"\s*->\s*"([^"]+)"', dot)
    return nodes, edges


def test_the_blend_follows_the_binnings_last_kernel_with_no_event_between():
    """Binning's stop and the blend's start are one event, recorded beside the frame's path: in the
    captured graph the blend depends on the emission alone, not on an event node."""
    renderer = CudaRenderer(CIRCLE_VARIANTS.parse("tile-warp"))
    renderer.load(build_scene("rand10k"), 256, 256)
    nodes, edges = _dot_graph(renderer._captured_frame().graph.debug_dot_str(1))
    (blend,) = [node for node, text in nodes.items() if "render_tile_warp" in text]
    before = [node for node, after in edges if after == blend]
    assert before and all("emit_bin_entries" in nodes[node] for node in before), [nodes[n] for n in before]


@pytest.mark.parametrize("stage_by_stage", [False, True])
def test_the_binnings_stop_is_the_blends_start(ranges, stage_by_stage):
    import cupy

    nvtx.set_nvtx(stage_by_stage)
    renderer = CudaRenderer(CIRCLE_VARIANTS.parse("tile-warp"))
    renderer.load(build_scene("rand10k"), 256, 256)
    ranges.clear()
    render_frame(renderer, 0)
    stages = ranges[ranges.index(("push", "binning")) :] if stage_by_stage else ranges
    assert stages[:4] == ([("push", "binning"), ("pop",), ("push", "blending"), ("pop",)] if stage_by_stage else [])
    assert renderer.timer._switched == {"blending": "binning"}
    times = renderer.stage_times_ms()
    events = renderer.timer._events
    span = cupy.cuda.get_elapsed_time(events["binning"][0], events["blending"][1])
    assert times["binning"] > 0 and times["blending"] > 0
    assert times["binning"] + times["blending"] == pytest.approx(span, abs=1e-3)


def test_a_blend_that_fails_after_the_switch_leaves_later_captures_working(monkeypatch, reference_frame):
    """A blend launch that fails after the binning's stop was recorded beside the stream, in a
    capture and in a frame launched stage by stage: a later capture still succeeds (it must not
    wait, inside the capture, for a join recorded outside it)."""
    import cupy

    from render.circles.tile_warp import TileWarp

    def fail(*arguments):
        raise cupy.cuda.driver.CUDADriverError(1)  # CUDA_ERROR_INVALID_VALUE

    renderer = CudaRenderer(CIRCLE_VARIANTS.parse("tile-warp"))
    with monkeypatch.context() as patch:
        patch.setattr(TileWarp, "blend", fail)
        renderer.load(build_scene("rand10k"), 256, 256)
        assert renderer._frames is None  # the capture failed after the switch
        with pytest.raises(cupy.cuda.driver.CUDADriverError):
            render_frame(renderer, 0)  # and so did a frame launched stage by stage
    renderer.load(build_scene("rand10k"), 256, 256)
    assert renderer._frames is not None  # captured
    renderer.poison()
    assert compare_images(reference_frame("rand10k", 256), render_frame(renderer, 0)).passed


def test_a_frame_without_binning_reads_no_binning_time():
    renderer = CudaRenderer(CIRCLE_VARIANTS.parse("auto"))
    renderer.load(build_scene("rgb"), 256, 256)
    render_frame(renderer, 0)
    times = renderer.stage_times_ms()
    assert times["binning"] == 0 and times["blending"] > 0


def test_sorting_variants_launch_their_frames_stage_by_stage():
    renderer = CudaRenderer(CIRCLE_VARIANTS.parse("tile-sort"))
    renderer.load(build_scene("rand10k"), 256, 256)
    assert renderer._frames is None  # their binning allocates and reads a count on the host
    render_frame(renderer, 0)
    assert renderer.stage_times_ms()["binning"] > 0


def test_a_renderer_let_go_is_freed_at_once():
    """Nothing it holds points back at it: its GPU memory goes back to the pool when it is let go, not
    at the next collection of reference cycles (a switch in the app, a bench's next run)."""
    import gc
    import weakref

    renderer = CudaRenderer(CIRCLE_VARIANTS.parse("tile-warp"))
    renderer.load(build_scene("rand10k"), 256, 256)
    render_frame(renderer, 0)
    renderer.render()  # a second captured frame, without a clear
    gone = weakref.ref(renderer)
    gc.disable()
    try:
        del renderer
        assert gone() is None
    finally:
        gc.enable()

"""A renderer's captured frames: one per clear state, for the strategy's current key."""

import sys

from render.core.frame_graph import FrameGraphs, graphs_available


def _counting_captures():
    captured: list[int] = []

    def capture() -> int:
        captured.append(len(captured))
        return captured[-1]

    return captured, capture


def test_a_frame_is_captured_once_per_clear_state():
    captured, capture = _counting_captures()
    frames: FrameGraphs[int] = FrameGraphs()
    key = (0x7F00, 1000)
    assert frames.get(True, key, capture) == 0
    assert frames.get(True, key, capture) == 0
    assert frames.get(False, key, capture) == 1
    assert frames.get(True, key, capture) == 0 and frames.get(False, key, capture) == 1
    assert captured == [0, 1]


def test_a_new_key_captures_again_and_forgets_the_frames_of_the_old():
    captured, capture = _counting_captures()
    frames: FrameGraphs[int] = FrameGraphs()
    assert frames.get(True, (0x7F00, 1000), capture) == 0
    assert frames.get(True, (0x7F00, 4000), capture) == 1  # lists grown: their frames point at the old ones
    assert frames.get(True, (0x7F00, 1000), capture) == 2  # not the first frame again: its buffer may be gone
    assert captured == [0, 1, 2]


def test_without_cuda_bindings_frames_are_not_captured(monkeypatch):
    monkeypatch.setitem(sys.modules, "cuda.bindings", None)  # import fails as if not installed
    monkeypatch.setitem(sys.modules, "cuda.bindings.runtime", None)
    assert graphs_available() is False

""" "Check against reference": the shown frame on the GPU against the CPU reference, compared in
the background."""

from __future__ import annotations

import concurrent.futures
import dataclasses

import numpy as np

from render.core.compare import compare_images
from render.core.renderer import Renderer, render_frame

CHECK_MAX_SIZE = 512  # both sides render at most this large


@dataclasses.dataclass(frozen=True)
class CheckResult:
    size: int
    max_abs_diff: float
    bad_values: int
    passed: bool

    def summary(self) -> str:
        verdict = "pass" if self.passed else "FAIL"
        return f"{verdict}: max |diff| {self.max_abs_diff:.3g}, {self.bad_values} bad values at {self.size}x{self.size}"


class ReferenceCheck:
    """One check at a time, run in ``worker``."""

    def __init__(self, worker: concurrent.futures.Executor) -> None:
        self._worker = worker
        self._job: concurrent.futures.Future | None = None

    @property
    def running(self) -> bool:
        return self._job is not None and not self._job.done()

    def start(self, gpu: Renderer, reference: Renderer, scene, size: int, frame: int) -> None:
        """Render ``frame`` of ``scene`` with ``gpu`` now (raises RendererUnavailable), then with
        ``reference`` in the background."""
        gpu.load(scene, size, size)
        candidate = render_frame(gpu, frame)
        self._job = self._worker.submit(_compare, reference, scene, size, frame, candidate)

    def poll(self) -> CheckResult | None:
        """The finished check's result, once; None while it runs or when none was started."""
        if self._job is None or not self._job.done():
            return None
        result = self._job.result()
        self._job = None
        return result


def _compare(reference: Renderer, scene, size: int, frame: int, candidate: np.ndarray) -> CheckResult:
    reference.load(scene, size, size)
    comparison = compare_images(render_frame(reference, frame), candidate)
    return CheckResult(size, comparison.max_abs_diff, comparison.bad_values, comparison.passed)

"""The ``Session``'s actions on the shown frame: export it as a PNG, check it against the CPU
reference."""

from __future__ import annotations

from pathlib import Path

from app.export_folder import MissingFolder
from app.exports import export_name, export_png
from app.gpu_fallback import survives_gpu_failure
from app.reference_check import CHECK_MAX_SIZE, CheckResult
from render.core.renderer import RendererUnavailable


class FrameOutputs:
    """Mixed into ``Session``, which provides ``host_image``, ``settings``, ``backend``, ``scene``,
    ``variant``, ``frame``, ``status``, ``last_check``, ``export_overlay``, ``_check`` and
    ``_make_renderer``."""

    # The export folder an export or screenshot found missing, until the panel asks about it.
    missing_folder: MissingFolder | None = None

    @survives_gpu_failure()
    def export_png(self, folder: str | None = None) -> Path | MissingFolder | None:
        """Write the current frame at render resolution; never overwrites, never leaves a partial file.
        A folder that does not exist is not made: it is returned, and kept in ``missing_folder``."""
        image = self.host_image()
        if image is None:
            self.status = "nothing rendered yet to export"
            return None
        name = export_name(self.scene_name, self.export_label(), self.frame)
        overlay = self.export_overlay
        if overlay is not None:  # the frame as shown: with its overlay and the legend
            name = f"{name.removesuffix('.png')}_{overlay.name}.png"
        path, self.status = export_png(image, folder or self.settings.export_folder, name, overlay)
        if isinstance(path, MissingFolder):
            self.missing_folder = path
        return path

    @survives_gpu_failure()
    def start_check(self) -> None:
        """Compare the current frame with the CPU reference in the background (see ``poll_check``)."""
        if self.backend == "cpu":
            self.status = "the CPU backend is the reference: nothing to compare"
            return
        if self._check.running:
            return
        size = min(self.settings.size, CHECK_MAX_SIZE)
        gpu, reference = self._make_renderer(self.variant), self._make_renderer(self.variant, backend="cpu")
        try:
            self._check.start(gpu, reference, self.scene, size, self.frame)
        except RendererUnavailable as error:
            self.status = f"check failed: {error}"
            return
        self.status = f"checking frame {self.frame} against the CPU reference at {size}x{size}..."

    def poll_check(self) -> CheckResult | None:
        """The finished check's result, once; None while it runs or when none was started."""
        result = self._check.poll()
        if result is not None:
            self.last_check = result
            self.status = f"check against reference: {result.summary()}"
        return result

"""The ``Session``'s actions on the CUDA variant: choose one (or one option of it) by name, keeping
scene and frame, and say what actually renders."""

from __future__ import annotations

from app.background_switch import waits_for_kernels
from app.settings import Settings
from render.core.gpu import cuda_context_works
from render.core.variants import UnknownVariantError, VariantChoice

GOOD_KEPT = 8  # variants remembered as having rendered, for a user kernel that fails to go back to


class VariantActions:
    """Mixed into ``Session``, which provides ``kind``, ``settings``, ``backend``, ``scene``,
    ``renderer``, ``frame``, ``status``, ``_store`` and ``_load``."""

    _good: tuple[VariantChoice, ...] = ()  # the latest last: variants whose frames rendered

    def rendered_well(self) -> None:
        """A GPU frame of the current variant came out: remember it as one to go back to."""
        if not self._good or self._good[-1] != self.variant:
            kept = [choice for choice in self._good if choice != self.variant][-(GOOD_KEPT - 1) :]
            self._good = (*kept, self.variant)

    def back_from_a_failed_file(self, error: Exception) -> bool:
        """A user's kernel failed on the GPU but left CUDA working (a launch it could not make, say):
        go back to the latest other variant that rendered (else the default) and say why. False,
        changing nothing, when the variant is not a file or CUDA is lost (a kernel that faulted)."""
        if not self.variant.path or self.backend != "cuda" or self.scene is None or not cuda_context_works():
            return False
        failed = self.variant
        others = [choice for choice in self._good if choice.label() != failed.label()]
        back = others[-1] if others else self._default_variant()
        self.renderer = None
        if not self._load(self.scene, back, self.settings.size, self.frame):
            return False
        self.variant = back
        self._store("variant", back.label())
        self.status = f"{failed.label()} failed on the GPU ({error}); back to {back.label()}"
        return True

    def start_without_the_kernel_file(self) -> bool:
        """At start, when the variant remembered is a kernel file that does not load now (edited or
        moved since): the default variant instead, saying why. False when it is not a file, or the
        scene does not open with the default either."""
        if not self.variant.path:
            return False
        problem, self.variant = self.status, self._default_variant()
        if not self.select_scene(self.scene_name, confirmed=True):
            return False
        self.status = f"{problem}; running {self.variant.label()} instead"
        return True

    def _default_variant(self) -> VariantChoice:
        return self.kind.variants.parse(getattr(Settings, self.kind.settings_fields["variant"]))

    def _valid_variant(self, label: str) -> VariantChoice:
        try:
            return self.kind.variants.parse(label)
        except UnknownVariantError as error:
            self.status = str(error)
            return self._default_variant()

    @waits_for_kernels
    def set_variant(self, choice: str | VariantChoice) -> bool:
        """Switch the CUDA variant of the current kind (a choice, or ``name[:key=value,...]``),
        keeping scene and frame."""
        if isinstance(choice, str):
            try:
                choice = self.kind.variants.parse(choice)
            except UnknownVariantError as error:
                self.status = str(error)
                return False
        if (
            self.scene is None
            or self.backend == "cpu"
            or self._load(self.scene, choice, self.settings.size, self.frame)
        ):
            self.variant = choice
            self._store("variant", choice.label())
            return True
        return False

    def set_option(self, key: str, value: str) -> bool:
        try:
            choice = self.kind.variants.with_option(self.variant, key, value)
        except UnknownVariantError as error:
            self.status = str(error)
            return False
        # Options the change moved beside its own, so that the kernel builds: said, not done silently.
        before = dict(self.variant.options)
        moved = [f"{other}={now}" for other, now in choice.options if other != key and before.get(other) != now]
        if not self.set_variant(choice):
            return False
        if moved:
            self.status = f"{key}={value} takes {', '.join(moved)}"
        return True

    def variant_label(self) -> str:
        """What actually renders: the reference, a variant, or ``auto -> resolved``."""
        if self.backend == "cpu":
            return "reference"
        resolved = getattr(self.renderer, "resolved", None)
        if resolved is not None and resolved != self.variant:
            return f"{self.variant.label()} -> {resolved.label()}"
        return self.variant.label()

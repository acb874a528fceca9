"""The ``Session``'s actions on the CUDA variant: choose one (or one option of it) by name, keeping
scene and frame, and say what actually renders."""

from __future__ import annotations

from app.background_switch import waits_for_kernels
from app.settings import Settings
from render.core.variants import UnknownVariantError, VariantChoice


class VariantActions:
    """Mixed into ``Session``, which provides ``kind``, ``settings``, ``backend``, ``scene``,
    ``renderer``, ``frame``, ``status``, ``_store`` and ``_load``."""

    def _valid_variant(self, label: str) -> VariantChoice:
        try:
            return self.kind.variants.parse(label)
        except UnknownVariantError as error:
            self.status = str(error)
            return self.kind.variants.parse(getattr(Settings, self.kind.settings_fields["variant"]))

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
        return self.set_variant(choice)

    def variant_label(self) -> str:
        """What actually renders: the reference, a variant, or ``auto -> resolved``."""
        if self.backend == "cpu":
            return "reference"
        resolved = getattr(self.renderer, "resolved", None)
        if resolved is not None and resolved != self.variant:
            return f"{self.variant.label()} -> {resolved.label()}"
        return self.variant.label()

"""The view, camera and material of kinds that have them (the sphere tracer's classic and shaded
views): kept in the settings, turned by mouse drags and sliders, handed to the renderer between
frames. ``ViewActions`` are the ``Session``'s actions on them."""

from __future__ import annotations

import dataclasses

from app.settings import Settings
from render.core.kind import Look
from render.core.limits import ELEVATION, METALNESS, ROUGHNESS
from render.kinds import KINDS
from render.spheres.shading import ShadeSettings


def shading_of(settings: Settings) -> ShadeSettings:
    """The view's settings at frame 0: the camera as set, the material from the panel."""
    return ShadeSettings(
        azimuth=settings.camera_azimuth,
        elevation=settings.camera_elevation,
        roughness=settings.roughness,
        metalness=settings.metalness,
    ).checked()


def material_changes(settings: Settings, roughness: float | None, metalness: float | None) -> dict[str, float]:
    """Store the given material values (clamped to ROUGHNESS and METALNESS); returns them by name."""
    changes = {}
    for key, value, limit in (("roughness", roughness, ROUGHNESS), ("metalness", metalness, METALNESS)):
        if value is not None:
            changes[key] = limit.clamp(float(value))
            setattr(settings, key, changes[key])
    return changes


def orbit_changes(settings: Settings, current: ShadeSettings | None, around: float, up: float) -> dict[str, float]:
    """Turn the stored camera by ``around`` and ``up`` degrees (elevation kept within ELEVATION);
    returns the changes to apply to ``current``, the renderer's shading (None: it has none)."""
    settings.camera_azimuth = (settings.camera_azimuth + around) % 360.0
    settings.camera_elevation = ELEVATION.clamp(settings.camera_elevation + up)
    if current is None:
        return {}
    return {"azimuth": (current.azimuth + around) % 360.0, "elevation": settings.camera_elevation}


def reshaded(current: ShadeSettings, changes: dict[str, float]) -> ShadeSettings:
    return dataclasses.replace(current, **changes).checked()


class ViewActions:
    """The ``Session``'s view actions; it provides ``settings``, ``kind``, ``renderer``, ``scene``,
    ``variant``, ``frame``, ``status``, ``cpu``, ``_setting``, ``_load`` and ``_asks_first``."""

    def look(self) -> Look:
        """The current view, and its camera and material where it has them."""
        view = self._setting("view", "")
        return Look(view, shading_of(self.settings) if view else None)

    def set_view(self, view: str, confirmed: bool = False) -> bool:
        """The kind's view (the sphere tracer's classic or shaded), keeping the frame; on the CPU
        backend a slow one asks first (``app.slow_changes``)."""
        views = next((kind.views for kind in KINDS.values() if view in kind.views), ())
        if not views:
            valid = ", ".join(v for kind in KINDS.values() for v in kind.views)
            self.status = f"unknown view {view!r}; valid views are: {valid}"
            return False
        field = next(kind.settings_fields["view"] for kind in KINDS.values() if view in kind.views)
        previous = getattr(self.settings, field)
        setattr(self.settings, field, view)
        if view not in self.kind.views or self.scene is None:
            return True
        size = self.settings.size
        what = f"{self.scene.name} in the {view} view at {size}x{size}"
        asks = not confirmed and self._asks_first(self.scene, size, what, lambda: self.set_view(view, True))
        if not asks and self._load(self.scene, self.variant, size, self.frame):
            return True
        setattr(self.settings, field, previous)
        return False

    def set_material(self, roughness: float | None = None, metalness: float | None = None) -> None:
        """Change the view's material live (values clamped to ROUGHNESS and METALNESS)."""
        self._reshade(material_changes(self.settings, roughness, metalness))

    def orbit(self, degrees_around: float, degrees_up: float) -> None:
        """Turn the view's camera (a mouse drag); elevation stays within ELEVATION."""
        current = getattr(self.renderer, "shading", None)
        self._reshade(orbit_changes(self.settings, current, degrees_around, degrees_up))

    def _reshade(self, changes: dict[str, float]) -> None:
        current = getattr(self.renderer, "shading", None)
        if current is not None and changes:
            self.renderer.shading = reshaded(current, changes)
            self.cpu.dirty = True

    @property
    def orbits(self) -> bool:
        """Whether a drag over the picture turns a camera (the shaded sphere view)."""
        # Asked every frame: the view alone decides, without building the camera's settings.
        return self._setting("view", "") == "shaded" and getattr(self.renderer, "shading", None) is not None

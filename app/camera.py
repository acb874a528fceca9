"""The view, camera and material of kinds that have them (the sphere tracer's classic and shaded
views). The settings keep frame 0's camera; mouse drags orbit and pan it, the wheel zooms it,
sliders set the material, and the renderer turns it on by its frame number. ``ViewActions`` are the
``Session``'s actions on them."""

from __future__ import annotations

import math
from typing import Any

from app.background_switch import waits_for_kernels
from app.settings import Settings
from render.core.kind import Look
from render.core.limits import DISTANCE, ELEVATION, METALNESS, PAN, ROUGHNESS
from render.kinds import KINDS
from render.spheres.shading import ShadeSettings

ZOOM_STEP = 1.1  # the camera distance's factor per notch of the mouse wheel
MAX_ZOOM_NOTCHES = 1000.0
# The shaded view's command-line options, each a ShadeSettings field of the same name, and the
# settings fields that hold them.
LOOK_FIELDS: dict[str, tuple[str, ...]] = {
    "azimuth": ("camera_azimuth",),
    "elevation": ("camera_elevation",),
    "distance": ("camera_distance",),
    "pan": ("camera_pan_x", "camera_pan_y"),
    "roughness": ("roughness",),
    "metalness": ("metalness",),
}
LOOK_OPTIONS = tuple(LOOK_FIELDS)
CAMERA_FIELDS = ("camera_azimuth", "camera_elevation", "camera_distance", "camera_pan_x", "camera_pan_y")


def shading_of(settings: Settings) -> ShadeSettings:
    """The view's settings at frame 0: the camera as set, the material from the panel."""
    return ShadeSettings(
        azimuth=settings.camera_azimuth,
        elevation=settings.camera_elevation,
        distance=settings.camera_distance,
        pan=(settings.camera_pan_x, settings.camera_pan_y),
        roughness=settings.roughness,
        metalness=settings.metalness,
    ).checked()


def store_look(settings: Settings, given: dict[str, Any]) -> None:
    """Keep the shaded view's values ``given`` by their command-line names (LOOK_OPTIONS; ``pan``
    is an (x, y) pair), already checked against their limits."""
    for name, value in given.items():
        fields = LOOK_FIELDS[name]
        for field, part in zip(fields, value if len(fields) > 1 else (value,), strict=True):
            setattr(settings, field, float(part))


class ViewActions:
    """The ``Session``'s view actions; it provides ``settings``, ``kind``, ``renderer``, ``scene``,
    ``variant``, ``frame``, ``status``, ``cpu``, ``_setting``, ``_load`` and ``_asks_first``."""

    def look(self) -> Look:
        """The current view, and its camera and material where it has them."""
        view = self._setting("view", "")
        return Look(view, shading_of(self.settings) if view else None)

    @waits_for_kernels
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
        for key, value, limit in (("roughness", roughness, ROUGHNESS), ("metalness", metalness, METALNESS)):
            if value is not None:
                setattr(self.settings, key, limit.clamp(float(value)))
        self._reshade()

    def orbit(self, degrees_around: float, degrees_up: float) -> None:
        """Turn the view's camera (a mouse drag); elevation stays within ELEVATION."""
        self.settings.camera_azimuth = (self.settings.camera_azimuth + degrees_around) % 360.0
        self.settings.camera_elevation = ELEVATION.clamp(self.settings.camera_elevation + degrees_up)
        self._reshade()

    def zoom(self, notches: float) -> None:
        """Move the camera closer (``notches`` > 0, the wheel turned up) or away, by ZOOM_STEP per
        notch, within DISTANCE; a wheel that reports no finite number is ignored."""
        if not math.isfinite(notches):
            return
        # Past MAX_ZOOM_NOTCHES the distance is at a limit either way, and ZOOM_STEP**notches overflows.
        notches = max(min(notches, MAX_ZOOM_NOTCHES), -MAX_ZOOM_NOTCHES)
        self.settings.camera_distance = DISTANCE.clamp(self.settings.camera_distance * ZOOM_STEP**-notches)
        self._reshade()

    def pan(self, right_pixels: float, down_pixels: float, shown_pixels: float) -> None:
        """Move the look-at point within the camera's plane so that the picture, shown
        ``shown_pixels`` high, follows a drag by ``right_pixels`` and ``down_pixels`` (at the
        look-at point's depth exactly, nearer and farther spheres less and more); within PAN."""
        if not (shown_pixels > 0 and math.isfinite(right_pixels) and math.isfinite(down_pixels)):
            return
        scale = shading_of(self.settings).world_per_pixel(shown_pixels)
        self.settings.camera_pan_x = PAN.clamp(self.settings.camera_pan_x - right_pixels * scale)
        self.settings.camera_pan_y = PAN.clamp(self.settings.camera_pan_y + down_pixels * scale)
        self._reshade()

    def reset_camera(self) -> None:
        """The camera's azimuth, elevation, distance and pan back to their defaults (the material
        and the frame stay)."""
        for field in CAMERA_FIELDS:
            setattr(self.settings, field, getattr(Settings, field))
        self._reshade()

    def shown_camera(self) -> ShadeSettings | None:
        """The camera and material of the frame shown (frame 0's turned by the frame); None for a
        view without a camera."""
        return getattr(self.renderer, "shading", None) if self.orbits else None

    def _reshade(self) -> None:
        """Hand the settings' camera and material to the renderer, which turns them to its frame."""
        camera = shading_of(self.settings)
        if self.orbits and camera != self.renderer.camera:
            self.renderer.camera = camera
            self.cpu.dirty = True

    @property
    def orbits(self) -> bool:
        """Whether a drag over the picture turns a camera (the shaded sphere view)."""
        # Asked every frame: the view alone decides, without building the camera's settings.
        return self._setting("view", "") == "shaded" and getattr(self.renderer, "camera", None) is not None

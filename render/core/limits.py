"""The ranges of every number a user can give: the command line, the panel and the settings file all
read this one table, so a value one of them accepts is accepted by the others."""

from __future__ import annotations

import dataclasses

from scenes.file_reading import MAX_CIRCLES


class OutOfRange(ValueError):
    """A value outside its documented range; the message names the value and the range."""


@dataclasses.dataclass(frozen=True)
class Limit:
    """A closed range ``low..high`` of a named quantity; ``integer`` ones take only whole numbers."""

    name: str
    low: float
    high: float
    integer: bool = True

    def text(self) -> str:
        def shown(value: float) -> str:
            return f"{int(value)}" if self.integer or float(value).is_integer() else f"{value:g}"

        return f"{shown(self.low)}..{shown(self.high)}"

    def contains(self, value) -> bool:
        if isinstance(value, bool) or not isinstance(value, int | float):
            return False
        if self.integer and not isinstance(value, int):
            return False
        # The finite bounds refuse NaN and the infinities too; unlike math.isfinite, comparing also
        # takes integers too large for a float, which JSON and the command line both can give.
        return self.low <= value <= self.high

    def check(self, value):
        """``value`` itself when it is in range; raises OutOfRange otherwise."""
        if not self.contains(value):
            kind = "an integer" if self.integer else "a finite number"
            raise OutOfRange(f"{self.name} must be {kind} in {self.text()}, got {value!r}")
        return value

    def clamp(self, value):
        """The nearest value in range (for sliders and drags, which cannot ask)."""
        clamped = min(max(value, self.low), self.high)
        return int(clamped) if self.integer else float(clamped)


# Image sizes: the command line renders up to 16384 square (1 GiB of float32 RGBA); the app's
# resolution slider stops at 4096, where a frame still fits an interactive budget.
RENDER_SIZE = Limit("size", 1, 16384)
APP_SIZE = Limit("size", 256, 4096)
WINDOW_SIDE = Limit("window width and height", 200, 16384)
UI_SCALE = Limit("UI scale", 0.5, 3.0, integer=False)
# glibc's srand() takes an unsigned int: wider seeds would silently wrap to another scene.
SEED = Limit("seed", 0, 2**32 - 1)
SPHERE_COUNT = Limit("sphere count", 1, 65536)
AZIMUTH = Limit("azimuth", -360.0, 360.0, integer=False)
ELEVATION = Limit("elevation", -89.0, 89.0, integer=False)  # the orbit camera's up vector degenerates at 90
# The shaded view's camera distance from its look-at point, which stays in front of it. At the low end
# one of the book's spheres (radius 20..120) about fills the picture; at the high end the scene (centres
# within +-500) is a tenth of it, and float32 ray tests are still exact enough (|eye|^2 ~ 1e8).
DISTANCE = Limit("distance", 250.0, 10_000.0, integer=False)
# The look-at point's offset in the camera's plane: the spheres reach about 620 from the origin, so
# past this the camera would look away from every one of them.
PAN = Limit("pan", -1000.0, 1000.0, integer=False)
ROUGHNESS = Limit("roughness", 0.0, 1.0, integer=False)
METALNESS = Limit("metalness", 0.0, 1.0, integer=False)
# Frame k of an animated scene costs k + 1 animation steps (about 2 ms each for snow on the CPU);
# a static scene's frames are all the same picture and cost nothing.
ANIMATED_FRAME = Limit("frame of an animated scene", 0, 10_000)
FRAME = Limit("frame", 0, 2**31 - 1)
BENCH_FRAMES = Limit("frames", 1, 1000)
# The app's Record control: at least two frames make an animation; a thousand at 25 fps is 40 s.
RECORD_FRAMES = Limit("frames to record", 2, 1000)
BENCH_RUNS = Limit("runs", 1, 100)
# sortbench's random keys: 2^28 uint32 keys are 1 GiB, and a sort holds two or three such arrays.
SCALE_COUNT = Limit("circle count", 1, MAX_CIRCLES)
SORT_KEY_COUNT = Limit("key count", 2, 2**28)
# The circle bench's defaults (the course protocol's image size; frames a run; runs, the best kept).
BENCH_DEFAULT_SIZE, BENCH_DEFAULT_FRAMES, BENCH_DEFAULT_RUNS = 1024, 4, 3
GUI_FRAMES = Limit("frames", 1, 10_000_000)

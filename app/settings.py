"""What the app remembers between runs, in a per-user config folder (never the working directory).

The folder is ``$RASTERLAB_CONFIG_DIR`` when set, else ``$XDG_CONFIG_HOME/rasterlab``, else
``~/.config/rasterlab``; it holds ``settings.json`` and ImGui's ``imgui.ini``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import stat
import tempfile
from pathlib import Path

from render.core.limits import (
    APP_SIZE,
    AZIMUTH,
    DISTANCE,
    ELEVATION,
    METALNESS,
    PAN,
    ROUGHNESS,
    SEED,
    SPHERE_COUNT,
    UI_SCALE,
    WINDOW_SIDE,
    Limit,
    OutOfRange,
)
from render.core.variants import UnknownVariantError
from render.kinds import DEFAULT_KIND, KINDS
from scenes.files import is_scene_file

# A saved file is well under 1 KiB: anything past this cap is not ours, and is not worth parsing.
MAX_SETTINGS_BYTES = 2**20
# A warning quotes at most this much of one field's problem (a bad value can be a very long string).
MAX_PROBLEM_CHARS = 200


# How an image smaller than the view is enlarged: every pixel a sharp square, or smoothed.
TEXTURE_FILTERS = ("nearest", "linear")


def config_dir() -> Path:
    explicit = os.environ.get("RASTERLAB_CONFIG_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(base) / "rasterlab"


def default_export_folder() -> str:
    pictures = Path.home() / "Pictures"
    return str((pictures if pictures.is_dir() else Path.home()) / "rasterlab")


@dataclasses.dataclass
class Settings:
    scene: str = "rand10k"
    seed: int = 0
    variant: str = "auto"
    size: int = 1024
    fit_to_window: bool = False
    window_width: int = 1280
    window_height: int = 800
    vsync: bool = True
    force_host_copy: bool = False
    export_folder: str = dataclasses.field(default_factory=default_export_folder)
    renderer: str = DEFAULT_KIND
    sphere_scene: str = "classic"
    sphere_count: int = 1024  # of the random sphere scene
    sphere_seed: int = 0  # of the random sphere scene
    sphere_variant: str = "constant"
    sphere_view: str = "classic"
    roughness: float = 0.35
    metalness: float = 0.0
    camera_azimuth: float = 30.0
    camera_elevation: float = 20.0
    texture_filter: str = "nearest"
    ui_scale_follows_monitor: bool = True
    ui_scale: float = 1.0  # when it does not follow the monitor
    camera_distance: float = 2000.0
    camera_pan_x: float = 0.0
    camera_pan_y: float = 0.0


# The ranges of the numeric fields: the same table the command line and the panel use.
_LIMITS: dict[str, Limit] = {
    "seed": SEED,
    "sphere_seed": SEED,
    "size": APP_SIZE,
    "window_width": WINDOW_SIDE,
    "window_height": WINDOW_SIDE,
    "sphere_count": SPHERE_COUNT,
    "roughness": ROUGHNESS,
    "metalness": METALNESS,
    "camera_azimuth": AZIMUTH,
    "camera_elevation": ELEVATION,
    "ui_scale": UI_SCALE,
    "camera_distance": DISTANCE,
    "camera_pan_x": PAN,
    "camera_pan_y": PAN,
}
# The fields each renderer kind keeps for itself, checked against that kind's own names.
_CHOICES = {"renderer": tuple(KINDS), "texture_filter": TEXTURE_FILTERS} | {
    kind.settings_fields["view"]: kind.views for kind in KINDS.values() if "view" in kind.settings_fields
}
_SCENES = {kind.settings_fields["scene"]: kind.scene_names for kind in KINDS.values()}
_VARIANTS = {kind.settings_fields["variant"]: kind.variants for kind in KINDS.values()}


def _problem(key: str, value, default) -> str | None:
    """Why ``value`` cannot be the field ``key`` whose default is ``default``; None when it can."""
    if key in _LIMITS:
        return _refusal(_LIMITS[key].check, value, OutOfRange)
    if type(value) is not type(default):
        return f"should be {type(default).__name__}, got {value!r}"
    if key in _CHOICES and value not in _CHOICES[key]:
        return f"must be one of {', '.join(_CHOICES[key])}, got {value!r}"
    if key in _SCENES and not (value in _SCENES[key] or is_scene_file(value)):
        return f"is not a built-in scene or scene file: {value!r}"
    if key in _VARIANTS:
        return _refusal(_VARIANTS[key].parse, value, UnknownVariantError)
    return None


def _refusal(accept, value, refused: type[Exception]) -> str | None:
    """The message of the ``refused`` error ``accept(value)`` raises; None when it accepts ``value``."""
    try:
        accept(value)
    except refused as error:
        return str(error)
    return None


def _clipped(text: str) -> str:
    return text if len(text) <= MAX_PROBLEM_CHARS else text[:MAX_PROBLEM_CHARS] + "..."


def _from_fields(data: dict) -> tuple[Settings, list[str]]:
    """Settings from parsed JSON: each bad field keeps its default, and is named in the problems."""
    settings, problems = Settings(), []
    for field in dataclasses.fields(Settings):
        if field.name not in data:
            continue
        default = getattr(settings, field.name)
        problem = _problem(field.name, data[field.name], default)
        if problem:
            problems.append(_clipped(f"field {field.name!r}: {problem}") + f" (using the default {default!r})")
        else:
            # A whole number in a float field arrives from JSON as an int.
            setattr(settings, field.name, type(default)(data[field.name]))
    return settings, problems


def _read_object(path: Path) -> dict:
    """The JSON object in ``path``; raises OSError or ValueError saying why there is none."""
    if not stat.S_ISREG(path.stat().st_mode):
        raise ValueError("not a regular file")  # a FIFO would block the start, a device never end
    with path.open("rb") as stream:
        raw = stream.read(MAX_SETTINGS_BYTES + 1)
    if len(raw) > MAX_SETTINGS_BYTES:
        raise ValueError(f"larger than {MAX_SETTINGS_BYTES // 1024} KiB")
    data = json.loads(raw)
    if not isinstance(data, dict):
        raise ValueError("expected a JSON object")
    return data


def load_settings(path: Path | None = None) -> tuple[Settings, str | None]:
    """The saved settings and a warning (None when all is well).

    A file that cannot be read or parsed gives the defaults; a field of the wrong type or out of
    range gives that field's default, keeps the others, and is named in the warning. No file, or a
    config "folder" that is a file, gives the defaults quietly (the app warns about the folder).
    """
    path = path or config_dir() / "settings.json"
    try:
        data = _read_object(path)
    except (FileNotFoundError, NotADirectoryError):
        return Settings(), None
    except (OSError, ValueError, RecursionError) as error:
        # RecursionError: the JSON parser recurses once per level of nesting.
        return Settings(), f"settings file {path} ignored, using defaults ({_clipped(str(error))})"
    settings, problems = _from_fields(data)
    return settings, (f"settings file {path}: " + "; ".join(problems)) if problems else None


def prepare_config_dir() -> tuple[Path | None, str | None]:
    """The config folder, made when missing; or None and a warning when nothing can be saved there."""
    folder = config_dir()
    consequence = "settings and the panel layout will not be saved"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:  # with exist_ok, only for something there that is not a folder
        return None, f"the config folder {folder} exists but is not a folder; {consequence}"
    except OSError as error:
        return None, f"cannot make the config folder {folder} ({error.strerror or error}); {consequence}"
    if not os.access(folder, os.W_OK | os.X_OK):
        return None, f"the config folder {folder} is not writable; {consequence}"
    return folder, None


def save_settings(settings: Settings, path: Path | None = None) -> str | None:
    """Write the settings atomically; returns a warning instead of raising when that fails."""
    path = path or config_dir() / "settings.json"
    temporary = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".settings.", suffix=".part", dir=path.parent)
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            json.dump(dataclasses.asdict(settings), stream, indent=2)
        os.replace(temporary, path)
    except OSError as error:
        if temporary:
            with contextlib.suppress(OSError):
                Path(temporary).unlink(missing_ok=True)
        return f"could not save settings to {path}: {error.strerror or error}"
    return None

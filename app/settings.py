"""What the app remembers between runs, in a per-user config folder (never the working directory).

The folder is ``$RASTERLAB_CONFIG_DIR`` when set, else ``$XDG_CONFIG_HOME/rasterlab``, else
``~/.config/rasterlab``; it holds ``settings.json`` and ImGui's ``imgui.ini``.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import tempfile
from pathlib import Path

from render.sphere_shading import VIEWS
from render.variants import REGISTRIES, UnknownVariantError, parse_variant
from scenes.builtin import SCENE_NAMES
from scenes.spheres import SPHERE_SCENES

MIN_SIZE, MAX_SIZE = 256, 4096
MAX_SPHERES = 65536  # the app's count slider; the CLI takes any count
SCENE_FILE_SUFFIXES = (".npz", ".json")


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
    renderer: str = "circles"
    sphere_scene: str = "classic"
    sphere_count: int = 1024  # of the random sphere scene
    sphere_seed: int = 0  # of the random sphere scene
    sphere_variant: str = "constant"
    sphere_view: str = "classic"
    roughness: float = 0.35
    metalness: float = 0.0
    camera_azimuth: float = 30.0
    camera_elevation: float = 20.0


def _checked(data: dict) -> Settings:
    """Settings from parsed JSON; raises ValueError naming the first bad field."""
    settings = Settings()
    for field in dataclasses.fields(Settings):
        if field.name not in data:
            continue
        value = data[field.name]
        expected = type(getattr(settings, field.name))
        if expected is float and type(value) is int:
            value = float(value)
        if type(value) is not expected or (expected is float and not math.isfinite(value)):
            kind = "a finite float" if expected is float else expected.__name__
            raise ValueError(f"field {field.name!r} should be {kind}, got {value!r}")
        setattr(settings, field.name, value)
    for key, names in (("scene", SCENE_NAMES), ("sphere_scene", SPHERE_SCENES)):
        value = getattr(settings, key)
        if not (value in names or Path(value).suffix in SCENE_FILE_SUFFIXES):
            raise ValueError(f"field {key!r} is not a built-in scene or scene file: {value!r}")
    for key, renderer in (("variant", "circles"), ("sphere_variant", "spheres")):
        try:
            parse_variant(getattr(settings, key), renderer)
        except UnknownVariantError as error:
            raise ValueError(f"field {key!r}: {error}") from None
    _check_choice("renderer", settings.renderer, tuple(REGISTRIES))
    _check_choice("sphere_view", settings.sphere_view, VIEWS)
    if not MIN_SIZE <= settings.size <= MAX_SIZE:
        raise ValueError(f"field 'size' must be {MIN_SIZE}..{MAX_SIZE}, got {settings.size}")
    if not 1 <= settings.sphere_count <= MAX_SPHERES:
        raise ValueError(f"field 'sphere_count' must be 1..{MAX_SPHERES}, got {settings.sphere_count}")
    for key in ("roughness", "metalness"):
        if not 0.0 <= getattr(settings, key) <= 1.0:
            raise ValueError(f"field {key!r} must be 0..1, got {getattr(settings, key)}")
    if min(settings.seed, settings.sphere_seed) < 0 or settings.window_width < 1 or settings.window_height < 1:
        raise ValueError("fields 'seed', 'sphere_seed', 'window_width' and 'window_height' must be positive")
    return settings


def _check_choice(key: str, value: str, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise ValueError(f"field {key!r} must be one of {', '.join(choices)}, got {value!r}")


def load_settings(path: Path | None = None) -> tuple[Settings, str | None]:
    """The saved settings, or the defaults plus a warning when the file is unreadable or corrupt."""
    path = path or config_dir() / "settings.json"
    if not path.exists():
        return Settings(), None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            raise ValueError("expected a JSON object")
        return _checked(data), None
    except (OSError, UnicodeDecodeError, ValueError) as error:
        return Settings(), f"settings file {path} ignored, using defaults ({error})"


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
            Path(temporary).unlink(missing_ok=True)
        return f"could not save settings to {path}: {error.strerror or error}"
    return None

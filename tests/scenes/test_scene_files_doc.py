"""docs/scene-files.md stays true: its JSON examples load with ``load_scene`` and
``load_sphere_scene``, its field tables list exactly the fields the readers take, and the limits
it states are the constants of ``scenes/file_reading.py``."""

import json
import re
from pathlib import Path

from scenes import file_reading
from scenes.files import load_scene, load_sphere_scene

DOC = Path(__file__).resolve().parents[2] / "docs" / "scene-files.md"
LOADERS = {"circles": load_scene, "spheres": load_sphere_scene}
FIELDS = {"circles": file_reading.CIRCLE_FIELDS, "spheres": file_reading.SPHERE_FIELDS}


def _sections() -> dict[str, str]:
    """The text of the doc's "Circle scenes" and "Sphere scenes" sections, by kind."""
    text = DOC.read_text()
    parts = re.split(r"^## ", text, flags=re.MULTILINE)
    return {
        kind: next(part for part in parts if part.startswith(f"{kind[:-1].capitalize()} scenes")) for kind in LOADERS
    }


def test_each_kinds_json_example_loads(tmp_path):
    for kind, section in _sections().items():
        blocks = re.findall(r"```json\n(.*?)```", section, flags=re.DOTALL)
        assert len(blocks) == 1, kind
        path = tmp_path / f"{kind}.json"
        path.write_text(blocks[0])
        scene = LOADERS[kind](path)
        assert json.loads(blocks[0])["kind"] == kind and scene.count == 2


def test_each_kinds_table_lists_its_fields():
    for kind, section in _sections().items():
        rows = re.findall(r"^\| `(\w+)` \|", section, flags=re.MULTILINE)
        assert tuple(sorted(rows)) == tuple(sorted(FIELDS[kind])), kind


def test_the_stated_limits_are_the_codes():
    text = DOC.read_text().replace(",", "")
    stated = {"MAX_JSON_BYTES": f"{file_reading.MAX_JSON_BYTES // 2**20} MiB"}
    for name in ("MAX_CIRCLES", "MAX_ARRAY_BYTES", "MAX_SETTING_BYTES", "MAX_NPZ_MEMBERS", "MAX_JSON_BYTES"):
        value = stated.get(name, str(getattr(file_reading, name)))
        # Each constant's value comes shortly before its name, the first time the doc names it.
        before = text[: text.index(f"`{name}`")][-60:]
        assert value in before, (name, before)

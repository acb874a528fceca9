"""``race`` of both renderer kinds, run in-process without a GPU: stand-ins take the places where the
race times a variant and renders its frame, so the ranking, the exact/NO marks, the unavailable rows,
the JSON and the chart are what users get; and the command's refusals."""

import json

import numpy as np
import pytest
from PIL import Image

import app.commands
import render.circles.race as circle_race
import render.core.gpu
import render.spheres.cuda
import render.spheres.race as sphere_race
from app.cli import main
from render.circles.bench import BenchRow
from render.circles.check import reference_image
from render.core.race import RaceRow, race_lines, ranked
from render.core.renderer import RendererUnavailable
from render.spheres.constants import MAX_CONSTANT_SPHERES
from render.spheres.shading import reference_image as sphere_reference
from shaders import SHADER_DIR


@pytest.fixture(autouse=True)
def no_gpu_needed(monkeypatch):
    monkeypatch.setattr(app.commands, "_require_gpu", lambda command: None)
    monkeypatch.setattr(render.core.gpu, "gpu_name", lambda: "Fake GPU")


def circle_stand_ins(monkeypatch):
    """tile-warp the fastest, per-pixel the slowest, tile-sort unavailable, and one tile-scan
    configuration a value off."""

    def bench_one(scene, variant, size, frames, runs):
        if variant.startswith("tile-sort"):
            return BenchRow(scene.name, variant, variant, None, {}, None, 0, 0.0, "no room (stand-in)")
        total = {"per-pixel": 9.0, "tile-scan": 3.0, "tile-warp": 1.0, "auto": 1.5, "file": 2.0}[variant.split(":")[0]]
        total += 0.01 * len(variant)  # distinct times, so the order is certain
        stages = {"clear": 0.0, "advance": 0.0, "binning": total / 4, "blending": total / 2}
        return BenchRow(
            scene.name,
            variant,
            "tile-warp:bins=on,pixels=4,tile=32,walk=warp" if variant == "auto" else variant,
            total,
            stages,
            None,
            0,
            0,
        )

    def gpu_image(scene, variant, size, frame):
        image = reference_image(scene, size, frame)
        if variant == "tile-scan:scan=blelloch,test=exact,tile=32":
            image[1, 2, 0] += 0.5
        return image

    monkeypatch.setattr(circle_race, "bench_one", bench_one)
    monkeypatch.setattr(circle_race, "gpu_image", gpu_image)


def test_circle_race_ranks_marks_and_writes_its_figures(capsys, monkeypatch, tmp_path):
    circle_stand_ins(monkeypatch)
    out_json, out_png = tmp_path / "race.json", tmp_path / "race.png"
    code = main(["race", "--scene", "rgb", "--size", "32", "--json", str(out_json), "--chart", str(out_png)])
    output = capsys.readouterr()
    lines = output.out.splitlines()
    assert code == 0, output.err
    assert lines[0] == "Fake GPU: rgb at 32x32, seed 0, frames 0-3, best of 3"
    rows = [line.split() for line in lines[3:]]
    assert rows[0][:2] == ["1", "tile-warp:bins=on,pixels=4,tile=32,walk=warp"]  # the fastest
    assert rows[12][1] == "auto" and rows[12][3] == "tile-warp:bins=on,pixels=4,tile=32,walk=warp"  # auto says its pick
    named = {row[1]: row for row in rows}
    assert named["tile-scan:scan=blelloch,test=exact,tile=32"][-4:] == ["NO", "(max", "|diff|", "0.5)"]
    assert named["per-pixel"][-1] == "yes"
    unavailable = [line for line in lines if "unavailable" in line]
    assert len(unavailable) == 12 and all("no room (stand-in)" in line for line in unavailable)
    assert lines.index(unavailable[0]) > lines.index(next(line for line in lines if "per-pixel" in line))
    figures = json.loads(out_json.read_text())
    assert figures["scene"] == "rgb" and len(figures["rows"]) == 38
    assert [row["total_ms"] for row in figures["rows"][:22]] == sorted(row["total_ms"] for row in figures["rows"][:22])
    chart = np.asarray(Image.open(out_png))
    assert chart.shape[0] > 22 * 20 and (chart[..., 0] > 150).any() and (chart[..., 2] > 150).any()


def test_a_user_kernel_races_beside_every_configuration(capsys, monkeypatch):
    circle_stand_ins(monkeypatch)
    template = SHADER_DIR / "user" / "tile_scan.cu"
    also = ["--also", f"file:{template}", "tile-scan", f"file:{template}"]  # a configuration or a repeat runs once
    code = main(["race", "--scene", "rgb", "--size", "32", *also])
    output = capsys.readouterr()
    assert code == 0, output.err
    rows = [line.split() for line in output.out.splitlines()[3:]]
    assert len(rows) == 39 and [row[1] for row in rows].count(f"file:{template}") == 1


class SphereStandIn:
    """The sphere reference as a CUDA variant; constant memory refuses big scenes, readonly is off."""

    def __init__(self, choice, view="classic"):
        self.choice, self.view, self.shading = choice, view, None

    def load(self, scene, size):
        if self.choice.name.startswith("constant") and scene.count > MAX_CONSTANT_SPHERES:
            raise RendererUnavailable(f"{scene.count} spheres do not fit in constant memory")
        self.scene, self.size = scene, size

    def poison(self):
        pass

    def render(self):
        self._image = sphere_reference(self.scene, self.size, self.view, self.shading)
        if self.choice.name == "readonly":
            self._image[0, 0, 0] ^= 4

    def image(self):
        return self._image


def test_sphere_race_times_each_variant_and_compares_bytes(capsys, monkeypatch):
    monkeypatch.setattr(render.spheres.cuda, "SphereCudaRenderer", SphereStandIn)
    times = {"global": 0.5, "constant": 0.25, "shared-tiled": 0.75, "readonly": 0.4, "constant-divergent": 2.0}
    monkeypatch.setattr(sphere_race, "time_sphere_kernel", lambda renderer: times[renderer.choice.name])
    code = main(["race", "--renderer", "spheres", "--scene", "random", "--count", "3000", "--size", "16"])
    lines = capsys.readouterr().out.splitlines()
    assert code == 0 and "random (3000 spheres), classic view, 16x16" in lines[0]
    ranked_names = [line.split()[1] for line in lines[3:6]]
    assert ranked_names == ["readonly", "global", "shared-tiled"]
    assert lines[3].endswith("NO (max |diff| 4)") and lines[4].endswith("yes")
    assert all("do not fit in constant memory" in line for line in lines[6:8])


def test_ranking_puts_the_variants_that_could_not_run_last():
    rows = [
        RaceRow("a", "a", None, {}, None, None, "why"),
        RaceRow("b", "b", 2.0, {"blending": 2.0}, True, 0.0),
        RaceRow("c", "c", 1.0, {"blending": 1.0}, False, 0.25),
    ]
    assert [row.variant for row in ranked(rows)] == ["c", "b", "a"]
    lines = race_lines(ranked(rows), "title")
    assert lines[3].split()[:3] == ["1", "c", "1.000"] and lines[-1].endswith("unavailable: why")


@pytest.mark.parametrize(
    "args,message",
    [
        (["race", "--scene", "nope"], "nope"),
        (["race", "--scene", "rgb", "--count", "5"], "--count applies to --renderer spheres"),
        (["race", "--renderer", "spheres", "--scene", "classic", "--frames", "2"], "--frames applies to race"),
        (["race", "--scene", "rgb", "--also", "file:missing.cu"], "file:missing.cu: no such file"),
        (
            ["race", "--renderer", "spheres", "--scene", "classic", "--also", "tile-scan"],
            "unknown spheres variant 'tile-scan'",
        ),
    ],
)
def test_race_refuses_with_one_line(capsys, args, message):
    code = main(args)
    err = capsys.readouterr().err
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err

"""The ``check`` and ``bench`` reports of both renderer kinds, run in-process without a GPU: fake CUDA
renderers stand in at the seam where each task makes one, so the table lines, the pass/fail summary,
the exit code, the best-of-runs arithmetic and the JSON and chart files are what users get."""

import json

import numpy as np
import pytest

import app.commands
import render.circles.bench as circle_bench
import render.circles.check as circle_check
import render.core.gpu
import render.spheres.bench as sphere_bench
import render.spheres.check as sphere_check
import render.spheres.cuda
from app.cli import main
from render.circles.floor import DeviceLimits
from render.circles.reference import ReferenceRenderer
from render.core.renderer import RendererUnavailable
from render.spheres.constants import MAX_CONSTANT_SPHERES
from render.spheres.shading import ShadeSettings, reference_image
from scenes.spheres import random_spheres


@pytest.fixture(autouse=True)
def no_gpu_needed(monkeypatch):
    monkeypatch.setattr(app.commands, "_require_gpu", lambda command: None)
    monkeypatch.setattr(render.core.gpu, "gpu_name", lambda: "Fake GPU")


def run(capsys, *args):
    """(exit code, stdout lines) of the command line run in this process."""
    code = main(list(args))
    return code, capsys.readouterr().out.splitlines()


class CircleGpuStandIn(ReferenceRenderer):
    """The CPU reference dressed as a CUDA variant: ``tile-sort`` is unavailable and ``tile-scan``
    gets one colour value wrong, so each kind of row appears."""

    def __init__(self, choice):
        super().__init__(workers=1)
        if choice.name == "tile-sort":
            raise RendererUnavailable("no room for the sort (stand-in)")
        self.choice = choice

    def poison(self):
        pass

    def image(self):
        image = super().image()
        if self.choice.name == "tile-scan":
            image[3, 5, 1] += 0.25
        return image


def test_circle_check_reports_pass_fail_and_unavailable_rows(capsys, monkeypatch):
    monkeypatch.setattr(circle_check, "CudaRenderer", CircleGpuStandIn)
    code, lines = run(
        capsys, "check", "--scenes", "rgb", "--size", "32", "--variants", "per-pixel", "tile-scan", "tile-sort"
    )
    assert code == 1
    assert lines[0] == circle_check.HEADER and set(lines[1]) == {"-"}
    rows = {line.split()[1].split(":")[0]: line for line in lines[2:5]}
    assert rows["per-pixel"].split()[-3:] == ["0", "0", "pass"]
    assert rows["tile-scan"].split()[-3:] == ["0.25", "1", "FAIL"]
    assert rows["tile-sort"].endswith("UNAVAILABLE: no room for the sort (stand-in)")
    assert lines[5:] == ["1 passed, 2 failed"]


def test_circle_check_that_matches_everywhere_exits_0(capsys, monkeypatch):
    monkeypatch.setattr(circle_check, "CudaRenderer", CircleGpuStandIn)
    code, lines = run(capsys, "check", "--scenes", "rgb", "pattern", "--size", "24", "--variants", "per-pixel")
    assert code == 0 and lines[-1] == "2 passed, 0 failed"


def test_circle_check_against_another_variant_uses_its_frame_and_says_so(capsys, monkeypatch):
    monkeypatch.setattr(circle_check, "CudaRenderer", CircleGpuStandIn)
    monkeypatch.setattr(circle_check, "reference_image", lambda *args: pytest.fail("the CPU reference ran"))
    args = ["check", "--scenes", "rgb", "--size", "32", "--against", "tile-scan"]
    code, lines = run(capsys, *args, "--variants", "per-pixel", "tile-warp")
    assert code == 1  # tile-scan's frame is the one a value off: both differ from it
    assert lines[0] == "each variant against tile-scan:scan=warp,test=box,tile=16's frame, not the CPU reference's"
    assert [line.split()[-1] for line in lines[3:5]] == ["FAIL", "FAIL"] and lines[-1] == "0 passed, 2 failed"
    code, lines = run(capsys, *args[:-1], "per-pixel", "--variants", "tile-warp", "auto")
    assert code == 0 and lines[-1] == "2 passed, 0 failed"
    _, lines = run(capsys, *args[:-1], "per-pixel")  # the default list: every variant but per-pixel itself
    checked = [line.split()[1] for line in lines[3:-1]]
    assert checked == ["tile-scan", "tile-sort", "tile-warp", "auto"]
    code, lines = run(capsys, *args[:-1], "tile-sort", "--variants", "per-pixel")
    assert code == 1 and "tile-sort:sort=cub,test=box,tile=16, the reference here, could not run: no room" in lines[3]


class TimedStandIn:
    """What ``bench`` reads of a CUDA renderer, with per-frame times scripted per run."""

    resolved = type("Choice", (), {"label": lambda self: "tile-warp:pixels=2"})()
    animated = False

    def stage_times_ms(self):
        return {"clear": 0.01, "advance": 0.0, "binning": 0.02, "blending": 0.03}

    def covered_pairs(self):
        return 10**9


class PoolStandIn:
    def free_all_blocks(self):
        pass

    def total_bytes(self):
        return 3 * 2**20


def test_circle_bench_keeps_the_best_run_and_writes_its_figures(capsys, monkeypatch, tmp_path):
    runs = iter([[1.0, 3.0], [1.0, 2.0], [4.0, 4.0]])  # mean per-frame totals 2.0, 1.5, 4.0

    def time_run(scene, variant, size, frames):
        totals = next(runs)
        return TimedStandIn(), totals, [TimedStandIn().stage_times_ms()] * len(totals)

    monkeypatch.setattr(circle_bench, "time_run", time_run)
    limits = DeviceLimits(issue_per_s=1e13, bytes_per_s=1e12, protocol_ms={1: 0.01, 2: 0.02})
    monkeypatch.setattr(circle_bench, "measure_device_limits", lambda runs: limits)
    monkeypatch.setattr("cupy.get_default_memory_pool", lambda: PoolStandIn())
    target = tmp_path / "bench.json"
    args = ["bench", "--scenes", "rgb", "--variants", "auto", "--frames", "2", "--runs", "3", "--json", str(target)]
    code, lines = run(capsys, *args)
    assert code == 0
    assert lines[:2] == [
        "Fake GPU, 1024x1024, seed 0, frames 0-1, best of 3",
        "floors from 10.0e12 thread-instructions/s, 1000 GB/s copy, protocol 10.0 us with 1 launch, "
        "20.0 us with 2 launches a frame",
    ]
    # 1e9 flat pairs x 3 instructions at 1e13 a second is 0.3 ms; rgb's 3 circles and the float4
    # image, 16,777,300 bytes at 1e12 B/s, 0.0168 ms; one launch a frame, 0.01 ms; the best run 1.5 ms.
    assert lines[4].split() == [
        *("rgb", "auto", "1.500", "0.094", "0.073"),
        *("0.010", "0.000", "0.020", "0.030"),
        *("0.3000", "0.0168", "0.0100", "0.3100", "4.8", "3.0"),
        # rgb's 0.073 ms, under this stand-in floor of 0.31; 1.5 ms, over three times it
        *("target", "under", "floor,", "over", "3x", "floor"),
    ]
    assert lines[-1] == f"wrote {target}"
    figures = json.loads(target.read_text())
    assert figures["limits"] == {"issue_per_s": 1e13, "bytes_per_s": 1e12, "protocol_ms": {"1": 0.01, "2": 0.02}}
    row = figures["rows"][0]
    assert (row["resolved"], row["total_ms"], row["pool_mib"], row["target_ms"]) == (
        "tile-warp:pixels=2",
        1.5,
        3.0,
        0.073,
    )
    assert row["goal"] == "target under floor, over 3x floor"
    floor = {"compute_ms": 0.3, "memory_ms": 0.0167773, "protocol_ms": 0.01, "total_ms": 0.31}
    assert row["floor"] == pytest.approx(floor) and row["floor_ratio"] == pytest.approx(1.5 / 0.31)


class SphereGpuStandIn:
    """The sphere reference dressed as a CUDA variant; constant memory refuses what it cannot hold,
    and ``readonly`` gets one byte wrong."""

    def __init__(self, choice, view="classic"):
        self.choice, self.view = choice, view

    def load(self, scene, size):
        if self.choice.name == "constant" and scene.count > MAX_CONSTANT_SPHERES:
            raise RendererUnavailable(f"{scene.count} spheres do not fit in constant memory")
        self.scene, self.size = scene, size

    def poison(self):
        pass

    def render(self):
        self._image = reference_image(self.scene, self.size, self.view, ShadeSettings())
        if self.choice.name == "readonly":
            self._image[0, 0, 0] ^= 1

    def image(self):
        return self._image

    def kernel_ms(self):
        return {"global": 0.5, "constant": 0.25}.get(self.choice.name, 1.0)


def test_sphere_check_counts_bytes_and_says_why_a_variant_cannot_run(capsys, monkeypatch):
    monkeypatch.setattr(render.spheres.cuda, "SphereCudaRenderer", SphereGpuStandIn)
    args = ["check", "--renderer", "spheres", "--size", "16", "--variants", "global", "constant", "readonly"]
    code, lines = run(capsys, *args)
    rows = [line.split() for line in lines[2:-1]]
    assert code == 1
    assert [row[-1] for row in rows if row[2] == "global"] == ["identical"] * 6
    assert [row[-2:] for row in rows if row[2] == "readonly"] == [["1", "FAIL"]] * 6
    constant = [" ".join(row[3:]) for row in rows if row[2] == "constant"]
    assert constant[:-1] == ["0 identical"] * 5
    assert constant[-1] == "- unavailable: 3000 spheres do not fit in constant memory"
    assert lines[-1] == "12 passed, 6 failed (8-bit RGB values unlike the reference)"


def test_sphere_check_seeds_the_scenes_it_is_given(capsys, monkeypatch):
    # Before, --seed was dropped for a scene named in --scenes: random was always seed 0.
    monkeypatch.setattr(render.spheres.cuda, "SphereCudaRenderer", SphereGpuStandIn)
    checked = []
    real = sphere_check.run_sphere_check
    monkeypatch.setattr(
        sphere_check, "run_sphere_check", lambda scenes, *rest: checked.extend(scenes) or real(scenes, *rest)
    )
    args = ["check", "--renderer", "spheres", "--size", "16", "--variants", "global", "--seed", "7"]
    assert run(capsys, *args, "--scenes", "random", "classic")[0] == 0
    assert [scene.name for scene in checked] == ["random", "classic"]
    assert np.array_equal(checked[0].center, random_spheres(1024, 7).center)
    assert np.array_equal(checked[1].center, random_spheres(20, 7).center)


def test_sphere_check_refuses_a_frame(capsys):
    # Before, --frame was accepted and ignored: the sphere check renders frame 0 only.
    assert main(["check", "--renderer", "spheres", "--frame", "3"]) == 2
    assert capsys.readouterr().err == "error: --frame applies to check --renderer circles\n"


def test_sphere_bench_table_json_and_chart(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(render.spheres.cuda, "SphereCudaRenderer", SphereGpuStandIn)
    monkeypatch.setattr(sphere_bench, "TIMED_LAUNCHES", 2)
    data, chart = tmp_path / "spheres.json", tmp_path / "spheres.png"
    args = ["bench", "--renderer", "spheres", "--variants", "global", "constant", "--counts", "20", "3000"]
    code, lines = run(capsys, *args, "--sizes", "8", "--json", str(data), "--chart", str(chart))
    assert code == 0
    assert lines[0] == "Fake GPU: sphere kernels, classic view, median of 2 launches (CUDA events), seed 0"
    assert lines[2].split() == ["20", "8", "0.5000", "ms", "0.2500", "ms"]
    assert lines[3].split() == ["3000", "8", "0.5000", "ms", "n/a"]
    assert lines[-2:] == [f"wrote {data}", f"wrote {chart}"]
    rows = json.loads(data.read_text())["rows"]
    assert rows[-1] == {
        "variant": "constant",
        "count": 3000,
        "size": 8,
        "unavailable": "3000 spheres do not fit in constant memory",
    }
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

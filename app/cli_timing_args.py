"""The command line's timing commands: ``bench``, ``sortbench``, ``scale`` and ``race``."""

from __future__ import annotations

from app.cli_args import (
    NVTX_HELP,
    OVERWRITE_HELP,
    RENDERERS,
    SCENE_HELP,
    SEED_HELP,
    VIEWS,
    _number,
    _shaded_options,
    _subcommand,
    _within,
    output_name,
)
from render.circles import scale, sort_bench
from render.core import limits
from render.kinds import DEFAULT_KIND


def add_timing_commands(sub) -> None:
    """Add ``bench``, ``sortbench``, ``scale`` and ``race`` to the subcommands ``sub``."""
    png, json_file = output_name(".png"), output_name(".json")
    bench = _subcommand(sub, "bench", "time variants with the CS149 protocol and CUDA events")
    bench.add_argument("--renderer", choices=RENDERERS, default=DEFAULT_KIND, help=f"default: {DEFAULT_KIND}")
    bench.add_argument("--scenes", nargs="+", help="circles: the scenes (default: the 8 scored scenes)")
    _number(
        bench,
        "--counts",
        limits.SPHERE_COUNT,
        "spheres: sphere counts",
        shown="default 20 256 1024 2340 16384",
        nargs="+",
    )
    _number(bench, "--sizes", limits.RENDER_SIZE, "spheres: image sizes", shown="default 512 1024 2048", nargs="+")
    bench.add_argument("--variants", nargs="+", help="default: every variant")
    _number(bench, "--seed", limits.SEED, "scene seed", 0)
    # No defaults in the parser: a sphere bench refuses these, so they are None unless given.
    for flag, limit, what, default in (
        ("--size", limits.RENDER_SIZE, "image width and height", limits.BENCH_DEFAULT_SIZE),
        ("--frames", limits.BENCH_FRAMES, "timed frames a run", limits.BENCH_DEFAULT_FRAMES),
        ("--runs", limits.BENCH_RUNS, "runs, the best kept", limits.BENCH_DEFAULT_RUNS),
    ):
        _number(bench, flag, limit, f"circles: {what}", shown=f"default {default}")
    bench.add_argument("--json", type=json_file, help="also write every figure to this JSON file")
    bench.add_argument("--view", choices=VIEWS, help="spheres: classic (default) or shaded")
    bench.add_argument("--chart", type=png, help="spheres: also draw the timings as a PNG chart")
    bench.add_argument("--overwrite", action="store_true", help=OVERWRITE_HELP)
    bench.add_argument("--nvtx", action="store_true", help=NVTX_HELP)

    sortbench = _subcommand(
        sub, "sortbench", "time tile-sort's sorts (cub, onesweep, merge) on random keys and on scenes' binning keys"
    )
    powers = [count.bit_length() - 1 for count in sort_bench.SORT_BENCH_COUNTS]
    counts = f"default 2^{powers[0]} ... 2^{powers[-1]}"
    _number(sortbench, "--counts", limits.SORT_KEY_COUNT, "random 32-bit key counts", shown=counts, nargs="+")
    scenes = " ".join(sort_bench.SORT_BENCH_SCENES)
    sortbench.add_argument(
        "--scenes", nargs="*", help=f"circle scenes whose binning keys are sorted (default: {scenes}; none: no scene)"
    )
    sortbench.add_argument("--sorts", nargs="+", choices=sort_bench.SORTS, help="default: all of them")
    _number(sortbench, "--runs", limits.BENCH_RUNS, "timed calls, the median kept", shown=f"default {sort_bench.RUNS}")
    sortbench.add_argument("--json", type=json_file, help="also write every figure to this JSON file")
    sortbench.add_argument("--chart", type=png, help="also draw keys/s and extra memory against the key count")
    sortbench.add_argument("--overwrite", action="store_true", help=OVERWRITE_HELP)

    add_scale_command(sub, png, json_file)

    race = _subcommand(
        sub, "race", "every configuration of a renderer on one scene, timed and checked, fastest first, with a chart"
    )
    race.add_argument("--renderer", choices=RENDERERS, default=DEFAULT_KIND, help=f"default: {DEFAULT_KIND}")
    race.add_argument("--scene", required=True, help=SCENE_HELP)
    _number(race, "--count", limits.SPHERE_COUNT, "spheres: how many", shown="classic 20, random 1024")
    _number(race, "--size", limits.RENDER_SIZE, "image width and height", shown="default 1024")
    race.add_argument("--seed", type=_within(limits.SEED), help=SEED_HELP)
    for flag, limit, what, default in (
        ("--frames", limits.BENCH_FRAMES, "timed frames a run", limits.BENCH_DEFAULT_FRAMES),
        ("--runs", limits.BENCH_RUNS, "runs, the best kept", limits.BENCH_DEFAULT_RUNS),
    ):
        _number(race, flag, limit, f"circles: {what}", shown=f"default {default}")
    race.add_argument("--view", choices=VIEWS, help="spheres: classic (default) or shaded")
    _shaded_options(race.add_argument_group("spheres, shaded view"))
    race.add_argument(
        "--also",
        nargs="+",
        metavar="VARIANT",
        help="race these too, beside every configuration: variants with options, or your kernel as file:PATH",
    )
    race.add_argument("--json", type=json_file, help="also write every figure to this JSON file")
    race.add_argument("--chart", type=png, help="also draw the race as a PNG: a bar per variant, its stages stacked")
    race.add_argument("--overwrite", action="store_true", help=OVERWRITE_HELP)
    race.add_argument("--nvtx", action="store_true", help=NVTX_HELP)


def add_scale_command(sub, png, json_file) -> None:
    scaling = _subcommand(
        sub,
        "scale",
        "time auto and read its peak device memory as circles and pixels grow, on two families of random scenes",
    )
    counts = " ".join(map(str, scale.SCALE_COUNTS))
    _number(scaling, "--counts", limits.SCALE_COUNT, "circle counts", shown=f"default {counts}", nargs="+")
    sizes = " ".join(map(str, scale.SCALE_SIZES))
    _number(scaling, "--sizes", limits.RENDER_SIZE, "image sizes", shown=f"default {sizes}", nargs="+")
    scaling.add_argument(
        "--families",
        nargs="+",
        choices=scale.FAMILIES,
        help=f"fixed: radius {scale.FIXED_RADIUS} of the picture, depth grows; depth: the radius shrinks so the "
        f"mean depth stays {scale.MEAN_DEPTH:g} (default: both)",
    )
    _number(scaling, "--frames", limits.BENCH_FRAMES, "timed frames a run", shown=f"default {scale.SCALE_FRAMES}")
    _number(scaling, "--runs", limits.BENCH_RUNS, "runs, the best kept", shown=f"default {scale.SCALE_RUNS}")
    _number(scaling, "--seed", limits.SEED, "scene seed", 0)
    scaling.add_argument(
        "--against",
        metavar="VARIANT",
        help=f"the variant whose frame 0 auto's must equal (default {scale.AGAINST}, which bins by a global sort); "
        "exit 1 if a frame differs or this variant cannot run",
    )
    scaling.add_argument(
        "--save-scenes", metavar="FOLDER", help="save each scene there as FAMILY-COUNT.npz, and time it read back"
    )
    scaling.add_argument("--json", type=json_file, help="also write every figure to this JSON file")
    scaling.add_argument("--chart", type=png, help="also draw time and peak memory against the count, log-log")
    scaling.add_argument("--overwrite", action="store_true", help=OVERWRITE_HELP)

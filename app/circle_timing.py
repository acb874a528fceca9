"""The circle renderer's own timing commands: ``sortbench`` (tile-sort's sorts alone) and ``scale``
(`auto` as scenes and images grow)."""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
from collections.abc import Callable

import render.core.gpu
from app import commands
from app.cli_args import UsageError
from app.outputs import check_names_in_folder, claim_folder, claim_outputs
from app.printable import printable
from app.progress import step_bar
from app.record_command import recording_folder
from render.core.image_io import write_text_file
from render.core.log_chart import NothingToChart
from render.kinds import DEFAULT_KIND, KINDS
from scenes.safe_write import Placement


def _json_numbers(value):
    """``value`` with every infinite or NaN float as the string "inf", "-inf" or "nan": JSON has no
    such numbers (a frame with NaN pixels differs from another by inf)."""
    if isinstance(value, dict):
        return {key: _json_numbers(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_json_numbers(item) for item in value]
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return value


def _write_figures(
    args: argparse.Namespace, placements: dict, payload: dict, chart: Callable[[Placement], str]
) -> bool:
    """The JSON and the chart that ``--json`` and ``--chart`` ask for, each said as it is written;
    False when the chart had nothing to draw (said in one line)."""
    if args.json:
        write_text_file(json.dumps(_json_numbers(payload), indent=2, allow_nan=False), args.json, placements[args.json])
        print(printable(f"wrote {args.json}"))
    if args.chart:
        try:
            print(printable(f"wrote {chart(placements[args.chart])}"))
        except NothingToChart as error:
            commands.note(f"error: {args.chart} not written: {error}")
            return False
    return True


def cmd_sortbench(args: argparse.Namespace) -> int:
    """tile-sort's sorts timed on random keys and on scenes' binning keys (circles only)."""
    from render.circles import sort_bench

    circles = KINDS[DEFAULT_KIND]
    scenes = tuple(args.scenes) if args.scenes is not None else sort_bench.SORT_BENCH_SCENES
    for name in scenes:
        circles.scene_loader(name, 0, None)  # an unknown name is a usage error now, not after the work
    placements = claim_outputs([args.json, args.chart], args.overwrite)
    commands._require_gpu("sortbench, which times GPU sorts,")
    runs = args.runs or sort_bench.RUNS
    counts, sorts = tuple(args.counts or sort_bench.SORT_BENCH_COUNTS), tuple(args.sorts or sort_bench.SORTS)
    with step_bar("sortbench") as bar:
        rows = sort_bench.run_sort_bench(counts, scenes, sorts, runs, bar.progress)
    gpu = render.core.gpu.gpu_name()
    for line in sort_bench.table_lines(rows, gpu, runs):
        print(line)
    payload = sort_bench.payload(rows, gpu, runs)

    def chart(how: Placement) -> str:
        from render.circles.sort_chart import sort_bench_chart

        title = f"{gpu}: tile-sort's sorts, median of {runs} calls (CUDA events)"
        return sort_bench_chart(payload["rows"], args.chart, title, how)

    return 0 if _write_figures(args, placements, payload, chart) else 1


def cmd_scale(args: argparse.Namespace) -> int:
    """`auto` timed, its peak device memory read and its frame 0 checked against another variant
    over circle counts x image sizes, for each family of random scenes, each row printed as it is
    done; exit 1 if a frame differs or could not be compared."""
    from render.circles import scale

    against = commands._variant(KINDS[DEFAULT_KIND], scale.AGAINST if args.against is None else args.against)
    if against.name == "auto":
        raise UsageError("--against auto: auto cannot check itself; name a variant that bins another way (tile-sort)")
    counts = tuple(dict.fromkeys(args.counts or scale.SCALE_COUNTS))
    sizes = tuple(dict.fromkeys(args.sizes or scale.SCALE_SIZES))
    families = tuple(dict.fromkeys(args.families or scale.FAMILIES))
    frames, runs = args.frames or scale.SCALE_FRAMES, args.runs or scale.SCALE_RUNS
    placements = claim_outputs([args.json, args.chart], args.overwrite)
    saving = args.save_scenes is not None
    new_folder, replace = claim_folder(args.save_scenes, args.overwrite) if saving else (False, False)
    if saving and not new_folder:
        check_names_in_folder(os.path.join(args.save_scenes, f"{f}-{n}.npz") for f in families for n in counts)
    commands._require_gpu("scale, which times auto on the GPU,")
    gpu = render.core.gpu.gpu_name()
    about = (gpu, frames, runs, against.label(), args.seed)
    scene_folder = recording_folder(args.save_scenes, new_folder) if saving else contextlib.nullcontext()
    with scene_folder as folder, step_bar("scale") as bar:
        for line in scale.title_lines(*about):
            bar.write(line)
        saved = (folder, Placement(replace=replace)) if saving else None
        rows = scale.run_scale(
            counts,
            sizes,
            families,
            frames,
            runs,
            against.label(),
            args.seed,
            bar.progress,
            lambda row: bar.write(scale.row_line(row)),
            saved,
        )
    if saving:
        print(printable(f"saved {len(families) * len(counts)} scenes in {args.save_scenes}"))
    payload = scale.payload(rows, *about)

    def chart(how: Placement) -> str:
        from render.circles.scale_chart import scale_chart

        title = f"{gpu}: auto as circles and pixels grow, best of {runs} runs of frames 0-{frames - 1}"
        return scale_chart(payload["rows"], args.chart, title, how)

    drawn = _write_figures(args, placements, payload, chart)
    return 1 if any(row.failed for row in rows) or not drawn else 0


CIRCLE_TIMING_COMMANDS = {"sortbench": cmd_sortbench, "scale": cmd_scale}

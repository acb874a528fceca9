"""Registers, spills and the blend's group and hit loops in SASS, for tile-warp builds at given commits.

Run from the repository root on a machine with nvcc and cuobjdump (no GPU needed):
    python3 docs/results/hit-loads/sass.py 5c70946 4d94d33 99d0498 4d94d33-unpinned 99d0498-unpinned
writes, into this folder, ptxas-<name>.txt (ptxas's registers and spills per build) and, for the flat
32-pixel build, sass-<name>.txt (its SASS from the walk's first find-leading-one to the barrier after
it) and sass-<name>-groups.txt (from the head of the loop over groups of 32 circles to that
find-leading-one: the region tests, ballots and row squares of a group), each with its count. A name
COMMIT-unpinned is COMMIT's shaders without the `asm volatile` move that pins WarpRows' address.
"""

import re
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

from render.circles import constants
from render.core.kernels import nvcc_command
from shaders import SHADER_DIR

HERE = Path(__file__).parent
PIN = 'asm volatile("mov.u32 %0, %0;" : "+r"(at));'
FLAT = (32, 4, 0, 0, 0)
BUILDS = [
    (tile, pixels, cells, snow, index)
    for tile, pixels in ((32, 4), (64, 8))
    for cells in (0, 1)
    for snow in (0, 1)
    for index in (0, 1)
    if not (cells and snow)
]


def shaders_at(name: str, folder: Path) -> Path:
    commit, _, unpinned = name.partition("-")
    archive = subprocess.run(["git", "archive", commit, "shaders"], check=True, capture_output=True).stdout
    tarfile.open(fileobj=BytesIO(archive)).extractall(folder, filter="data")
    if unpinned:
        kernel = folder / "shaders" / "render_tile_warp.cu"
        text = kernel.read_text()
        assert text.count(PIN) == 1, "the pin is not in that commit's kernel"
        kernel.write_text(text.replace(PIN, ""))
    return folder / "shaders"


def compile_build(shaders: Path, build, output: Path, extra=()) -> str:
    tile, pixels, cells, snow, index = build
    defines = {
        **constants.CUDA_DEFINES,
        "TILE": tile,
        "PIXELS": pixels,
        "CELLS": cells,
        "SNOWFLAKE": snow,
        "FUSED": 1 - snow,
        "ENTRY_INDEX": index,
    }
    command = nvcc_command("render_tile_warp.cu", defines, str(output))
    command = [part.replace(str(SHADER_DIR), str(shaders)) for part in command]
    return subprocess.run(command + list(extra), check=True, capture_output=True, text=True).stderr


def sass_lines(cubin: Path) -> list[tuple[int, str]]:
    """(address, instruction) of render_tile_warp's SASS."""
    sass = subprocess.run(
        ["cuobjdump", "-sass", "-fun", "render_tile_warp", str(cubin)], check=True, capture_output=True, text=True
    ).stdout
    found = re.findall(r"/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;", sass)
    return [(int(address, 16), op) for address, op in found]


def write(name: str, what: str, ops: list[str]) -> None:
    build = "TILE=32 PIXELS=4 CELLS=0 SNOWFLAKE=0 FUSED=1 ENTRY_INDEX=0"
    (HERE / name).write_text(f"{len(ops)} instructions {what} ({build})\n" + "\n".join(ops) + "\n")


def main(names):
    for name in names:
        with tempfile.TemporaryDirectory() as folder:
            shaders = shaders_at(name, Path(folder))
            cubin = Path(folder) / "k.cubin"
            lines = []
            for build in BUILDS:
                report = compile_build(shaders, build, cubin, ("-Xptxas", "-v")).split("'render_tile_warp'")[1]
                used = re.search(r"Used (\d+) registers", report).group(1)
                spills = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", report).groups()
                tile, pixels, cells, snow, index = build
                lines.append(
                    f"TILE={tile} PIXELS={pixels} CELLS={cells} SNOWFLAKE={snow} ENTRY_INDEX={index}: "
                    f"{used} registers, spill stores {spills[0]}, loads {spills[1]}"
                )
            (HERE / f"ptxas-{name}.txt").write_text("\n".join(lines) + "\n")
            compile_build(shaders, FLAT, cubin)
            code = sass_lines(cubin)
            ops = [op for _, op in code]
            start = next(i for i, op in enumerate(ops) if "FLO." in op)
            end = next(i for i in range(start, len(ops)) if ops[i].startswith("BAR.SYNC"))
            # The loop over groups branches back, after the walk, to its head before the walk.
            heads = [int(target, 16) for op in ops[start:end] for target in re.findall(r"BRA 0x([0-9a-f]+)$", op)]
            head_address = min(target for target in heads if target < code[start][0])
            head = next(i for i, (address, _) in enumerate(code) if address == head_address)
            write(f"sass-{name}.txt", "from the walk's first FLO to the barrier after it", ops[start:end])
            write(
                f"sass-{name}-groups.txt",
                "from the head of the loop over groups to the walk's first FLO",
                ops[head:start],
            )
            print(name, len(ops), "in the kernel;", start - head, "a group;", end - start, "in the walk")


if __name__ == "__main__":
    main(sys.argv[1:])

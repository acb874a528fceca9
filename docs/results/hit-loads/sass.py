"""Registers, spills and the blend's hit walk in SASS, for tile-warp builds at given commits.

Run from the repository root on a machine with nvcc and cuobjdump (no GPU needed):
    python3 docs/results/hit-loads/sass.py 5c70946 4d94d33 99d0498
writes ptxas-<commit>.txt (ptxas's registers and spills per build) and sass-<commit>.txt (the flat
32-pixel build's SASS from the walk's first find-leading-one to the barrier after it, with the
count of its instructions) into this folder.
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
BUILDS = [
    (tile, pixels, cells, snow, index)
    for tile, pixels in ((32, 4), (64, 8))
    for cells in (0, 1)
    for snow in (0, 1)
    for index in (0, 1)
    if not (cells and snow)
]


def shaders_at(commit: str, folder: Path) -> Path:
    archive = subprocess.run(["git", "archive", commit, "shaders"], check=True, capture_output=True).stdout
    tarfile.open(fileobj=BytesIO(archive)).extractall(folder, filter="data")
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


def main(commits):
    for commit in commits:
        with tempfile.TemporaryDirectory() as folder:
            shaders = shaders_at(commit, Path(folder))
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
            (HERE / f"ptxas-{commit}.txt").write_text("\n".join(lines) + "\n")
            compile_build(shaders, (32, 4, 0, 0, 0), cubin)
            sass = subprocess.run(
                ["cuobjdump", "-sass", "-fun", "render_tile_warp", str(cubin)],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            code = [
                line.split("*/", 1)[1].split(";")[0].strip()
                for line in sass.splitlines()
                if line.strip().startswith("/*") and "*/" in line and not line.strip().startswith("/* 0x")
            ]
            start = next(i for i, op in enumerate(code) if "FLO." in op)
            end = next(i for i in range(start, len(code)) if code[i].startswith("BAR.SYNC"))
            walk = code[start:end]
            (HERE / f"sass-{commit}.txt").write_text(
                f"{len(walk)} instructions from the walk's first FLO to the barrier after it "
                "(TILE=32 PIXELS=4 CELLS=0 SNOWFLAKE=0 FUSED=1 ENTRY_INDEX=0)\n" + "\n".join(walk) + "\n"
            )
            print(commit, lines[0], lines[2], len(walk))


if __name__ == "__main__":
    main(sys.argv[1:])

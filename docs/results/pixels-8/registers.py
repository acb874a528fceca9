"""Registers and spills of tile-warp's blend in every build of this checkout's shaders, by ptxas.

Run from the repository root on a machine with nvcc (no GPU needed):
    python3 docs/results/pixels-8/registers.py [SHADER_FOLDER]
SHADER_FOLDER (default: this checkout's shaders/) lets a probe's tree be measured the same way.
"""

import re
import subprocess
import sys

from render.circles import constants
from render.core.kernels import nvcc_command
from shaders import SHADER_DIR

folder = sys.argv[1] if len(sys.argv) > 1 else str(SHADER_DIR)
for tile, pixels in ((32, 4), (32, 8), (64, 8)):
    for cells in (0, 1):
        for snow in (0, 1):
            for index in (0, 1):
                defines = {
                    **constants.CUDA_DEFINES,
                    **dict(TILE=tile, PIXELS=pixels, CELLS=cells, SNOWFLAKE=snow, ENTRY_INDEX=index),
                    "FUSED": 1 - snow,
                }
                command = nvcc_command("render_tile_warp.cu", defines, "/tmp/registers.cubin") + ["-Xptxas", "-v"]
                command = [part.replace(str(SHADER_DIR), folder) for part in command]
                report = subprocess.run(command, capture_output=True, text=True, check=True).stderr
                blend = report.split("Compiling entry function 'render_tile_warp'")[1]
                used = re.search(r"Used (\d+) registers", blend).group(1)
                spilled = re.search(r"(\d+) bytes spill stores", blend).group(1)
                print(
                    f"TILE={tile} PIXELS={pixels} CELLS={cells} SNOWFLAKE={snow} ENTRY_INDEX={index}: "
                    f"{used} registers, {spilled} bytes spilled",
                    flush=True,
                )

"""Compile the tile-warp build that `auto` takes at 1024 for four scenes, from a folder of shaders.

Run from the repository root (nvcc and cuobjdump on PATH, no GPU needed):
    python3 docs/results/walk-registers/build.py DIR/shaders TAG
prints ptxas's registers and spills for each, and writes its SASS to /tmp/sass/TAG-SCENE.sass.
"""

import subprocess
import sys
from pathlib import Path

from render.circles.builds import circle_builds
from render.circles.variants import VARIANTS
from render.core.kernels import nvcc_command
from scenes.builtin import build_scene
from shaders import SHADER_DIR

SCENES = ("rand100k", "rand1M", "micro2M", "snowsingle")


def main(shaders: Path, tag: str) -> None:
    Path("/tmp/sass").mkdir(exist_ok=True)
    for name in SCENES:
        for source, defines in circle_builds(VARIANTS.parse("auto"), build_scene(name), 1024, 1024):
            if source != "render_tile_warp.cu":
                continue
            cubin = f"/tmp/sass/{tag}-{name}.cubin"
            command = [part.replace(str(SHADER_DIR), str(shaders)) for part in nvcc_command(source, defines, cubin)]
            report = subprocess.run([*command, "-Xptxas", "-v"], capture_output=True, text=True)
            usage = [line.strip() for line in report.stderr.splitlines() if "Used" in line or "spill" in line]
            print(name, report.returncode, " | ".join(usage)[:300])
            dump = ["cuobjdump", "-sass", "-fun", "render_tile_warp", cubin]
            sass = subprocess.run(dump, capture_output=True, text=True).stdout
            Path(f"/tmp/sass/{tag}-{name}.sass").write_text(sass)


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2])

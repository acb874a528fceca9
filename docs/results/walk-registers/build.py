"""Compile the tile-warp builds of auto for given scenes from a shaders dir; print ptxas usage and dump SASS."""
import subprocess, sys
from pathlib import Path
from render.circles.builds import circle_builds
from render.circles.variants import VARIANTS
from render.core.kernels import nvcc_command
from scenes.builtin import build_scene
from shaders import SHADER_DIR
shaders = Path(sys.argv[1]); tag = sys.argv[2]
for scene_name, variant in [("rand100k", "auto"), ("rand1M", "auto"), ("micro2M", "auto"), ("snowsingle", "auto")]:
    scene = build_scene(scene_name)
    for source, defines in circle_builds(VARIANTS.parse(variant), scene, 1024, 1024):
        if source != "render_tile_warp.cu": continue
        out = f"/tmp/sass/{tag}-{scene_name}.cubin"
        cmd = [p.replace(str(SHADER_DIR), str(shaders)) for p in nvcc_command(source, defines, out)] + ["-Xptxas", "-v"]
        r = subprocess.run(cmd, capture_output=True, text=True)
        lines = [l for l in r.stderr.splitlines() if "render_tile_warp" in l or "registers" in l or "spill" in l]
        print(scene_name, r.returncode, " | ".join(l.strip() for l in lines if "Used" in l or "spill" in l)[:300])
        s = subprocess.run(["cuobjdump", "-sass", "-fun", "render_tile_warp", out], capture_output=True, text=True).stdout
        Path(f"/tmp/sass/{tag}-{scene_name}.sass").write_text(s)

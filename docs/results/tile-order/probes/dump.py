"""Hash (sha1 of the float32 RGBA bytes) of frame 0 and of a second render without a clear, per scene and variant."""

import hashlib
import json
import sys

import numpy as np

from render.circles.renderer import CudaRenderer
from render.circles.variants import VARIANTS
from render.core.renderer import render_frame
from scenes.builtin import SCENE_NAMES, SCORED_SCENES, build_scene

out = {}
jobs = [(n, v, 1024) for n in SCORED_SCENES for v in ("auto", "tile-warp", "tile-warp:bins=off", "tile-warp:walk=cell")]
jobs += [(n, v, 256) for n in SCENE_NAMES for v in ("tile-warp", "tile-warp:bins=off")]
jobs += [(n, "tile-warp", 999) for n in ("rand10k", "snowsingle", "biglittle")]
for name, variant, size in jobs:
    r = CudaRenderer(VARIANTS.parse(variant))
    r.load(build_scene(name), size, size)
    r.poison()
    a = render_frame(r, 0)
    r.render()
    b = r.image()
    out[f"{name} {variant} {size}"] = [hashlib.sha1(np.ascontiguousarray(x).tobytes()).hexdigest()[:16] for x in (a, b)]
json.dump(out, open(sys.argv[1], "w"), indent=0)
print(len(out), "images")

"""The CUDA (``.cu``, ``.cuh``) and GLSL (``.vert``, ``.frag``) sources, shipped as package data so
that an installed rasterlab finds them through this package wherever it runs from."""

from pathlib import Path

SHADER_DIR = Path(__file__).resolve().parent

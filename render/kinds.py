"""The renderers the app and the command line offer, by name: the one place that lists them."""

from __future__ import annotations

from render.circles.kind import CIRCLES
from render.core.kind import RendererKind
from render.spheres.kind import SPHERES

KINDS: dict[str, RendererKind] = {kind.name: kind for kind in (CIRCLES, SPHERES)}
KIND_NAMES = tuple(KINDS)
DEFAULT_KIND = CIRCLES.name  # what runs when no --renderer (or saved setting) says otherwise
OVERLAY_NAMES = tuple(dict.fromkeys(name for kind in KINDS.values() for name in kind.overlays))
# The options that only some kinds take, and which kinds take each (for "--count applies to ...").
KIND_OPTIONS: dict[str, tuple[str, ...]] = {}
# The options of ``bench`` and ``check`` that only some kinds read, and which kinds read each.
BENCH_OPTIONS: dict[str, tuple[str, ...]] = {}
CHECK_OPTIONS: dict[str, tuple[str, ...]] = {}
for _kind in KINDS.values():
    for _options, _owners in (
        (_kind.cli_options, KIND_OPTIONS),
        (_kind.bench_options, BENCH_OPTIONS),
        (_kind.check_options, CHECK_OPTIONS),
    ):
        for _option in _options:
            _owners[_option] = (*_owners.get(_option, ()), _kind.name)

"""``render``'s overlay options: the checks made before any work, the default PNG name, and the
report line's account of what the overlay showed."""

from __future__ import annotations

import argparse

from app.cli_args import UsageError
from render.core.gpu import gpu_problem
from render.core.kind import RendererKind
from render.core.overlay import Overlay, overlay_stats
from render.core.renderer import NoGpu
from render.core.variants import UnknownVariantError, VariantChoice


def overlay_rule(args: argparse.Namespace, kind: RendererKind) -> VariantChoice | None:
    """Check ``render``'s overlay options before any work; the variant named by ``--binning``, whose
    tiles and candidates the CPU reference draws (None: not named). ``--binning`` needs the CPU
    reference: ``--backend cpu``, or no usable GPU and no backend named."""
    if not args.overlay:
        if args.binning is not None:
            raise UsageError(f"--binning applies with --overlay {', '.join(kind.rule_overlays) or '(none here)'}")
        return None
    if args.overlay not in kind.overlays:
        raise UsageError(f"--overlay {args.overlay}: --renderer {kind.name} has no overlays")
    if args.raw and args.overlay == "tiles":
        valued = ", ".join(name for name in kind.overlays if name != "tiles")
        raise UsageError(f"--raw with --overlay tiles: a grid has no values; --raw takes {valued}")
    if args.overlay in kind.gpu_overlays:
        if args.backend == "cpu":
            raise UsageError(f"--overlay {args.overlay} is measured on the GPU; the cpu backend has none")
        problem = gpu_problem()
        if problem:
            raise NoGpu(f"--overlay {args.overlay} needs a CUDA GPU: {problem}")
    if args.variant is not None:
        _refuse_problem(kind, args.overlay, _parsed(kind, args.variant, "--variant"))
    if args.binning is None:
        return None
    if args.overlay not in kind.rule_overlays:
        rules = ", ".join(kind.rule_overlays)
        why = (
            "is measured on the variant the GPU runs (--variant)"
            if args.overlay in kind.gpu_overlays
            else "is the same for every variant"
        )
        raise UsageError(f"--binning applies to --overlay {rules}; {args.overlay} {why}")
    if args.backend == "cuda" or (args.backend is None and not gpu_problem()):
        raise UsageError(
            "--binning names the variant whose binning the cpu reference draws: add --backend cpu "
            "(on the GPU, --variant shows a variant's own figures)"
        )
    rule = _parsed(kind, args.binning, "--binning")
    _refuse_problem(kind, args.overlay, rule)
    return rule


def _parsed(kind: RendererKind, text: str, option: str) -> VariantChoice:
    try:
        return kind.variants.parse(text)
    except UnknownVariantError as error:
        raise UsageError(f"{option}: {error}") from None


def _refuse_problem(kind: RendererKind, overlay: str, choice: VariantChoice | None) -> None:
    problem = kind.overlay_problem(overlay, choice)
    if problem:
        raise UsageError(problem)


def default_png(name: str, overlay: str | None) -> str:
    """``render``'s default PNG name, with the overlay's name before the suffix."""
    return f"{name.removesuffix('.png')}_{overlay}.png" if overlay else name


def overlay_note(overlay: Overlay | None) -> str:
    """What the overlay showed, for ``render``'s report line."""
    if overlay is None:
        return ""
    if overlay.values is None:
        return f"; {overlay.name}: {overlay.cell[0]}x{overlay.cell[1]} pixels, {overlay.unit}"
    return f"; {overlay.name} ({overlay.unit}): {overlay_stats(overlay.values).line()}"

"""The one registry of circle-renderer variants, read by the CLI, the app and the tests.

A variant is chosen by name, with options appended as ``name:key=value,key=value`` (for example
``tile-scan:tile=32,scan=warp,test=exact``). Unknown names and options are rejected with the list
of valid ones.
"""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True)
class VariantSpec:
    name: str
    summary: str
    options: dict[str, tuple[str, ...]]  # option -> allowed values, first = default

    def defaults(self) -> dict[str, str]:
        return {key: values[0] for key, values in self.options.items()}


TILE_TEST = ("box", "exact")
SCAN_ALGORITHMS = ("warp", "blelloch", "hillis-steele")

VARIANTS: dict[str, VariantSpec] = {
    spec.name: spec
    for spec in (
        VariantSpec("per-pixel", "one thread per pixel loops over every circle (baseline)", {}),
        VariantSpec(
            "tile-scan",
            "a block per tile compacts the circles that touch it with a shared-memory scan",
            {"tile": ("16", "32"), "scan": SCAN_ALGORITHMS, "test": TILE_TEST},
        ),
        VariantSpec(
            "tile-sort",
            "global binning: (tile, circle) keys radix-sorted, then a block per tile range",
            {"tile": ("16", "32"), "test": TILE_TEST},
        ),
        VariantSpec(
            "tile-warp",
            "a block per tile, 4-8 pixels per thread, warps skip circles that miss their region; "
            "candidates from sort-free coarse bins (bins=on) or every circle",
            {"tile": ("32", "64"), "bins": ("on", "off")},
        ),
        VariantSpec("auto", "picks the fastest variant for the scene from its statistics", {}),
    )
}

VARIANT_NAMES: tuple[str, ...] = tuple(VARIANTS)

# The sphere tracer's variants differ only in where the sphere array lives and how warps read it.
SPHERE_VARIANTS: dict[str, VariantSpec] = {
    spec.name: spec
    for spec in (
        VariantSpec("global", "spheres in a global-memory buffer (the book's first version)", {}),
        VariantSpec("constant", "spheres in __constant__ memory, broadcast to a warp (at most 2340)", {}),
        VariantSpec("shared-tiled", "each block stages chunks of spheres in shared memory", {}),
        VariantSpec("readonly", "global memory read through the read-only cache (__ldg)", {}),
        VariantSpec("constant-divergent", "constant memory with lanes reading different spheres (serializes)", {}),
    )
}
SPHERE_VARIANT_NAMES: tuple[str, ...] = tuple(SPHERE_VARIANTS)
REGISTRIES = {"circles": VARIANTS, "spheres": SPHERE_VARIANTS}


class UnknownVariantError(ValueError):
    pass


@dataclasses.dataclass(frozen=True)
class VariantChoice:
    """A variant name with every option filled in."""

    name: str
    options: tuple[tuple[str, str], ...] = ()

    def option(self, key: str) -> str:
        return dict(self.options)[key]

    def label(self) -> str:
        if not self.options:
            return self.name
        return self.name + ":" + ",".join(f"{k}={v}" for k, v in self.options)


def parse_variant(text: str, renderer: str = "circles") -> VariantChoice:
    """Parse ``name[:key=value,...]`` for ``renderer`` (circles or spheres); raises
    UnknownVariantError naming the valid choices."""
    registry = REGISTRIES[renderer]
    name, _, option_text = text.strip().partition(":")
    spec = registry.get(name)
    if spec is None:
        which = "" if renderer == "circles" else f" {renderer}"
        raise UnknownVariantError(f"unknown{which} variant {name!r}; valid variants are: {', '.join(registry)}")
    options = spec.defaults()
    for item in filter(None, option_text.split(",")):
        key, _, value = item.partition("=")
        if key not in spec.options:
            valid = ", ".join(spec.options) or "none"
            raise UnknownVariantError(f"variant {name!r} has no option {key!r}; its options: {valid}")
        if value not in spec.options[key]:
            raise UnknownVariantError(
                f"option {key!r} of {name!r} cannot be {value!r}; choose one of: " + ", ".join(spec.options[key])
            )
        options[key] = value
    return VariantChoice(name, tuple(sorted(options.items())))


def checked_variants(names: list[str] | None, renderer: str = "circles") -> list[str]:
    """``names`` (default: every variant of ``renderer``), each parsed; raises UnknownVariantError."""
    chosen = names or list(REGISTRIES[renderer])
    for name in chosen:
        parse_variant(name, renderer)
    return chosen


def all_configurations() -> list[VariantChoice]:
    """Every concrete variant with every combination of options (``auto`` excluded)."""
    import itertools

    choices = []
    for spec in VARIANTS.values():
        if spec.name == "auto":
            continue
        keys = sorted(spec.options)
        for values in itertools.product(*(spec.options[k] for k in keys)):
            choices.append(VariantChoice(spec.name, tuple(zip(keys, values, strict=True))))
    return choices

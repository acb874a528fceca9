"""Variant tables: what a renderer's kernel variants are called, which options they take, and how
each is built (source file, compile-time defines) and launched.

A variant is chosen by name, with options appended as ``name:key=value,key=value`` (for example
``tile-scan:tile=32,scan=warp,test=exact``). A table may also take files: ``file:PATH`` names a
kernel of the user's (the table's ``file_spec``), whose file is checked as it is parsed. The text is
parsed once, into a ``VariantChoice``, which then travels unchanged to the renderer; unknown names
and options are rejected with the list of valid ones.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Iterator, Mapping
from pathlib import PurePath


class UnknownVariantError(ValueError):
    pass


@dataclasses.dataclass(frozen=True)
class Option:
    """One option of a variant: its values (the first is the default) and how a value reaches the
    kernel: as the ``-D`` define ``define`` (its ``codes`` entry, or the value itself as an
    integer), or, with no define, as a launch argument the variant's strategy reads. ``about`` says
    which idea of the kernel the option toggles (the panel's tooltip)."""

    values: tuple[str, ...]
    define: str | None = None
    codes: Mapping[str, int] | None = None
    about: str = ""

    def define_value(self, value: str) -> int:
        return self.codes[value] if self.codes is not None else int(value)


Defines = dict[str, object]


@dataclasses.dataclass(frozen=True)
class VariantSpec:
    """A row of a variant table.

    ``source`` is the ``shaders/`` file the variant compiles (None for ``auto``, which picks another
    row at load), ``kernel`` the function it launches from there, and ``launch`` how it runs (the
    renderer's strategy for the kernel's arguments and grid). ``invalid`` names what is wrong with
    a combination of option values the kernel cannot build ("" for one it can); ``scene_defines``
    lists the alternatives the renderer picks from at load from the scene itself (every alternative
    is a separate build).
    """

    name: str
    summary: str
    source: str | None
    launch: str
    kernel: str = ""
    options: Mapping[str, Option] = dataclasses.field(default_factory=dict)
    invalid: Callable[[Mapping[str, str]], str] = lambda options: ""
    scene_defines: tuple[Defines, ...] = ({},)

    def defaults(self) -> dict[str, str]:
        return {key: option.values[0] for key, option in self.options.items()}

    def defines(self, choice: VariantChoice) -> Defines:
        """The compile-time defines of ``choice``, scene-dependent ones excluded."""
        chosen = dict(choice.options)
        defines: Defines = {
            option.define: option.define_value(chosen[key])
            for key, option in self.options.items()
            if option.define is not None
        }
        return defines

    def choices(self) -> Iterator[VariantChoice]:
        """Every combination of this variant's option values that is not ``invalid``."""
        keys = sorted(self.options)
        for values in itertools.product(*(self.options[key].values for key in keys)):
            if not self.invalid(dict(zip(keys, values, strict=True))):
                yield VariantChoice(self.name, tuple(zip(keys, values, strict=True)))

    def builds(self) -> Iterator[Defines]:
        """Every distinct set of defines this variant compiles with (the compile test builds each)."""
        seen = []
        for choice in self.choices():
            for extra in self.scene_defines:
                defines = {**self.defines(choice), **extra}
                if defines not in seen:
                    seen.append(defines)
                    yield defines


@dataclasses.dataclass(frozen=True)
class VariantChoice:
    """A variant name with every option filled in, sorted by key; or a file variant's ``path``."""

    name: str
    options: tuple[tuple[str, str], ...] = ()
    path: str = ""

    def option(self, key: str) -> str:
        return dict(self.options)[key]

    def short_label(self) -> str:
        """The label for file names: a file variant's file name without its folders and suffix."""
        if self.path:
            return f"{self.name}-{PurePath(self.path).stem}"
        return self.label()

    def label(self) -> str:
        if self.path:
            return f"{self.name}:{self.path}"
        if not self.options:
            return self.name
        return self.name + ":" + ",".join(f"{k}={v}" for k, v in self.options)


class VariantTable:
    """The variants of one renderer, in display order; ``what`` names them in messages. With a
    ``file_spec``, ``<its name>:PATH`` is a variant too, once ``file_check(PATH)`` has accepted the
    file (it raises ValueError saying why not); the table's lists leave it out."""

    def __init__(
        self,
        specs: tuple[VariantSpec, ...],
        what: str = "variant",
        file_spec: VariantSpec | None = None,
        file_check: Callable[[str], object] | None = None,
    ) -> None:
        self.specs = {spec.name: spec for spec in specs}
        self.what = what
        self.file_spec = file_spec
        self.file_check = file_check

    def __getitem__(self, name: str) -> VariantSpec:
        if self.file_spec is not None and name == self.file_spec.name:
            return self.file_spec
        return self.specs[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.specs)

    def __contains__(self, name: object) -> bool:
        return name in self.specs

    def names(self) -> tuple[str, ...]:
        return tuple(self.specs)

    def parse(self, text: str) -> VariantChoice:
        """Parse ``name[:key=value,...]``; raises UnknownVariantError naming the valid choices."""
        name, _, option_text = text.strip().partition(":")
        if self.file_spec is not None and name == self.file_spec.name:
            return self._file_choice(option_text.strip())
        spec = self.specs.get(name)
        if spec is None:
            valid = ", ".join([*self.specs, *((f"{self.file_spec.name}:PATH",) if self.file_spec else ())])
            raise UnknownVariantError(f"unknown {self.what} {name!r}; valid variants are: {valid}")
        options: dict[str, str] = {}
        for item in option_text.split(",") if option_text else ():
            key, _, value = item.partition("=")
            if not key or key in options:
                why = "an empty option" if not key else f"option {key!r} given twice"
                raise UnknownVariantError(f"{self.what} {text.strip()!r}: {why}; write {name}:key=value,...")
            options[key] = value
        return self.with_options(name, options)

    def _file_choice(self, path: str) -> VariantChoice:
        assert self.file_spec is not None and self.file_check is not None
        try:
            self.file_check(path)
        except ValueError as error:
            raise UnknownVariantError(str(error)) from None
        return VariantChoice(self.file_spec.name, (), path)

    def with_options(
        self, name: str, options: Mapping[str, str], preferred: Mapping[str, str] | None = None
    ) -> VariantChoice:
        """The choice of variant ``name`` with ``options``; the options not given take their
        ``preferred`` values, else their defaults, unless that makes a combination the variant
        cannot build: then the first values, in the table's order, that it can (``tile=64`` alone
        brings the pixels a 64-pixel tile needs)."""
        spec = self.specs.get(name)
        if spec is None:  # a kernel file of the user's: its launch is declared in the file
            raise UnknownVariantError(f"{self.what} {name!r} has no options")
        for key, value in options.items():
            if key not in spec.options:
                valid = ", ".join(spec.options) or "none"
                raise UnknownVariantError(f"variant {name!r} has no option {key!r}; its options: {valid}")
            if value not in spec.options[key].values:
                allowed = ", ".join(spec.options[key].values)
                raise UnknownVariantError(f"option {key!r} of {name!r} cannot be {value!r}; choose one of: {allowed}")
        chosen = {**spec.defaults(), **(preferred or {}), **options}
        reason = spec.invalid(chosen)
        if reason:
            free = [key for key in spec.options if key not in options]
            # Each free option's current value first, then the others in the table's order.
            orders = [
                [chosen[key], *(value for value in spec.options[key].values if value != chosen[key])] for key in free
            ]
            for values in itertools.product(*orders):
                trial = {**chosen, **dict(zip(free, values, strict=True))}
                if not spec.invalid(trial):
                    chosen = trial
                    break
            else:
                given = ",".join(f"{key}={value}" for key, value in options.items())
                raise UnknownVariantError(f"{self.what} {name}:{given}: {reason}")
        return VariantChoice(name, tuple(sorted(chosen.items())))

    def with_option(self, choice: VariantChoice, key: str, value: str) -> VariantChoice:
        """``choice`` with one option changed (validated like a parsed one); the others stay as
        they are unless the change needs them otherwise."""
        return self.with_options(choice.name, {key: value}, preferred=dict(choice.options))

    def checked(self, names: list[str] | None) -> list[str]:
        """``names`` (default: every variant), each parsed; raises UnknownVariantError."""
        chosen = names or list(self.specs)
        for name in chosen:
            self.parse(name)
        return chosen

    def configurations(self) -> list[VariantChoice]:
        """Every concrete variant with every combination of options (rows without a source, such
        as ``auto``, excluded)."""
        return [choice for spec in self.specs.values() if spec.source for choice in spec.choices()]

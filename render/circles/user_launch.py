"""A user kernel's launch declaration: the ``// rasterlab: key = value`` lines of its ``.cu`` file
(``shaders/rasterlab.cuh`` lists them), parsed into a ``Launch``, each mistake one line that names
the file and the line, as a compiler would."""

from __future__ import annotations

import dataclasses
import re

from render.core.grids import grid_2d

DECLARATION = re.compile(r"^\s*//\s*rasterlab\s*:(.*)$")
NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
KEYS = ("kernel", "grid", "tile", "block", "binning", "binning_grid", "binning_block", "scratch")
SCRATCH_NAMES = ("count", "tiles", "width", "height", "pixels")
MAX_THREADS = 1024  # a CUDA block's limit
MAX_TILE = 256
MAX_SCRATCH_TEXT = 200  # characters of a scratch expression
DEFAULT_PIXEL_BLOCK = (16, 16)
DEFAULT_BINNING_BLOCK = 256


class DeclarationError(ValueError):
    """A launch declaration that cannot be used; the message is one line, ``PATH:LINE: ...``."""


class ScratchValueError(DeclarationError):
    """A scratch expression whose value cannot be used for this scene and size (negative, or a
    division by 0)."""


@dataclasses.dataclass(frozen=True)
class Launch:
    """How a user kernel runs: ``kernel`` over a grid of ``block``-sized blocks of pixels (``grid``
    ``pixels``) or one block of ``block`` threads per ``tile`` x ``tile`` tile (``tiles``);
    optionally ``binning`` first, a thread per circle or a block per tile, ``binning_block`` threads
    a block; ``scratch`` bytes of device memory shared by both (an expression, see ``scratch_bytes``)."""

    kernel: str
    grid: str
    tile: int
    block: tuple[int, int]
    binning: str | None = None
    binning_grid: str = "circles"
    binning_block: int = DEFAULT_BINNING_BLOCK
    scratch: str = "0"

    def cell(self) -> tuple[int, int]:
        """The pixels (width, height) one block of the blend owns."""
        return self.block if self.grid == "pixels" else (self.tile, self.tile)

    def blend_grid(self, width: int, height: int) -> tuple[int, int]:
        """(columns, rows) of blend blocks at width x height."""
        return grid_2d(width, height, self.cell())

    def scratch_bytes(self, count: int, width: int, height: int) -> int:
        """The scratch expression's value for ``count`` circles at width x height (``tiles``: of the
        blend's grid); raises ScratchValueError when it is negative or divides by 0."""
        cols, rows = self.blend_grid(width, height)
        names = dict(count=count, tiles=cols * rows, width=width, height=height, pixels=width * height)
        try:
            return _evaluate(_tokens(self.scratch), names)
        except ScratchValueError as error:
            raise ScratchValueError(
                f"scratch = {self.scratch} {error} for {count} circles at {width}x{height}"
            ) from None


def parse_launch(text: str, path: str) -> Launch:
    """The declaration in ``text`` (a ``.cu`` file's contents, ``path`` for messages); raises
    DeclarationError."""
    found: dict[str, tuple[str, int]] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        match = DECLARATION.match(line)
        if not match:
            continue
        key, equals, value = match.group(1).partition("=")
        key, value = key.strip(), value.strip()
        where = f"{path}:{number}"
        if not equals or not value:
            raise DeclarationError(f"{where}: write `// rasterlab: key = value`; keys: {', '.join(KEYS)}")
        if key not in KEYS:
            raise DeclarationError(f"{where}: unknown key {key!r}; keys: {', '.join(KEYS)}")
        if key in found:
            raise DeclarationError(f"{where}: {key} is declared twice (first on line {found[key][1]})")
        found[key] = (value, number)
    if "kernel" not in found or "grid" not in found:
        raise DeclarationError(
            f"{path}: no `// rasterlab: kernel = NAME` and `// rasterlab: grid = pixels|tiles` lines; "
            "a user kernel declares how it is launched (docs/user-kernels.md)"
        )
    return _launch(found, path)


def _launch(found: dict[str, tuple[str, int]], path: str) -> Launch:
    def value(key: str, default: str | None = None) -> tuple[str, str]:
        text, number = found.get(key, (default, 0))
        assert text is not None
        return text, f"{path}:{number}" if number else path

    kernel, where = value("kernel")
    _name(kernel, where, "kernel")
    grid, where = value("grid")
    if grid not in ("pixels", "tiles"):
        raise DeclarationError(f"{where}: grid must be pixels or tiles, not {grid!r}")
    if grid == "pixels" and "tile" in found:
        raise DeclarationError(f"{value('tile')[1]}: tile applies to grid = tiles")
    tile = 0
    if grid == "tiles":
        if "tile" not in found:
            raise DeclarationError(f"{where}: grid = tiles needs `// rasterlab: tile = N` (pixels per side)")
        tile = _integer(*value("tile"), "tile", 1, MAX_TILE)
    default_block = f"{tile}x{tile}" if grid == "tiles" else "x".join(map(str, DEFAULT_PIXEL_BLOCK))
    block = _block(*value("block", default_block))
    binning = None
    if "binning" in found:
        binning, where = value("binning")
        _name(binning, where, "binning")
    else:
        for key in ("binning_grid", "binning_block"):
            if key in found:
                raise DeclarationError(f"{value(key)[1]}: {key} applies with `// rasterlab: binning = NAME`")
    binning_grid, where = value("binning_grid", "circles")
    if binning_grid not in ("circles", "tiles"):
        raise DeclarationError(f"{where}: binning_grid must be circles or tiles, not {binning_grid!r}")
    binning_block = _integer(*value("binning_block", str(DEFAULT_BINNING_BLOCK)), "binning_block", 1, MAX_THREADS)
    scratch, where = value("scratch", "0")
    _check_scratch(scratch, where)
    return Launch(kernel, grid, tile, block, binning, binning_grid, binning_block, scratch)


def _name(text: str, where: str, key: str) -> None:
    if not NAME.match(text):
        raise DeclarationError(f'{where}: {key} must name an extern "C" kernel (a C identifier), not {text!r}')


def _integer(text: str, where: str, key: str, low: int, high: int) -> int:
    if not re.fullmatch(r"\d{1,7}", text) or not low <= int(text) <= high:
        raise DeclarationError(f"{where}: {key} must be a whole number from {low} to {high}, not {text!r}")
    return int(text)


def _block(text: str, where: str) -> tuple[int, int]:
    """``WxH`` or ``N`` (N x 1) threads, at most MAX_THREADS in all."""
    parts = text.lower().split("x")
    if len(parts) > 2 or not all(re.fullmatch(r"\d{1,4}", part) for part in parts):
        raise DeclarationError(f"{where}: block must be N or WxH threads, such as 256 or 16x16, not {text!r}")
    x, y = int(parts[0]), int(parts[1]) if len(parts) == 2 else 1
    if x < 1 or y < 1 or x * y > MAX_THREADS:
        raise DeclarationError(f"{where}: block {text} must have 1 to {MAX_THREADS} threads")
    return x, y


def _tokens(text: str) -> list[str]:
    return re.findall(r"\d+|[A-Za-z_]\w*|[-+*/()]|\S", text)


def _check_scratch(text: str, where: str) -> None:
    """The scratch expression must use only whole numbers, SCRATCH_NAMES, + - * / (whole-number
    division, rounding down) and parentheses."""
    if len(text) > MAX_SCRATCH_TEXT:
        raise DeclarationError(f"{where}: scratch is longer than {MAX_SCRATCH_TEXT} characters")
    try:
        _evaluate(_tokens(text), dict.fromkeys(SCRATCH_NAMES, 1))
    except ScratchValueError:
        pass  # its value depends on the scene and size: checked when they are known
    except DeclarationError as error:
        raise DeclarationError(f"{where}: scratch = {text}: {error}") from None


def _evaluate(tokens: list[str], names: dict[str, int]) -> int:
    """sum := product (('+' | '-') product)*; product := atom (('*' | '/') atom)*;
    atom := number | name | '(' sum ')'. The value must not be negative."""
    at = 0

    def atom() -> int:
        nonlocal at
        if at >= len(tokens):
            raise DeclarationError("ends too early")
        token = tokens[at]
        at += 1
        if token == "(":
            value = total()
            if at >= len(tokens) or tokens[at] != ")":
                raise DeclarationError("a ( is not closed")
            at += 1
            return value
        if token.isdigit():
            return int(token)
        if token in names:
            return names[token]
        raise DeclarationError(f"{token!r} is not a number or one of {', '.join(SCRATCH_NAMES)}")

    def product() -> int:
        nonlocal at
        value = atom()
        while at < len(tokens) and tokens[at] in ("*", "/"):
            at += 1
            if tokens[at - 1] == "*":
                value *= atom()
                continue
            divisor = atom()
            if divisor == 0:
                raise ScratchValueError("divides by 0")
            value //= divisor
        return value

    def total() -> int:
        nonlocal at
        value = product()
        while at < len(tokens) and tokens[at] in ("+", "-"):
            at += 1
            value = value + product() if tokens[at - 1] == "+" else value - product()
        return value

    value = total()
    if at != len(tokens):
        raise DeclarationError(f"unexpected {tokens[at]!r}")
    if value < 0:
        raise ScratchValueError(f"is negative ({value})")
    return value

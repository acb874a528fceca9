"""A user kernel's launch declaration: the ``// rasterlab: key = value`` lines of its ``.cu`` file
(``shaders/rasterlab.cuh`` lists them), parsed into a ``Launch``, each mistake one line that names
the file and the line, as a compiler would."""

from __future__ import annotations

import dataclasses
import re

from render.core.grids import grid_2d

DECLARATION = re.compile(r"^[ \t]*//[ \t]*rasterlab[ \t]*:(.*)$")
NEAR_MISS = re.compile(r"^[ \t]*/{2,}[ \t]*rasterlab\b", re.IGNORECASE)  # a declaration mistyped
HEADER = re.compile(r"^[ \t]*(//.*)?$")  # the file's opening lines: blank, or a // comment
NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,199}$")
SHOWN = 60  # characters of a value a message quotes
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
    """The declaration in ``text`` (a ``.cu`` file's contents, ``path`` for messages): its
    ``// rasterlab: key = value`` lines among the file's opening lines (blank or ``//`` comments,
    lines counted at each newline as a compiler counts them); raises DeclarationError, also for a
    declaration further down or one mistyped, which would otherwise be ignored."""
    found: dict[str, tuple[str, int]] = {}
    in_header = True
    for number, line in enumerate(text.split("\n"), start=1):
        in_header = in_header and HEADER.match(line) is not None
        match = DECLARATION.match(line)
        where = f"{path}:{number}"
        if match is None:
            if NEAR_MISS.match(line):
                raise DeclarationError(f"{where}: write `// rasterlab: key = value`; keys: {', '.join(KEYS)}")
            continue
        if not in_header:
            raise DeclarationError(f"{where}: a declaration belongs in the comment lines at the top of the file")
        key, equals, value = match.group(1).partition("=")
        key, value = key.strip(), value.strip()
        if not equals or not value:
            raise DeclarationError(f"{where}: write `// rasterlab: key = value`; keys: {', '.join(KEYS)}")
        if key not in KEYS:
            raise DeclarationError(f"{where}: unknown key {_shown(key)}; keys: {', '.join(KEYS)}")
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
        raise DeclarationError(f"{where}: grid must be pixels or tiles, not {_shown(grid)}")
    if grid == "pixels" and "tile" in found:
        raise DeclarationError(f"{value('tile')[1]}: tile applies to grid = tiles")
    tile = 0
    if grid == "tiles":
        if "tile" not in found:
            raise DeclarationError(f"{where}: grid = tiles needs `// rasterlab: tile = N` (pixels per side)")
        tile = _integer(*value("tile"), "tile", 1, MAX_TILE)
    if grid == "tiles" and "block" not in found and tile * tile > MAX_THREADS:
        raise DeclarationError(
            f"{value('tile')[1]}: a {tile}-pixel tile needs `// rasterlab: block = N` "
            f"(the default, a thread per pixel, is more than {MAX_THREADS})"
        )
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
        raise DeclarationError(f"{where}: binning_grid must be circles or tiles, not {_shown(binning_grid)}")
    binning_block = _integer(*value("binning_block", str(DEFAULT_BINNING_BLOCK)), "binning_block", 1, MAX_THREADS)
    scratch, where = value("scratch", "0")
    _check_scratch(scratch, where)
    return Launch(kernel, grid, tile, block, binning, binning_grid, binning_block, scratch)


def _shown(text: str) -> str:
    """``text`` quoted for a message, cut to SHOWN characters."""
    return repr(text if len(text) <= SHOWN else text[:SHOWN] + "...")


def _name(text: str, where: str, key: str) -> None:
    if not NAME.match(text):
        raise DeclarationError(f'{where}: {key} must name an extern "C" kernel (a C identifier), not {_shown(text)}')


def _integer(text: str, where: str, key: str, low: int, high: int) -> int:
    if not re.fullmatch(r"[0-9]{1,7}", text) or not low <= int(text) <= high:
        raise DeclarationError(f"{where}: {key} must be a whole number from {low} to {high}, not {_shown(text)}")
    return int(text)


def _block(text: str, where: str) -> tuple[int, int]:
    """``WxH`` or ``N`` (N x 1) threads, at most MAX_THREADS in all."""
    parts = text.lower().split("x")
    if len(parts) > 2 or not all(re.fullmatch(r"[0-9]{1,4}", part) for part in parts):
        raise DeclarationError(f"{where}: block must be N or WxH threads, such as 256 or 16x16, not {_shown(text)}")
    x, y = int(parts[0]), int(parts[1]) if len(parts) == 2 else 1
    if x < 1 or y < 1 or x * y > MAX_THREADS:
        raise DeclarationError(f"{where}: block {text} must have 1 to {MAX_THREADS} threads")
    return x, y


def _tokens(text: str) -> list[str]:
    return re.findall(r"[0-9]+|[A-Za-z_]\w*|[-+*/()]|\S", text)


def _check_scratch(text: str, where: str) -> None:
    """The scratch expression must use only whole numbers, SCRATCH_NAMES, + - * / (whole-number
    division, rounding down) and parentheses; its value is checked when the scene and size are known."""
    if len(text) > MAX_SCRATCH_TEXT:
        raise DeclarationError(f"{where}: scratch is longer than {MAX_SCRATCH_TEXT} characters")
    try:
        _evaluate(_tokens(text), dict.fromkeys(SCRATCH_NAMES, 1), strict=False)
    except DeclarationError as error:
        raise DeclarationError(f"{where}: scratch = {text}: {error}") from None


def _evaluate(tokens: list[str], names: dict[str, int], strict: bool = True) -> int:
    """sum := product (('+' | '-') product)*; product := atom (('*' | '/') atom)*;
    atom := number | name | '(' sum ')'. The value must not be negative and no division may be by
    0 (``strict`` False: only the form is checked, whatever the values)."""
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
        if re.fullmatch("[0-9]+", token):
            return int(token)
        if token in names:
            return names[token]
        raise DeclarationError(f"{_shown(token)} is not a number or one of {', '.join(SCRATCH_NAMES)}")

    def product() -> int:
        nonlocal at
        value = atom()
        while at < len(tokens) and tokens[at] in ("*", "/"):
            at += 1
            if tokens[at - 1] == "*":
                value *= atom()
                continue
            divisor = atom()
            if divisor == 0 and strict:
                raise ScratchValueError("divides by 0")
            value = value // divisor if divisor else 0
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
        raise DeclarationError(f"unexpected {_shown(tokens[at])}")
    if value < 0 and strict:
        raise ScratchValueError(f"is negative ({value})")
    return value

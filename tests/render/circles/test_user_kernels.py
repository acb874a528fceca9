"""User kernels on the CPU: the launch declaration (good ones, and each mistake one line naming the
file and line), the scratch expression, the careful read of a kernel file (missing, folder, FIFO,
huge, binary, not UTF-8, wrong suffix), the headers it includes, ``file:PATH`` in the variant table,
and the templates' declarations."""

import os

import pytest

from render.circles.user_file import MAX_BYTES, includes, read_user_source
from render.circles.user_launch import DeclarationError, Launch, parse_launch
from render.circles.variants import VARIANTS
from render.core.variants import UnknownVariantError
from shaders import SHADER_DIR

TEMPLATES = SHADER_DIR / "user"


def declared(*lines: str) -> str:
    return "\n".join(f"// rasterlab: {line}" for line in lines) + '\nextern "C" __global__ void k() {}\n'


def test_the_templates_declare_their_launches():
    per_pixel = read_user_source(str(TEMPLATES / "per_pixel.cu")).launch
    assert per_pixel == Launch("render_per_pixel", "pixels", 0, (16, 16))
    tile_scan = read_user_source(str(TEMPLATES / "tile_scan.cu")).launch
    assert tile_scan == Launch("render_tile_scan", "tiles", 16, (16, 16))
    assert tile_scan.cell() == (16, 16) and tile_scan.blend_grid(1000, 300) == (63, 19)


def test_every_key():
    launch = parse_launch(
        declared(
            "kernel = blend",
            "grid = tiles",
            "tile = 32",
            "block = 256",
            "binning = bins",
            "binning_grid = tiles",
            "binning_block = 128",
            "scratch = 4 * (count + 2) * tiles + width * height + pixels + 7 - (count + 31) / 32",
        ),
        "k.cu",
    )
    assert launch == Launch("blend", "tiles", 32, (256, 1), "bins", "tiles", 128, launch.scratch)
    tiles = 4 * 2  # 100 x 50 pixels in 32-pixel tiles
    assert launch.scratch_bytes(10, 100, 50) == 4 * 12 * tiles + 5000 + 5000 + 7 - 1
    risky = parse_launch(declared("kernel = k", "grid = pixels", "scratch = count / (width - 1) - 2"), "k.cu")
    assert risky.scratch_bytes(9, 4, 4) == 1  # its value is checked when the scene and size are known
    with pytest.raises(DeclarationError, match="scratch = .* is negative \\(-1\\) for 3 circles at 4x4"):
        risky.scratch_bytes(3, 4, 4)
    with pytest.raises(DeclarationError, match="divides by 0 for 9 circles at 1x1"):
        risky.scratch_bytes(9, 1, 1)
    assert parse_launch(declared("kernel = k", "grid = pixels", "block = 32x8"), "k.cu").block == (32, 8)


@pytest.mark.parametrize(
    "lines,message",
    [
        (("kernel = k",), "k.cu: no `// rasterlab: kernel = NAME` and `// rasterlab: grid = pixels|tiles` lines"),
        (("grid = pixels",), "no `// rasterlab: kernel = NAME`"),
        (("kernel = k", "grid = pixels", "colour = red"), "k.cu:3: unknown key 'colour'; keys: kernel, grid"),
        (("kernel = k", "grid = pixels", "kernel = j"), "k.cu:3: kernel is declared twice (first on line 1)"),
        (("kernel = k", "grid pixels"), "k.cu:2: write `// rasterlab: key = value`"),
        (("kernel = k", "grid ="), "k.cu:2: write `// rasterlab: key = value`"),
        (("kernel = 9lives", "grid = pixels"), 'k.cu:1: kernel must name an extern "C" kernel'),
        (("kernel = k", "grid = blocks"), "k.cu:2: grid must be pixels or tiles, not 'blocks'"),
        (("kernel = k", "grid = tiles"), "k.cu:2: grid = tiles needs `// rasterlab: tile = N`"),
        (("kernel = k", "grid = tiles", "tile = 0"), "k.cu:3: tile must be a whole number from 1 to 256, not '0'"),
        (("kernel = k", "grid = tiles", "tile = 16.5"), "tile must be a whole number"),
        (("kernel = k", "grid = pixels", "tile = 16"), "k.cu:3: tile applies to grid = tiles"),
        (("kernel = k", "grid = tiles", "tile = 64"), "k.cu:3: a 64-pixel tile needs `// rasterlab: block = N`"),
        (("kernel = k", "grid = tiles", "tile = \u0661\u0666"), "tile must be a whole number"),  # Arabic-Indic 16
        (("kernel = k", "grid = pixels", "block = \uff11\uff16x16"), "block must be N or WxH threads"),
        (("kernel = k", "grid = pixels", "scratch = \u00b2"), "scratch = \u00b2: '\u00b2' is not a number or one of"),
        (
            ("kernel = k", "grid = pixels", "scratch = 4*count/(width-1) junk ))"),
            "scratch = 4*count/(width-1) junk )): unexpected 'junk'",
        ),
        (("kernel = k", "grid = pixels", "scratch = 1/0 +"), "ends too early"),
        (("kernel = k", "grid = pixels", "kernel_name = " + "x" * 500), "unknown key 'kernel_name'"),
        (("kernel = k", "grid = pixels", "block = 33x32"), "k.cu:3: block 33x32 must have 1 to 1024 threads"),
        (("kernel = k", "grid = pixels", "block = 16x16x2"), "block must be N or WxH threads"),
        (("kernel = k", "grid = pixels", "block = -4"), "block must be N or WxH threads"),
        (("kernel = k", "grid = pixels", "binning_block = 64"), "k.cu:3: binning_block applies with"),
        (("kernel = k", "grid = pixels", "binning = b", "binning_grid = pixels"), "binning_grid must be circles or"),
        (("kernel = k", "grid = pixels", "binning = b", "binning_block = 2048"), "binning_block must be a whole"),
        (("kernel = k", "grid = pixels", "scratch = count % 2"), "k.cu:3: scratch = count % 2: unexpected '%'"),
        (("kernel = k", "grid = pixels", "scratch = __import__('os')"), "'__import__' is not a number or one of"),
        (("kernel = k", "grid = pixels", "scratch = 4 * (count"), "a ( is not closed"),
        (("kernel = k", "grid = pixels", "scratch = 4 *"), "ends too early"),
        (("kernel = k", "grid = pixels", "scratch = " + "1+" * 150 + "1"), "longer than 200 characters"),
    ],
)
def test_each_mistake_is_one_line_naming_the_file_and_line(lines, message):
    with pytest.raises(DeclarationError) as caught:
        parse_launch(declared(*lines), "k.cu")
    assert message in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize(
    "text,message",
    [
        (
            "extern int x;\n// rasterlab: kernel = k\n// rasterlab: grid = pixels\n",
            "k.cu:2: a declaration belongs in the comment lines",
        ),
        (
            "// rasterlab: kernel = k\n/*\n// rasterlab: grid = pixels\n*/\n",
            "k.cu:3: a declaration belongs in the comment",
        ),
        (
            "// rasterlab: kernel = k\n// rasterlab: grid = pixels\n// RasterLab: scratch = 8\n",
            "k.cu:3: write `// rasterlab",
        ),
        (
            "// rasterlab: kernel = k\n// rasterlab: grid = pixels\n// rasterlab scratch = 8\n",
            "k.cu:3: write `// rasterlab",
        ),
        (
            "// a form feed \x0c counts as no line\n// rasterlab: kernel = k\n// rasterlab: grid = 4\n",
            "k.cu:3: grid must be",
        ),
    ],
)
def test_declarations_out_of_place_or_mistyped_are_refused_where_they_are(text, message):
    with pytest.raises(DeclarationError) as caught:
        parse_launch(text, "k.cu")
    assert message in str(caught.value)
    assert len(str(caught.value)) < 300


def write(path, data: bytes):
    path.write_bytes(data)
    return str(path)


def test_a_careful_read_of_each_bad_file_is_one_line(tmp_path):
    good = declared("kernel = k", "grid = pixels").encode()
    cases = {
        "": "file: names no file",
        str(tmp_path / "missing.cu"): "no such file",
        write(tmp_path / "notes.txt", good): "a kernel file's name ends in .cu",
        write(tmp_path / "huge.cu", good + b" " * MAX_BYTES): f"bytes; a kernel file is at most {MAX_BYTES} bytes",
        write(tmp_path / "nul.cu", good + b"\0"): "not a text file (it holds NUL bytes)",
        write(tmp_path / "latin.cu", good + b"\xe9t\xe9"): "not a text file (not UTF-8)",
        write(tmp_path / "plain.cu", b"__global__ void k() {}\n"): "declares how it is launched",
    }
    (tmp_path / "folder.cu").mkdir()
    cases[str(tmp_path / "folder.cu")] = "is a folder, not a .cu file"
    cases["~no-such-user-anywhere/x.cu"] = "no such user's home folder"
    cases[str(tmp_path / "nul\0name.cu")] = "not a file name (it holds a NUL)"
    cases[str(tmp_path / "odd\udcffname.cu")] = "its name is not UTF-8"  # a byte as the command line passes it
    os.mkfifo(tmp_path / "pipe.cu")  # opened without blocking: no writer, no hang
    cases[str(tmp_path / "pipe.cu")] = "not a regular file"
    for name, message in cases.items():
        with pytest.raises(ValueError) as caught:
            read_user_source(name)
        assert message in str(caught.value) and "\n" not in str(caught.value), name


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_an_unreadable_file(tmp_path):
    path = tmp_path / "secret.cu"
    path.write_text(declared("kernel = k", "grid = pixels"))
    path.chmod(0)
    with pytest.raises(ValueError, match="cannot read it \\(permission denied\\)"):
        read_user_source(str(path))


def test_a_byte_order_mark_is_dropped(tmp_path):
    path = tmp_path / "bom.cu"
    path.write_bytes(b"\xef\xbb\xbf" + declared("kernel = k", "grid = pixels").encode())
    source = read_user_source(str(path))
    assert source.launch.kernel == "k" and not source.text.startswith("\ufeff")


def test_a_long_run_of_blank_lines_is_listed_at_once(tmp_path):
    """The include pattern must not rescan a run of blank lines at every line start (it was
    quadratic: a file with a million newlines took minutes on the app's main thread)."""
    path = tmp_path / "blank.cu"
    path.write_text(declared("kernel = k", "grid = pixels") + "\n" * (MAX_BYTES - 200))
    calls = []
    real = includes.__globals__["INCLUDE"]

    class Counting:
        def findall(self, text):
            calls.append(len(text))
            return real.findall(text)

    includes.__globals__["INCLUDE"] = Counting()
    try:
        assert includes(read_user_source(str(path))) == []
    finally:
        includes.__globals__["INCLUDE"] = real
    assert calls and real.pattern.startswith("^[ \\t]*#")


def test_the_headers_a_file_includes_are_found_for_watching(tmp_path):
    (tmp_path / "mine.cuh").write_text('#include "rasterlab.cuh"\n#include "deeper.cuh"\n')
    (tmp_path / "deeper.cuh").write_text("#pragma once\n")
    kernel = tmp_path / "k.cu"
    kernel.write_text(
        declared("kernel = k", "grid = pixels") + '#include "mine.cuh"\n#include "nowhere.cuh"\n#include "k.cu"\n'
    )
    found = includes(read_user_source(str(kernel)))
    names = [path.name for path in found]
    assert "k.cu" not in names  # a file that includes itself is not its own header
    assert names[0] == "mine.cuh" and {"rasterlab.cuh", "deeper.cuh", "circle_common.cuh", "block_scan.cuh"} <= set(
        names
    )
    assert "nowhere.cuh" not in names and len(names) == len(set(names))


def test_file_variants_parse_with_their_path_and_stay_out_of_the_lists(tmp_path):
    path = str(TEMPLATES / "tile_scan.cu")
    choice = VARIANTS.parse(f"file:{path}")
    assert choice.label() == f"file:{path}" and choice.path == path and VARIANTS[choice.name].launch == "user-file"
    assert "file" not in VARIANTS.names() and all(c.name != "file" for c in VARIANTS.configurations())
    with pytest.raises(UnknownVariantError, match="no such file"):
        VARIANTS.parse(f"file:{tmp_path / 'gone.cu'}")
    with pytest.raises(UnknownVariantError, match="valid variants are: per-pixel, .*, file:PATH"):
        VARIANTS.parse("files:x.cu")

"""The circle renderer's variant table, read by the CLI, the app, the renderer and the tests.

Each row names the ``shaders/`` source it compiles, the kernel it launches, how it runs
(``launch``: one of the strategies in ``render.circles.strategies`` and ``render.circles.tile_warp``)
and how each option reaches the kernel. A new variant whose kernel takes the arguments of an
existing launch is one ``.cu`` file and one row here.
"""

from __future__ import annotations

from render.circles.user_file import read_user_source
from render.core.variants import Defines, Option, UnknownVariantError, VariantChoice, VariantSpec, VariantTable

TILE_TEST = Option(
    ("box", "exact"),
    "EXACT_TILE_TEST",
    {"box": 0, "exact": 1},
    about="which circles count as touching a tile: those whose bounding box overlaps it (cheap, a few "
    "extra), or those whose disc does (exact circle-rectangle distance)",
)
SCAN = Option(
    ("warp", "blelloch", "hillis-steele"),
    "SCAN_ALGORITHM",
    {"hillis-steele": 0, "blelloch": 1, "warp": 2},
    about="the block-wide prefix sum that compacts a tile's circles: warp shuffles, Blelloch's "
    "work-efficient up/down sweep, or Hillis-Steele's step-efficient doubling",
)
SMALL_TILES = Option(("16", "32"), "TILE", about="pixels per side of a screen tile, one thread block each")
KEY_SORT = Option(
    ("cub", "onesweep", "merge"),
    about="how the (tile, circle) keys are sorted: CUB's radix sort (through CuPy); Onesweep, the same "
    "idea written here (8-bit digits, one kernel a pass, a chained scan with decoupled look-back); or "
    "the CUDA samples' merge sort (blocks sort 1024 keys in shared memory, then sorted runs merge "
    "pairwise, split at sampled ranks). The pixels are the same, the binning stage's time is not",
)
# tile-sort's keys are tile * N + circle: 32 bits when they fit halve the bytes the sort moves.
SORT_KEYS: tuple[Defines, ...] = ({"KEY_T": "unsigned int"}, {"KEY_T": "unsigned long long"})
# Snowflakes blend through expf; flat colors use a fused multiply-add only where it rounds exactly;
# tile-warp's bin entries are the circle's index alone for scenes of INDEX_ENTRIES_FROM circles or more.
SHADING_BUILDS: tuple[Defines, ...] = tuple(
    {"SNOWFLAKE": snowflake, "FUSED": fused, "ENTRY_INDEX": index}
    for snowflake, fused in ((0, 0), (0, 1), (1, 0))
    for index in (0, 1)
)

# file:PATH: a kernel of the user's, launched as its file declares (render/circles/user_kernel.py).
USER_FILE = VariantSpec(
    "file",
    "your own kernel: a .cu file that declares how it is launched (docs/user-kernels.md)",
    source=None,
    launch="user-file",
)

VARIANTS = VariantTable(
    (
        VariantSpec(
            "per-pixel",
            "one thread per pixel loops over every circle (baseline)",
            source="render_per_pixel.cu",
            kernel="render_per_pixel",
            launch="per-pixel",
        ),
        VariantSpec(
            "tile-scan",
            "a block per tile compacts the circles that touch it with a shared-memory scan",
            source="render_tile_scan.cu",
            kernel="render_tile_scan",
            launch="tile-block",
            options={"tile": SMALL_TILES, "scan": SCAN, "test": TILE_TEST},
        ),
        VariantSpec(
            "tile-sort",
            "global binning: (tile, circle) keys radix-sorted, then a block per tile range",
            source="render_tile_sort.cu",
            kernel="render_tile_sort",
            launch="tile-sort",
            options={"tile": SMALL_TILES, "test": TILE_TEST, "sort": KEY_SORT},
            scene_defines=SORT_KEYS,
        ),
        VariantSpec(
            "tile-warp",
            "a block per tile, 4-8 pixels per thread, warps skip circles that miss their region; "
            "candidates from sort-free coarse bins (bins=on) or every circle",
            source="render_tile_warp.cu",
            kernel="render_tile_warp",
            launch="tile-warp",
            options={
                "tile": Option(("32", "64"), "TILE", about="pixels per side of a tile, one block each"),
                "pixels": Option(
                    ("4", "8"),
                    "PIXELS",
                    about="pixels a thread blends, a column of them: 4 (a warp's region is 16 x 8 pixels) or 8 "
                    "(16 x 16, in half as many threads: a circle's walk and test are paid once for twice the "
                    "pixels, which pays where circles cover whole regions, but fewer warps hide each other's "
                    "waits); a 64-pixel tile takes 8",
                ),
                "walk": Option(
                    ("warp", "cell"),
                    "CELLS",
                    {"warp": 0, "cell": 1},
                    about="who walks a staged circle: the whole warp, over every pixel of its region the circle "
                    "touches (circles that cover the region skip the test), or each cell of lanes (4 lanes at "
                    "tile 32, 8 at 64, each with its column of pixels), over the circles that may cover its "
                    "pixels, from bit lists built per batch in shared memory (cheaper for circles a few pixels "
                    "wide)",
                ),
                "bins": Option(
                    ("on", "off"),
                    about="sort-free coarse bins: each bin lists the circles that touch it, so a tile reads only "
                    "its bin's circles (off: every tile reads every circle)",
                ),
            },
            invalid=lambda options: (
                "tile=64 takes pixels=8 (a 64-pixel tile blends 8 pixels a thread)"
                if options["tile"] == "64" and options["pixels"] == "4"
                else ""
            ),
            scene_defines=SHADING_BUILDS,
        ),
        VariantSpec(
            "auto",
            "picks the fastest variant for the scene from its statistics",
            source=None,
            launch="auto",
        ),
    ),
    file_spec=USER_FILE,
    file_check=read_user_source,
)

# Kernels every variant uses beside its own: the clear and pair count, and the animation rules.
SUPPORT_SOURCES = ("image_ops.cu", "animate.cu")
# tile-sort's sorts of our own, built for each key type of SORT_KEYS.
SORT_SOURCES = ("sort_onesweep.cu", "sort_merge.cu")


def variant_to_run(variant: str) -> VariantChoice:
    """``variant`` parsed again for a run, after its name was checked when the command began: a kernel
    file gone or changed since (a mistyped declaration, say) is a variant that cannot run now
    (RendererUnavailable, which the run reports for its row), not a mistake on the command line."""
    from render.core.renderer import RendererUnavailable

    try:
        return VARIANTS.parse(variant)
    except UnknownVariantError as error:
        raise RendererUnavailable(str(error)) from None

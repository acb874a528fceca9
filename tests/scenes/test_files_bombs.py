""".npz files built to exhaust memory are refused from their zip directory and .npy headers: loading
any of them peaks under 16 MiB of traced memory, where reading what they declare would take 64 MiB
or more. Each bomb is a valid one-element scene but for one member."""

import struct
import tracemalloc
import zipfile

import numpy as np
import pytest

from scenes.file_reading import MAX_ARRAY_BYTES, MAX_CIRCLES, MAX_NPZ_MEMBERS
from scenes.files import SceneFileError, load_scene, load_sphere_scene

MiB = 2**20
PEAK_LIMIT = 16 * MiB
LOADERS = {"circles": load_scene, "spheres": load_sphere_scene}
VALID = {
    "circles": {"position": np.float32([[0.5, 0.5, 0]]), "radius": np.float32([0.1]), "color": np.float32([[1, 0, 0]])},
    "spheres": {"center": np.float32([[0, 0, 0]]), "radius": np.float32([10]), "color": np.float32([[1, 0, 0]])},
}


def header(shape, descr="<f4") -> dict:
    return {"descr": descr, "fortran_order": False, "shape": shape}


def add_member(archive, name, npy_header, zeros=0, method=zipfile.ZIP_DEFLATED):
    """Add ``name``: the .npy header ``npy_header``, then ``zeros`` zero bytes, written 1 MiB at a time."""
    info = zipfile.ZipInfo(name)
    info.compress_type = method
    with archive.open(info, "w") as stream:
        np.lib.format.write_array_header_1_0(stream, npy_header)
        for start in range(0, zeros, MiB):
            stream.write(bytes(min(MiB, zeros - start)))


def write_scene(path, kind, replace=None, extra=()):
    """A one-element scene of ``kind`` with its members in ``replace`` (name -> writer) written by
    those writers instead, and the ``extra`` writers' members added."""
    replace = replace or {}
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for field, array in {"kind": np.array(kind), **VALID[kind]}.items():
            if field in replace:
                replace[field](archive)
            else:
                with archive.open(f"{field}.npy", "w") as stream:
                    np.lib.format.write_array(stream, array)
        for write in extra:
            write(archive)
    return path


def patch_directory_sizes(path, name: str, compressed: int, uncompressed: int) -> None:
    """Make the zip directory claim other sizes for member ``name`` than it has."""
    data = bytearray(path.read_bytes())
    entry = data.index(b"PK\x01\x02")  # directory entries: sizes at 20, name length at 28, name at 46
    while struct.unpack_from("<H", data, entry + 28)[0] != len(name) or not data.startswith(name.encode(), entry + 46):
        entry = data.index(b"PK\x01\x02", entry + 4)
    struct.pack_into("<II", data, entry + 20, compressed, uncompressed)
    path.write_bytes(bytes(data))


HEADER_BYTES = 128  # what write_array_header_1_0 writes for these small headers


def over_the_limit(path, kind):
    return write_scene(path, kind, {"radius": lambda a: add_member(a, "radius.npy", header((10**10,), "<f8"))})


def declares_more_than_it_holds(path, kind):
    # Exactly the largest array a scene may have, declared by a header followed by nothing.
    shape = (MAX_ARRAY_BYTES // 24, 3)
    return write_scene(path, kind, {"color": lambda a: add_member(a, "color.npy", header(shape, "<f8"))})


def huge_text_kind(length):
    def build(path, kind):
        return write_scene(path, kind, {"kind": lambda a: add_member(a, "kind.npy", header((), f"<U{length}"))})

    return build


def zero_width_values(path, kind):
    return write_scene(path, kind, {"radius": lambda a: add_member(a, "radius.npy", header((10**12,), "<U0"))})


def hundreds_of_members(path, kind):
    extra = [lambda a, i=i: add_member(a, f"radius{i}.npy", header((0,))) for i in range(300)]
    return write_scene(path, kind, extra=extra)


def unknown_deflate_bomb(path, kind):
    # 128 MiB of zeros in an otherwise valid .npy that no scene field is named after.
    payload = lambda a: add_member(a, "payload.npy", header((128 * MiB,), "|u1"), zeros=128 * MiB)
    return write_scene(path, kind, extra=[payload])


def other_method(method):
    def build(path, kind):
        # 64 MiB of zeros compress to 80 bytes with bzip2, to 10 kB with LZMA.
        member = lambda a: add_member(a, "radius.npy", header((16 * MiB,)), zeros=64 * MiB, method=method)
        return write_scene(path, kind, {"radius": member})

    return build


def deflate_claims_too_much(path, kind):
    # The directory claims 600 MB decompress from the few bytes the header deflates to.
    shape = (150_000_000,)
    write_scene(path, kind, {"radius": lambda a: add_member(a, "radius.npy", header(shape))})
    with zipfile.ZipFile(path) as archive:
        compressed = archive.getinfo("radius.npy").compress_size
    patch_directory_sizes(path, "radius.npy", compressed, HEADER_BYTES + 4 * shape[0])
    return path


def stored_claims_more_than_the_file(path, kind):
    # A stored member whose directory entry claims 600 MB of the 1 kB file.
    shape = (150_000_000,)
    stored = lambda a: add_member(a, "radius.npy", header(shape), method=zipfile.ZIP_STORED)
    write_scene(path, kind, {"radius": stored})
    size = HEADER_BYTES + 4 * shape[0]
    patch_directory_sizes(path, "radius.npy", size, size)
    return path


def pickled_objects(path, kind):
    def pickled(archive):
        with archive.open("radius.npy", "w") as stream:
            np.lib.format.write_array(stream, np.array([0.1, None], dtype=object), allow_pickle=True)

    return write_scene(path, kind, {"radius": pickled})


def too_many_rows_after_a_large_member(path, kind):
    # The first per-element array is large but allowed (48 MB); a later one has one row too many.
    # Reading the first before refusing the second would cost 48 MB.
    first = "position" if kind == "circles" else "center"
    return write_scene(
        path,
        kind,
        {
            first: lambda a: add_member(a, f"{first}.npy", header((2_000_000, 3), "<f8"), zeros=48_000_000),
            "radius": lambda a: add_member(a, "radius.npy", header((MAX_CIRCLES + 1,), "|u1"), zeros=MAX_CIRCLES + 1),
        },
    )


def rows_unlike_radius(path, kind):
    # 48 MB of rows for a scene whose radius has one: refused from the two headers, unread.
    first = "position" if kind == "circles" else "center"
    return write_scene(
        path, kind, {first: lambda a: add_member(a, f"{first}.npy", header((2_000_000, 3), "<f8"), zeros=48_000_000)}
    )


def radius_of_two_dimensions(path, kind):
    # A radius field of 6 million values in one row: its shape alone refuses it.
    return write_scene(
        path, kind, {"radius": lambda a: add_member(a, "radius.npy", header((1, 6_000_000), "<f8"), zeros=48_000_000)}
    )


BOMBS = {
    "over-the-limit": (over_the_limit, "field 'radius' declares shape (10000000000,) of float64, more than the"),
    "declares-more-than-it-holds": (
        declares_more_than_it_holds,
        f"field 'color' declares {MAX_ARRAY_BYTES:,} bytes of data but holds 0",
    ),
    # 2 GiB, the longest string NumPy makes, and 4 GB, which its header parser refuses.
    "huge-text-kind": (huge_text_kind(2**29 - 1), "field 'kind' declares shape () of <U536870911, more than the 1,024"),
    "huger-text-kind": (
        huge_text_kind(10**9),
        "field 'kind' has an unreadable .npy header (ValueError: descr is not a",
    ),
    "zero-width-values": (zero_width_values, "field 'radius' declares shape (1000000000000,) of <U0, more than"),
    "hundreds-of-members": (hundreds_of_members, f"304 members, more than the {MAX_NPZ_MEMBERS} a scene file has"),
    "unknown-deflate-bomb": (unknown_deflate_bomb, "member 'payload.npy' is not a field of a {kind} scene"),
    "bzip2": (other_method(zipfile.ZIP_BZIP2), "member 'radius.npy' uses compression method 12"),
    "lzma": (other_method(zipfile.ZIP_LZMA), "member 'radius.npy' uses compression method 14"),
    "deflate-claims-too-much": (deflate_claims_too_much, "member 'radius.npy' claims 600,000,128 bytes from"),
    "stored-claims-more-than-the-file": (stored_claims_more_than_the_file, "compressed bytes but the file has"),
    "pickled-objects": (pickled_objects, "field 'radius' holds Python objects (dtype object)"),
    "rows-unlike-radius": (rows_unlike_radius, "has 2000000 rows but 'radius' has 1"),
    "radius-of-two-dimensions": (radius_of_two_dimensions, "field 'radius' must have shape (N,), got (1, 6000000)"),
    "too-many-rows-after-a-large-member": (
        too_many_rows_after_a_large_member,
        f"field 'radius' has {MAX_CIRCLES + 1} rows, more than the {MAX_CIRCLES} allowed",
    ),
}


@pytest.fixture(scope="module")
def bombs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bombs")
    return {
        (name, kind): build(folder / f"{name}-{kind}.npz", kind)
        for name, (build, _) in BOMBS.items()
        for kind in LOADERS
    }


def peak_while_refusing(loader, path) -> tuple[str, int]:
    """The message of the SceneFileError that ``loader(path)`` raises, and the peak of memory
    traced meanwhile (NumPy's arrays included)."""
    tracemalloc.start()
    try:
        with pytest.raises(SceneFileError) as caught:
            loader(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return str(caught.value), peak


def test_the_scenes_the_bombs_are_built_on_load(tmp_path):
    for kind, loader in LOADERS.items():
        assert loader(write_scene(tmp_path / f"{kind}.npz", kind)).count == 1


@pytest.mark.parametrize("kind", LOADERS)
@pytest.mark.parametrize("name", BOMBS)
def test_a_bomb_is_refused_in_little_memory(bombs, name, kind):
    path = bombs[name, kind]
    message, peak = peak_while_refusing(LOADERS[kind], path)
    assert message.startswith(f"{path}: ") and "\n" not in message
    assert BOMBS[name][1].format(kind=kind) in message, message
    assert peak < PEAK_LIMIT, f"{name}: peak {peak / MiB:.1f} MiB"


def test_only_the_npy_versions_np_savez_writes_are_read(tmp_path):
    def version_3(archive):
        with archive.open("radius.npy", "w") as stream:
            np.lib.format.write_array(stream, VALID["circles"]["radius"], version=(3, 0))

    path = write_scene(tmp_path / "v3.npz", "circles", {"radius": version_3})
    with pytest.raises(SceneFileError, match=r"field 'radius' is in .npy format \(3, 0\); scene files use"):
        load_scene(path)


@pytest.mark.parametrize("kind", ["circles", "spheres"])
def test_a_member_written_twice_is_refused(tmp_path, kind):
    # zipfile reads the last of two members of one name; another tool may read the first.
    def second_radius(archive):
        with pytest.warns(UserWarning, match="Duplicate name"), archive.open("radius.npy", "w") as stream:
            np.lib.format.write_array(stream, VALID[kind]["radius"] * 2)

    path = write_scene(tmp_path / "twice.npz", kind, extra=[second_radius])
    with pytest.raises(SceneFileError, match=r"twice.npz: member 'radius.npy' appears more than once$"):
        LOADERS[kind](path)

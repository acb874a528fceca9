"""Scene files at scale: 10 million circles load exactly; files that only claim to be huge are
rejected from their headers before any memory is spent; the app keeps its scene meanwhile."""

import os
import stat
import tracemalloc
import zipfile

import numpy as np
import pytest

from app.session import Session
from app.settings import Settings
from scenes.file_reading import MAX_ARRAY_BYTES, MAX_CIRCLES, MAX_JSON_BYTES
from scenes.files import SceneFileError, load_scene

TEN_MILLION = 10_000_000


@pytest.fixture(scope="module")
def ten_million(tmp_path_factory, many_circles_file):
    path = tmp_path_factory.mktemp("big") / "ten-million.npz"
    return path, many_circles_file(path, TEN_MILLION)


def test_ten_million_circles_load_exactly(ten_million):
    path, arrays = ten_million
    scene = load_scene(path)
    assert scene.count == TEN_MILLION and scene.name == "ten-million"
    for field, array in arrays.items():
        assert np.array_equal(getattr(scene, field), array), field


def traced_load(path):
    """(the scene of ``path``, the most memory NumPy and Python held at once while loading it)."""
    tracemalloc.start()
    try:
        scene = load_scene(path)
        return scene, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_scene_file_loads_without_a_second_copy(tmp_path, many_circles_file):
    """A float32 file's arrays are read into the scene's own arrays: at no point does loading hold
    more than the scene it returns, so 10^8 circles (4 GB) load where 4 GB fit."""
    path = tmp_path / "two-million.npz"
    many_circles_file(path, 2_000_000)
    scene, peak = traced_load(path)
    held = sum(array.nbytes for array in (scene.position, scene.velocity, scene.color, scene.radius))
    assert held == 2_000_000 * 40 and peak < 1.05 * held


def test_a_float64_scene_file_is_never_held_as_float64(tmp_path):
    """NumPy's default float64 is what most files hold: each field becomes float32 a slice at a time
    while it is read, so loading holds the float32 scene and one slice, not the float64 arrays."""
    count, rng = 2_000_000, np.random.default_rng(3)
    arrays = {"position": rng.random((count, 3)), "color": rng.random((count, 3)), "radius": rng.random(count) + 0.01}
    path = tmp_path / "float64.npz"
    np.savez(path, kind="circles", velocity=np.zeros((count, 3)), **arrays)
    scene, peak = traced_load(path)
    held = sum(array.nbytes for array in (scene.position, scene.velocity, scene.color, scene.radius))
    slice_bytes = 2**22 * (8 + 1)  # a slice of float64 values and its finiteness mask
    assert held == count * 40 and peak < held + 2 * slice_bytes + 2**20, (peak, held)
    for field, array in arrays.items():
        assert np.array_equal(getattr(scene, field), array.astype(np.float32)), field


def test_ten_million_circles_wait_for_confirmation_on_the_cpu(ten_million, tmp_path, quick_questions):
    # The compiled reference blends ten million small circles in about 4 s on a 2-core machine: near
    # the question's own threshold, so the test asks from a threshold it is sure to pass.
    session = Session(Settings(scene="rgb", size=256, export_folder=str(tmp_path)), backend="cpu")
    try:
        assert not session.select_scene(str(ten_million[0]))
        assert session.pending is not None and session.pending.seconds > quick_questions
        assert session.scene.name == "rgb" and session.scene_name == "rgb"
    finally:
        session.close()


def test_an_archive_declaring_too_many_values_is_rejected_from_its_header(tmp_path):
    # A .npy header claiming 4e9 float32 values, followed by no data: 16 GB if it were read.
    path = tmp_path / "claims.npz"
    header = {"descr": "<f4", "fortran_order": False, "shape": (4 * 10**9,)}
    with zipfile.ZipFile(path, "w") as archive:
        with archive.open("kind.npy", "w") as stream:
            np.lib.format.write_array(stream, np.array("circles"))
        with archive.open("radius.npy", "w") as stream:
            np.lib.format.write_array_header_1_0(stream, header)
    with pytest.raises(SceneFileError) as caught:
        load_scene(path)
    message = str(caught.value)
    assert message == (
        f"{path}: field 'radius' declares shape (4000000000,) of float32, more than the {MAX_ARRAY_BYTES:,} bytes it "
        "can need"
    )
    assert MAX_ARRAY_BYTES == 3 * 8 * MAX_CIRCLES  # (MAX_CIRCLES, 3) float64, the largest valid array


def test_a_json_scene_over_the_size_limit_is_rejected_before_parsing(tmp_path):
    path = tmp_path / "huge.json"
    with path.open("wb") as stream:
        stream.truncate(MAX_JSON_BYTES + 1)  # sparse: takes no disk space
    with pytest.raises(SceneFileError, match=r"huge.json: 64 MiB is too large for a JSON scene .* as .npz"):
        load_scene(path)


def test_a_json_scene_that_grows_past_the_limit_after_fstat_is_rejected(tmp_path, monkeypatch):
    path = tmp_path / "growing.json"
    with path.open("wb") as stream:
        stream.truncate(MAX_JSON_BYTES + 1)
    small = os.stat_result((stat.S_IFREG | 0o644, 0, 0, 1, 0, 0, 10, 0, 0, 0))
    monkeypatch.setattr(os, "fstat", lambda descriptor: small)  # what fstat saw before the file grew
    with pytest.raises(SceneFileError, match=r"growing.json: 64 MiB is too large for a JSON scene"):
        load_scene(path)

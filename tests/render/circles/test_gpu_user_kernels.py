"""User kernels on the GPU: both templates and the steps of docs/user-kernels.md equal the reference
on every built-in scene at 256 and 1024 (images poisoned first); a binning kernel and the scratch
memory reach the blend as declared, zeroed each frame; a compile error names the file and line and
keeps the log; a kernel the file lacks is one line; a kernel that writes far out of bounds ends
``render`` with one line."""

import numpy as np
import pytest

from render.circles.renderer import CudaRenderer
from render.circles.user_kernel import UserKernelError
from render.circles.variants import VARIANTS
from render.core.compare import compare_images
from render.core.renderer import render_frame
from scenes.builtin import SCENE_NAMES, build_scene
from shaders import SHADER_DIR

pytestmark = pytest.mark.gpu
# The templates, then the steps of docs/user-kernels.md.
USER_KERNELS = sorted((SHADER_DIR / "user").glob("*.cu")) + sorted(
    (SHADER_DIR.parent / "docs" / "user-kernels").glob("*.cu")
)

COUNTING = """
// rasterlab: kernel = paint_count
// rasterlab: grid = tiles
// rasterlab: tile = 8
// rasterlab: block = 64
// rasterlab: binning = count_circles
// rasterlab: binning_block = 128
// rasterlab: scratch = 4 * tiles + 8
#include "rasterlab.cuh"

extern "C" __global__ void count_circles(RASTERLAB_BINNING_PARAMS) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) atomicAdd(reinterpret_cast<int*>(scratch), 1);
}

extern "C" __global__ void paint_count(RASTERLAB_BLEND_PARAMS) {
    const int x = blockIdx.x * 8 + threadIdx.x % 8, y = blockIdx.y * 8 + threadIdx.x / 8;
    const float circles = static_cast<float>(*reinterpret_cast<const int*>(scratch));
    const float tile = static_cast<float>(blockIdx.y * gridDim.x + blockIdx.x);
    if (x < width && y < height) image[y * width + x] = make_float4(circles, scratch_bytes, tile, 1.f);
}
"""


def user_renderer(path, scene_name: str, size: int) -> CudaRenderer:
    renderer = CudaRenderer(VARIANTS.parse(f"file:{path}"))
    renderer.load(build_scene(scene_name), size, size)
    return renderer


@pytest.mark.parametrize("path", USER_KERNELS, ids=[path.stem for path in USER_KERNELS])
@pytest.mark.parametrize("size", (256, 1024))
@pytest.mark.parametrize("scene_name", SCENE_NAMES)
def test_the_templates_and_steps_equal_the_reference(scene_name, size, path, reference_frame, gpu_frame):
    comparison = compare_images(reference_frame(scene_name, size), gpu_frame(scene_name, f"file:{path}", size))
    assert comparison.passed, comparison


def test_binning_and_scratch_reach_the_blend_as_declared_and_zeroed_each_frame(tmp_path):
    path = tmp_path / "counting.cu"
    path.write_text(COUNTING)
    renderer = user_renderer(path, "rand10k", 100)
    renderer.poison()
    image = render_frame(renderer, 2)  # three frames: a scratch not zeroed would count 30000
    tiles = 13 * 13
    assert (image[..., 0] == 10000).all() and (image[..., 1] == 4 * tiles + 8).all()
    assert np.array_equal(image[::8, ::8, 2], np.arange(tiles, dtype=np.float32).reshape(13, 13))
    assert renderer.stage_times_ms()["binning"] > 0


def test_a_compile_error_names_the_file_and_line_and_keeps_the_log(tmp_path):
    path = tmp_path / "broken.cu"
    path.write_text(COUNTING.replace("atomicAdd(", "atomicAddd("))
    with pytest.raises(UserKernelError) as caught:
        user_renderer(path, "rgb", 64)
    message = str(caught.value)
    assert message.startswith(f"file:{path} does not compile: {path}(13): error") and "\n" not in message
    assert "atomicAddd" in caught.value.log


def test_a_kernel_the_file_lacks_is_one_line(tmp_path):
    path = tmp_path / "misnamed.cu"
    path.write_text(COUNTING.replace("kernel = paint_count", "kernel = paint"))
    with pytest.raises(UserKernelError, match="no kernel 'paint' in the file"):
        user_renderer(path, "rgb", 64)


@pytest.mark.faults_gpu
@pytest.mark.out_of_bounds_fault
def test_a_kernel_that_writes_far_out_of_bounds_ends_render_with_one_line(tmp_path, run_main):
    path = tmp_path / "wild.cu"
    path.write_text(
        (SHADER_DIR / "user" / "per_pixel.cu")
        .read_text()
        .replace("image[y * width + x] = pixel;", "image[(1ll << 40) + x] = pixel;")
    )
    result = run_main(
        "render", "--scene", "rgb", "--size", "64", "--variant", f"file:{path}", "--out", tmp_path / "x.png"
    )
    assert result.returncode == 1 and not (tmp_path / "x.png").exists()
    lines = result.stderr.strip().splitlines()
    assert lines[-1].startswith("error: the GPU failed while the render ran:") and "Traceback" not in result.stderr

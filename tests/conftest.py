import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def pytest_collection_modifyitems(config, items):
    from render.core.gpu import gpu_problem

    problem = gpu_problem()
    if problem is None:
        return
    skip = pytest.mark.skip(reason=f"needs a CUDA GPU: {problem}")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def pool_limit():
    """Caps CuPy's pool for one test, so running out of GPU memory is real but cheap to reach."""
    import cupy

    pool = cupy.get_default_memory_pool()
    pool.free_all_blocks()
    yield pool.set_limit
    pool.set_limit(size=0)
    pool.free_all_blocks()

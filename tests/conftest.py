import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def pytest_collection_modifyitems(config, items):
    from render.gpu import gpu_problem

    problem = gpu_problem()
    if problem is None:
        return
    skip = pytest.mark.skip(reason=f"needs a CUDA GPU: {problem}")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)

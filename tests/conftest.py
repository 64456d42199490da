import os

import pytest
import torch

from harness.apptest import ROOT, open_page

os.chdir(ROOT)   # app.py resolves app_pages/ and .streamlit/ from the working directory

if os.environ.get("PYTEST_XDIST_WORKER"):
    # One torch thread per test process: the processes (pyproject.toml: -n auto) already take every core,
    # and torch's own threads would wait for each other on a busy machine (several times slower). The tests
    # of thread counts set them themselves (tests/pe/test_rope.py, test_properties.py).
    torch.set_num_threads(1)


@pytest.fixture
def page():
    return open_page

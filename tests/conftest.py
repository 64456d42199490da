import os

os.environ["POSVIZ_STRICT_TEXT"] = "1"   # a missing text key raises (posviz.text.get), here and in servers tests start

import pytest
import torch
from xdist.scheduler import LoadScopeScheduling

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


# The module whose tests share a browser view per parameter id (a module-scoped fixture).
VIEWS = "tests/browser/test_pages.py"


class Scheduling(LoadScopeScheduling):
    """pytest-xdist's scheduling of -n: a test at a time to a process that is free, except the tests of one
    view of tests/browser/test_pages.py (test[<view id>]), which go together to one process.

    (--dist loadgroup would do this from xdist_group marks, but pytest-xdist 3.8 cannot label the tests of
    pytest 9.2, whose node ids are structured: it then schedules every test alone.)"""

    def _split_scope(self, nodeid):
        path, _, name = nodeid.partition("::")
        if path == VIEWS and "[" in name:
            return f"{path}[{name.split('[', 1)[1]}"
        return nodeid


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") == "load":
        return Scheduling(config, log)

import os

os.environ["POSVIZ_STRICT_TEXT"] = "1"   # a missing text key raises (posviz.text.get), here and in servers tests start

import pytest

from harness.apptest import ROOT, open_page

os.chdir(ROOT)   # app.py resolves app_pages/ and .streamlit/ from the working directory


@pytest.fixture
def page():
    return open_page

"""The tree is clean under ruff (pyproject.toml's [tool.ruff]: pyflakes, pycodestyle, bugbear, isort,
complexity)."""
import subprocess
import sys

from harness.apptest import ROOT


def test_ruff_finds_nothing():
    out = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise", "."],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]

"""posviz.tinylm.train: deterministic training, safe weight files, and the shipped models."""
import json
import os

import pytest
import torch

from posviz.tinylm import evaluate as lengtheval
from posviz.tinylm import model as tiny
from posviz.tinylm import train
from posviz.tinylm.model import TRAINED_METHODS

MANIFEST = os.path.join(tiny.WEIGHTS_DIR, "MANIFEST.json")


def _manifest():
    with open(MANIFEST, encoding="utf-8") as f:
        return json.load(f)


def test_short_run_is_deterministic():
    kw = dict(steps=3, batch_size=4, length=16, warmup=1, d_model=16, n_heads=2, quiet=True)
    a, _ = train.train_one("rope", seed=0, **kw)
    b, _ = train.train_one("rope", seed=0, **kw)
    c, _ = train.train_one("rope", seed=1, **kw)
    sa, sb, sc = a.state_dict(), b.state_dict(), c.state_dict()
    assert all(torch.equal(sa[k], sb[k]) for k in sa)
    assert not all(torch.equal(sa[k], sc[k]) for k in sa)


def test_cli_writes_weights_and_manifest(tmp_path):
    train.main(["--method", "t5", "--steps", "2", "--batch-size", "2", "--length", "32", "--warmup", "1",
                "--d-model", "16", "--n-heads", "2", "--out", str(tmp_path)])
    man = json.loads((tmp_path / "MANIFEST.json").read_text())
    info = man["models"]["t5"]
    assert info["command"].startswith("python -m posviz.tinylm.train --method t5 --steps 2")
    assert info["steps"] == 2 and info["wall_time_s"] >= 0 and "sha256" in info
    state = torch.load(tmp_path / "t5.pt", weights_only=True)
    assert all(isinstance(v, torch.Tensor) for v in state.values())
    m = tiny.load_model("t5", str(tmp_path))
    assert m.cfg.d_model == 16


def test_lr_schedule():
    assert train.lr_at(0, 100, 1.0, 10) == pytest.approx(0.1)
    assert train.lr_at(9, 100, 1.0, 10) == pytest.approx(1.0)
    assert train.lr_at(10, 100, 1.0, 10) == pytest.approx(1.0)
    assert train.lr_at(99, 100, 1.0, 10) < 0.01


def test_invalid_arguments():
    with pytest.raises(ValueError, match="method"):
        train.train_one("xpos", steps=1)
    with pytest.raises(ValueError, match="steps"):
        train.train_one("rope", steps=0)


def test_shipped_files_are_small_plain_state_dicts():
    man = _manifest()
    assert set(man["models"]) == set(TRAINED_METHODS)
    for method in TRAINED_METHODS:
        path = os.path.join(tiny.WEIGHTS_DIR, f"{method}.pt")
        assert os.path.getsize(path) < 1_000_000
        state = torch.load(path, map_location="cpu", weights_only=True)
        assert all(isinstance(v, torch.Tensor) for v in state.values())
        assert man["models"][method]["command"].startswith("python -m posviz.tinylm.train")


@pytest.mark.parametrize("method", TRAINED_METHODS)
def test_shipped_models_reach_reported_accuracy(method):
    """Each shipped model is >= 95% correct at its training length on 256 fresh sequences,
    and matches the accuracy recorded in MANIFEST.json and results.json."""
    torch.set_num_threads(1)
    man = _manifest()["models"][method]
    model = tiny.load_model(method)
    acc = lengtheval.accuracy_at_length(model, length=man["length"], num_sequences=256, offset=man["offset"])
    assert acc >= 0.95
    assert acc == pytest.approx(man["accuracy_at_train_length"], abs=1e-9)
    res = lengtheval.load_results()
    assert res["variants"][method]["acc"][0] == pytest.approx(acc, abs=0.03)

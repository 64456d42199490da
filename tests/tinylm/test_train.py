"""posviz.tinylm.train: deterministic training, safe weight files, recipes, and the shipped models."""
import hashlib
import json
import math
import os

import pytest
import torch

from posviz.tinylm import evaluate as lengtheval
from posviz.tinylm import model as tiny
from posviz.tinylm import recipes, train
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
                "--d-model", "16", "--n-heads", "2", "--out", str(tmp_path), "--quiet"])
    man = json.loads((tmp_path / "MANIFEST.json").read_text())
    info = man["models"]["t5"]
    assert man["last_command"].startswith("python -m posviz.tinylm.train --method t5 --steps 2")
    assert info["steps"] == 2 and info["runs"]["0"]["wall_time_s"] >= 0 and "sha256" in info["runs"]["0"]
    assert man["seeds"] == [0] and len(man["load_average"]["start"]) == 3
    state = torch.load(tmp_path / "t5-s0.pt", weights_only=True)
    assert all(isinstance(v, torch.Tensor) for v in state.values())
    m = tiny.load_model("t5", 0, str(tmp_path))
    assert m.cfg.d_model == 16


def test_a_fine_tune_starts_from_the_run_it_names(tmp_path):
    """ft_yarn starts from rope-s<seed>.pt of the same directory and keeps YaRN's frequencies in its config."""
    small = ["--steps", "2", "--warmup", "1", "--batch-size", "2", "--d-model", "16", "--n-heads", "2",
             "--out", str(tmp_path), "--quiet", "--seed", "3"]
    train.main(["--recipe", "rope", *small])
    train.main(["--recipe", "ft_yarn", *small])
    man = json.loads((tmp_path / "MANIFEST.json").read_text())
    ft = man["models"]["ft_yarn"]
    assert ft["runs"]["3"]["init"] == "rope-s3" and ft["length"] == recipes.SCALE_LENGTH
    assert ft["config"]["rope_parameters"] == recipes.SCALED["yarn"] and set(man["models"]) == {"rope", "ft_yarn"}
    m = tiny.load_model("ft_yarn", 3, str(tmp_path))
    inv, factor = m._rope()
    assert factor == pytest.approx(0.1 * math.log(4) + 1)
    assert float(inv[-1]) == pytest.approx(10000.0 ** (-6 / 8) / 4, rel=1e-4)   # head width 8: the slowest pair / s


def test_recipes_are_complete():
    assert len(recipes.SEEDS) >= 5
    for name in recipes.RECIPES:
        s = recipes.settings(name)
        assert s["method"] in TRAINED_METHODS and s["steps"] >= 1 and s["task"] in ("copy", "marker")
    assert recipes.STAGES[1] == ("ft_none", "ft_pi", "ft_ntk", "ft_yarn")
    assert all(recipes.RECIPES[r]["init"] in recipes.STAGES[0] for r in recipes.STAGES[1])


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


def _runs_done(man):
    return sum(len(info["runs"]) for info in man["models"].values())


def _needs_every_run(man):
    """The shipped MANIFEST.json holds every run of every recipe, and the evaluation's time."""
    want = len(recipes.RECIPES) * len(recipes.SEEDS)
    assert _runs_done(man) == want and "total_wall_time_s" in man, f"{_runs_done(man)} of {want} runs in MANIFEST.json"


def test_shipped_files_are_small_plain_state_dicts():
    """Every recipe with every seed, each file <= 1 MB and all of them <= 30 MB, their sha256 as recorded."""
    man = _manifest()
    total = 0
    for recipe, info in man["models"].items():
        for seed, run in info["runs"].items():
            path = tiny.weights_path(recipe, int(seed))
            size = os.path.getsize(path)
            assert size < 1_000_000
            total += size
            with open(path, "rb") as f:
                assert hashlib.sha256(f.read()).hexdigest() == run["sha256"]
    assert total < 30_000_000
    weights = [f for f in os.listdir(tiny.WEIGHTS_DIR) if f.endswith(".pt")]
    assert len(weights) == _runs_done(man)                      # no file without its MANIFEST entry
    _needs_every_run(man)
    assert list(man["models"]) == list(recipes.RECIPES) and man["seeds"] == list(recipes.SEEDS)
    for info in man["models"].values():
        assert sorted(info["runs"], key=int) == [str(s) for s in recipes.SEEDS]
    assert total < 30_000_000
    state = torch.load(tiny.weights_path("rope", 0), map_location="cpu", weights_only=True)
    assert all(isinstance(v, torch.Tensor) and v.dtype == torch.float16 for v in state.values())


def test_the_manifest_records_the_command_and_its_time():
    man = _manifest()
    assert man["last_command"].startswith("python -m posviz.tinylm.train --all") and "--eval" in man["last_command"]
    assert man["jobs"] in (1, 2) and man["last_wall_time_s"] > 0
    for info in man["models"].values():          # a run kept from an earlier command says so
        assert all(r["kept"] or (r["wall_time_s"] > 0 and r["cpu_time_s"] > 0) for r in info["runs"].values())
    assert len(man["load_average"]["start"]) == len(man["load_average"]["end"]) == 3
    for recipe, info in man["models"].items():
        want = recipe_kwargs = train.recipe_kwargs(recipe, {})
        for k in ("steps", "batch_size", "length", "lr", "warmup", "task"):
            assert info[k] == want[k], (recipe, k)
        assert info["config"]["n_layers"] == recipe_kwargs["n_layers"]
    _needs_every_run(man)
    assert man["total_wall_time_s"] >= man["last_wall_time_s"] > 0


@pytest.mark.parametrize("method", TRAINED_METHODS)
def test_shipped_models_reach_reported_accuracy(method):
    """Each shipped run of the six methods is >= 95% correct at its training length on 256 fresh sequences,
    and matches the accuracy recorded in MANIFEST.json (computed from the saved float16 file) and results.json."""
    torch.set_num_threads(1)
    man = _manifest()["models"][method]
    res = lengtheval.load_results()["variants"][method]["acc"]
    for seed in (0, 4):
        model = tiny.load_model(method, seed)
        acc = lengtheval.accuracy_at_length(model, length=man["length"], num_sequences=256, offset=man["offset"])
        assert acc == pytest.approx(man["runs"][str(seed)]["accuracy_at_train_length"], abs=1e-9)
        assert res["seeds"][seed][0] == pytest.approx(acc, abs=0.03)
    assert min(r["accuracy_at_train_length"] for r in man["runs"].values()) >= 0.95

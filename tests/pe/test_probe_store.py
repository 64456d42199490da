"""The probes posviz remembers (posviz.pe.model_probe.probe_cached): the gallery's ship with the package and equal a
fresh probe; a paste's are kept in the user cache; a probe survives its JSON form."""
import copy
import dataclasses
import json
import math

import pytest

from posviz.pe import model_probe
from posviz.pe import models as gallery
from posviz.pe.rope_config import read_model_rope, text_config


@pytest.fixture
def fresh(monkeypatch, tmp_path):
    """Nothing remembered: every probe runs."""
    monkeypatch.setattr(model_probe, "_shipped", dict)
    monkeypatch.setenv("POSVIZ_CACHE_DIR", str(tmp_path))
    return tmp_path


def test_every_gallery_probe_ships_for_this_code_and_transformers():
    shipped = model_probe._shipped()
    missing = [k for k in gallery.KEYS
               if model_probe.store_key(text_config(copy.deepcopy(gallery.GALLERY[k]["config"]))) not in shipped]
    hint = "run `python -m posviz.pe.models --probes` (the probe's code or transformers changed)"
    assert not missing, f"{hint}: {missing}"


@pytest.mark.parametrize("key", gallery.KEYS)
def test_a_shipped_probe_reads_as_a_fresh_one(key, monkeypatch, tmp_path):
    config = gallery.GALLERY[key]["config"]
    monkeypatch.setenv("POSVIZ_CACHE_DIR", str(tmp_path))
    ours = read_model_rope(copy.deepcopy(config))
    assert not list(tmp_path.glob("probes/*.json"))              # read from the package: nothing probed
    monkeypatch.setattr(model_probe, "_shipped", dict)
    again = read_model_rope(copy.deepcopy(config))               # probed now (and saved in the user cache)
    assert list(tmp_path.glob("probes/*.json"))
    assert again == ours


def test_a_probe_survives_its_json_form():
    tc = text_config(copy.deepcopy(gallery.GALLERY["qwen3_vl_8b"]["config"]))
    found = model_probe.probe_cached(tc)
    back = model_probe.from_dict(json.loads(json.dumps(model_probe.to_dict(found))))
    assert [len(lp.calls) for lp in back.layers] == [len(lp.calls) for lp in found.layers]
    a, b = found.layers[0].calls[0], back.layers[0].calls[0]
    assert a.query.pairs == b.query.pairs and a.query.axes == b.query.axes and a.scaling == b.scaling
    assert all(math.isclose(x, y, rel_tol=1e-9) for x, y in zip(a.query.theta, b.query.theta))
    call = dataclasses.replace(a, scaling=math.nan)
    nan = dataclasses.replace(found, layers=(model_probe.LayerProbe(0, (call,)),))
    back = model_probe.from_dict(json.loads(json.dumps(model_probe.to_dict(nan))))
    assert math.isnan(back.layers[0].calls[0].scaling)


def test_the_user_cache_is_bounded(fresh, monkeypatch):
    monkeypatch.setattr(model_probe, "STORE_FILES", 3)
    for i in range(5):
        model_probe._save(f"{i:032x}", model_probe.ModelProbe("x", (), (1,), (2,)))
    assert len(list(fresh.glob("probes/*.json"))) == 3

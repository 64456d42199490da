"""posviz.figures.frontier: every builder exactly valid plotly (they skip plotly's validation), in lecture mode too;
the id rows, the pair strip, the wavelengths by axis, the angle map, the cache bars and the absorption errors."""
import json

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import pytest

from posviz.figures import frontier as ff
from posviz.figures import style
from posviz.views import frontier as view

AXES = {"temporal": "T", "height": "H", "width": "W"}
L = {"title": "t", "x": "x", "y": "y", "next": "next", "image": "image", "video": "video", "first": "a", "second": "b",
     "none": "none", "whole": "whole", "decoupled": "decoupled", **AXES}
SEQS = [("qwen2_vl", 4, "8x8", 2, "4x4", 2.0), ("qwen2_5_vl", 32, "16x16", 8, "8x12", 0.5),
        ("qwen3_vl", 1, "none", 0, "4x4", 2.0), ("qwen3_5", 5, "12x8", 3, "4x8", 2.0)]


def validated_equals_built(fig):
    built = json.loads(pio.to_json(fig.to_dict(), validate=False))
    return json.loads(pio.to_json(go.Figure(fig.to_dict()).to_dict(), validate=False)) == built


def _figures(args, labels=L):
    s = view.sequence(*args)
    yield ff.position_ids_figure(s["ids"], s["next"], s["blocks"], labels=labels)
    yield ff.pair_axes_figure([(r["name"], r["sections"], r["axes"]) for r in view.pair_layouts()], labels=labels)
    w = view.axis_wavelengths(args[0])
    yield ff.axis_wavelength_figure(w["wavelengths"], w["axes"], labels=labels)
    an = view.angles(*args)
    yield ff.angles_figure(an["cos"], an["axes"], labels=labels)
    yield ff.cache_figure([("MLA", 512, 64), ("MHA", 16384, 16384), ("rebuilt", 24576, 16384)], labels=labels)
    ab = view.absorption()
    yield ff.absorb_figure(ab["distance"], {m: ab[m]["error"] for m in ("none", "whole", "decoupled")}, labels=labels)


@pytest.mark.parametrize("args", SEQS)
def test_every_figure_is_valid_plotly(args):
    for fig in _figures(args):
        assert validated_equals_built(fig), fig.layout.title.text
        go.Figure(style.presentation(fig).to_dict())
        assert len(fig.to_json()) < 100_000


def test_bare_labels_are_valid_plotly():
    bare = {k: v for k, v in L.items() if k not in ("title", "x", "y")}
    for fig in _figures(SEQS[0], labels=bare):
        assert validated_equals_built(fig)


def test_what_the_figures_show():
    ids, pairs, wave, angles, cache, absorb = _figures(SEQS[0])
    s = view.sequence(*SEQS[0])
    assert [tr.name for tr in ids.data] == ["T", "H", "W", "next"]
    assert list(ids.data[1].y) == list(s["ids"][1]) and (ids.data[3].x[0], ids.data[3].y[0]) == (s["length"], s["next"])
    assert [a.text for a in ids.layout.annotations] == ["image", "video"] and len(ids.layout.shapes) == 2
    z = np.asarray(pairs.data[0].z)
    assert z.shape == (4, 64) and np.isnan(z[0, 32:]).all()          # Qwen3.5 (bottom row, first): 32 pairs
    assert [tr.name for tr in pairs.data[1:]] == ["T", "H", "W"]
    assert pairs.data[0].y[-1] == "Qwen2-VL 7B<br>[16, 24, 24]"                       # the first model on top
    assert wave.layout.yaxis.type == "log" and sum(len(tr.x) for tr in wave.data) == 64
    assert np.asarray(angles.data[0].z).shape == (16, s["length"]) and angles.data[0].zmid == 0
    assert list(angles.data[0].y[:3]) == ["0 · T", "1 · T", "2 · T"]             # Qwen2-VL: the fast pairs temporal
    assert list(cache.data[1].text) == ["576", "32,768", "40,960"]
    assert list(cache.data[0].x) == ["MLA", "MHA", "rebuilt"]
    assert absorb.layout.yaxis.type == "log" and min(min(tr.y) for tr in absorb.data) >= ff.FLOOR
    assert absorb.data[1].meta == {"real": "y"}                       # the CSV exports the real errors

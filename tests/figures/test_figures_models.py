"""posviz.figures.models: every builder exactly valid plotly (they skip plotly's validation), in lecture
mode too; the layer strip's cells and legend, the comparison's lines."""
import json

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import pytest

from posviz.figures import models as fm
from posviz.figures import style
from posviz.pe import models as gallery
from posviz.views import models as view

L = {c: c for c in fm.STRIP} | {"title": "t", "x": "x", "y": "y", "trained": "trained", "max": "max"}
PICKS = [("llama31_8b", "gemma3_27b", "deepseek_v3"), ("phi35_mini", "qwen3_next_80b", "llama4_scout", "gpt_oss_20b"),
         ("gptj_6b", "llama2_7b"), gallery.KEYS[:6]]


def validated_equals_built(fig):
    """plotly's validation raises on a wrong property and expands what plotly.js does not know: the
    validated figure must be exactly the one built."""
    built = json.loads(pio.to_json(fig.to_dict(), validate=False))
    return json.loads(pio.to_json(go.Figure(fig.to_dict()).to_dict(), validate=False)) == built


def _figures(keys, labels=L):
    entries = [view.entry(k) for k in keys]
    cmp = view.compare(tuple(keys))
    yield fm.layer_strip_figure([e["strip"] for e in entries], [e["name"] for e in entries], labels=labels)
    yield fm.wavelength_compare_figure(cmp["models"], labels=labels)
    yield fm.decay_compare_figure(cmp["distances"], [(m["name"], m["score"], m["max_length"]) for m in cmp["models"]],
                                  labels=labels)


@pytest.mark.parametrize("keys", PICKS)
def test_every_figure_is_valid_plotly(keys):
    for fig in _figures(keys):
        assert validated_equals_built(fig), fig.layout.title.text
        go.Figure(style.presentation(fig).to_dict())


def test_every_strip_of_the_gallery_and_bare_labels_are_valid_plotly():
    everyone = [view.entry(k) for k in gallery.KEYS]
    fig = fm.layer_strip_figure([e["strip"] for e in everyone], [e["name"] for e in everyone], labels=L)
    assert validated_equals_built(fig)
    bare = {c: c for c in fm.STRIP} | {"trained": "trained", "max": "max"}     # no title, no axis titles
    for fig in _figures(PICKS[0], labels=bare):
        assert validated_equals_built(fig)


def test_strip_cells_legend_and_lines():
    strip, wave, decay = _figures(PICKS[0])
    z = np.asarray(strip.data[0].z)
    names = [view.entry(k)["name"] for k in PICKS[0]]
    # issue 33 item 5: each row's name above its strip (an annotation), the strips the plot's width: a band for
    # the name, then the row, the first model on top
    assert z.shape[0] == 6 and np.isnan(z[0::2]).all() and not np.isnan(z[1::2]).all()
    assert [a.text for a in strip.layout.annotations][:3] == names and strip.layout.yaxis.autorange == "reversed"
    assert strip.layout.yaxis.showticklabels is False and len(strip.data[0].y) == 7
    used = [c for c in fm.STRIP if any(c in view.entry(k)["strip"] for k in PICKS[0])]
    assert [tr.name for tr in strip.data[1:]] == used
    assert strip.layout.legend.yref == "container" and strip.layout.legend.y == 0    # at the bottom of the figure
    # issue 33 item 5: a figure as tall as its rows and its legend's rows under the ticks and the axis title, on a
    # desktop (3 entries a row), a phone (2) and a projector (3, 22 px fonts): one title line (82 px), 3 rows
    entries = len(strip.data) - 1
    rows = {"normal": -(-entries // 3), "phone": -(-entries // 2), "lecture": -(-entries // 3)}
    assert strip.layout.margin.b == 62 + 24 * rows["normal"] and strip.layout.margin.t == 82
    assert strip.layout.height == 82 + 3 * 52 + 62 + 24 * rows["normal"]
    phone, lecture = strip.layout.meta["phone"], strip.layout.meta["lecture"]
    assert phone["height"] == 82 + 3 * 46 + 62 + 24 * rows["phone"] and phone["legend"]["entrywidth"] == 0.5
    assert lecture["margin"]["b"] == 84 + 34 * rows["lecture"]
    assert lecture["height"] == 82 + 3 * 64 + lecture["margin"]["b"]
    assert strip.layout.meta["own_top"] and strip.layout.legend.entrywidth == pytest.approx(1 / 3)
    shown = style.presentation(go.Figure(strip.to_dict()))              # the projector's layout, as the page gets it
    assert shown.layout.height == lecture["height"] and shown.layout.legend.font.size == style.PRESENT_MIN
    assert wave.layout.yaxis.type == "log" and list(wave.layout.xaxis.range) == [0, 1]
    assert len(wave.layout.shapes) == sum(bool(m["trained"]) + bool(m["max_length"])
                                          for m in view.compare(PICKS[0])["models"])
    assert decay.layout.xaxis.type == "log" and all(min(tr.x) >= 1 for tr in decay.data)


def test_strip_marks_windows_and_rotated_dims_are_valid_plotly():
    labels = L | {m: m for m in view.MARKS} | {"window": "window {w}", "rotated": "r", "still": "s"}
    rows = view.strips(("gemma4_31b", "deepseek_v4_flash", "qwen35_397b", "kimi_linear", "mistral_7b"))
    fig = fm.layer_strip_figure(rows["strips"], rows["names"], labels=labels, marks=rows["marks"],
                                windows=rows["windows"])
    assert validated_equals_built(fig)
    go.Figure(style.presentation(fig).to_dict())
    assert {tr.name for tr in fig.data[1:]} >= {"compressed", "partial", "proportional", "linear", "nope"}
    prop = next(tr for tr in fig.data if tr.name == "proportional")
    assert len(prop.x) == 10 and set(prop.y) == {(1 + fm.LABEL_BAND) / 2}             # Gemma 4's 10 global layers
    assert "window 1,024" in fig.data[0].text[1][0]                                      # the top row: Gemma 4
    pv = view.proportional_vs_partial(512, 0.25, 1000000, 131072)
    fig = fm.rotated_dims_figure([pv[r]["mask"] for r in view.READINGS], list(view.READINGS), labels=labels)
    assert validated_equals_built(fig) and np.asarray(fig.data[0].z).shape == (4, 512)
    go.Figure(style.presentation(fig).to_dict())

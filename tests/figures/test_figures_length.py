"""posviz.figures.length: the bucket lines, the attention maps (block max, training lines, alias
overlay) and the alias errors, and every builder valid plotly (they skip plotly's validation)."""
import json

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import pytest

from posviz.figures import length as F
from posviz.figures import style
from posviz.views import length as V

NAMES = {v: f"model {v}" for v in V.VARIANTS}
LINES = NAMES | {"title": "t", "subtitle": "s", "x": "x", "y": "y", "train": "trained", "reference": "chance"}
MAP = {"title": "T", "x": "key", "y": "query", "block_max": "max", "aliases": "aliases", "target": "target"}
ALIAS = {"title": "t", "subtitle": "s", "x": "Δ", "y": "e", "tol": "tol", "alias": "aliases", "train": "trained"}


def validated_equals_built(fig):
    """plotly's validation raises on a wrong property and expands what plotly.js does not know (a named
    colour scale such as "Viridis"): the validated figure must be exactly the one built."""
    built = json.loads(pio.to_json(fig.to_dict(), validate=False))
    return json.loads(pio.to_json(go.Figure(fig.to_dict()).to_dict(), validate=False)) == built


def every_builder(target, tol):
    info = V.shipped.uncached()
    buckets, train = info["buckets"], info["train_length"]
    for metric in ("acc", "loss"):
        for shown in (tuple(V.VARIANTS), ("rope",), ()):
            series = V.curves.uncached(metric, shown)
            ref = V.reference.uncached(metric, series)
            yield F.bucket_lines(buckets, series, train, reference=ref["values"], y_range=ref["y_range"], labels=LINES)
    ent = V.entropy_curves.uncached(2, tuple(V.VARIANTS))
    yield F.bucket_lines(buckets, ent["series"], train, reference=ent["uniform"], labels={"title": "t"})  # few labels
    al = V.aliases.uncached(target, tol)
    yield F.alias_errors(al["error"], al["aliases"], tol, train, labels=ALIAS)
    yield F.alias_errors(al["error"], al["aliases"], tol, train, labels={"title": "t"})
    for length in (64, 128, 512):
        a = V.attention.uncached("rope", length, 1, 0)
        yield F.attention_map(a, labels=MAP)
        yield F.attention_map(a, train_length=train, aliases=tuple(al["aliases"]), target=target, labels=MAP)
        yield F.attention_map(a, train_length=train, aliases=(), target=target, labels={"x": "j", "y": "i"})


@pytest.mark.parametrize("target, tol", [(2, 40), (1, 5), (63, 90)])
def test_every_figure_is_valid_plotly(target, tol):
    """Validate what the builders build, every builder and option, in lecture mode too
    (style.presentation, as ui.plot applies it)."""
    for fig in every_builder(target, tol):
        assert validated_equals_built(fig), fig.layout.title.text
        style.presentation(fig)
        assert validated_equals_built(fig)


def test_bucket_lines_gaps_and_legend_below():
    buckets = [[0, 64], [64, 128], [128, 192]]
    fig = F.bucket_lines(buckets, {"rope": [1.0, None, 0.5], "odd": [0.1, 0.2, 0.3]}, 64,
                         reference=[0.1] * 3, labels=LINES)
    ref, rope, odd = fig.data
    assert ref.name == "chance" and rope.name == "model rope" and odd.name == "odd"   # unknown keys: their key
    assert np.isnan(rope.y[1]) and rope.connectgaps is False                         # None: a gap, not a zero
    assert rope.line.color == F.COLORS["rope"] and odd.line.color is None
    assert fig.layout.legend.yref == "container" and fig.layout.legend.y == 0
    assert list(fig.layout.xaxis.tickvals) == [0, 64, 128, 192]
    assert fig.layout.title.text == "t<br><sup>s</sup>" and fig.layout.margin.t == 105
    assert fig.layout.shapes[0].x1 == 63.5                                            # the trained range shaded


def test_attention_map_block_max_and_overlay():
    z = np.tril(np.ones((512, 512), dtype=np.float32)) / np.arange(1, 513)[:, None]
    fig = F.attention_map(z, train_length=64, aliases=(2, 121, 600), target=2, labels=MAP)
    hm, diagonals, marks, target = fig.data
    assert np.asarray(hm.z).shape == (171, 171) and "max" in hm.hovertemplate         # pooled 3 x 3
    assert (hm.zmin, hm.zmax) == (0.0, 1.0)
    assert list(marks.y) == [121] and list(target.y) == [2]                           # 600 lies off the map
    assert len(fig.layout.shapes) == 2 and fig.layout.showlegend
    plain = F.attention_map(z[:64, :64], labels=MAP)
    assert len(plain.data) == 1 and not plain.layout.shapes and plain.layout.showlegend is False


def test_alias_errors_marks_the_aliases():
    al = V.aliases.uncached(2, 40)
    fig = F.alias_errors(al["error"], al["aliases"], 40, 64, labels=ALIAS)
    line, marks = fig.data
    assert list(marks.x) == [float(d) for d in al["aliases"]]
    assert fig.layout.shapes[0].y0 == 40 and fig.layout.annotations[0].text == "tol"
    assert list(fig.layout.yaxis.tickvals) == [0, 45, 90, 135, 180]

"""The figures of issue 37's deep dives (relative family, evicted caches, draft trees, angles): valid plotly as
built, lecture mode, what each trace carries, payloads."""
import json

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio

from posviz.figures import kv_cache as KF
from posviz.figures import lab as LF
from posviz.figures import relative as RF
from posviz.figures import style
from posviz.views import kv_cache as K
from posviz.views import lab as L
from posviz.views import relative as V


def validated_equals_built(fig):
    """The builders skip plotly's validation: validating what they build must raise nothing and change nothing."""
    built = json.loads(pio.to_json(fig.to_dict(), validate=False))
    return json.loads(pio.to_json(go.Figure(fig.to_dict()).to_dict(), validate=False)) == built


def _check(fig, max_bytes=2_000_000):
    assert validated_equals_built(fig)
    lecture = go.Figure(fig)
    style.presentation(lecture)
    assert validated_equals_built(lecture)
    assert len(fig.to_json()) < max_bytes
    return fig


def test_fire_bias_curves():
    fr = V.fire_view.uncached(64, 4, 8, 3)
    names = {f"name.{k}": k for k in ("alibi", "t5", "kerple", "fire", "fire_train")}
    fig = _check(RF.bias_curves(fr["distance"], fr["curves"], **fr["marks"],
                                labels={"title": "t", "x": "d", "y": "b", "train": "N", **names}))
    assert [t.name for t in fig.data] == ["alibi", "t5", "kerple", "fire", "fire_train"]
    assert len(fig.data[0].x) == 256 and len(fig.data[-1].x) == 64
    assert fig.layout.shapes[0].x0 == 63.5
    np.testing.assert_allclose(fig.data[3].y, fr["curves"]["fire"], rtol=1e-6)


def test_xpos_curves_decimated_to_screen():
    xp = V.xpos_view.uncached(512, 8192)
    fig = _check(RF.score_curves(xp["r"], xp["curves"], labels={"title": "t", "x": "r", "y": "s", "name.rope": "a",
                                                                 "name.xpos": "b", "name.envelope": "c"}))
    assert all(len(t.x) <= style.MAX_POINTS for t in fig.data) and fig.data[2].line.dash == "dot"


def test_cope_matrix_shows_tokens_and_blank_future_cells():
    cp = V.cope_view.uncached("The cat sat. The dog ran! Then <b>it</b> slept.", "sentences", "", 8.0)
    fig = _check(RF.token_matrix(cp["positions"], cp["tokens"], zmax=cp["top"],
                                 labels={"title": "t", "x": "k", "y": "q", "colorbar": "p"}))
    tr = fig.data[0]
    assert list(tr.x)[0] == "0·The" and "&lt;b&gt;" in " ".join(tr.x)        # user text escaped
    assert np.isnan(np.asarray(tr.z, dtype=float)[0, 1]) and tr.texttemplate is None


def test_tree_mask_and_node_errors():
    tr = K.tree.uncached(6, "2x2x2", "causal")
    long = "Causal mask: siblings see each other, and each other's children too"
    mask = _check(RF.matrix(tr["shown_mask"], tr["labels"], tr["key_labels"], scale="mask", zmin=0, zmax=1,
                            showscale=False, text_cols=0, title_at="phone", labels={"title": long, "x": "k", "y": "n"}))
    assert list(mask.data[0].y) == tr["labels"] and list(mask.data[0].x)[:6] == [f"p{p}" for p in range(6)]
    assert mask.layout.title.text.count("<br>") == 1       # wrapped to a phone's width, not cut at its edge
    toolbar = RF.matrix(tr["shown_mask"], tr["labels"], tr["key_labels"], scale="mask", labels={"title": long})
    assert "<br>" not in toolbar.layout.title.text
    err = _check(KF.error_figure(tr["nodes"], tr["errors"], prefill_length=None,
                                 labels={"title": "t", "x": "n", "y": "e", **{f"mode.{s}": s for s in K.TREE_SETUPS}}))
    assert [t.name for t in err.data] == list(K.TREE_SETUPS) and err.layout.yaxis.type == "log"


def test_eviction_figures():
    ev = K.evicted.uncached(40, 10, 12, "h2o")
    modes = {f"mode.{m}": m for m in K.EVICT_MODES}
    _check(KF.error_figure(ev["positions"], ev["errors"], prefill_length=40,
                           labels={"title": "t", "x": "p", "y": "e", "prefill": "prompt", **modes}))
    pos = _check(KF.positions_figure(ev["last_query"], ev["last_keys"], labels={"title": "t", "x": "s", "y": "p",
                                                                                 "query": "q", **modes}))
    assert len(pos.data) == 2 * len(K.EVICT_MODES)


def test_phase_error_figure():
    an = L.angles.uncached("bfloat16", 64, 32768)
    fig = _check(LF.phase_error_figure(an["x"], an["lines"], labels={"title": "t", "x": "m", "y": "e", "pi": "π",
                                                                     **{n: n for n in L.ANGLE_NAMES}}))
    assert [t.name for t in fig.data] == list(L.ANGLE_NAMES) and fig.layout.yaxis.type == "log"
    assert len(fig.data[0].x) <= L.ANGLE_BINS and fig.layout.shapes[0].y0 == np.pi

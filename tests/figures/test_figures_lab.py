import json

import numpy as np

from posviz.lab import toy_model as A
from posviz.figures import lab as F
from posviz.figures import overview as O


def _lab(**kw):
    return A.lab_run("I love ML", "do you love ML too", **kw)


def _attn_fig(res, row=0, head=0):
    r = res["rows"][row]
    return F.attention_compare(r["correct"][head], r["chosen"][head], r["tokens"], titles=("a", "b", "c"),
                               x_title="k", y_title="q", diff_title="d", prob_title="p")


def test_attention_compare_panels_share_scales():
    fig = _attn_fig(_lab(scheme="arange", method="sinusoidal"))
    assert [t.type for t in fig.data] == ["heatmap"] * 3
    assert fig.data[0].coloraxis == fig.data[1].coloraxis == "coloraxis"
    assert fig.data[2].coloraxis == "coloraxis2"
    ca2 = fig.layout.coloraxis2
    assert ca2.cmid == 0 and ca2.cmin == -ca2.cmax
    assert np.asarray(fig.data[0].z).shape == (5, 5)
    assert len(fig.to_json()) < 300_000


def test_labels_are_escaped_and_unique():
    labels = F.token_labels(["<b>x</b>", "the", "the"])
    assert labels == ["0·&lt;b&gt;x&lt;/b&gt;", "1·the", "2·the"]


def test_error_bars_and_summary():
    res = _lab(bugs=("pads_unmasked",))
    fig = F.error_bars([r["error"] for r in res["rows"]], [["a"] * 3, ["b"] * 5], ["A", "B"], title="t",
                       y_title="y", harmless_label="h", harmful_label="H")
    assert [t.type for t in fig.data] == ["bar", "bar"]
    assert fig.layout.yaxis.type == "log"
    err, status = A.summary_matrix("I love ML", "do you love ML too")
    fig = F.summary_heatmap(err, status, [str(r) for r in A.SUMMARY_ROWS], [str(c) for c in A.SUMMARY_COLS],
                            title="t", na_label="n/a", oor_label="oor", colorbar_title="c", selected=(3, 0))
    assert fig.data[0].type == "heatmap"
    assert np.asarray(fig.data[0].z).shape == (7, 12)
    assert "n/a" in json.dumps(fig.to_plotly_json()["data"][0]["text"].tolist())
    assert len(fig.layout.shapes) == 1


def test_max_payload():
    long_a = " ".join(f"w{i}" for i in range(64))
    res = A.lab_run(long_a, "short one", num_heads=4, head_dim=64)
    fig = _attn_fig(res, row=1, head=3)
    assert np.asarray(fig.data[0].z).shape == (64, 64)
    assert len(fig.to_json()) < 2_000_000


def test_tensor_rows():
    res = _lab()
    rows = res["rows"]
    t = F.tensor_rows([r["tokens"] for r in rows], [r["ids"] for r in rows], [r["mask"] for r in rows],
                      [r["pos"] for r in rows], names=("A", "B"), labels=("tok", "id", "mask", "pos"))
    assert len(t) == 8 and t[3] == {"": "A · pos", "0": "0", "1": "0", "2": "0", "3": "1", "4": "2"}


def test_overview_figures():
    r = A.equivariance("dog bites man", "man bites dog", method="rope")
    fig = O.equivariance_panels(r["out_b"], r["p_out_a"], r["diff"], r["tokens_b"], titles=("a", "b", "c"),
                                x_title="x", y_title="y", value_title="v", diff_title="d")
    assert [t.type for t in fig.data] == ["heatmap"] * 3
    fig = O.equivariance_bars(A.equivariance_table("猫追狗", "狗追猫"), A.METHODS, ("no", "causal"), title="t", y_title="y")
    assert len(fig.data) == 2
    fig = O.seat_number_figure(2048, train_length=128, titles=("a", "b"), x_title="p",
                               labels={"int": "p", "norm": "n", "train": "t", "emb": "e"})
    assert len(fig.data) == 5 and len(fig.to_json()) < 300_000
    dot = O.where_position_dot({k: f'lab "{k}"' for k in ("abs", "rope", "bias", "tok", "pe", "hidden", "qkv",
                                                          "softmax", "qk", "rot", "v", "scores", "bias_node")})
    assert dot.startswith("digraph") and '\\"abs\\"' in dot

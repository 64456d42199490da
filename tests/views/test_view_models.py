"""posviz.views.models: the gallery table, layer strips, comparison on one axis, the live check
against transformers; and the models page's figures built from them."""
import pytest

from posviz.figures import models as fm
from posviz.pe import models as gallery
from posviz.views import models as view

L = {c: c for c in fm.STRIP} | {"title": "t", "x": "x", "y": "y", "trained": "trained", "max": "max"}


def test_strip_categories():
    assert set(view.entry("gemma3_27b")["strip"]) == {"local", "global"}
    assert view.entry("llama4_scout")["strip"][:4] == ["local", "local", "local", "nope"]   # chunked RoPE, global NoPE
    assert view.entry("qwen3_next_80b")["strip"][:4] == ["linear", "linear", "linear", "rope"]
    assert set(view.entry("llama2_7b")["strip"]) == {"rope"}
    assert set(view.entry("gpt_oss_20b")["strip"]) == {"local", "global"}


def test_table_rows_sorted():
    rows = view.table_rows("released")
    assert len(rows) == len(gallery.KEYS) >= 25
    assert [r["released"] for r in rows] == sorted(r["released"] for r in rows)
    rows = view.table_rows("theta")
    assert rows[0]["theta_max"] == max(r["theta_max"] for r in rows)
    g = next(r for r in rows if r["key"] == "gemma3_27b")
    assert g["pattern"] == {"local": 52, "global": 10} and g["theta"] == "10000 / 1e+06"


def test_compare_and_its_figures():
    cmp = view.compare(("llama31_8b", "gemma3_27b", "deepseek_v3"))
    assert [m["key"] for m in cmp["models"]] == ["llama31_8b", "gemma3_27b", "deepseek_v3"]
    assert cmp["distances"][-1] == 524288
    fig = fm.wavelength_compare_figure(cmp["models"], labels=L)
    assert fig.layout.yaxis.type == "log" and len(fig.layout.shapes) == 6      # trained + max per model
    fig = fm.decay_compare_figure(cmp["distances"], [(m["name"], m["score"], m["max_length"]) for m in cmp["models"]],
                                  labels=L)
    assert fig.layout.xaxis.type == "log" and len(fig.data) == 3
    entries = [view.entry(k) for k in ("llama31_8b", "gemma3_27b", "llama4_scout", "qwen3_next_80b")]
    fig = fm.layer_strip_figure([e["strip"] for e in entries], [e["name"] for e in entries], labels=L)
    assert fig.data[0].type == "heatmap" and fig.data[0].z.shape == (4, 62)
    assert {tr.name for tr in fig.data[1:]} == {"rope", "local", "global", "nope", "linear"}
    assert len(fig.to_json()) < 300_000


@pytest.mark.parametrize("key", ["gemma3_27b", "phi35_mini", "deepseek_v3", "gptj_6b"])
def test_live_check_against_transformers(key):
    c = view.transformers_check(view.entry(key)["config_json"])
    assert c["version"] == "5.24.0" and c["max_rel"] <= 1e-6


def test_live_check_reports_instead_of_raising():
    c = view.transformers_check('{"model_type": "internlm2", "hidden_size": 256, "num_attention_heads": 4}')
    assert "error" in c
    r = view.read_pasted('{"head_dim": 64, "rope_scaling": {"rope_type": "proportional"}}')
    assert r["boundary"] and r["code"] == "unsupported"
    r = view.read_pasted('{"head_dim": 63}')
    assert not r["boundary"] and r["code"] == "even"

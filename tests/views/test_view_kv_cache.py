"""posviz.views.kv_cache: the decode comparison the page draws, its cache table, and every number
the page's narration states (checked at each scene's own settings)."""
import math

from posviz import scenes, text
from posviz.figures import kv_cache as figs
from posviz.lab import kv_cache as kc
from posviz.views import kv_cache as V

SCENES = {s["title"].rsplit(".", 1)[-1]: s["values"] for s in scenes.SCENES["kv_cache"]}


def _scene_run(name):
    """The view's result at a scene's settings, with the decode traces it leaves out (from compare_modes)."""
    v = SCENES[name]
    setup = dict(heads=v["kv_heads"], head_dim=v["kv_head_dim"], dtype=v["kv_dtype"], layout=v["kv_layout"])
    return {**V.decoding.uncached(v["kv_L"], v["kv_prefill"], **setup),
            "traces": kc.compare_modes(v["kv_L"], v["kv_prefill"], **setup)["traces"]}


def test_decoding_adds_what_the_page_states():
    r = V.decoding.uncached(6, 4)
    assert r["wrong_min"] == min(r["max_decoded"][m] for m in V.MODES[1:]) > 1e-2
    assert r["last"]["correct"] == (5.0, [0.0, 1.0, 2.0, 3.0, 4.0, 5.0])
    assert r["last"]["restart"] == (0.0, [0.0, 1.0, 2.0, 3.0, 0.0, 0.0])
    assert V.decoding.uncached(4, 4)["last"] is None
    assert V.read_positions_at(kc.compare_modes(4, 4), "correct") is None


def test_trace_table_cells():
    q, k, v = kc.random_qkv(1, 2, 6, 16)
    _, tr = kc.decode_with_cache_trace(q, k, v, prefill_length=4, mode="correct")
    cols, rows = V.trace_table(tr)
    assert cols == ["t", "q", "k0", "k1", "k2", "k3", "k4", "k5"]
    assert rows[0][:3] == ["4", "4", "0 · 0.00"]
    assert rows[1][-1] == "5 · 5.00"
    assert rows[0][-1] == ""
    _, tr = kc.decode_with_cache_trace(q, k, v, prefill_length=4, mode="rerotate")
    assert V.trace_table(tr)[1][0][2] == f"4 · {4 % (2 * math.pi):.2f}"
    _, tr = kc.decode_with_cache_trace(q, k, v, prefill_length=4, mode="rotate_on_read")
    assert V.trace_table(tr)[1][1][2].startswith("(0→) 5")
    table = V.cache_table(40, 20, "correct")
    assert len(table["t"]) == V.TRACE_STEPS and len(table) == 2 + V.TRACE_KEYS      # cut as the caption says


def test_decoding_carries_every_mode_table_not_the_traces():
    r = V.decoding.uncached(9, 3, heads=4, head_dim=8, dtype="bfloat16", layout="half")
    assert "traces" not in r                                   # thousands of numbers at L = 96, never drawn
    traces = kc.compare_modes(9, 3, heads=4, head_dim=8, dtype="bfloat16", layout="half")["traces"]
    for m in V.MODES:
        cols, rows = V.trace_table(traces[m])
        assert r["tables"][m] == {c: [row[i].replace(" ", "\u00a0") for row in rows] for i, c in enumerate(cols)}
        assert V.cache_table(9, 3, m, heads=4, head_dim=8, dtype="bfloat16", layout="half") == r["tables"][m]


def test_scene_numbers():
    d = _scene_run("diagram")          # "Correct sits at ~10⁻⁷; all three wrong modes jump at position 4"
    assert 1e-8 < d["max_decoded"]["correct"] < 1e-6
    assert all(d["first_fail"][m] == 4 for m in V.MODES[1:])
    one = _scene_run("one")            # "fail from position 1; wrong B's positions grow at every step"
    assert all(one["first_fail"][m] == 1 for m in V.MODES[1:])
    firsts = [s["read_positions"][0] for s in one["traces"]["rerotate"]]
    assert all(b > a for a, b in zip(firsts, firsts[1:]))
    reread = _scene_run("reread")      # "all offsets are 0"
    for s in reread["traces"]["rotate_on_read"]:
        assert set(s["read_positions"]) == {s["query_position"]}
    bf16 = _scene_run("bf16")          # "grey line ~10⁻³–10⁻²; correct within the tolerance; wrong far above"
    assert 1e-3 <= min(bf16["precision"][1:]) and max(bf16["precision"]) < 1e-1
    assert bf16["passed"]["correct"] and bf16["wrong_min"] > 10 * max(bf16["allowed"])
    long = _scene_run("long")          # "80 decode steps; wrong B's positions pile up into the thousands"
    assert len(long["traces"]["correct"]) == 80 and long["max_decoded"]["correct"] < 1e-5
    assert long["traces"]["rerotate"][-1]["read_positions"][0] > 1000
    for lang in text.LANGS:
        assert "4" in text.get(lang, "kv_cache.scene.diagram.say") and "80" in text.get(lang, "kv_cache.scene.long.say")
        assert "10⁻⁹" in text.get(lang, "kv_cache.fig.floor") and figs.FLOOR == 1e-9


def test_kv_text_cites_articles_by_title():
    from posviz.text import kv_cache as T

    for table in (T.EN, T.ZH):
        for key, s in table.items():
            assert "seed" not in s.lower() and "种子" not in s, key
    assert all("causal" not in s and "前后半 (" not in s for s in T.ZH.values())

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
    assert cols == ["t", "q", "k0", "k1", "k2", "k3", "k4"]
    assert rows[0][:3] == ["4", "4", "0 · 0.00"]
    assert rows[1][-1] == "4 · 4.00"
    assert V.trace_table(tr, max_keys=6)[1][0][-1] == ""          # key 5 is not in the cache at step 4 yet
    assert V.trace_table(tr, max_keys=6)[1][1][-1] == "5 · 5.00"
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


# ---------------------------------------------------------------- the cache table ends where the decode ends
def test_cache_table_shows_the_first_and_the_last_steps():
    r = V.decoding.uncached(96, 16)
    table = r["tables"]["rerotate"]
    assert len(table["t"]) == V.TRACE_STEPS == V.TRACE_HEAD + V.TRACE_TAIL
    assert table["t"][:V.TRACE_HEAD] == [str(t) for t in range(16, 16 + V.TRACE_HEAD)]
    assert table["t"][V.TRACE_HEAD] == "…\u00a093" and table["t"][-1] == "95"        # the cut is marked
    assert list(table) == ["t", "q"] + [f"k{j}" for j in range(V.TRACE_KEYS)]
    short = V.decoding.uncached(12, 4)["tables"]["correct"]                          # 8 steps: all of them
    assert short["t"] == [str(t) for t in range(4, 12)]


def _say(name, lang):
    return text.get(lang, f"kv_cache.scene.{name}.say")


def _cell_position(cell):
    return int(cell.split("\u00a0")[0])


def test_long_scene_reads_its_numbers_off_the_cache_table():
    """Issue 26: the narration said "thousands (see the cache table)" while the table stopped at 273."""
    v = SCENES["long"]
    r = V.decoding.uncached(v["kv_L"], v["kv_prefill"], heads=v["kv_heads"], head_dim=v["kv_head_dim"],
                            dtype=v["kv_dtype"], layout=v["kv_layout"])
    table = r["tables"][v["kv_trace_mode"]]
    last_token, k0 = table["t"][-1], _cell_position(table["k0"][-1])
    decoded = v["kv_L"] - v["kv_prefill"]
    assert (last_token, k0, decoded) == ("95", 4440, 80) and k0 == sum(range(16, 96))
    assert r["max_decoded"]["correct"] < 1e-6
    for lang in text.LANGS:
        s = _say("long", lang)
        for number in (v["kv_L"], v["kv_prefill"], decoded, last_token, k0):
            assert str(number) in s, (lang, number)


def _stream_scene(name):
    v = SCENES[name]
    setup = dict(heads=v["kv_heads"], head_dim=v["kv_head_dim"], dtype=v["kv_dtype"], layout=v["kv_layout"])
    return v, V.stream.uncached(v["kv_stream_L"], v["kv_stream_sinks"], v["kv_stream_window"], **setup)


def test_stream_scene_numbers():
    v, r = _stream_scene("stream")
    n, s, w = v["kv_stream_L"], v["kv_stream_sinks"], v["kv_stream_window"]
    assert (n, s, w, r["cache"]) == (48, 4, 8, 12)
    assert all(r["passed"][m] for m in ("on_read", "shift", "global"))          # both correct caches equal
    assert r["max_offset"] == {"reassigned": 11.0, "global": 47.0}
    assert r["last"]["global"]["query"] == n - 1 and max(r["last"]["on_read"]["keys"]) == r["cache"] - 1
    for lang in text.LANGS:
        say = _say("stream", lang)
        for number in (n, s, w, n - 1, 11, r["cache"]):
            assert str(number) in say, (lang, number)


def test_stale_scene_numbers():
    v, r = _stream_scene("stale")
    assert r["first_evict"] == r["first_fail"]["stale"] == 12
    assert max(r["errors"]["stale"][:12]) < 1e-6 and r["wrong"] > 0.1
    slot = r["cache"] - 1
    assert r["last"]["stale"]["keys"][v["kv_stream_sinks"]:] == [float(slot)] * v["kv_stream_window"]
    assert r["last"]["stale"]["query"] == slot == 11                               # offset 0 to every window key
    for lang in text.LANGS:
        assert "12" in _say("stale", lang) and "11" in _say("stale", lang)


def test_sinks_scene_numbers():
    v = SCENES["sinks"]
    r = V.sinks.uncached(v["kv_L"], v["kv_sink"], heads=v["kv_heads"], head_dim=v["kv_head_dim"],
                         dtype=v["kv_dtype"], layout=v["kv_layout"])
    assert r["first_fail"]["ignored"] == 0
    for lang in text.LANGS:
        say = _say("sinks", lang)
        for number in (f"{v['kv_sink']:g}", str(v["kv_L"]), f"{r['first'][0]:.0%}", f"{r['last'][0]:.0%}"):
            assert number in say, (lang, number)


def test_tolerance_sentence_is_true_for_float32():
    """Issue 26: in float32 the line read "differs from the float32 one by up to 0.0e+00"."""
    r = V.decoding.uncached(6, 4)
    assert r["tol_note"] == "f32" and r["max_precision"] == 0.0 < r["max_decoded"]["correct"]
    assert V.decoding.uncached(6, 4, dtype="bfloat16")["tol_note"] == "lowp"
    assert V.tolerance_note("float32", 0.0) == "f32_exact"
    for lang in text.LANGS:
        f32 = text.get(lang, "kv_cache.tol.f32", dtype="float32", rtol=r["rtol"], atol=r["atol"],
                       prec=r["max_precision"], corr32=r["max_decoded_f32"]["correct"], wrong=r["wrong_min"],
                       same=r["max_decoded"]["correct"])
        assert f"{r['max_decoded']['correct']:.1e}" in f32 and "0.0e+00" not in f32
        assert "{prec" not in text.TABLES[lang]["kv_cache.tol.f32"]                 # no grey line to quote

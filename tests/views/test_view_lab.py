"""posviz.views.lab: the lab's experiment, summary split and packing, and every number its text states."""
import math

import numpy as np
import pytest
import torch

from posviz import scenes, text
from posviz.lab import tokens
from posviz.lab import toy_model as A
from posviz.pe.position_ids import position_ids_from_mask
from posviz.views import lab as V

S_A, S_B = "I love ML", "do you love ML too"
DEFAULTS = {lang: (text.get(lang, "lab.default_a"), text.get(lang, "lab.default_b")) for lang in text.LANGS}


def _run(*args, **kw):
    return V.experiment(*(args or (S_A, S_B)), **kw)      # uncached outside the app (no cache backend)


def test_shapes_and_determinism():
    r1 = _run(num_heads=3, head_dim=8)
    r2 = _run(num_heads=3, head_dim=8)
    assert r1["rows"][0]["chosen"].shape == (3, 5, 5)
    assert np.array_equal(r1["rows"][1]["chosen"], r2["rows"][1]["chosen"])
    assert r1["rows"][0]["pos"] == [0, 0, 0, 1, 2]
    assert r1["max_error"] < 1e-5 and r1["verdict"] == "harmless" and r1["lowp"] is None
    row = r1["rows"][0]
    assert np.isnan(row["chosen"][:, :2]).all() and np.isnan(row["correct"][:, :2]).all()   # pad query rows
    assert (row["correct"][:, 2:, :2] == 0).all()                                            # real x pad = 0
    assert all(t >= np.nanmax(row["chosen"][h]) for h, t in enumerate(row["top"]))
    assert [len(e) for e in r1["errors"]] == [3, 5] and r1["real_tokens"][0] == ["I", "love", "ML"]
    batch = A.encode_pair(S_A, S_B, "right")
    model = A.build_model("rope", num_heads=2, head_dim=16)
    res = A.forward(model, batch.token_ids, batch.attention_mask, position_ids_from_mask(batch.attention_mask))
    assert res.weights.shape == (2, 2, 5, 5) and res.output.shape == (2, 5, 32)
    assert torch.allclose(res.weights.sum(-1), torch.ones(2, 2, 5))


def test_every_bug_on_every_method_runs():
    for method in A.POSITION_METHODS:
        for bug in A.BUGS:
            for dtype in A.LOWP_DTYPES:
                out = _run(method=method, bugs=(bug,), lowp_dtype=dtype, lowp_offset=32768, max_length=64)
                assert math.isfinite(out["max_error"])
                assert (out["lowp"] is not None) == (bug == "low_precision" and method == "rope")


def test_learned_boundary_is_the_boundary_error():
    with pytest.raises(ValueError, match="max_length") as e:
        _run(method="learned", max_length=4)
    assert e.value.boundary


@pytest.mark.parametrize("kw, word", [
    (dict(method="xpos"), "method"), (dict(num_heads=5), "num_heads"), (dict(num_heads=0), "num_heads"),
    (dict(head_dim=7), "head_dim"), (dict(head_dim=4), "head_dim"), (dict(head_dim=128), "head_dim"),
    (dict(rope_layout="diag"), "rope_layout"), (dict(max_length=0), "max_length"),
    (dict(scheme="random"), "scheme"), (dict(bugs=("typo",)), "bugs"), (dict(padding_side="up"), "padding_side"),
    (dict(lowp_dtype="float8"), "lowp_dtype"), (dict(lowp_offset=-1), "lowp_offset"),
    (dict(lowp_offset=10**9), "lowp_offset"),
])
def test_invalid_arguments(kw, word):
    with pytest.raises(ValueError, match=word) as e:
        _run(**kw)
    assert e.value.code and text.has(f"err.{e.value.code}")


def test_invalid_sentences():
    for bad in ("", "   ", "x" * 10_000):
        with pytest.raises(ValueError, match="sentence A"):
            _run(bad, S_B)
        with pytest.raises(ValueError, match="sentence B"):
            A.equivariance("a b", bad)
    with pytest.raises(ValueError) as e:                       # the page's own label names the box
        _run("", S_B, names=(text.get("zh", "w.lab_a"), text.get("zh", "w.lab_b")))
    assert e.value.message("zh").startswith(text.get("zh", "w.lab_a"))


def test_summary_is_split_into_schemes_and_bugs():
    s = V.summary(S_A, S_B)
    assert s["schemes"]["err"].shape == (7, 5) and s["bugs"]["err"].shape == (7, 7)
    assert [c[1] for c in s["bugs"]["cols"]] == list(A.BUGS)
    np.testing.assert_array_equal(np.hstack([s["schemes"]["err"], s["bugs"]["err"]]), s["err"])
    rope = V.SUMMARY_ROWS.index(("rope", "half"))
    assert V.selected_cells("rope", "half", "mask", ()) == {"schemes": (rope, 0), "bugs": None}
    assert V.selected_cells("rope", "half", "zeros", ()) == {"schemes": (rope, 3), "bugs": None}
    assert V.selected_cells("rope", "half", "mask", ("rotate_v",)) == {"schemes": None, "bugs": (rope, 2)}
    assert V.selected_cells("rope", "half", "zeros", ("rotate_v",)) == {"schemes": None, "bugs": None}
    assert V.selected_cells("alibi", "half", "mask", ("rotate_v",))["schemes"] == (5, 0)    # RoPE-only: ignored


@pytest.mark.parametrize("kw", [V.LOWP_DEFAULTS, dict(V.LOWP_DEFAULTS, head_dim=8, causal=True),
                                dict(lowp_dtype="float16", lowp_offset=512, max_length=3, num_heads=3),
                                dict(padding_side="right", causal=True, lowp_offset=32768, head_dim=64)])
def test_summary_is_the_whole_matrix(kw):
    """At the low-precision defaults the matrix is one call; away from them the low-precision column is computed
    (and cached) apart from the rest: either way toy_model.summary_matrix, cell for cell."""
    s = V.summary(S_A, S_B, **kw)
    err, status = A.summary_matrix(S_A, S_B, **kw)
    np.testing.assert_array_equal(s["err"], err)
    assert s["status"] == status


def test_low_precision_settings_only_matter_with_the_bug():
    """Without the low-precision bug the experiment is cached without its settings: the same result."""
    base = _run(bugs=("rotate_v",))
    other = _run(bugs=("rotate_v",), lowp_dtype="float16", lowp_offset=512)
    np.testing.assert_array_equal(base["rows"][1]["chosen"], other["rows"][1]["chosen"])
    assert base["max_error"] == other["max_error"] and other["lowp"] is None
    on = _run(bugs=("low_precision",), lowp_dtype="float16", lowp_offset=512)
    assert (on["lowp"]["dtype"], on["lowp"]["offset"]) == ("float16", 512)
    assert _run(method="alibi", bugs=("low_precision",), lowp_offset=512)["lowp"] is None   # RoPE-only: ignored
    with pytest.raises(ValueError, match="lowp_offset"):       # checked even where nothing reads them
        V.summary(S_A, S_B, lowp_offset=-1)


def test_tensors_and_packed_rows():
    res = _run()
    correct, chosen = V.tensors(res, names=("A", "B"), labels=("tok", "id", "mask", "pos"))
    assert len(chosen) == 8 and chosen[3] == {"": "A · pos", "0": "0", "1": "0", "2": "0", "3": "1", "4": "2"}
    assert correct[3] == {"": "A · pos", "0": "0", "1": "1", "2": "2", "3": "", "4": ""}
    pk = V.packed.uncached(S_A, "do you", 100)
    rows = V.packed_rows(pk, names=("A", "B"), row_labels={k: k for k in ("token", "segment") + V.PACK_CONTRACTS})
    assert [r[""] for r in rows] == ["token", "segment", "global", "reset", "source"]
    assert rows[-1]["3"] == "100" and rows[1]["3"] == "B"


# ---------------------------------------------------------------- numbers the text states (issue 14)
@pytest.mark.parametrize("dtype, offset, spacing, values, exact", [
    ("bfloat16", 8192, 64.0, "8192 ×5", False),
    ("bfloat16", 512, 4.0, "512 ×3, 516 ×2", False),
    ("float16", 512, 0.5, "512, 513, 514, 515, 516", True),
    ("float16", 2048, 2.0, "2048 ×2, 2050, 2052 ×2", False),
])
def test_low_precision_numbers_follow_the_chosen_offset(dtype, offset, spacing, values, exact):
    lowp = _run(bugs=("low_precision",), lowp_dtype=dtype, lowp_offset=offset)["lowp"]
    assert (lowp["lo"], lowp["hi"], lowp["first"]) == (offset, offset + 4, float(offset))
    assert lowp["spacing"] == spacing == A.representable_spacing(offset, dtype)
    assert lowp["values"] == values and lowp["exact"] is exact
    assert lowp["bits"] == A.significant_bits(dtype) and lowp["f32"] < 1e-3
    for lang in text.LANGS:
        stored = text.get(lang, "lab.lowp.exact" if exact else "lab.lowp.collapse", **lowp)
        msg = text.get(lang, "lab.effect.low_precision", stored=stored, **lowp)
        assert f"{spacing:g}" in msg and str(offset) in msg and dtype in msg
        assert (values in msg) is not exact              # exact positions are not listed, rounded ones are
        assert "4096" not in msg or offset == 4096


def test_low_precision_scene_states_the_computed_spacing():
    sc = next(s for s in scenes.SCENES["lab"] if s["title"] == "lab.scene.lowp")["values"]
    assert (sc["lab_dtype"], sc["lab_offset"]) == ("bfloat16", 8192)
    assert A.representable_spacing(8192, "bfloat16") == 64.0
    assert set(A.lowp_positions(torch.arange(32), 8192).float().tolist()) == {8192.0}     # 8192..8223
    assert float(A.lowp_positions(torch.tensor([32]), 8192)) == 8192.0
    assert float(A.lowp_positions(torch.tensor([33]), 8192)) == 8256.0
    for lang, n in (("en", "64th"), ("zh", "64")):
        say = text.get(lang, "lab.scene.lowp.say")
        assert n in say and "8192" in say and "8223" in say and "32 apart" not in say and "相隔 32" not in say


@pytest.mark.parametrize("lang", text.LANGS)
def test_scene_numbers_with_the_default_sentences(lang):
    a, b = DEFAULTS[lang]
    arange = _run(a, b, method="sinusoidal", scheme="arange", padding_side="left")
    assert arange["rows"][0]["pos"][arange["rows"][0]["real"][0]] == 2                  # "starts at position 2"
    assert {"en": "position 2", "zh": "位置 2"}[lang] in text.get(lang, "lab.scene.arange.say")
    tokid = _run(a, b, scheme="token_ids", padding_side="left")
    assert tokid["rows"][1]["pos"] == [4, 5, 2, 3, 6]                                    # "4, 5, 2, 3, 6"
    assert "4, 5, 2, 3, 6" in text.get(lang, "lab.scene.tokid.say")
    right = _run(a, b, padding_side="left")
    assert right["max_error"] < V.HARMLESS and ("rounding" in text.get(lang, "lab.scene.right.say")
                                                  or "舍入" in text.get(lang, "lab.scene.right.say"))


def test_widget_help_states_the_tokenizer_limits():
    for lang in text.LANGS:
        msg = text.get(lang, "w.lab_a.help")
        assert all(str(n) in msg for n in (tokens.MAX_TOKENS, tokens.MAX_CHARS, tokens.MAX_WORD))
        assert f"{V.HARMLESS:.0e}" in text.get(lang, "lab.err.harmless", v=V.HARMLESS)


def test_lab_text_cites_articles_by_title():
    from posviz.text import lab as T

    for table in (T.EN, T.ZH):
        for key, s in table.items():
            low = s.lower().replace("random seed", "").replace("随机种子", "")
            assert "seed" not in low and "种子" not in low, key
            assert "$" not in s and "\\" not in s, key                   # no LaTeX in text/ (formulas: docstrings)
    assert all("因果 mask" not in s and "对半" not in s for s in T.ZH.values())


# ---------------------------------------------------------------- packed sequences (issue 23)
def _pack_scene(name):
    sc = next(s for s in scenes.SCENES["lab"] if s["title"] == f"lab.scene.{name}")["values"]
    return sc, dict(method=sc["lab_method"], rope_layout=sc["lab_layout"], ids=sc["lab_pack_ids"],
                    mask=sc["lab_pack_mask"], ranks=sc["lab_pack_ranks"], restart=sc["lab_pack_restart"],
                    source_offset=sc["lab_pack_off"], num_heads=sc["lab_heads"], head_dim=sc["lab_dim"],
                    max_length=sc["lab_maxlen"])


def test_packed_rows_add_the_ids_fed_and_the_ranks():
    pk = V.packed.uncached(S_A, S_B, 100)
    labels = {k: k for k in ("token", "segment", "fed", "rank") + V.PACK_CONTRACTS}
    run = V.pack_run.uncached(S_A, S_B, ids="from0", ranks=2, restart=True)
    rows = V.packed_rows(pk, names=("A", "B"), row_labels=labels, run=run)
    assert [r[""] for r in rows] == ["token", "segment", "global", "reset", "source", "fed", "rank"]
    assert [rows[-2][str(t)] for t in range(8)] == ["0", "1", "2", "3", "0", "1", "2", "3"]
    assert [rows[-1][str(t)] for t in range(8)] == ["0"] * 4 + ["1"] * 4
    one = V.packed_rows(pk, names=("A", "B"), row_labels=labels, run=V.pack_run.uncached(S_A, S_B))
    assert [r[""] for r in one][-1] == "fed"                                  # one rank: no rank line


def test_pack_setup_columns():
    assert V.pack_setup("reset", "block", 1, False) == 0
    assert V.pack_setup("reset", "block", 3, False) == 0                      # sliced ids: one device's numbers
    assert V.pack_setup("reset", "block", 2, True) == len(V.PACK_SETUPS) - 1
    assert V.pack_setup("source", "causal", 1, False) is None


@pytest.mark.parametrize("lang", text.LANGS)
def test_pack_leak_scene_numbers(lang):
    sc, kw = _pack_scene("pack_leak")
    a, b = DEFAULTS[lang]
    run = V.pack_run.uncached(a, b, **kw)
    table = V.pack_table(a, b, source_offset=kw["source_offset"], num_heads=kw["num_heads"],
                                  head_dim=kw["head_dim"], max_length=kw["max_length"])
    say = text.get(lang, "lab.scene.pack_leak.say")
    assert run["doc_max"][0] < V.HARMLESS and f"{run['doc_max'][1]:.2f}" == "0.77" and "0.77" in say
    rows = {m if m != "rope" else f"rope_{lay}": i for i, (m, lay) in enumerate(V.SUMMARY_ROWS)}
    leak, from0 = V.pack_setup("reset", "causal", 1, False), V.pack_setup("from0", "block", 1, False)
    assert run["setup"] == leak
    assert (table["err"][:, leak] > V.HARMFUL).all() and f"{table['err'][rows['nope'], leak]:.2f}" == "0.61"
    assert [f"{table['err'][rows[m], from0]:.2f}" for m in ("sinusoidal", "learned")] == ["0.75", "1.15"]
    assert all(table["err"][rows[m], from0] < V.HARMLESS for m in ("rope_interleaved", "rope_half", "alibi", "t5"))
    for number in ("0.61", "0.75", "1.15"):
        assert number in say


@pytest.mark.parametrize("lang", text.LANGS)
def test_pack_cp_scene_numbers(lang):
    sc, kw = _pack_scene("pack_cp")
    a, b = DEFAULTS[lang]
    run = V.pack_run.uncached(a, b, **kw)
    on_rank1 = [i for i, r in enumerate(run["rank"]) if r == 1]
    assert kw["ranks"] == 2 and on_rank1 == [4, 5, 6, 7] and run["segments"][3:] == [1] * 5   # B's last 4 tokens
    assert [run["ids_fed"][i] for i in on_rank1] == [0, 1, 2, 3]                              # instead of 1..4
    assert V.pack_run.uncached(a, b, **{**kw, "restart": False})["ids_fed"][4:] == [1, 2, 3, 4]
    rank0 = [e for i, e in enumerate(np.concatenate(run["errors"])) if run["rank"][i] == 0]
    assert max(rank0) < V.HARMLESS and f"{run['doc_max'][1]:.2f}" == "0.57"
    say = text.get(lang, "lab.scene.pack_cp.say")
    for number in ("2", "4", "0…3", "1…4", "0.57"):
        assert number in say

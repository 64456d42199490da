"""posviz.views.relative: plain outputs, and every number the page's narration states, computed by the
same functions the figures draw (so text and figure cannot drift apart)."""
import numpy as np
import pytest

from posviz import text
from posviz.pe import relative as rel
from posviz.scenes.relative import SCENES
from posviz.views import relative as V

SCENE = {sc["title"].rsplit(".", 1)[1]: sc for sc in SCENES["relative"]}


def say(name, lang):
    return text.get(lang, SCENE[name]["say"])


def test_outputs_are_plain():
    for out in (V.positions.uncached(4, 9, 3), V.shaw.uncached(4, 9, 2), V.t5.uncached(4, 9, True, 32, 128),
                V.alibi.uncached(12, 5, 4, 9), V.mask.uncached(4, 9)):
        for key, value in out.items():
            assert not hasattr(value, "detach"), key                       # no torch tensors
    pos = V.positions.uncached(4, 9, 3)
    assert pos["distance"].shape == (4, 9) and pos["query_pos"].tolist() == [8, 9, 10, 11]
    assert pos["zrange"] == (-8, 8) and pos["naive_last"] == 3
    m = V.mask.uncached(3, 5)
    np.testing.assert_allclose(m["weight"], [1 / 3, 1 / 4, 1 / 5])             # 1/(i+1), queries at 2, 3, 4
    assert m["mask"].dtype == np.float32 and m["mask"].sum() == 3 + 4 + 5


def test_t5_table_spans():
    rows = V.t5.uncached(4, 4, True, 32, 128)["rows"]
    assert rows[8]["span"] == "8 … 11" and rows[15]["span"] == "91 … ∞" and rows[15]["count"] == "∞"
    assert rows[31]["span"] == "−∞ … −91" and rows[16]["span"] is None and rows[16]["count"] == "0"
    assert rows[0]["span"] == "0" and rows[17]["span"] == "−1"


@pytest.mark.parametrize("H", [1, 2, 8, 12, 20, 128])
def test_alibi_order_follows_the_slopes(H):
    o = V.alibi_order.uncached(H)
    m = rel.alibi_slopes(H).double().numpy()
    assert o["steep"] == int(np.argmax(m)) + 1 and o["flat"] == int(np.argmin(m)) + 1
    assert o["sorted"] == (H & (H - 1) == 0)                             # in head order exactly for 2^a heads
    assert o["steeper"] == [int((m > x).sum()) for x in m]


def test_alibi_12_heads_interleaved_slopes_break_the_order():
    o = V.alibi_order.uncached(12)
    assert not o["sorted"] and o["steep"] == 9 and o["flat"] == 8
    assert o["m_steep"] == "0.707" and o["m_flat"] == "0.00391"
    a = V.alibi.uncached(12, 12, 4, 4)
    assert a["slope"] == "0.0884" and a["steeper"] == 6                  # head 12 is middling, not steep


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_alibi_scene_narration_states_the_computed_slopes(lang):
    values = SCENE["alibi"]["values"]
    H, h = values["rel_heads"], values["rel_head"]
    o = V.alibi_order.uncached(H)
    a = V.alibi.uncached(H, h, values["rel_L"], values["rel_L"])
    s = say("alibi", lang)
    fill = [V.slope_text(x) for x in o["slopes"][o["n_base"]:]]
    assert ("、" if lang == "zh" else ", ").join(fill) in s                   # 0.707, 0.354, 0.177, 0.0884
    assert f"1–{o['n_base']}" in s and f"{o['n_base'] + 1}–{H}" in s and f"{2 * o['n_base']}" in s
    if lang == "en":
        assert f"head {o['steep']} (m = {o['m_steep']}) is the steepest" in s
        assert f"head {o['flat']} (m = {o['m_flat']}) is the flattest" in s
        assert f"head {h}, whose bias is drawn, is middling (m = {a['slope']}; {a['steeper']} of the {H} heads" in s
    else:
        assert f"第 {o['steep']} 个头（m = {o['m_steep']}）最陡" in s
        assert f"第 {o['flat']} 个头（m = {o['m_flat']}）最平" in s
        assert f"画出偏置的第 {h} 个头居中（m = {a['slope']}；{H} 个头中有 {a['steeper']} 个比它陡）" in s
    assert "12 个头很陡" not in s and "Head 12 is steep" not in s


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_other_scene_numbers(lang):
    v = SCENE["shaw"]["values"]
    L, k = v["rel_L"], v["rel_k"]
    sh = V.shaw.uncached(L, L, k)
    assert sh["summary"]["pairs"] == 144 and sh["summary"]["rows"] == sh["summary"]["rows_used"] == 5
    assert sh["index_max"] == 4 and f"{L} × {L}" in say("shaw", lang) and L * L == 144
    assert "row 4" in say("shaw", lang) or "第 4 行" in say("shaw", lang)
    v = SCENE["t5"]["values"]
    t5 = V.t5.uncached(v["rel_L"], v["rel_L"], v["rel_t5_bidir"], v["rel_t5_nb"], v["rel_t5_md"])
    assert f"0–{t5['max_exact'] - 1}" in say("t5", lang) and f"{t5['last_start']}" in say("t5", lang)
    v = SCENE["t5causal"]["values"]
    t5 = V.t5.uncached(v["rel_L"], v["rel_L"], v["rel_t5_bidir"], v["rel_t5_nb"], v["rel_t5_md"])
    assert {r["side"] for r in t5["rows"]} == {"past"} and len(t5["rows"]) == 32 and "32" in say("t5causal", lang)
    assert t5["buckets"][np.triu_indices(v["rel_L"], 1)].max() == 0          # every future key in bucket 0
    v = SCENE["decode"]["values"]
    pos = V.positions.uncached(v["rel_L"], v["rel_L"] + v["rel_past"], v["rel_shift"])
    first, last = pos["query_pos"][0], pos["query_pos"][-1]
    assert f"{first}–{last}" in say("decode", lang) and f"{v['rel_L'] + v['rel_past']}" in say("decode", lang)


def test_shaw_row_and_the_side_panel_are_mirror_images_and_the_page_says_so():
    """Issue 26 item 4: the Shaw panel shows the table row clip(j − i, −k, k) + k (the paper's sign), the
    side-by-side panel clip(i − j, −k, k) (the articles'): the side panel is k − row, and both texts say why."""
    for L, S, k in ((12, 12, 2), (4, 32, 4), (8, 8, 3)):
        sh = V.shaw(L, S, k)
        assert (sh["clipped"] == k - sh["index"]).all()
        d = V.positions(L, S, 0)["distance"]                                   # i − j
        assert (sh["clipped"] == d.clip(-k, k)).all()
    assert V.shaw(12, 12, 3)["index"][5, 2] == 3 - 3                            # i − j = 3 reads row k − 3
    for lang in text.LANGS:
        md = text.get(lang, "relative.shaw.md")
        assert "j − i" in md and "i − j" in md and "k − 3" in md, lang
        assert text.get(lang, "relative.fig.side.shaw", k=2).endswith(("2 − table row", "2 − 表的行号")), lang


def test_only_t5_and_alibi_bias_the_score_matrix_shaw_adds_inside_k_and_v():
    """Issue 26 item 3: Shaw adds learned vectors inside the key (and value) computation (the articles' table:
    加到 K/V 计算), not a bias on the score matrix."""
    for key in ("overview.where.text", "relative.intro"):
        for lang in text.LANGS:
            s = text.get(lang, key)
            assert "(Shaw, T5, ALiBi)" not in s and "（Shaw、T5、ALiBi）" not in s and "三者都作用" not in s
            assert "All three act" not in s
    en, zh = text.get("en", "overview.where.text"), text.get("zh", "overview.where.text")
    assert "(T5, ALiBi)" in en and "key (and value)" in en and "（T5、ALiBi）" in zh and "K/V" in zh

"""posviz.views.kv_cache's evicted caches and draft trees, posviz.views.lab's angles (issue 37): the numbers their
scenes' narrations state, computed by the views the figures draw."""
from posviz import text
from posviz.scenes.kv_cache import SCENES as KV
from posviz.scenes.lab import SCENES as LAB
from posviz.views import kv_cache as K
from posviz.views import lab as L

KV_SCENE = {sc["title"].rsplit(".", 1)[1]: sc["values"] for sc in KV["kv_cache"]}
LAB_SCENE = {sc["title"].rsplit(".", 1)[1]: sc["values"] for sc in LAB["lab"]}


def test_evict_scene():
    v = KV_SCENE["evict"]
    ev = K.evicted.uncached(v["kv_ev_P"], v["kv_ev_start"], v["kv_ev_count"], v["kv_ev_policy"],
                            heads=v["kv_heads"], head_dim=v["kv_head_dim"])
    s = ev["said"]
    assert ev["evicted"] == list(range(8, 14)) and (s["n"], s["cache"], s["t"]) == (6, 18, 39)
    assert (s["q_keep"], s["q_moved"]) == (39, 33)
    assert ev["max_position_error"]["keep"] == 0.0 and s["renumber"] > 1e-3
    for lang in text.LANGS:
        for n in ("24", "8", "13", "16", "6", "33", "39"):
            assert n in text.get(lang, "kv_cache.scene.evict.say"), (lang, n)
    none = K.evicted.uncached(10, 4, 0, "span")
    assert none["case"] == "none" and max(max(e) for e in none["errors"].values()) < 1e-5


def test_tree_scene():
    v = KV_SCENE["tree"]
    tr = K.tree.uncached(v["kv_tree_P"], v["kv_tree_shape"], v["kv_tree_setup"])
    s = tr["said"]
    assert (s["N"], s["P"], s["wrong_ids"], s["first_ids"]) == (7, 6, 5, 2)
    assert tr["position_ids"]["depth"][1:3] == [7, 7] and tr["position_ids"]["consecutive"][2] == 8
    assert tr["wrong"]["correct"] == [] and tr["labels"][2] == "n2·p8"
    for lang in text.LANGS:
        for n in ("2 × 2", "7", "6", "8", "5"):
            assert n in text.get(lang, "kv_cache.scene.tree.say"), (lang, n)


def test_angles_scene():
    v = LAB_SCENE["angles"]
    an = L.angles.uncached(v["lab_dtype"], v["lab_dim"], v["lab_offset"])
    s = an["said"]
    assert an["case"] == "noise" and (s["first"], s["half"]) == (104, 514) and s["table"] < 0.003
    assert s["f32"] < s["table"] < s["lowp"]
    for lang in text.LANGS:
        for n in ("104", "514", "0.003", "8192", "16"):
            assert n in text.get(lang, "lab.scene.angles.say"), (lang, n)
    assert L.angles.uncached("float16", 16, 512)["case"] in ("drift", "small")

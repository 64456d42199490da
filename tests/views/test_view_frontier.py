"""posviz.views.frontier: the composed sequence's 3-D ids and blocks, the pair layouts and wavelengths by axis,
the angle map, MLA's numbers; and every number each scene's narration states (posviz.scenes.frontier), read
off the view in both languages."""
import math

import numpy as np
import pytest
import torch

from posviz import text
from posviz.pe import models as gallery
from posviz.pe import position_ids, rope
from posviz.pe.rope_config import read_model_rope
from posviz.scenes.frontier import SCENES
from posviz.validate import PosvizError
from posviz.views import frontier as view


def _seq(values):
    return view.sequence(values["frontier_model"], values["frontier_text"], values["frontier_image"],
                         values["frontier_frames"], values["frontier_video"], values["frontier_fps"])


def _scene(name):
    return next(sc for sc in SCENES["frontier"] if sc["title"] == f"frontier.scene.{name}")


def _say(name, lang):
    return text.get(lang, f"frontier.scene.{name}.say")


def test_compose_and_sequence():
    assert view.compose(3, "none", 0, "4x4") == [("text", 3)]
    assert view.compose(2, "8x12", 3, "4x8") == [("text", 2), ("image", (1, 8, 12)), ("text", 2),
                                                  ("video", (3, 4, 8)), ("text", 2)]
    s = view.sequence("qwen3_5", 2, "8x12", 3, "4x8")
    assert s["length"] == 2 + 24 + 2 + 3 * 8 + 2 and s["ids"].shape == (3, s["length"])
    assert list(np.bincount(s["kinds"])) == [6, 24, 24]
    ids, nxt = position_ids.mrope_position_ids(view.compose(2, "8x12", 3, "4x8"), model="qwen3_vl")
    assert np.array_equal(s["ids"], ids.numpy()) and s["next"] == nxt


@pytest.mark.parametrize("bad", [dict(n_text=0), dict(n_text=33), dict(image="7x7"), dict(frames=9),
                                 dict(video="16x16"), dict(fps=3.0), dict(model="qwen9")])
def test_sequence_refuses_what_the_page_never_offers(bad):
    args = dict(model="qwen2_vl", n_text=4, image="8x8", frames=2, video="4x4", fps=2.0) | bad
    with pytest.raises(PosvizError):
        view.sequence(**args)


def test_presets_match_the_gallery_and_transformers_defaults():
    """The Qwen2-VL / Qwen2.5-VL presets are the gallery's config files, read as transformers reads them."""
    for key, entry in (("qwen2_vl", "qwen2_vl_7b"), ("qwen2_5_vl", "qwen25_vl_7b")):
        m = read_model_rope(gallery.GALLERY[entry]["config"])
        p = view.MROPE_PRESETS[key]
        assert m.mrope_section == list(p["sections"]) and m.head_dim == p["head_dim"] == m.rotary_dim
        assert m.rope[m.layer_rope[0]].rope_parameters["rope_theta"] == p["theta"]
    for p in view.MROPE_PRESETS.values():
        assert sum(p["sections"]) == p["rotary_dim"] // 2


def test_pair_layouts_and_wavelengths():
    rows = {r["model"]: r for r in view.pair_layouts()}
    assert list(rows["qwen2_vl"]["axes"][:17]) == [0] * 16 + [1]
    assert list(rows["qwen3_vl"]["axes"][:6]) == [0, 1, 2, 0, 1, 2]
    assert len(rows["qwen3_5"]["axes"]) == 32
    w = view.axis_wavelengths("qwen3_5")
    assert w["wavelengths"][0] == pytest.approx(2 * math.pi) and w["wavelengths"].size == 32
    assert [r["pairs"] for r in w["summary"]] == [11, 11, 10]


def test_angle_map_is_mrope_angles():
    an = view.angles("qwen3_vl", 3, "8x8", 2, "4x4")
    s = view.sequence("qwen3_vl", 3, "8x8", 2, "4x4")
    phi = rope.mrope_angles(torch.as_tensor(s["ids"]), rope.rope_inv_freq(128, 5e6), [24, 20, 20], interleaved=True)
    cos = an["cos"]
    assert cos.shape == (view.FAST_PAIRS, s["length"]) and np.allclose(cos, phi[:, :view.FAST_PAIRS].cos().T.numpy())
    assert list(an["axes"][:6]) == [0, 1, 2, 0, 1, 2]
    inside = cos[:, 3:19]                                  # the image: 4 x 4 tokens
    assert np.allclose(inside[0], inside[0, 0])            # a temporal pair does not change inside an image
    assert not np.allclose(inside[1], inside[1, 0])        # a height pair does, from row to row
    assert np.allclose(inside[1, :4], inside[1, 0])        # but not along a row
    assert not np.allclose(inside[2, :4], inside[2, 0])    # a width pair does, along a row


def test_mla_model_numbers():
    m = view.mla_model("deepseek_v3")
    assert (m["latent"], m["rope"], m["nope"], m["heads"]) == (512, 64, 128, 128)
    assert m["bytes"]["mla"] == 576 * 61 * 2 and m["gib_128k"]["mha"] == pytest.approx(488.0)
    assert view.absorption()["whole"]["max"] > 1


# ---------------------------------------------------------------- the scenes' narration
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_image_scene(lang):
    v = _scene("image")["values"]
    s, say = _seq(v), _say("image", lang)
    (b,) = s["blocks"]
    assert v["frontier_model"] == "qwen2_vl" and v["frontier_text"] == 4 and v["frontier_image"] == "8x8"
    assert s["ids"][:, :4].tolist() == [[0, 1, 2, 3]] * 3
    assert (b["first"], b["last"], b["grid"], b["start"], b["resume"]) == (4, 19, (1, 4, 4), 4, 8)
    block = s["ids"][:, 4:20]
    assert set(block[0]) == {4} and (block[1].min(), block[1].max(), block[2].min(), block[2].max()) == (4, 7, 4, 7)
    assert s["next"] == 12 and b["last"] + 1 == 20
    for number in ("4", "8×8", "0–3", "2×2", "4×4 = 16", "4–19", "4–7", "8 = 4 + max(4, 4)", "20", "12"):
        assert number in say, number


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_video_scene(lang):
    v = _scene("video")["values"]
    s, say = _seq(v), _say("video", lang)
    (b,) = s["blocks"]
    assert v["frontier_model"] == "qwen2_5_vl" and v["frontier_fps"] == 1.0 and v["frontier_frames"] == 6
    assert s["seconds"] == 2.0 and s["tokens_per_second"] == 2 and s["stride"] == 4
    assert sorted(set(s["ids"][0, b["first"]:b["last"] + 1])) == [4, 8, 12, 16, 20, 24]
    assert (b["resume"], b["max"], s["next"], b["grid"]) == (6, 24, 25, (6, 2, 2))
    listed = "4, 8, …, 24" if lang == "en" else "4、8、……、24"
    for number in ("4", "6", "2×2", "2 × 2 = 4", listed, "4 + max(2, 2) = 6", "24", "25", "1 fps",
                   "2 s" if lang == "en" else "2 秒"):
        assert number in say, number


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_frames_scene(lang):
    v = _scene("frames")["values"]
    s, say = _seq(v), _say("frames", lang)
    (b,) = s["blocks"]
    starts = [int(s["ids"][0, b["first"] + 4 * k]) for k in range(6)]
    assert v["frontier_model"] == "qwen3_vl" and starts == [4, 6, 8, 10, 12, 14] and s["stride"] == 2
    assert all(s["ids"][1, b["first"] + 4 * k] == starts[k] for k in range(6))   # each frame starts like an image
    assert (b["resume"], s["next"]) == (16, 20)
    sep = "、" if lang == "zh" else ", "
    for number in (sep.join(map(str, starts)), "max(2, 2) = 2", "16", "20", "6"):
        assert number in say, number


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_blocks_scene(lang):
    v = _scene("blocks")["values"]
    assert v["frontier_model"] == "qwen2_vl" and _scene("blocks")["show"] == "frontier_wave"
    t, h, w = view.axis_wavelengths("qwen2_vl")["summary"]
    say = _say("blocks", lang)
    assert (t["first"], t["last"], h["first"], h["last"], w["first"], w["last"]) == (0, 15, 16, 39, 40, 63)
    assert f"{t['fastest']:.1f}" == "6.3" and f"{t['slowest']:.0f}" == "160"
    assert f"{h['fastest']:.1f}" == "198.7" and f"{h['slowest']:,.0f}" == "28,473"
    assert f"{w['fastest']:,.0f}" == "35,333"
    for number in ("0–15", "16–39", "40–63", "6.3", "160", "198.7", "28,473", "35,333"):
        assert number in say, number
    assert (f"{w['slowest'] / 1e6:.2f} million" if lang == "en" else f"{w['slowest'] / 1e4:.0f} 万") in say


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_interleaved_scene(lang):
    v = _scene("interleaved")["values"]
    assert v["frontier_model"] == "qwen3_vl"
    summary = view.axis_wavelengths("qwen3_vl")["summary"]
    say = _say("interleaved", lang)
    assert [r["pairs"] for r in summary] == [24, 20, 20] and [r["first"] for r in summary] == [0, 1, 2]
    for r in summary:
        assert f"{r['fastest']:.1f}" in say
        assert (f"{r['slowest'] / 1e6:.1f}" if lang == "en" else f"{round(r['slowest'] / 1e5) * 10:,} 万") in say
        assert str(r["pairs"]) in say
    assert min(r["slowest"] for r in summary) > 7e6


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_cache_scene(lang):
    m = view.mla_model(_scene("cache")["values"]["frontier_mla"])
    c, say = m["cache"], _say("cache", lang)
    assert m["name"] == "DeepSeek-V3"
    for number in (f"{c['latent']} + {c['rope']} = {c['mla']}", f"2 · {m['heads']} · {m['nope']} = {c['mha']:,}",
                   f"{c['ratio']:.1f}", f"{c['expanded']:,}", str(c["layers"]), f"{m['bytes']['mla'] / 1024:.1f} KiB",
                   f"{m['bytes']['mha'] / 2**20:.1f} MiB", f"{m['gib_128k']['mla']:.1f} GiB",
                   f"{m['gib_128k']['mha']:.0f} GiB"):
        assert number in say, number


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_absorb_scene(lang):
    ab, say = view.absorption(), _say("absorb", lang)
    assert ab["none"]["max"] < 1e-14 and ab["decoupled"]["max"] < 1e-14 and "10⁻¹⁴" in say
    assert ab["whole"]["error"][0] < 1e-6
    assert f"{ab['whole']['error'][1]:.0%}" in say and f"{ab['whole']['max']:.0%}" in say


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_scale_scene(lang):
    say = _say("scale", lang)
    v3, v2, kimi = (view.mla_model(k)["scale"] for k in ("deepseek_v3", "deepseek_v2", "kimi_k2"))
    assert _scene("scale")["values"]["frontier_mla"] == "kimi_k2"
    assert v3["qk_head_dim"] == v2["qk_head_dim"] == kimi["qk_head_dim"] == 192
    assert f"{v3['plain']:.4f}" == "0.0722" and "0.0722" in say
    for s in (v3, v2, kimi):
        assert f"{s['factor']:.3f}" in say
    for s in (v3, kimi):
        assert f"{s['scale']:.4f}" in say
    assert view.mla_model("kimi_k2")["rope_parameters"]["factor"] == 64 and "×64" in say and "×40" in say
    assert view.mla_model("deepseek_v2")["rope_parameters"]["mscale_all_dim"] == 0.707 and "0.707" in say

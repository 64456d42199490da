"""View of the page of today's mechanisms (app_pages/frontier.py): M-RoPE's 3-D position ids of a sequence the
user composes (text, an image, a video), which frequency pair follows which axis (blocks or interleaved), and
MLA's decoupled RoPE (the cache per token, absorbing W_UK with and without RoPE, the softmax scale).

Plain arguments in, plain numbers / numpy arrays / dicts out.
"""
import math

import numpy as np
import torch

from posviz.pe import mla, position_ids, rope
from posviz.validate import check_choice, check_int
from posviz.views import cached

# The models' M-RoPE settings, from their published config.json files (text_config: head_dim, rope_theta,
# mrope_section, mrope_interleaved, partial_rotary_factor; vision_config: spatial_merge_size 2, and
# Qwen2.5-VL's tokens_per_second). "index": the get_rope_index that positions its tokens (Qwen3.5's is
# Qwen3-VL's, the same code in transformers 5.24).
MROPE_PRESETS = {
    "qwen2_vl": {"name": "Qwen2-VL 7B", "index": "qwen2_vl", "head_dim": 128, "rotary_dim": 128, "theta": 1e6,
                 "sections": (16, 24, 24), "interleaved": False, "tokens_per_second": None,
                 "source": "https://huggingface.co/Qwen/Qwen2-VL-7B-Instruct/blob/main/config.json"},
    "qwen2_5_vl": {"name": "Qwen2.5-VL 7B", "index": "qwen2_5_vl", "head_dim": 128, "rotary_dim": 128, "theta": 1e6,
                   "sections": (16, 24, 24), "interleaved": False, "tokens_per_second": 2,
                   "source": "https://huggingface.co/Qwen/Qwen2.5-VL-7B-Instruct/blob/main/config.json"},
    "qwen3_vl": {"name": "Qwen3-VL 8B", "index": "qwen3_vl", "head_dim": 128, "rotary_dim": 128, "theta": 5e6,
                 "sections": (24, 20, 20), "interleaved": True, "tokens_per_second": None,
                 "source": "https://huggingface.co/Qwen/Qwen3-VL-8B-Instruct/blob/main/config.json"},
    "qwen3_5": {"name": "Qwen3.5 397B-A17B", "index": "qwen3_vl", "head_dim": 256, "rotary_dim": 64, "theta": 1e7,
                "sections": (11, 11, 10), "interleaved": True, "tokens_per_second": None,
                "source": "https://huggingface.co/Qwen/Qwen3.5-397B-A17B/blob/main/config.json"},
}
MROPE_MODELS = tuple(MROPE_PRESETS)
AXES = rope.MROPE_AXES
MERGE = 2                      # spatial_merge_size of every preset: 2 x 2 patches make one token
TEMPORAL_PATCH = 2             # frames per temporal patch: seconds per temporal patch = 2 / fps
IMAGE_GRIDS = ("none", "4x4", "4x8", "8x8", "8x12", "12x8", "16x16")     # patch grids h x w (image_grid_thw)
VIDEO_GRIDS = ("4x4", "4x8", "8x8", "8x12")
FPS = (0.5, 1.0, 2.0, 4.0)
MAX_TEXT, MAX_FRAMES = 32, 8
MLA_MODELS = mla.MLA_MODELS
KINDS = ("text", "image", "video")


def _grid(code, options):
    """"8x12" -> (8, 12): a patch grid of the page's options."""
    check_choice("grid", code, options)
    h, w = code.split("x")
    return int(h), int(w)


def compose(n_text, image, frames, video):
    """The page's sequence as segments: text, [an image, text], [a video, text]."""
    n_text = check_int("text tokens", n_text, 1, MAX_TEXT)
    frames = check_int("frames", frames, 0, MAX_FRAMES)
    segs = [("text", n_text)]
    if image != "none":
        segs += [("image", (1, *_grid(image, IMAGE_GRIDS))), ("text", n_text)]
    if frames:
        segs += [("video", (frames, *_grid(video, VIDEO_GRIDS))), ("text", n_text)]
    return segs


@cached
def sequence(model, n_text, image, frames, video, fps=2.0):
    """The 3-D ids of the composed sequence -> {"ids" [3, L], "next", "kinds" [L] (0 text, 1 image, 2 video),
    "blocks": per image / video {"kind", "first", "last" (token indices), "start" (s), "grid" (t, h', w'),
    "max" (largest id), "resume" (the id of the text token after it)}, "stride" (temporal step of a video)}."""
    check_choice("model", model, MROPE_MODELS)
    p = MROPE_PRESETS[model]
    check_choice("fps", fps, FPS)
    segs = compose(n_text, image, frames, video)
    seconds = TEMPORAL_PATCH / fps if p["index"] == "qwen2_5_vl" else None
    ids, nxt = position_ids.mrope_position_ids(segs, model=p["index"], spatial_merge_size=MERGE,
                                               tokens_per_second=p["tokens_per_second"], second_per_grid=seconds)
    ids = ids.numpy()
    kinds, blocks, at = [], [], 0
    for kind, value in segs:
        n = value if kind == "text" else value[0] * value[1] * value[2] // MERGE ** 2
        kinds += [KINDS.index(kind)] * n
        if kind != "text":
            block = ids[:, at:at + n]
            blocks.append({"kind": kind, "first": at, "last": at + n - 1, "start": int(block[1].min()),
                           "grid": (value[0], value[1] // MERGE, value[2] // MERGE), "max": int(block.max()),
                           "resume": int(ids[0, at + n])})
        at += n
    video = [b for b in blocks if b["kind"] == "video"]
    stride = None
    if video and video[0]["grid"][0] > 1:
        per_frame = video[0]["grid"][1] * video[0]["grid"][2]
        stride = int(ids[0, video[0]["first"] + per_frame] - ids[0, video[0]["first"]])
    return {"ids": ids, "next": nxt, "kinds": np.asarray(kinds), "blocks": blocks, "length": ids.shape[1],
            "stride": stride, "seconds": seconds, "tokens_per_second": p["tokens_per_second"]}


def _inv_freq(model):
    p = MROPE_PRESETS[model]
    return rope.rope_inv_freq(p["rotary_dim"], p["theta"])                          # [d/2]


@cached(max_entries=8)
def pair_layouts():
    """Every preset's axis per pair -> [{"model", "name", "sections", "interleaved", "axes" [d/2]}]."""
    out = []
    for key, p in MROPE_PRESETS.items():
        axes = rope.mrope_pair_axes(p["sections"], interleaved=p["interleaved"]).numpy()   # [d/2]
        out.append({"model": key, "name": p["name"], "sections": list(p["sections"]),
                    "interleaved": p["interleaved"], "axes": axes})
    return out


@cached(max_entries=8)
def axis_wavelengths(model):
    """The preset's pair wavelengths and axes, and per axis its pairs' count and fastest / slowest wavelength
    -> {"wavelengths" [d/2], "axes" [d/2], "summary": [{"axis", "pairs", "fastest", "slowest", "first", "last"}]}."""
    check_choice("model", model, MROPE_MODELS)
    p = MROPE_PRESETS[model]
    lam = (2 * math.pi / _inv_freq(model).double()).numpy()                           # [d/2]
    axes = rope.mrope_pair_axes(p["sections"], interleaved=p["interleaved"]).numpy()  # [d/2]
    summary = []
    for a, name in enumerate(AXES):
        idx = np.nonzero(axes == a)[0]
        summary.append({"axis": name, "pairs": int(idx.size), "fastest": float(lam[idx].min()),
                        "slowest": float(lam[idx].max()), "first": int(idx.min()), "last": int(idx.max())})
    return {"wavelengths": lam, "axes": axes, "summary": summary, "name": p["name"],
            "sections": list(p["sections"]), "interleaved": p["interleaved"], "theta": p["theta"],
            "rotary_dim": p["rotary_dim"]}


FAST_PAIRS = 16           # the angle map's pairs: the fastest, whose angles visibly change over a few dozen tokens


@cached
def angles(model, n_text, image, frames, video, fps=2.0):
    """cos of the fastest pairs' angles at every token of the composed sequence (mrope_angles) and each pair's
    axis -> {"cos": [FAST_PAIRS, L] float32, "axes": [FAST_PAIRS]}."""
    p = MROPE_PRESETS[model]
    ids = torch.as_tensor(sequence(model, n_text, image, frames, video, fps)["ids"])   # [3,L]
    phi = rope.mrope_angles(ids, _inv_freq(model), p["sections"], interleaved=p["interleaved"])   # [L,d/2]
    axes = rope.mrope_pair_axes(p["sections"], interleaved=p["interleaved"])         # [d/2]
    return {"cos": phi[:, :FAST_PAIRS].cos().T.contiguous().numpy(), "axes": axes[:FAST_PAIRS].numpy()}


# ---------------------------------------------------------------- MLA
@cached
def mla_scales():
    """The softmax scale of every MLA model, one row each: name, YaRN factor (1: none), mscale_all_dim, 1/√d_qk,
    m² and the scale (mla_model's numbers) -> [dict]."""
    out = []
    for key in MLA_MODELS:
        m = mla_model(key)
        p = m["rope_parameters"]
        out.append({"name": m["name"], "factor": float(p.get("factor") or 1.0),
                     "mad": float(p.get("mscale_all_dim") or 0.0), "plain": m["scale"]["plain"],
                     "m2": m["scale"]["factor"], "scale": m["scale"]["scale"]})
    return out


@cached(max_entries=16)
def mla_model(model):
    """One MLA model: name, source, widths, cache per token and layer (and over all layers, in BF16 bytes),
    softmax scale."""
    m = mla.mla_config(model)
    cfg = m["config"]
    d = mla.mla_dims(cfg)
    cache = mla.mla_cache_per_token(cfg)
    per_token = {k: cache[k] * cache["layers"] * 2 for k in ("mla", "mha", "expanded")}   # bytes, BF16
    return {"name": m["name"], "source": m["source"], "heads": d["num_attention_heads"],
            "latent": d["kv_lora_rank"], "nope": d["qk_nope_head_dim"], "rope": d["qk_rope_head_dim"],
            "v": d["v_head_dim"], "cache": cache, "bytes": per_token,
            "gib_128k": {k: v * 131072 / 2**30 for k, v in per_token.items()},
            "scale": mla.mla_softmax_scale(cfg), "rope_parameters": d["rope_parameters"],
            "theta": cfg.get("rope_theta")}


@cached(max_entries=2)
def absorption():
    """mla.absorption_errors at DeepSeek-V3's widths (the same for every model of the page)."""
    return mla.absorption_errors()

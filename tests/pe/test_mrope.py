"""M-RoPE (posviz.pe.position_ids.mrope_position_ids, posviz.pe.rope.mrope_pair_axes / mrope_angles) against
transformers 5.24 itself: each model's own get_rope_index (the unbound method on a stand-in object that holds
only the config it reads; no weights) on many random text + image + video sequences, and each model's text
rotary embedding (its recomposition of the pairs by axis) on random sections, widths and ids. Hand-derived
cases and the validation of every argument too."""
import functools
import inspect
import logging
import random

import pytest
import torch
from transformers.models.qwen2_5_vl import Qwen2_5_VLConfig, Qwen2_5_VLModel
from transformers.models.qwen2_5_vl.configuration_qwen2_5_vl import Qwen2_5_VLVisionConfig
from transformers.models.qwen2_vl import Qwen2VLConfig, Qwen2VLModel
from transformers.models.qwen2_vl.configuration_qwen2_vl import Qwen2VLTextConfig
from transformers.models.qwen2_vl.modeling_qwen2_vl import Qwen2VLRotaryEmbedding
from transformers.models.qwen3_5.configuration_qwen3_5 import Qwen3_5TextConfig
from transformers.models.qwen3_5.modeling_qwen3_5 import Qwen3_5Model, Qwen3_5TextRotaryEmbedding
from transformers.models.qwen3_vl import Qwen3VLConfig, Qwen3VLModel
from transformers.models.qwen3_vl.configuration_qwen3_vl import Qwen3VLTextConfig
from transformers.models.qwen3_vl.modeling_qwen3_vl import Qwen3VLTextRotaryEmbedding

from posviz.pe import rope
from posviz.pe.position_ids import (
    MAX_MROPE_SEGMENTS,
    QWEN25_TOKENS_PER_SECOND,
    mrope_position_ids,
    vision_block_ids,
)
from posviz.validate import MAX_LENGTH, PosvizError

logging.getLogger("transformers").setLevel(logging.ERROR)

CASES_PER_MODEL = 400          # random sequences per model and setting, compared with transformers
ANGLE_CASES = 300              # random (width, sections, ids) per pair layout
HF = {"qwen2_vl": (Qwen2VLModel, Qwen2VLConfig), "qwen2_5_vl": (Qwen2_5_VLModel, Qwen2_5_VLConfig),
      "qwen3_vl": (Qwen3VLModel, Qwen3VLConfig)}
COUNTS = {}                    # cases compared, reported by test_case_counts


@functools.cache
def _stand_in(model, merge, tokens_per_second=None):
    """An object with transformers' own get_rope_index / get_vision_position_ids of `model` and the one
    thing they read: config.vision_config (spatial_merge_size, tokens_per_second)."""
    cls, config_cls = HF[model]
    vision = {"spatial_merge_size": merge}
    if tokens_per_second is not None:
        vision["tokens_per_second"] = tokens_per_second
    stand_in = type("RopeIndex", (), {"get_rope_index": cls.get_rope_index,
                                      "get_vision_position_ids": cls.get_vision_position_ids})()
    stand_in.config = config_cls(vision_config=vision)
    return stand_in


def transformers_ids(model, items, merge, tokens_per_second=None, seconds=None):
    """transformers' 3-D ids of a sequence `items` ([("text", n) | ("image", thw) | ("video", thw, gaps)]: gaps,
    Qwen3-VL only, the text between a video's frames as its processor writes them) -> (ids [3, L], next)."""
    types, images, videos = [], [], []
    for item in items:
        kind, value = item[0], item[1]
        if kind == "text":
            types += [0] * value
            continue
        t, h, w = value
        per_frame = h * w // merge ** 2
        (images if kind == "image" else videos).append(list(value))
        code = 1 if kind == "image" else 2
        if kind == "video" and model == "qwen3_vl":
            for k in range(t):
                types += [code] * per_frame + [0] * (item[2][k] if k < t - 1 else 0)
        else:
            types += [code] * (t * per_frame)
    mm = torch.tensor([types], dtype=torch.int32)
    kwargs = {"image_grid_thw": torch.tensor(images) if images else None,
              "video_grid_thw": torch.tensor(videos) if videos else None}
    if seconds is not None:
        kwargs["second_per_grid_ts"] = torch.tensor(seconds, dtype=torch.float32)   # as the processor returns it
    ids, delta = _stand_in(model, merge, tokens_per_second).get_rope_index(torch.zeros_like(mm, dtype=torch.long),
                                                                           mm, **kwargs)
    return ids[:, 0], int(delta[0, 0]) + len(types)


def ours(model, items, merge, **kw):
    """The same sequence as posviz's segments (a Qwen3-VL video's frames one by one, its gaps as text)."""
    segs = []
    for item in items:
        if item[0] == "video" and model == "qwen3_vl":
            t, h, w = item[1]
            for k in range(t):
                segs.append(("video", (1, h, w)))
                if k < t - 1:
                    segs.append(("text", item[2][k]))
        else:
            segs.append(item[:2])
    return mrope_position_ids(segs, model=model, spatial_merge_size=merge, **kw)


def random_items(rng, merge, max_items=7):
    """A random sequence: text runs, images and videos of random grids, no two blocks of the same kind
    next to each other (transformers groups consecutive tokens of one kind into one block)."""
    items, last = [], None
    for _ in range(rng.randint(1, max_items)):
        kinds = [k for k in ("text", "image", "video") if k != last or k == "text"]
        kind = rng.choice(kinds)
        if kind == "text":
            items.append(("text", rng.randint(1, 12)))
        else:
            t = 1 if kind == "image" and rng.random() < 0.8 else rng.randint(1, 9)
            grid = (t, merge * rng.randint(1, 6), merge * rng.randint(1, 6))
            items.append((kind, grid, [rng.randint(1, 8) for _ in range(t)]))
        last = kind
    return items


@pytest.mark.parametrize("model", ["qwen2_vl", "qwen2_5_vl", "qwen3_vl"])
def test_position_ids_equal_transformers_get_rope_index(model):
    rng = random.Random(f"mrope-{model}")
    n = 0
    for _ in range(CASES_PER_MODEL):
        merge = rng.choice([1, 2, 2, 2, 4])
        items = random_items(rng, merge)
        want, want_next = transformers_ids(model, items, merge)
        got, got_next = ours(model, items, merge)
        assert got.dtype == torch.long and torch.equal(got, want), (model, items)
        assert got_next == want_next, (model, items)
        n += 1
    COUNTS[model] = n


def test_qwen2_5_vl_time_stride_equals_transformers():
    """Qwen2.5-VL's videos: temporal ids k * tokens_per_second * second_per_grid, truncated (float32)."""
    rng = random.Random("mrope-time")
    n = 0
    for _ in range(CASES_PER_MODEL):
        merge = rng.choice([1, 2, 2])
        items = random_items(rng, merge)
        tps = rng.choice([1, 2, 4, 25])
        seconds = [rng.choice([0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 1 / 3]) for it in items if it[0] == "video"]
        want, want_next = transformers_ids("qwen2_5_vl", items, merge, tps, seconds)
        got, got_next = ours("qwen2_5_vl", items, merge, tokens_per_second=tps, second_per_grid=seconds)
        assert torch.equal(got, want) and got_next == want_next, (items, tps, seconds)
        n += 1
    COUNTS["qwen2_5_vl + seconds"] = n


def test_defaults_are_transformers_defaults():
    assert Qwen2_5_VLVisionConfig().tokens_per_second == QWEN25_TOKENS_PER_SECOND == 4
    items = [("text", 2), ("video", (3, 4, 4), [1, 1, 1]), ("text", 1)]
    assert torch.equal(ours("qwen2_5_vl", items, 2)[0], transformers_ids("qwen2_5_vl", items, 2)[0])
    assert ours("qwen2_5_vl", items, 2)[0][0, 2:14:4].tolist() == [2, 6, 10]     # stride 4 x 1 s


def test_hand_example_image():
    """4 text tokens, an 8x8-patch image (4x4 tokens after merging 2x2), 3 text tokens."""
    ids, nxt = mrope_position_ids([("text", 4), ("image", (1, 8, 8)), ("text", 3)])
    assert ids.shape == (3, 23)
    assert ids[:, :4].tolist() == [[0, 1, 2, 3]] * 3
    block = ids[:, 4:20]
    assert block[0].tolist() == [4] * 16                          # one frame: temporal id = start
    assert block[1].tolist() == [4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7]   # rows
    assert block[2].tolist() == [4, 5, 6, 7] * 4                  # columns
    assert ids[:, 20:].tolist() == [[8, 9, 10]] * 3               # resumes at 4 + max(4, 4), not at 20
    assert nxt == 11


def test_hand_example_video_models_differ():
    """A video of 6 temporal patches of 2x2 tokens after 2 text tokens, then 2 text tokens."""
    segs = [("text", 2), ("video", (6, 4, 4)), ("text", 2)]
    ids, nxt = mrope_position_ids(segs, model="qwen2_vl")
    assert ids[0, 2:26:4].tolist() == [2, 3, 4, 5, 6, 7]          # one temporal step per patch
    assert ids[:, 26:].tolist() == [[4, 5]] * 3 and nxt == 8      # text resumes at 2 + 2 (5.x), generation at 8
    ids, nxt = mrope_position_ids(segs, model="qwen2_5_vl", tokens_per_second=2, second_per_grid=1.0)
    assert ids[0, 2:26:4].tolist() == [2, 4, 6, 8, 10, 12] and nxt == 13
    ids, nxt = mrope_position_ids(segs, model="qwen3_vl")
    assert ids[0, 2:26:4].tolist() == [2, 4, 6, 8, 10, 12]        # each frame like an image: +max(h', w')
    assert ids[1, 2:26].tolist() == sum(([s, s, s + 1, s + 1] for s in (2, 4, 6, 8, 10, 12)), [])
    assert ids[:, 26:].tolist() == [[14, 15]] * 3 and nxt == 16


def test_qwen3_vl_video_is_its_frames_as_images():
    video, _ = mrope_position_ids([("text", 3), ("video", (4, 6, 4))], model="qwen3_vl")
    frames, _ = mrope_position_ids([("text", 3)] + [("video", (1, 6, 4))] * 4, model="qwen3_vl")
    images, _ = mrope_position_ids([("text", 3)] + [("image", (1, 6, 4))] * 4, model="qwen3_vl")
    assert torch.equal(video, frames) and torch.equal(video, images)


def test_pure_text_is_arange_and_vision_block_ids():
    ids, nxt = mrope_position_ids([("text", 5), ("text", 2)])
    assert torch.equal(ids, torch.arange(7).expand(3, -1)) and nxt == 7
    block = vision_block_ids(10, 2, 2, 3, 3)
    assert block.tolist() == [[10] * 6 + [13] * 6, [10, 10, 10, 11, 11, 11] * 2, [10, 11, 12] * 4]


@pytest.mark.parametrize("segments, kw, code", [
    ([], {}, "range"),
    ("text", {}, "mrope_segments"),
    ([("text", 1)] * (MAX_MROPE_SEGMENTS + 1), {}, "range"),
    ([("audio", 3)], {}, "mrope_segment"),
    ([("text",)], {}, "mrope_segment"),
    ([("text", 0)], {}, "range"),
    ([("text", 2.5)], {}, "integer"),
    ([("image", (1, 4))], {}, "mrope_grid"),
    ([("image", (1, 3, 4))], {}, "mrope_merge"),
    ([("image", (0, 4, 4))], {}, "range"),
    ([("image", (1, 4096, 4))], {}, "range"),
    ([("video", (200, 64, 64))], {}, "at_most"),
    ([("text", MAX_LENGTH), ("text", 1)], {}, "at_most"),
    ([("text", 1)], {"model": "qwen4"}, "choice"),
    ([("text", 1)], {"spatial_merge_size": 0}, "range"),
    ([("video", (2, 4, 4))], {"tokens_per_second": 0}, "range"),
    ([("video", (2, 4, 4))], {"second_per_grid": float("nan")}, "finite"),
    ([("video", (2, 4, 4))], {"second_per_grid": 0}, "above"),
    ([("video", (2, 4, 4))], {"second_per_grid": [1.0, 2.0]}, "mrope_per_video"),
])
def test_bad_input_is_a_coded_error(segments, kw, code):
    with pytest.raises(PosvizError) as e:
        mrope_position_ids(segments, **kw)
    assert e.value.code == code
    assert e.value.message("zh") != e.value.message("en")


# ---------------------------------------------------------------- angles: which pair follows which axis
def _hf_rotary(layout, head_dim, theta, sections, partial=1.0):
    """transformers' text rotary embedding of the layout: Qwen2-VL's blocks, Qwen3-VL's / Qwen3.5's interleaving."""
    params = {"rope_type": "default", "rope_theta": theta, "mrope_section": list(sections)}
    if layout == "blocks":
        return Qwen2VLRotaryEmbedding(Qwen2VLTextConfig(hidden_size=2 * head_dim, num_attention_heads=2,
                                                        num_key_value_heads=2, rope_parameters=params))
    params["mrope_interleaved"] = True
    if layout == "qwen3_5":
        params["partial_rotary_factor"] = partial
        return Qwen3_5TextRotaryEmbedding(Qwen3_5TextConfig(head_dim=head_dim, rope_parameters=params))
    return Qwen3VLTextRotaryEmbedding(Qwen3VLTextConfig(head_dim=head_dim, rope_parameters=params))


def _random_sections(rng, pairs):
    a = rng.randint(1, pairs - 2)
    b = rng.randint(1, pairs - a - 1)
    return [a, b, pairs - a - b]


@pytest.mark.parametrize("layout", ["blocks", "interleaved", "qwen3_5"])
def test_angles_equal_transformers_rotary_recomposition(layout):
    rng = random.Random(f"angles-{layout}")
    n = 0
    for _ in range(ANGLE_CASES):
        head_dim = rng.choice([16, 32, 64, 128, 256])
        partial = rng.choice([0.25, 0.5, 1.0]) if layout == "qwen3_5" else 1.0
        rotary = int(head_dim * partial)
        if rotary < 8:
            rotary, partial = head_dim, 1.0
        pairs = rotary // 2
        sections = _random_sections(rng, pairs)
        theta = rng.choice([1e4, 1e6, 5e6, 1e7])
        emb = _hf_rotary(layout, head_dim, theta, sections, partial)
        inv = rope.rope_inv_freq(rotary, theta)
        assert torch.equal(inv, emb.inv_freq)
        model = "qwen3_vl" if layout != "blocks" else rng.choice(["qwen2_vl", "qwen2_5_vl"])
        ids, _ = ours(model, random_items(rng, 2), 2)
        got = rope.mrope_angles(ids, inv, sections, interleaved=layout != "blocks")   # [L, d/2]
        freqs = ids[:, None, :, None].float() * emb.inv_freq                           # [3,1,L,d/2]
        want = emb.recomposition_frequencies(freqs)[0, :, :pairs]                      # [L, d/2]
        assert got.dtype == torch.float32 and torch.equal(got, want), (layout, head_dim, sections)
        cos, sin = emb(torch.zeros(1, dtype=torch.float32), ids[:, None, :])           # [1,L,d]
        assert torch.allclose(cos[0, :, :pairs], got.cos(), rtol=0, atol=1e-6)
        assert torch.allclose(sin[0, :, :pairs], got.sin(), rtol=0, atol=1e-6)
        n += 1
    COUNTS[f"angles {layout}"] = n


@pytest.mark.parametrize("name, sections, interleaved, counts", [
    ("Qwen2-VL", [16, 24, 24], False, [16, 24, 24]),
    ("Qwen3-VL", [24, 20, 20], True, [24, 20, 20]),
    ("Qwen3.5", [11, 11, 10], True, [11, 11, 10]),
])
def test_real_layouts(name, sections, interleaved, counts):
    axis = rope.mrope_pair_axes(sections, interleaved=interleaved)
    assert torch.bincount(axis, minlength=3).tolist() == counts
    if interleaved:
        assert axis[:6].tolist() == [0, 1, 2, 0, 1, 2]              # every axis has a fast pair
        for a in range(3):                                          # and a slow one, near the end
            assert int(torch.nonzero(axis == a).max()) >= len(axis) - 6
    else:
        assert axis[:16].tolist() == [0] * 16 and axis[-24:].tolist() == [2] * 24


def test_text_tokens_rotate_as_plain_rope():
    """On text, the three ids are equal: M-RoPE's angles are RoPE's, whatever the layout."""
    ids, _ = mrope_position_ids([("text", 40)])
    inv = rope.rope_inv_freq(128, 1e6)
    for sections, inter in (([16, 24, 24], False), ([24, 20, 20], True)):
        assert torch.equal(rope.mrope_angles(ids, inv, sections, interleaved=inter), rope.rope_angles(ids[0], 128,
                                                                                                       inv_freq=inv))


def test_qwen3_5_layout_against_its_model_class():
    """Qwen3.5 positions tokens with Qwen3-VL's get_rope_index (the same code in transformers 5.24)."""
    assert inspect.getsource(Qwen3_5Model.get_rope_index) == inspect.getsource(Qwen3VLModel.get_rope_index)


@pytest.mark.parametrize("args, code", [
    (([[0, 1]], [1.0], [1, 0, 0]), "mrope_position_shape"),
    (([[0], [0], [0]], [1.0, 0.5], [1, 1, 1]), "mrope_sections"),
    (([[0], [0], [0]], [1.0, 0.5], [1, 1]), "mrope_sections"),
    (([[0], [0], [0]], [1.0, 0.5], [1, -1, 2]), "mrope_sections"),
    (([[0], [0], [0]], [1.0, float("inf")], [1, 1, 0]), "finite"),
    (([[0.5e8], [0], [0]], [1.0, 0.5], [1, 1, 0]), "rope_positions"),
    (([[0], [0], [0]], [[1.0, 0.5]], [1, 1, 0]), "ndim"),
])
def test_angles_bad_input(args, code):
    with pytest.raises(PosvizError) as e:
        rope.mrope_angles(*args)
    assert e.value.code == code


def test_case_counts():
    """The number of random cases compared with transformers (printed with -s; the report quotes it)."""
    print("\nM-RoPE cases against transformers:", COUNTS)
    assert all(v >= 300 for v in COUNTS.values())

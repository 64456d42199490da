"""posviz.lab._toy_fast (summary_matrix's fast path) equals toy_model.forward bit for bit, over the toy
model's options: methods and layouts, bugs (alone and in pairs), padding sides, position-id schemes,
causal or not, low-precision dtypes and offsets, sizes, and a learned table too short."""
import itertools

import pytest
import torch

from posviz.lab import _toy_fast, toy_layer
from posviz.lab import toy_model as A
from posviz.lab.kv_cache import one_thread
from posviz.pe.learned import PositionOutOfRangeError
from posviz.pe.position_ids import make_position_ids

SENTENCES = (("I love ML", "do you love ML too"), ("我爱ML", "你也爱ML吗"))
SCHEMES = ("mask", "arange", "token_ids", "zeros", "modulo")
BUG_SETS = [()] + [(b,) for b in A.BUGS] + list(itertools.combinations(A.BUGS, 2))
LOWP = (("bfloat16", 4096), ("float16", 32768), ("bfloat16", 0))


def _setups():
    """Every (scheme, bugs, causal, lowp dtype, lowp offset); the low-precision settings vary only
    where the low-precision bug uses them."""
    for scheme, bugs, causal in itertools.product(SCHEMES, BUG_SETS, (False, True)):
        for lowp in LOWP if "low_precision" in bugs else LOWP[:1]:
            yield scheme, bugs, causal, *lowp


def _forward(model, batch, scheme, bugs, causal, lowp_dtype, lowp_offset):
    pos = make_position_ids(scheme, batch.attention_mask, batch.token_ids, table_size=model.max_length)  # [N,L]
    try:
        return A.forward(model, batch.token_ids, batch.attention_mask, pos, causal=causal, bugs=bugs,
                         lowp_dtype=lowp_dtype, lowp_offset=lowp_offset).output   # [N,L,D]
    except PositionOutOfRangeError:
        return None


def _fast(model, batch, scheme, bugs, causal, lowp_dtype, lowp_offset, memo, common):
    """_toy_fast.memo_forward on the inputs forward checks (as summary_matrix hands them over)."""
    pos = make_position_ids(scheme, batch.attention_mask, batch.token_ids, table_size=model.max_length)  # [N,L]
    ids, mask, pos = A._check_inputs(model, batch.token_ids, batch.attention_mask, pos)
    try:
        return _toy_fast.memo_forward(model, ids, mask, pos.long(), causal=causal, bugs=bugs, lowp_dtype=lowp_dtype,
                                      lowp_offset=lowp_offset, memo=memo, common=common)  # [N,L,D]
    except PositionOutOfRangeError:
        return None


@pytest.mark.parametrize("method, layout", A.SUMMARY_ROWS + (("sinusoidal", "half"),))
@pytest.mark.parametrize("heads, head_dim, max_length", [(2, 16, 16), (3, 8, 5)])
def test_memo_forward_equals_forward(method, layout, heads, head_dim, max_length):
    """One memo per (model, batch) and one common store per batch, shared by every setup (as summary_matrix
    shares them), in two orders: each output is forward's, bit for bit; out of range exactly where forward is."""
    setups = list(_setups())
    checked = out_of_range = 0
    with one_thread():
        for (a, b), side in itertools.product(SENTENCES, ("left", "right")):
            batch = A.encode_pair(a, b, side)
            model = A.build_model(method, num_heads=heads, head_dim=head_dim, rope_layout=layout,
                                  max_length=max_length)
            want = [_forward(model, batch, *setup) for setup in setups]
            for order in (setups, setups[::-1]):
                memo, common = {}, {}
                got = {setup: _fast(model, batch, *setup, memo=memo, common=common) for setup in order}
                for setup, w in zip(setups, want):
                    g = got[setup]
                    assert (g is None) == (w is None), (side, setup)
                    assert w is None or torch.equal(g, w), (side, setup)
                    checked += w is not None
                    out_of_range += w is None
    assert checked > 0
    assert (out_of_range > 0) == (method == "learned" and max_length == 5)   # the short table is exercised


def test_setups_share_what_they_have_in_common(monkeypatch):
    """The fast path's point: across the setups of one model and batch, the token embeddings are made
    once, Q, K, V once per distinct input X, and RoPE's cos / sin once per distinct set of position ids."""
    calls = {"embed_inputs": 0, "project": 0, "cos_sin": 0}

    def counted(name, fn):
        def wrapper(*args, **kwargs):
            calls[name] += 1
            return fn(*args, **kwargs)
        return wrapper

    monkeypatch.setattr(toy_layer, "embed_inputs", counted("embed_inputs", toy_layer.embed_inputs))
    monkeypatch.setattr(toy_layer, "project", counted("project", toy_layer.project))
    monkeypatch.setattr(_toy_fast, "rope_cos_sin", counted("cos_sin", _toy_fast.rope_cos_sin))
    batch = A.encode_pair(*SENTENCES[0], "left")
    model = A.build_model("rope")
    memo, common = {}, {}
    positions = set()
    with one_thread():
        for scheme in SCHEMES:
            pos = make_position_ids(scheme, batch.attention_mask, batch.token_ids, table_size=model.max_length)
            positions.add(tuple(pos.flatten().tolist()))
            for bugs in [()] + [(b,) for b in A.BUGS]:
                _fast(model, batch, scheme, bugs, False, "bfloat16", 4096, memo, common)
    assert calls["embed_inputs"] == 1
    assert calls["project"] == 1 + len(positions)                     # X, and X rotated once per position set
    assert calls["cos_sin"] == len(positions)

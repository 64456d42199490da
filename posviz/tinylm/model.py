r"""A tiny decoder-only transformer with a selectable position method.

Pre-norm blocks, causal softmax attention, GELU MLP:

    h_0 = E[x] (+ P[p] for "sinusoidal" / "learned")
    a   = softmax( (q k^T) / sqrt(d_h) + B + causal mask ) v      per head
    h   = h + W_o a ;  h = h + MLP(LN(h))

Where position enters (“Same words, different order…” §02):
    "nope"        nothing: only the causal mask (Haviv et al. 2022; Kazemnejad et al. 2023)
    "sinusoidal"  P = sinusoidal_positions(L, D) added to the input (Vaswani et al. 2017)
    "learned"     P = a trained [max_length, D] table; p >= max_length has no row (“Same words, different order…” §06)
    "rope"        q, k rotated by apply_rope (Su et al. 2021); at evaluation time the inverse
                  frequencies and attention factor may be replaced (PI / NTK-aware / YaRN).
                  Variants of today's models, set in the config:
                    nope_layers      layers without RoPE (NoPE every 4th layer: SmolLM3, Llama 4)
                    rope_parameters  a Hugging Face style dict: partial rotary (Qwen3-Next),
                                     "proportional" (Gemma 4), or a scaling (PI / NTK / YaRN)
                                     that a fine-tuned model keeps
                    qk_norm          RMSNorm on each head's q and k before RoPE (Qwen3, OLMo 2)
    "alibi"       B[h,i,j] = -m_h |i - j|  (Press et al. 2021)
    "t5"          B[h,i,j] = b_h[bucket(j - i)], one learned scalar per bucket and head,
                  shared by all layers as in T5 (Raffel et al. 2020), causal buckets
"""
import copy
import dataclasses
import hashlib
import json
import math
import os

import torch
from torch import nn

from posviz.pe.learned import PositionOutOfRangeError
from posviz.pe.relative import alibi_bias, t5_bucket_matrix
from posviz.pe.rope import apply_rope, rope_inv_freq
from posviz.pe.scaling import rope_frequencies
from posviz.pe.sinusoidal import sinusoidal_positions
from posviz.validate import MAX_LENGTH, PosvizError, as_tensor, check_choice, check_float, check_int

WEIGHTS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "weights")
# The position method of each shipped tiny model (one model, one weights file per method).
TRAINED_METHODS = ("nope", "sinusoidal", "learned", "rope", "alibi", "t5")


@dataclasses.dataclass(frozen=True)
class TinyConfig:
    method: str = "rope"
    vocab_size: int = 32
    d_model: int = 64
    n_layers: int = 2
    n_heads: int = 4
    mlp_ratio: int = 2
    max_length: int = 64          # rows of the learned table (the training length)
    rope_base: float = 10000.0
    t5_num_buckets: int = 32
    t5_max_distance: int = 128
    nope_layers: tuple = ()       # 0-based layers without RoPE ("rope" only)
    rope_parameters: dict = None  # None: plain RoPE with rope_base; else a Hugging Face style dict
    qk_norm: bool = False         # RMSNorm on q and k per head, before RoPE

    def __post_init__(self):
        check_choice("method", self.method, TRAINED_METHODS)
        check_int("vocab_size", self.vocab_size, 3, 4096)
        check_int("d_model", self.d_model, 8, 256)
        check_int("n_layers", self.n_layers, 1, 8)
        check_int("n_heads", self.n_heads, 1, 16)
        check_int("mlp_ratio", self.mlp_ratio, 1, 8)
        check_int("max_length", self.max_length, 2, MAX_LENGTH)
        if self.d_model % self.n_heads or (self.d_model // self.n_heads) % 2:
            raise PosvizError("tinylm_heads", d_model=self.d_model, n_heads=self.n_heads)
        if self.method == "t5":   # validates num_buckets / max_distance with posviz.pe.relative's messages
            t5_bucket_matrix(1, bidirectional=False, num_buckets=self.t5_num_buckets,
                             max_distance=self.t5_max_distance)
        object.__setattr__(self, "nope_layers", tuple(check_int("nope_layers", i, 0, self.n_layers - 1)
                                                      for i in self.nope_layers))
        if self.rope_parameters is not None:
            rope_spectrum(self.head_dim, self.rope_parameters)     # validates it

    @property
    def head_dim(self):
        return self.d_model // self.n_heads

    def to_dict(self):
        d = dataclasses.asdict(self)
        d["nope_layers"] = list(self.nope_layers)
        return d


ROPE_TYPES = ("default", "linear", "yarn", "proportional")


def rope_spectrum(head_dim, rope_parameters):
    r"""The frequencies a tiny RoPE model rotates with: (inv_freq Tensor[head_dim/2] float32, attention factor).

    Formula:
        d_r=\lfloor f\,d\rfloor\ \text{(rotated width, } f=\texttt{partial\_rotary\_factor})
        \text{partial: }\theta_i=b^{-2i/d_r}\ (i<d_r/2),\qquad\theta_i=0\ (i\ge d_r/2)
        \text{proportional: }\theta_i=b^{-2i/d}\ (i<d_r/2),\qquad\theta_i=0\ (i\ge d_r/2)
        \text{linear / yarn: the scaled }\theta_i'\text{ of posviz.pe.scaling.rope\_frequencies}

    A pair with θ_i = 0 is not rotated (cos 0 = 1, sin 0 = 0): it carries content only. "default",
    "linear" and "yarn" are posviz.pe.scaling.rope_frequencies over the rotated width (partial rotary
    as transformers computes it); "proportional" (Gemma 4) keeps the full width d in the exponent, as
    transformers' proportional RoPE does, with rope_inv_freq's first d_r/2 frequencies.
    """
    if not isinstance(rope_parameters, dict):
        raise PosvizError("tensor", name="rope_parameters", got=type(rope_parameters).__name__)
    check_choice("rope_type", rope_parameters.get("rope_type", "default"), ROPE_TYPES)
    half = head_dim // 2
    if rope_parameters.get("rope_type") == "proportional":
        frac = check_float("partial_rotary_factor", rope_parameters.get("partial_rotary_factor", 1.0), 0.0, 1.0)
        kept = int(frac * head_dim // 2)
        inv = rope_inv_freq(head_dim, rope_parameters["rope_theta"]) / rope_parameters.get("factor", 1.0)  # [d/2]
        return torch.cat([inv[:kept], torch.zeros(half - kept)]), 1.0                                     # [d/2]
    inv, factor = rope_frequencies(head_dim, rope_parameters)                                            # [d_r/2]
    return torch.cat([inv, torch.zeros(half - len(inv))]), factor                                        # [d/2]


class Attention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.qkv = nn.Linear(cfg.d_model, 3 * cfg.d_model)
        self.out = nn.Linear(cfg.d_model, cfg.d_model)
        if cfg.qk_norm:
            self.q_norm = nn.RMSNorm(cfg.head_dim, eps=1e-6)
            self.k_norm = nn.RMSNorm(cfg.head_dim, eps=1e-6)

    def forward(self, h, bias, rope, capture=None):
        r"""Causal softmax attention of every head, with the position method's bias or rotation.

        Formula:
            a_{ij}=\mathrm{softmax}_{j\le i}\!\left(\frac{\tilde q_i^\top \tilde k_j}{\sqrt{d_h}}+B_{ij}\right)
            \tilde q_i=R(i)\,q_i,\quad \tilde k_j=R(j)\,k_j\quad(\text{RoPE})

        h [N,L,D], bias [H,L,L] or None, rope (inv_freq, attention_factor) or None
        -> (output [N,L,D], attention probabilities [N,H,L,L]). With qk_norm, q and k are RMS-normalised
        per head first. capture: a list that gets (q, k) as they enter the score (after RoPE).
        """
        n, length, d = h.shape
        nh, dh = self.cfg.n_heads, self.cfg.head_dim
        q, k, v = self.qkv(h).view(n, length, 3, nh, dh).permute(2, 0, 3, 1, 4)  # [3,N,H,L,dh] -> 3x[N,H,L,dh]
        if self.cfg.qk_norm:
            q, k = self.q_norm(q), self.k_norm(k)                                 # [N,H,L,dh] x2
        if rope is not None:
            inv_freq, factor = rope
            pos = torch.arange(length)                                            # [L]
            q = apply_rope(q, pos, inv_freq=inv_freq, attention_factor=factor)    # [N,H,L,dh]
            k = apply_rope(k, pos, inv_freq=inv_freq, attention_factor=factor)    # [N,H,L,dh]
        if capture is not None:
            capture.append((q, k))
        scores = q @ k.transpose(-1, -2) / math.sqrt(dh)                          # [N,H,L,L]
        if bias is not None:
            scores = scores + bias                                                # [N,H,L,L]
        causal = torch.ones(length, length, dtype=torch.bool).triu(1)             # [L,L] True = future
        scores = scores.masked_fill(causal, float("-inf"))                        # [N,H,L,L]
        probs = scores.softmax(-1)                                                # [N,H,L,L]
        a = (probs @ v).transpose(1, 2).reshape(n, length, d)                     # [N,L,D]
        return self.out(a), probs


class Block(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.ln1 = nn.LayerNorm(cfg.d_model)
        self.attn = Attention(cfg)
        self.ln2 = nn.LayerNorm(cfg.d_model)
        self.mlp = nn.Sequential(nn.Linear(cfg.d_model, cfg.mlp_ratio * cfg.d_model), nn.GELU(),
                                 nn.Linear(cfg.mlp_ratio * cfg.d_model, cfg.d_model))

    def forward(self, h, bias, rope, capture=None):
        a, probs = self.attn(self.ln1(h), bias, rope, capture)
        h = h + a                                                                 # [N,L,D]
        return h + self.mlp(self.ln2(h)), probs                                   # [N,L,D]


class TinyLM(nn.Module):
    """forward(tokens [N,L]) -> logits [N,L,V] (and the attention maps if asked)."""

    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.tok = nn.Embedding(cfg.vocab_size, cfg.d_model)
        if cfg.method == "learned":
            self.pos = nn.Embedding(cfg.max_length, cfg.d_model)
        if cfg.method == "t5":
            self.t5_bias = nn.Embedding(cfg.t5_num_buckets, cfg.n_heads)
        self.blocks = nn.ModuleList(Block(cfg) for _ in range(cfg.n_layers))
        self.ln_f = nn.LayerNorm(cfg.d_model)
        self.head = nn.Linear(cfg.d_model, cfg.vocab_size)
        # RoPE at evaluation time: (inv_freq [d_h/2], attention_factor); None = trained default
        self.rope_override = None

    def _bias(self, length):
        """Score bias B [H,L,L] (or None) of the position method."""
        c = self.cfg
        if c.method == "alibi":
            return alibi_bias(c.n_heads, length)                                  # [H,L,L]
        if c.method == "t5":
            buckets = t5_bucket_matrix(length, bidirectional=False, num_buckets=c.t5_num_buckets,
                                       max_distance=c.t5_max_distance)            # [L,L]
            return self.t5_bias(buckets).permute(2, 0, 1)                         # [H,L,L]
        return None

    def _rope(self):
        if self.cfg.method != "rope":
            return None
        if self.rope_override is not None:
            return self.rope_override
        if self.cfg.rope_parameters is not None:
            return rope_spectrum(self.cfg.head_dim, self.cfg.rope_parameters)    # [d_h/2], float
        return rope_inv_freq(self.cfg.head_dim, self.cfg.rope_base), 1.0         # [d_h/2], float

    def forward(self, tokens, *, return_attention=False, clamp_positions=False, wrap_positions=False,
                capture=None):
        """tokens LongTensor[N,L] -> logits [N,L,V] (, list of n_layers x [N,H,L,L]).

        "learned" with L > max_length raises PositionOutOfRangeError unless
        clamp_positions=True, which reuses the last row for every p >= max_length, or
        wrap_positions=True, which reads row p mod max_length (a bug the article lists).
        capture: a list that gets (q, k) of every layer as they enter the score.
        """
        tokens = as_tensor("tokens", tokens, ndim=2)                              # [N,L]
        if tokens.is_floating_point() or tokens.is_complex() or tokens.dtype == torch.bool:
            raise PosvizError("tinylm_tokens", dtype=str(tokens.dtype).removeprefix("torch."))
        n, length = tokens.shape
        check_int("length (tokens.shape[1])", length, 1, MAX_LENGTH)
        if tokens.numel() and (tokens.min() < 0 or tokens.max() >= self.cfg.vocab_size):
            bad = int(tokens.min()) if tokens.min() < 0 else int(tokens.max())
            raise PosvizError("range", name="tokens", lo=0, hi=self.cfg.vocab_size - 1, got=bad)
        h = self.tok(tokens)                                                      # [N,L,D]
        if self.cfg.method == "sinusoidal":
            h = h + sinusoidal_positions(length, self.cfg.d_model)               # [N,L,D]
        elif self.cfg.method == "learned":
            if length > self.cfg.max_length and not (clamp_positions or wrap_positions):
                raise PositionOutOfRangeError(length, self.cfg.max_length)
            p = torch.arange(length)                                              # [L]
            p = p % self.cfg.max_length if wrap_positions else p.clamp_max(self.cfg.max_length - 1)  # [L]
            h = h + self.pos(p)                                                   # [N,L,D]
        bias = self._bias(length)
        rope = self._rope()
        maps = []
        for layer, block in enumerate(self.blocks):
            h, probs = block(h, bias, None if layer in self.cfg.nope_layers else rope, capture)
            maps.append(probs)
        logits = self.head(self.ln_f(h))                                          # [N,L,V]
        return (logits, maps) if return_attention else logits


def enlarge_table(model, rows, *, seed=0):
    """A copy of a "learned" model whose position table has `rows` rows: the trained rows first, the new
    ones untrained, drawn as a fresh nn.Embedding draws them (N(0, 1), generator seeded by `seed`)."""
    if model.cfg.method != "learned":
        raise PosvizError("choice", name="method", got=repr(model.cfg.method), choices="learned")
    rows = check_int("rows", rows, model.cfg.max_length, MAX_LENGTH)
    big = copy.deepcopy(model)
    big.cfg = dataclasses.replace(model.cfg, max_length=rows)
    old = model.pos.weight.detach()                                               # [M,D]
    new = torch.randn(rows - len(old), old.shape[1], generator=torch.Generator().manual_seed(seed))  # [rows-M,D]
    big.pos = nn.Embedding.from_pretrained(torch.cat([old, new]), freeze=True)    # [rows,D]
    return big


def build(config):
    """TinyLM from a TinyConfig or a dict of its fields."""
    if isinstance(config, dict):
        config = TinyConfig(**config)
    return TinyLM(config)


def save_weights(model, path):
    """state_dict -> path as float16 (plain tensors only; half the bytes of float32); returns the file's sha256.
    Every number the pages show is computed from the saved file, loaded back into float32."""
    state = {k: (v.detach().to(torch.float16) if v.is_floating_point() else v.detach()).clone()
             for k, v in model.state_dict().items()}
    torch.save(state, path)
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def load_manifest(weights_dir=None):
    """MANIFEST.json of a weights directory (None: the shipped one): the command, settings, config and timings
    of each run."""
    with open(os.path.join(weights_dir or WEIGHTS_DIR, "MANIFEST.json"), encoding="utf-8") as f:
        return json.load(f)


def weights_path(recipe, seed=0, weights_dir=None):
    """Path of one shipped run: `<weights_dir>/<recipe>-s<seed>.pt`."""
    return os.path.join(weights_dir or WEIGHTS_DIR, f"{recipe}-s{check_int('seed', seed, 0, 2**31)}.pt")


def load_model(recipe, seed=0, weights_dir=None):
    """The shipped model of one run (a recipe of posviz.tinylm.recipes, e.g. "rope", and its seed): config
    from MANIFEST.json, weights via weights_only."""
    manifest = load_manifest(weights_dir)
    check_choice("recipe", recipe, tuple(manifest["models"]))
    cfg = TinyConfig(**manifest["models"][recipe]["config"])
    model = TinyLM(cfg)
    state = torch.load(weights_path(recipe, seed, weights_dir), map_location="cpu", weights_only=True)
    model.load_state_dict(state)
    model.eval()
    return model

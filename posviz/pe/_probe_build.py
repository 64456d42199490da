"""The model transformers builds from a config, on the meta device, made runnable for the probe
(posviz.pe.model_probe) without weights: every nn.Linear a rank-4 random map computed on the fly, every nn.Embedding
a small random table, small parameters ones, buffers recomputed by the model's own `_init_weights` (RoPE's
inv_freq among them), matrices inside attention from one shared random tensor per shape, other big parameter
holders (fused MLP experts) answering zeros -- and, in a fast build, every block of a decoder layer that holds no
attention answering zeros too. A few hundred kilobytes for any model size."""
import copy
import functools
import importlib
import inspect
import math

import torch
from torch import nn

from posviz.pe._hf import transformers_module

PROBE = "posviz_probe"   # the name of the probe's attention implementation
RANK = 4                 # rank of the stand-in linear maps
CAP = 1 << 22            # parameters up to this many elements become real (ones); bigger ones answer zeros
POOL_CAP = 1 << 25       # or, inside attention, come from a shared random tensor up to this size
BUDGET = 1 << 27         # small parameters made real in one build, at most (512 MB): a hosted server's bound


def modeling_module(tc):
    return importlib.import_module(type(tc).__module__.replace(".configuration_", ".modeling_"))


def model_class(hf, tc):
    """The base (headless) model class transformers builds for a text config: the auto mapping's class, else
    the module's PreTrainedModel of that config class without a head."""
    name = hf.models.auto.modeling_auto.MODEL_MAPPING_NAMES.get(tc.model_type)
    module = modeling_module(tc)
    if name and hasattr(module, name):
        return getattr(module, name)
    found = [c for c in vars(module).values() if isinstance(c, type) and issubclass(c, hf.PreTrainedModel)
             and c.__module__ == module.__name__ and getattr(c, "config_class", None) is type(tc)
             and c.forward is not nn.Module.forward]
    headless = [c for c in found if "For" not in c.__name__ and "LMHead" not in c.__name__]
    if not (headless or found):
        raise LookupError(f"no model class for {tc.model_type}")
    return (headless or found)[0]


class _StandIns:
    """Rank-4 random linear maps and small random embedding tables, made once per shape."""

    def __init__(self):
        self.mats = {}

    def pair(self, fan_in, fan_out):
        key = (fan_in, fan_out)
        if key not in self.mats:
            g = torch.Generator().manual_seed(7919 * fan_in + fan_out)
            self.mats[key] = (torch.randn(RANK, fan_in, generator=g) / math.sqrt(fan_in),     # [4, in]
                              torch.randn(fan_out, RANK, generator=g))                       # [out, 4]
        return self.mats[key]

    def linear(self, lin):
        _placeholder(lin)

        def forward(x):
            b, a = self.pair(lin.in_features, lin.out_features)
            return ((x.float() @ b.T) @ a.T).to(x.dtype)                                     # [..., out]
        lin.forward = forward

    def embedding(self, emb):
        _placeholder(emb)

        def forward(ids, *args, **kwargs):
            table, a = self.pair(64, emb.embedding_dim)                                      # [4, 64], [D, 4]
            return table.T[ids % 64] @ a.T                                                   # [..., D]
        emb.forward = forward


def _placeholder(module):
    """A stand-in's parameters on the CPU without memory (zeros seen through stride 0): code that reads their
    device or dtype (`ids.to(embed.weight.device)`) sees the CPU, as in a loaded model."""
    for name, p in list(module._parameters.items()):
        if p is not None and p.is_meta:
            module._parameters[name] = nn.Parameter(torch.zeros((), dtype=p.dtype).expand(p.shape), requires_grad=False)


def _answer_zeros(module):
    def forward(*args, **kwargs):
        x = next((v for v in (*args, *kwargs.values()) if isinstance(v, torch.Tensor) and v.is_floating_point()),
                 None)
        return None if x is None else torch.zeros_like(x)
    module.forward = forward


@functools.cache
def calls_attention(cls) -> bool:
    """Whether a module class's forward calls an attention function (transformers' attention interface)."""
    try:
        src = inspect.getsource(cls.forward)
    except (OSError, TypeError):
        return False
    return any(s in src for s in ("ALL_ATTENTION_FUNCTIONS", "attention_interface", "eager_attention_forward",
                                  "scaled_dot_product_attention"))


def _materialize(model, fast):
    """Stand-ins for linear maps and embeddings; real small parameters (ones) and computed buffers (the model's
    own init: RoPE's inv_freq); big parameters on the way into or out of attention (JetMoE's attention experts,
    DeepSeek-V4's grouped output) from one shared random tensor per shape; zeros from other big parameter
    holders (fused MLP experts) and, in a fast build, from every block of a decoder layer without attention (whose
    parameters are then never made)."""
    stand = _StandIns()
    inside = {id(s) for m in model.modules() if calls_attention(type(m)) for s in m.modules()}
    skipped = _fast_skips(model) if fast else set()
    pool, computed = {}, []
    for m in model.modules():
        if id(m) in skipped:
            continue
        stood_in = _stand_in(stand, m)
        if not stood_in and _real_parameters(m, id(m) in inside, pool):
            _answer_zeros(m)
        for name, b in list(m._buffers.items()):
            if b is not None and b.is_meta:                  # a loaded value (a layer scalar) or computed below;
                m._buffers[name] = torch.ones(b.shape, dtype=b.dtype) if b.numel() <= CAP else \
                    torch.ones((), dtype=b.dtype).expand(b.shape)                 # a big one (a mask) without memory
                if name in m._non_persistent_buffers_set and not stood_in and b.numel() <= CAP:
                    computed.append(m)
    with torch.no_grad():
        for m in dict.fromkeys(computed):
            model._init_weights(m)


def _fast_skips(model):
    """The blocks of every decoder layer that hold no attention but linear maps or big parameters (MLP, MoE,
    linear attention, state-space mixers), made to answer zeros -> ids of every module inside them."""
    skipped = set()
    for layer in decoder_layers(model):
        for child in layer.children():
            subs = list(child.modules())
            if any(calls_attention(type(s)) for s in subs):
                continue
            if any(isinstance(s, nn.Linear) or any(p.numel() > CAP for p in s.parameters(recurse=False))
                   for s in subs):
                _answer_zeros(child)
                skipped.update(id(s) for s in subs)
    return skipped


def _stand_in(stand, m):
    """A plain linear map or a big embedding replaced by its stand-in, a small embedding given real random rows ->
    whether it was (Gemma's scaled embedding too: its scale buffer is then unused)."""
    if type(m) is nn.Linear or (isinstance(m, nn.Linear) and type(m).forward is nn.Linear.forward):
        stand.linear(m)
        return True
    if isinstance(m, nn.Embedding) and m.weight.numel() > CAP:
        stand.embedding(m)
        return True
    if isinstance(m, nn.Embedding):             # a small table (learned positions): real random rows, its own forward
        g = torch.Generator().manual_seed(m.num_embeddings)
        m._parameters["weight"] = nn.Parameter(torch.randn(m.weight.shape, generator=g), requires_grad=False)
        return True
    return False


def _real_parameters(m, in_attention, pool):
    """A module's own meta parameters made real: matrices on the attention path from the shared random tensor
    of their shape, others ones when small -> True when a big one is left (the module then answers zeros)."""
    left = False
    for name, p in list(m._parameters.items()):
        if p is None or not p.is_meta:
            continue
        if in_attention and p.dim() >= 2 and p.numel() <= POOL_CAP:   # a map on the q / k path: random
            m._parameters[name] = nn.Parameter(_pooled(pool, p.shape, p.dtype), requires_grad=False)
        elif p.numel() <= CAP:
            m._parameters[name] = nn.Parameter(_ones(pool, p.shape, p.dtype), requires_grad=False)
        else:
            left = True
    return left


def _ones(pool, shape, dtype):
    """A parameter's own ones (a model may change one in place), counted against the probe's memory budget."""
    pool["_made"] = pool.get("_made", 0) + math.prod(shape)
    if pool["_made"] > BUDGET:
        raise MemoryError(f"this model needs more than {BUDGET:,} parameters made real to be probed")
    return torch.ones(shape, dtype=dtype)                                                        # [*shape]


def _pooled(pool, shape, dtype):
    """A random tensor of this shape, shared by every parameter of that shape (scaled by 1/sqrt(fan-in))."""
    key = (tuple(shape), dtype)
    if key not in pool:
        g = torch.Generator().manual_seed(sum(shape))
        pool[key] = (torch.randn(shape, generator=g) / math.sqrt(shape[-1])).to(dtype)          # [*shape]
    return pool[key]


def decoder_layers(model):
    hf_layer = transformers_module().modeling_layers.GradientCheckpointingLayer
    return [m for m in model.modules() if isinstance(m, hf_layer)]


def build(tc, fast=True, implementation=PROBE, weights="stand-in"):
    """The text model of a transformers config, runnable for the probe: on the meta device with stand-ins
    (weights="stand-in"), or with real random weights on the CPU (weights="random": small configs only, the
    reference of the tests)."""
    hf = transformers_module()
    tc = copy.deepcopy(tc)
    tc._attn_implementation = implementation
    cls = model_class(hf, tc)
    if weights == "random":
        torch.manual_seed(0)
        return cls(tc).eval()
    with torch.device("meta"):
        model = cls(tc)
    _materialize(model, fast)
    return model.eval()

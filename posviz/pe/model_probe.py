r"""What a model's own code does with positions, measured: `probe(config) -> ModelProbe`.

posviz's formulas (posviz.pe.scaling, posviz.pe.rope) compute every number the pages show. This module
is what they are held to: the model transformers builds from a config, run on positions chosen to make
each layer show what it does with them. Nothing here knows a model type by name.

How (no weights, no download, a few hundred kilobytes of memory for any model size):
  1. transformers' own config class reads the config; the text model is built on the meta device and made
     runnable by stand-ins (posviz.pe._probe_build).
  2. Attention runs through a registered attention implementation that records what reaches q·kᵀ
     (queries and keys after RoPE and any query scaling, the softmax scale, the sliding window) and
     answers a fixed output; each attention module's own output is recorded and replaced by zeros,
     so every layer sees the same input whatever the positions. In a "fast" run the blocks of a decoder
     layer that hold no attention (MLP, MoE, linear attention, state-space mixers) answer zeros too; when
     that leaves a layer unmeasurable, the model runs again with every block ("full" run). A model that
     picks its attention class by implementation name (Falcon) runs with torch's SDPA, each call caught.
  3. The model runs on the same tokens at short positions up to the trained length (run B), at positions
     far beyond it (C), at position 0 when its tokens do not share a state (A) and, for multimodal RoPE,
     with distinct position rows (D). Per layer, the fits of posviz.pe._probe_fit give the pairing, θ per
     pair at both lengths, the query scaling per position, the position row of every rotated dim.
Measurements are remembered on disk (see `probe_cached`).
"""
from __future__ import annotations

import contextlib
import dataclasses
import functools
import gzip
import hashlib
import json
import math
import os
import pathlib

import torch
import torch.nn.functional as F
from torch.overrides import TorchFunctionMode

from posviz.pe import _probe_build as pb
from posviz.pe import _probe_fit as pf
from posviz.pe._hf import HF_LOCK, transformers_module
from posviz.pe._probe_fit import Turn

SEQUENCES = 3         # sequences of different tokens: samples = sequences x heads
HEADS = 8             # heads of a layer the fits use
LONG_FACTOR = 4       # run C reaches this many times the longest length the config names
MAX_PROBE_POSITION = 10 ** 7 - 1   # posviz.validate.MAX_POSITION: the formulas' own cap
__all__ = ["HF_LOCK", "Turn", "LayerProbe", "AttentionProbe", "ModelProbe", "probe", "probe_cached",
           "transformers_module"]


@dataclasses.dataclass(frozen=True)
class LayerProbe:
    """One decoder layer: its attention calls (none: a layer without softmax attention)."""

    index: int
    calls: tuple[AttentionProbe, ...] = ()

    @property
    def attention(self) -> bool:
        return bool(self.calls)


@dataclasses.dataclass(frozen=True)
class AttentionProbe:
    """One attention call of a layer: its module, widths, softmax scale and window as passed to the attention
    function, what its queries and keys do with positions, and whether its values or its output do too."""

    module: str
    heads: int
    query: Turn
    key: Turn
    scaling: float | None
    window: int | None
    values_turn: bool
    output_turns: bool


@dataclasses.dataclass(frozen=True)
class ModelProbe:
    """The measurement of one config: per decoder layer, what it does with positions. error: why the model
    could not be built or run (then layers is empty)."""

    model_class: str
    layers: tuple[LayerProbe, ...]
    positions: tuple[int, ...]
    positions_long: tuple[int, ...]
    axes_rows: int = 0
    input_turns: bool = False
    attention_factors: tuple[tuple[str, float], ...] = ()
    full_run: bool = False
    attention_modules: int = 0        # modules named "…Attention…" in the decoder layers (called through an
    # attention function or not: Bloom computes its own); 0 for a model of state-space layers only
    error: str | None = None
    long_error: str | None = None     # why the model could not run beyond its length (then positions_long = positions)


# ---------------------------------------------------------------- recording
class _Recorder:
    """The attention implementation the probe registers, and the hooks around attention modules."""

    def __init__(self):
        self.calls, self.outputs, self.inputs, self.projections = [], {}, [], []
        self.tapping = False    # while True (run B), the projections inside attention modules are kept

    def attention(self, module, query, key, value, attention_mask, scaling=None, sliding_window=None, **kwargs):
        self.calls.append({"module": module, "heads": query.shape[1], "q": _kept(query), "k": _kept(key),
                           "v": _kept(value), "scaling": scaling, "window": sliding_window,
                           "projections": self.projections})
        self.projections = []
        n, heads, length, _ = query.shape
        return torch.ones(n, length, heads, value.shape[-1], dtype=query.dtype), None       # [N,L,H,dv]

    def output_hook(self, module, args, output):
        first = output[0] if isinstance(output, tuple) else output
        if not isinstance(first, torch.Tensor):
            return output
        self.outputs.setdefault(id(module), []).append(first.detach().float().clone())
        zero = torch.zeros_like(first)
        return (zero, *output[1:]) if isinstance(output, tuple) else zero

    def tap(self, module, args, out):
        """A linear map's output at the first token ([N, L, F] -> [N, F]), kept until the next attention call."""
        if self.tapping and isinstance(out, torch.Tensor) and out.dim() == 3 and len(self.projections) < 64:
            self.projections.append(out[:, 0].detach().float().clone())                      # [N, F]

    def input_hook(self, module, args, kwargs):
        h = args[0] if args else kwargs.get("hidden_states")
        if isinstance(h, torch.Tensor) and not self.inputs:
            self.inputs.append(h.detach().float().clone())


_ACTIVE = []   # the recorder of the probe under way (probes run one at a time, under HF_LOCK)


def _attention(*args, **kwargs):
    return _ACTIVE[-1].attention(*args, **kwargs)


def _register(hf):
    """The probe's attention implementation and its mask (sdpa's boolean mask), registered by name (again: the
    same function)."""
    hf.AttentionInterface.register(pb.PROBE, _attention)
    hf.masking_utils.AttentionMaskInterface.register(pb.PROBE, hf.masking_utils.sdpa_mask)


def _kept(t):
    """The first HEADS heads of [N, H, L, d], as float32 (enough samples to fit; less to carry)."""
    return t[:, :HEADS].detach().float().clone()                                              # [N, h, L, d]


@contextlib.contextmanager
def _recording(recorder):
    _ACTIVE.append(recorder)
    try:
        yield
    finally:
        _ACTIVE.pop()


def _run(model, recorder, positions, ids):
    """One forward pass of the probe: ids [N, L], positions [L] or [rows, L] -> the recorded calls."""
    recorder.calls, recorder.outputs, recorder.inputs = [], {}, []
    n = ids.shape[0]
    pos = positions.expand(n, -1) if positions.dim() == 1 else positions[:, None, :].expand(-1, n, -1)
    with torch.no_grad():
        try:
            model(input_ids=ids, position_ids=pos, use_cache=False)                          # pos [N,L] / [R,N,L]
        except TypeError as e:
            if "input_ids" not in str(e):
                raise
            model(inputs_embeds=_embeds(model, ids), position_ids=pos, use_cache=False)
    return recorder.calls, recorder.outputs, recorder.inputs


def _embeds(model, ids):
    dim = model.config.hidden_size
    g = torch.Generator().manual_seed(dim)
    table = torch.randn(64, dim, generator=g)                                                 # [64, D]
    return table[ids % 64]                                                                    # [N, L, D]


# ---------------------------------------------------------------- the probe
def _positions(limit):
    """0 twice (the reference: the first token; the second tells whether tokens share a state), 1, 2 and powers
    of 8 up to limit, and limit itself -> LongTensor [L]."""
    pos = sorted({1, 2, limit} | {8 ** k for k in range(1, 9) if 8 ** k < limit})
    return torch.tensor([0, 0] + [p for p in pos if 0 < p <= limit], dtype=torch.long)       # [L]


def _token_ids(tc):
    """SEQUENCES token ids, one per sequence, that are none of the config's special tokens: a padding token's
    embedding row is zero in a model with real weights (OLMo's pad is 1), and a query of zeros shows no turn."""
    special = set()
    for key in ("pad_token_id", "bos_token_id", "eos_token_id"):
        v = getattr(tc, key, None)
        special |= set(v) if isinstance(v, (list, tuple)) else {v}
    return [i for i in range(1, SEQUENCES + len(special) + 1) if i not in special][:SEQUENCES]


def _lengths(tc):
    """(short limit, long limit) of the probe: the shortest length the config names (positions below it behave
    as trained) and LONG_FACTOR times the longest."""
    found = []
    for key in ("max_position_embeddings", "original_max_position_embeddings"):
        v = getattr(tc, key, None)
        if isinstance(v, int) and v > 1:
            found.append(v)
    rp = getattr(tc, "rope_parameters", None)
    for d in ([rp] if isinstance(rp, dict) else []) + [v for v in (rp or {}).values() if isinstance(v, dict)]:
        v = d.get("original_max_position_embeddings")
        if isinstance(v, int) and v > 1:
            found.append(v)
    if not found:
        found = [4096]
    return min(found) - 1, min(MAX_PROBE_POSITION, LONG_FACTOR * max(found))


def _mrope_rows(tc):
    """How many position rows the model's rotary takes (the length of an M-RoPE / XD-RoPE section list)."""
    rp = getattr(tc, "rope_parameters", None)
    sec = rp.get("mrope_section") if isinstance(rp, dict) else None
    return len(sec) if isinstance(sec, (list, tuple)) and len(sec) >= 2 else 0


def _layer_of(model):
    """id(module) -> index of the decoder layer holding it."""
    out = {}
    for i, layer in enumerate(pb.decoder_layers(model)):
        for s in layer.modules():
            out.setdefault(id(s), i)
    return out


def _same(a, b):
    """Equal up to float32 noise (relative to the larger magnitude)."""
    try:
        diff = float((a - b).abs().max())                                                     # broadcast
    except RuntimeError:
        return False
    return diff <= 1e-5 * max(float(a.abs().max()), float(b.abs().max())) + 1e-30


def config_key(tc) -> str:
    """A text config as canonical JSON (its class and every field): what a probe of it depends on."""
    return type(tc).__name__ + json.dumps(tc.to_dict(), sort_keys=True, default=str)


# ---------------------------------------------------------------- remembered probes
# A probe depends only on the config, transformers' code and this module's: it is remembered on disk under the hash
# of the three -- in the package (the gallery's, written by `python -m posviz.pe.models --probes`), and in a user
# cache directory (POSVIZ_CACHE_DIR, else ~/.cache/posviz), at most STORE_FILES files there. These are measurements,
# not a cache of posviz's own numbers (posviz.views.cached is that one cache).
SHIPPED = pathlib.Path(__file__).with_name("model_configs") / "probes.json.gz"
STORE_FILES = 2000


@functools.cache
def _code_hash() -> str:
    """The probe's code: this module and the two it runs (a change to any invalidates what was remembered)."""
    here = pathlib.Path(__file__)
    files = (here, here.with_name("_probe_build.py"), here.with_name("_probe_fit.py"))
    return hashlib.sha256(b"".join(f.read_bytes() for f in files)).hexdigest()[:16]


def store_key(tc) -> str:
    """The name a probe of this config is remembered under."""
    text = f"{transformers_module().__version__}|{_code_hash()}|{config_key(tc)}"
    return hashlib.sha256(text.encode()).hexdigest()[:32]


@functools.cache
def _shipped() -> dict:
    try:
        return json.loads(gzip.decompress(SHIPPED.read_bytes()))
    except (OSError, ValueError):
        return {}


def _store_dir() -> pathlib.Path:
    root = os.environ.get("POSVIZ_CACHE_DIR") or pathlib.Path.home() / ".cache" / "posviz"
    return pathlib.Path(root) / "probes"


def _load(key):
    if key in _shipped():
        return from_dict(_shipped()[key])
    try:
        return from_dict(json.loads((_store_dir() / f"{key}.json").read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _save(key, result):
    """Into the user cache (best effort: a read-only disk only costs the next process a probe)."""
    try:
        folder = _store_dir()
        folder.mkdir(parents=True, exist_ok=True)
        files = sorted(folder.glob("*.json"), key=lambda f: f.stat().st_mtime)
        for old in files[: max(0, len(files) - STORE_FILES + 1)]:
            old.unlink(missing_ok=True)
        tmp = folder / f".{key}.{os.getpid()}.tmp"
        tmp.write_text(json.dumps(to_dict(result)), encoding="utf-8")
        tmp.replace(folder / f"{key}.json")
    except OSError:
        pass


def probe_cached(tc) -> ModelProbe:
    """probe(tc), remembered (see above): the gallery's probes ship with posviz, a paste is probed once per machine.
    (In a server, the views' cache of the whole reading sits above this.)"""
    key = store_key(tc)
    found = _load(key)
    if found is not None:
        return found
    result = probe(tc)
    if not result.error:
        _save(key, result)
    return result


def to_dict(result: ModelProbe) -> dict:
    """A ModelProbe as plain JSON data (turns shared by many layers stored once)."""
    turns, index = [], {}

    def ref(turn):
        if id(turn) not in index:
            index[id(turn)] = len(turns)
            turns.append(_plain(dataclasses.asdict(turn)))
        return index[id(turn)]

    layers = [[{**{k: v for k, v in vars(c).items() if k not in ("query", "key")}, "query": ref(c.query),
                "key": ref(c.key)} for c in lp.calls] for lp in result.layers]
    top = {k: v for k, v in vars(result).items() if k != "layers"}
    return _plain({**top, "turns": turns, "layers": layers})


def from_dict(d: dict) -> ModelProbe:
    turns = [Turn(**{k: _tuples(v) if isinstance(v, list) else v for k, v in t.items()}) for t in d["turns"]]
    layers = tuple(LayerProbe(i, tuple(AttentionProbe(**{**c, "query": turns[c["query"]], "key": turns[c["key"]]})
                                       for c in calls)) for i, calls in enumerate(d["layers"]))
    top = {k: _tuples(v) if isinstance(v, list) else v for k, v in d.items() if k not in ("turns", "layers")}
    return ModelProbe(**top, layers=layers)


def _plain(v, in_list=False):
    """Tuples as lists, nan as None, recursively; floats in lists (θ, gains: measured to ~1e-7) to 10 significant
    digits, single numbers (a softmax scale) exact."""
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x, True) for x in v]
    if isinstance(v, float) and in_list:
        return float(f"{v:.10g}") if math.isfinite(v) else None
    return v                                     # a single nan (a softmax scale that is none) stays NaN in JSON


def _tuples(v):
    """Lists back to tuples, None in a list of numbers back to nan."""
    if isinstance(v, list):
        return tuple(_tuples(x) for x in v) if not v or not all(x is None or isinstance(x, (int, float))
                                                                 for x in v) else tuple(
            math.nan if x is None else x for x in v)
    return v


def probe(tc, weights="stand-in") -> ModelProbe:
    """Measure a transformers text config (an object from its config class): what every decoder layer's
    attention does with positions. Tries a fast run (blocks without attention answer zeros), then a full one.
    weights="random": the model with real random weights, every block running (small configs: the reference of
    the tests). Never raises for what the model's code does; the reason is in .error."""
    hf = transformers_module()
    threads = torch.get_num_threads()
    with HF_LOCK:
        torch.set_num_threads(1)   # the probe's tensors are small: one thread is fastest (and fair to a server)
        try:
            if weights == "random":
                return _probe(hf, tc, fast=False, weights="random")
            return _probe_fast_then_full(hf, tc)
        except Exception as e:   # building or running a model type's code: reported, never raised
            return _failed(e)
        finally:
            torch.set_num_threads(threads)


_FULL = set()   # model classes whose fast run failed once: run in full from then on


def _probe_fast_then_full(hf, tc):
    key = type(tc).__name__
    fast = None if key in _FULL else _probe(hf, tc, fast=True)
    if fast is not None and not fast.error and not any(c.query.problem for lp in fast.layers for c in lp.calls):
        return fast
    full = _probe(hf, tc, fast=False)
    if fast is None or not full.error:
        if fast is not None:
            _FULL.add(key)
        return full
    return fast


def _reason(e):
    msg = str(e).splitlines()[0][:200] if str(e).strip() else ""
    return f"{type(e).__name__}: {msg}" if msg else type(e).__name__


def _failed(e, model_class=""):
    return ModelProbe(model_class=model_class, layers=(), positions=(), positions_long=(), error=_reason(e))


class _SdpaMode(TorchFunctionMode):
    """For models that pick their attention class by implementation name (Falcon): every call of torch's
    scaled_dot_product_attention is recorded as an attention call of the innermost attention module running."""

    def __init__(self, recorder, stack):
        super().__init__()
        self.recorder, self.stack = recorder, stack

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func is F.scaled_dot_product_attention:
            q, k, v = args[:3]
            out = self.recorder.attention(self.stack[-1] if self.stack else None, q, k, v, None,
                                          scaling=kwargs.get("scale"))[0]                    # [N,L,H,dv]
            return out.transpose(1, 2)                                                        # [N,H,L,dv]
        return func(*args, **kwargs)


def _built(tc, fast, weights):
    """(model, attention implementation): the probe's own, or SDPA when the model picks its attention class by
    implementation name and knows no other."""
    try:
        return pb.build(tc, fast=fast, weights=weights), pb.PROBE
    except (KeyError, ValueError) as e:
        if pb.PROBE not in str(e):
            raise
        return pb.build(tc, fast=fast, implementation="sdpa", weights=weights), "sdpa"


def _hooks(model, recorder, stack, implementation):
    """Every attention module's output recorded (and zeroed), the first layer's input recorded; with SDPA, the
    stack of attention modules running."""
    watched = [m for m in model.modules() if pb.calls_attention(type(m))]
    hooks = [m.register_forward_hook(recorder.output_hook) for m in watched]
    maps = {id(s): s for m in watched for s in m.modules() if isinstance(s, torch.nn.Linear)}
    hooks += [s.register_forward_hook(recorder.tap) for s in maps.values()]
    if implementation == "sdpa":
        hooks += [m.register_forward_pre_hook(lambda m, a: stack.append(m) and None) for m in watched]
        hooks += [m.register_forward_hook(lambda m, a, o: stack.pop() and None, prepend=True) for m in watched]
    layers = pb.decoder_layers(model)
    if layers:
        hooks.append(layers[0].register_forward_pre_hook(recorder.input_hook, with_kwargs=True))
    return hooks


@dataclasses.dataclass
class _Plan:
    """The positions of the runs: B (short), C (long), the rows of multimodal RoPE, D's per-token scale."""

    short: torch.Tensor
    long: torch.Tensor
    rows: int
    ids: torch.Tensor

    @classmethod
    def of(cls, tc):
        short, long = _lengths(tc)
        pos_b, pos_c = _positions(short), _positions(long)                                    # [L] x2
        length = max(pos_b.numel(), pos_c.numel())
        pos_b = torch.cat([pos_b, pos_b[-1:].expand(length - pos_b.numel())])                 # [L]
        pos_c = torch.cat([pos_c, pos_c[-1:].expand(length - pos_c.numel())])                 # [L]
        ids = torch.tensor(_token_ids(tc))[:, None].expand(-1, length)                        # [N, L]
        return cls(pos_b, pos_c, _mrope_rows(tc), ids)

    def rowed(self, pos):
        return pos.expand(self.rows, -1) if self.rows else pos                                # [R, L] / [L]

    @property
    def scale(self):
        return self.long.clamp(min=1)                                                         # [L]

    def multi_row(self):
        """Run D: token t at position (row + 1) · scale_t on each row; the first two tokens at 0."""
        d_pos = torch.arange(1, self.rows + 1)[:, None] * self.scale[None, :]                  # [R, L]
        d_pos[:, :2] = 0
        return d_pos


def _probe(hf, tc, fast, weights="stand-in"):
    recorder, stack = _Recorder(), []
    _register(hf)
    try:
        model, implementation = _built(tc, fast, weights)
    except Exception as e:
        return _failed(e)
    hooks = _hooks(model, recorder, stack, implementation)
    plan = _Plan.of(tc)
    sdpa = _SdpaMode(recorder, stack) if implementation == "sdpa" else contextlib.nullcontext()
    try:
        with _recording(recorder), sdpa:
            runs, long_error = _runs(model, recorder, plan)
    except Exception as e:
        return _failed(e, type(model).__name__)
    finally:
        for h in hooks:
            h.remove()
    out = _summarise(model, runs, plan, fast)
    return dataclasses.replace(out, long_error=long_error)


def _runs(model, recorder, plan):
    """Runs B, C, A (when tokens do not share a state) and D (multimodal RoPE) -> ({run: recorded}, why C failed)."""
    recorder.tapping = True       # the projections before each attention, in run B
    runs = {"b": _run(model, recorder, plan.rowed(plan.short), plan.ids)}
    recorder.tapping = False
    long_error = None
    try:
        runs["c"] = _run(model, recorder, plan.rowed(plan.long), plan.ids)
    except Exception as e:      # GPT-J's sin/cos table ends at max_position_embeddings
        long_error, plan.long = _reason(e), plan.short
        runs["c"] = runs["b"]
    if not _shared_state(runs["b"][0]):
        runs["a"] = _run(model, recorder, plan.rowed(torch.zeros_like(plan.short)), plan.ids)
    if plan.rows:
        runs["d"] = _run(model, recorder, plan.multi_row(), plan.ids)
    return runs, long_error


def _shared_state(calls):
    """Whether the two tokens at position 0 of every call carry the same query (then each position is compared
    with its own sequence's first token)."""
    return all(torch.equal(c["q"][:, :, 0], c["q"][:, :, 1]) for c in calls)


class _Measured:
    """Turns measured so far: by their tensors (most layers see the same input and weights: measured once), and
    completed once (multimodal rows, the checkpoint's pairing) per distinct turn."""

    def __init__(self, plan):
        self.plan, self.items, self.done = plan, [], {}
        self.caches = {"q": pf.PairingCache(), "k": pf.PairingCache()}
        self.positions = {"b": plan.short.tolist(), "c": plan.long.tolist()}

    def turn(self, one, part):
        tensors = tuple(one[r][part] for r in ("a", "b", "c") if r in one)
        for known, turn in self.items:
            if all(a.shape == b.shape and torch.equal(a, b) for a, b in zip(known, tensors)):
                return turn
        turn = pf.turn_of({r: one[r][part] for r in ("a", "b", "c") if r in one}, self.positions, self.caches[part])
        self.items.append((tensors, turn))
        return turn

    def query(self, one):
        q = self.turn(one, "q")
        if q.rotates and id(q) not in self.done:
            rows, b = self.plan.rows, one["b"]
            axes = pf.axes_of(one["d"]["q"], one.get("a", {}).get("q"), q, rows, self.plan.scale.tolist()) \
                if rows and "d" in one else None
            self.done[id(q)] = dataclasses.replace(q, axes=axes, weight_pairs=pf.weight_pairs(b, q)
                                                   if b["projections"] else None)
        return self.done.get(id(q), q)


def _summarise(model, runs, plan, fast):
    calls = {k: v[0] for k, v in runs.items()}
    if len({len(c) for c in calls.values()}) != 1:
        return ModelProbe(model_class=type(model).__name__, layers=(), positions=(), positions_long=(),
                          error="the model called attention a different number of times per run")
    where = _layer_of(model)
    measured = _Measured(plan)
    per_layer = {}
    for k, b in enumerate(calls["b"]):
        one = {run: calls[run][k] for run in calls}
        mod = b["module"]
        outs = [runs[r][1].get(id(mod), []) for r in ("a", "b") if r in runs]
        out_turns = any(not _same(x[:, :1], x) for x in outs[0]) if len(outs) == 1 else any(
            not _same(x, y) for x, y in zip(*outs))
        values_turn = not _same(b["v"][:, :, :1], b["v"]) if "a" not in one else not _same(one["a"]["v"], b["v"])
        call = AttentionProbe(module=type(mod).__name__, heads=b["heads"], query=measured.query(one),
                              key=measured.turn(one, "k"), scaling=_real(b["scaling"]), window=_window(b["window"]),
                              values_turn=values_turn, output_turns=out_turns)
        index = where.get(id(mod), getattr(mod, "layer_idx", None))
        per_layer.setdefault(k if index is None else index, []).append(call)
    n_layers = max(len(pb.decoder_layers(model)), len(per_layer))
    layers = tuple(LayerProbe(i, tuple(per_layer.get(i, ()))) for i in range(n_layers))
    inputs = runs["b"][2]
    return ModelProbe(model_class=type(model).__name__, layers=layers, positions=tuple(plan.short.tolist()),
                      positions_long=tuple(plan.long.tolist()), axes_rows=plan.rows,
                      input_turns=bool(inputs) and not _same(inputs[0][:, :1], inputs[0]),
                      attention_factors=_attention_factors(model), full_run=not fast,
                      attention_modules=sum("Attention" in type(s).__name__ for layer in pb.decoder_layers(model)
                                            for s in layer.modules()))


def _real(x):
    """A softmax scale as the model passed it: a real float, nan when it is none (a complex number from a negative
    query_pre_attn_scalar's square root), None when the model passed none."""
    if x is None:
        return None
    try:
        return float(x)
    except (TypeError, ValueError):
        return math.nan


def _window(w):
    if isinstance(w, bool) or not isinstance(w, (int, float)) or w <= 0:
        return None
    return int(w)


def _attention_factors(model):
    """The attention factor each rotary module multiplies cos and sin by (transformers' `attention_scaling`,
    per layer type `<type>_attention_scaling`) -> ((name, factor), ...)."""
    out = {}
    for m in model.modules():
        if "RotaryEmbedding" not in type(m).__name__ or "Vision" in type(m).__name__:
            continue
        for attr, v in vars(m).items():
            if attr == "attention_scaling" or attr.endswith("_attention_scaling"):
                if isinstance(v, (int, float)):
                    out.setdefault(attr.removesuffix("attention_scaling").rstrip("_") or "default", float(v))
                elif isinstance(v, dict):
                    for k, x in v.items():
                        out.setdefault(str(k), float(x))
    return tuple(out.items())

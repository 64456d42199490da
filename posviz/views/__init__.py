"""The cached layer, one module per page: plain arguments in, plain numbers, numpy arrays and dicts out.

Views call posviz.pe, posviz.lab and posviz.tinylm; every cache of the app is a `@cached` function
here (posviz.ui installs st.cache_data behind it). Views import no streamlit, figures or text.
"""
import functools
import hashlib

import numpy as np

CACHE_ENTRIES = 64
_backends = {}      # set once by posviz.ui: {"copy": st.cache_data, "shared": st.cache_resource}


def install(copy, shared):
    """posviz.ui calls this with st.cache_data and st.cache_resource; without it (tests, scripts)
    views run uncached."""
    _backends.update(copy=copy, shared=shared)


def _feed(h, obj):
    """Feed `obj` (nested tuples, lists, dicts of str / numbers / None / bool, numpy arrays, tensors) into
    the hash h, each value tagged with its type and length, so that equal digests mean equal values.
    Anything else goes in by repr (a value-based repr such as a dataclass's keys by value; the default
    object repr holds the address: never a false hit, at worst a miss)."""
    if isinstance(obj, (list, tuple)):
        h.update((b"L" if isinstance(obj, list) else b"T") + len(obj).to_bytes(8, "little"))
        for v in obj:
            _feed(h, v)
    elif isinstance(obj, dict):
        h.update(b"D" + len(obj).to_bytes(8, "little"))
        for k, v in obj.items():
            _feed(h, k)
            _feed(h, v)
    elif isinstance(obj, np.ndarray) or hasattr(obj, "detach"):
        a = np.ascontiguousarray(obj.detach().cpu().numpy() if hasattr(obj, "detach") else obj)
        h.update(b"A" + a.dtype.str.encode() + repr(a.shape).encode())
        h.update(a.view(np.uint8).data if a.dtype != object else repr(a.tolist()).encode())
    else:   # str, int, float (repr keeps every bit), bool, None, numpy scalars
        h.update(type(obj).__name__.encode() + b":" + repr(obj).encode() + b";")


class Keyed:
    """A view's arguments, hashed once in one pass (BLAKE2 over their bytes). Streamlit's own hasher
    walks them in Python on every call: ~0.2-0.3 ms for four numbers, ~1 ms for a list of 50 row dicts;
    the cache backends see only this digest."""
    __slots__ = ("digest", "value")

    def __init__(self, value):
        self.value = value
        h = hashlib.blake2b(digest_size=16)
        _feed(h, value)
        self.digest = h.digest()


def cached(fn=None, *, max_entries=CACHE_ENTRIES, shared=False, **options):
    """Cache a view on its arguments, bounded to `max_entries`. Each hit returns a fresh copy of the
    value (st.cache_data); `shared=True` returns the one stored object (st.cache_resource, no copy per
    hit) for values nobody mutates, such as a built figure. The cache is made on first call, so that
    the backends posviz.ui installs at import are the ones used; `options` go to the backend. The
    backend is keyed on the arguments' `Keyed` digest."""
    if fn is None:
        return functools.partial(cached, max_entries=max_entries, shared=shared, **options)
    inner = None

    def by_digest(keyed):
        args, kwargs = keyed.value
        return fn(*args, **kwargs)
    by_digest.__module__, by_digest.__qualname__ = fn.__module__, fn.__qualname__   # the backend's cache identity

    @functools.wraps(fn)
    def view(*args, **kwargs):
        nonlocal inner
        if inner is None:
            backend = _backends.get("shared" if shared else "copy")
            if backend is None:
                return fn(*args, **kwargs)
            inner = backend(max_entries=max_entries, show_spinner=False, hash_funcs={Keyed: _digest},
                            **options)(by_digest)
        return inner(Keyed((args, kwargs)))

    view.uncached = fn
    return view


def _digest(keyed):
    return keyed.digest

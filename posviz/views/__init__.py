"""The cached layer, one module per page: plain arguments in, plain numbers, numpy arrays and dicts out.

Views call posviz.pe, posviz.lab and posviz.tinylm; every cache of the app is a `@cached` function
here (posviz.ui installs st.cache_data behind it). Views import no streamlit, figures or text.
"""
import functools
import threading

from posviz.pe import rope_config

CACHE_ENTRIES = 64
_backends = {}      # set once by posviz.ui: {"copy": st.cache_data, "shared": st.cache_resource}


def install(copy, shared):
    """posviz.ui calls this with st.cache_data and st.cache_resource; without it (tests, scripts)
    views run uncached."""
    _backends.update(copy=copy, shared=shared)


def cached(fn=None, *, max_entries=CACHE_ENTRIES, shared=False, **options):
    """Cache a view on its arguments, bounded to `max_entries`. Each hit returns a fresh copy of the
    value (st.cache_data); `shared=True` returns the one stored object (st.cache_resource, no copy per
    hit) for values nobody mutates, such as a built figure. The cache is made on first call, so that
    the backends posviz.ui installs at import are the ones used; `options` go to the backend."""
    if fn is None:
        return functools.partial(cached, max_entries=max_entries, shared=shared, **options)
    inner = None

    @functools.wraps(fn)
    def view(*args, **kwargs):
        nonlocal inner
        if inner is None:
            backend = _backends.get("shared" if shared else "copy")
            if backend is None:
                return fn(*args, **kwargs)
            inner = backend(max_entries=max_entries, show_spinner=False, **options)(fn)
        return inner(*args, **kwargs)

    view.uncached = fn
    return view


_warm = threading.Lock()
_warming = []


def warm_up():
    """Once per process, in the background: import transformers (~4 s on this machine), so that the
    first visitor of a real model's page does not wait for it. posviz.ui calls it on the first run."""
    with _warm:
        if not _warming:
            _warming.append(threading.Thread(target=rope_config.transformers_version, name="posviz-warm-up", daemon=True))
            _warming[0].start()

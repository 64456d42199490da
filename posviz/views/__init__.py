"""The cached layer, one module per page: plain arguments in, plain numbers, numpy arrays and dicts out.

Views call posviz.pe, posviz.lab and posviz.tinylm; every cache of the app is a `@cached` function
here (posviz.ui installs st.cache_data behind it). Views import no streamlit, figures or text.
"""
import functools

CACHE_ENTRIES = 64
_backend = None     # set once by posviz.ui: streamlit's cache_data decorator factory


def install(backend):
    """posviz.ui calls this with st.cache_data; without it (tests, scripts) views run uncached."""
    global _backend
    _backend = backend


def cached(fn=None, *, max_entries=CACHE_ENTRIES, **options):
    """Cache a view on its arguments (bounded). The cache is made on first call, so that the
    backend posviz.ui installs at import is the one used; `options` go to the backend."""
    if fn is None:
        return functools.partial(cached, max_entries=max_entries, **options)
    inner = None

    @functools.wraps(fn)
    def view(*args, **kwargs):
        nonlocal inner
        if inner is None:
            if _backend is None:
                return fn(*args, **kwargs)
            inner = _backend(max_entries=max_entries, show_spinner=False, **options)(fn)
        return inner(*args, **kwargs)

    view.uncached = fn
    return view

"""transformers, imported on first use and used under one lock (its lazy module resolution is not thread-safe:
sessions arriving together on a fresh server saw "module 'transformers' has no attribute 'CONFIG_MAPPING'")."""
import threading

HF_LOCK = threading.RLock()


def transformers_module():
    """transformers, imported on first use (heavy; only posviz.pe reads configs and builds models with it)."""
    with HF_LOCK:
        import transformers  # noqa: PLC0415  the one allowed lazy import of a heavy third-party package

        transformers.logging.set_verbosity_error()
        transformers.CONFIG_MAPPING, transformers.AutoConfig  # noqa: B018  resolved once, under the lock
        return transformers

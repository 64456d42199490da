"""The toy attention model and its bugs (toy_model, kv_cache, checklist, tokens).
Imports posviz.pe and posviz.validate only."""

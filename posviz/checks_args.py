"""Argument validation shared by every compute module.

Every public function validates with these helpers, so bad input raises a
ValueError whose message names the parameter and the allowed range, and sizes
stay capped (a hosted instance must survive L=10**6 in a URL).
"""
import math
import operator

# Caps for anything a user (or a URL) can ask for.
MAX_LENGTH = 8192        # sequence positions in one tensor / matrix
MAX_DIM = 1024           # model or head width
MAX_HEADS = 128
MAX_POSITION = 10**7     # largest single position index
MAX_BASE = 1e9


def check_int(name, value, lo, hi=None):
    """Return `value` as int, or raise ValueError naming `name` and [lo, hi]."""
    if isinstance(value, float) and math.isfinite(value) and value == int(value):
        value = int(value)  # 4.0 from a slider or a JSON config is fine
    if isinstance(value, bool):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    try:
        value = operator.index(value)  # int, numpy / torch integer scalars
    except TypeError:
        raise ValueError(f"{name} must be an integer, got {value!r}") from None
    if value < lo or (hi is not None and value > hi):
        rng = f"[{lo}, {hi}]" if hi is not None else f">= {lo}"
        raise ValueError(f"{name} must be in {rng}, got {value}")
    return value


def check_even(name, value, lo=2, hi=MAX_DIM):
    value = check_int(name, value, lo, hi)
    if value % 2:
        raise ValueError(f"{name} must be even (dimensions are used in pairs), got {value}")
    return value


def check_float(name, value, lo=None, hi=None, *, lo_open=False):
    """Return `value` as a finite float in the range, or raise ValueError naming `name`."""
    try:
        value = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number, got {value!r}") from None
    if not math.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value}")
    if lo is not None and (value < lo or (lo_open and value == lo)):
        op = ">" if lo_open else ">="
        raise ValueError(f"{name} must be {op} {lo}, got {value}")
    if hi is not None and value > hi:
        raise ValueError(f"{name} must be <= {hi}, got {value}")
    return value


def check_base(value, name="base"):
    """RoPE / sinusoidal base: must be > 1 so the frequencies decrease."""
    return check_float(name, value, 1.0, MAX_BASE, lo_open=True)


def check_choice(name, value, choices):
    if value not in choices:
        raise ValueError(f"{name} must be one of {sorted(choices)}, got {value!r}")
    return value

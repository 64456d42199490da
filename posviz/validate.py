"""Argument validation shared by every compute module.

Every public function validates with these helpers, so bad input raises a
`PosvizError` (a ValueError) whose message names the parameter and the allowed range,
and sizes stay capped (a hosted instance must survive L=10**6 in a URL). The error
carries a `code` and its `params`: `posviz.text` holds its message in every language
(`err.<code>`), so the UI shows it in the user's; str(error) is the English message.
"""
import math
import operator

from posviz import text

# Caps for anything a user (or a URL) can ask for.
MAX_LENGTH = 8192        # sequence positions in one tensor / matrix
MAX_DIM = 1024           # model or head width
MAX_HEADS = 128
MAX_POSITION = 10**7     # largest single position index
MAX_BASE = 1e9


class PosvizError(ValueError):
    """A bad argument. `code` names the message `err.<code>` of posviz.text; `params` fill it."""

    boundary = False   # True: a limit the page demonstrates on purpose, not a mistake of the user

    def __init__(self, code, **params):
        self.code, self.params = code, params
        super().__init__(self.message("en"))

    def message(self, lang):
        """The message in `lang` ("en" or "zh")."""
        return text.get(lang, f"err.{self.code}", **self.params)


def as_tensor(name, value, *, dtype=None, ndim=None):
    """`value` as a torch tensor (tensors pass through; numbers and nested lists are converted),
    optionally of `ndim` dimensions; a PosvizError naming `name` otherwise."""
    import torch

    if not isinstance(value, torch.Tensor):
        try:
            value = torch.as_tensor(value, dtype=dtype)
        except (TypeError, ValueError, RuntimeError):
            raise PosvizError("tensor", name=name, got=type(value).__name__) from None
    elif dtype is not None:
        value = value.to(dtype)
    if ndim is not None and value.dim() not in ((ndim,) if isinstance(ndim, int) else tuple(ndim)):
        raise PosvizError("ndim", name=name, ndim=ndim, shape=list(value.shape))
    return value


def shown(value):
    """A value as a message shows it: an integer of more than 12 digits in short form (1e+308, not 309 digits)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** 12:
        digits = str(abs(value))
        return f"{'-' if value < 0 else ''}{digits[0]}.{digits[1:3]}e+{len(digits) - 1}"
    return value


def check_int(name, value, lo, hi=None):
    """Return `value` as int, or raise ValueError naming `name` and [lo, hi]."""
    if isinstance(value, float) and math.isfinite(value) and value == int(value):
        value = int(value)  # 4.0 from a slider or a JSON config is fine
    if isinstance(value, bool):
        raise PosvizError("integer", name=name, got=repr(value))
    try:
        value = operator.index(value)  # int, numpy / torch integer scalars
    except TypeError:
        raise PosvizError("integer", name=name, got=repr(value)) from None
    if value < lo or (hi is not None and value > hi):
        if hi is None:
            raise PosvizError("at_least", name=name, lo=lo, got=shown(value))
        raise PosvizError("range", name=name, lo=lo, hi=hi, got=shown(value))
    return value


def check_even(name, value, lo=2, hi=MAX_DIM):
    value = check_int(name, value, lo, hi)
    if value % 2:
        raise PosvizError("even", name=name, got=value)
    return value


def check_float(name, value, lo=None, hi=None, *, lo_open=False):
    """Return `value` as a finite float in the range, or raise ValueError naming `name`."""
    try:
        value = float(value)
    except (TypeError, ValueError):
        raise PosvizError("number", name=name, got=repr(value)) from None
    if not math.isfinite(value):
        raise PosvizError("finite", name=name, got=value)
    if lo is not None and (value < lo or (lo_open and value == lo)):
        raise PosvizError("above" if lo_open else "at_least", name=name, lo=lo, got=value)
    if hi is not None and value > hi:
        raise PosvizError("at_most", name=name, hi=hi, got=value)
    return value


def check_base(value, name="base"):
    """RoPE / sinusoidal base: must be > 1 so the frequencies decrease."""
    return check_float(name, value, 1.0, MAX_BASE, lo_open=True)


def check_choice(name, value, choices):
    if value not in choices:
        raise PosvizError("choice", name=name, choices=", ".join(map(str, sorted(choices, key=str))), got=repr(value))
    return value

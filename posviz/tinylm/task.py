r"""The synthetic task of the "train short, test long" page: copy with a fixed offset.

Every sequence is uniform random content tokens; at every position i >= k the model
must output the token that stood k positions earlier:

    x_i ~ Uniform{1, ..., V-1}            (token 0 is reserved for BOS at position 0)
    y_i = x_{i-k}   for i >= k,           y_i = IGNORE for i < k   (no loss there)

The answer is checkable at every position, and the natural solution is *relative*
("look k tokens back"), so a method that expresses relative offsets can in principle
solve the task at any length, while a method that learned absolute positions has no
reason to work beyond the training length. The generator makes sequences of any
length up to MAX_LENGTH, so a model trained at length 64 can be tested at 512.

The positional-shortcut variant (`make_marker_batch`): one marker token M = V - 1 stands at
position p, and from position p + 2 on the model must output the token right after it:

    x_p = M,  x_i ~ Uniform{1, ..., V-2} elsewhere (i > 0)
    y_i = x_{p+1}   for i >= p + 2,    y_i = IGNORE otherwise

Its content rule ("the token after the marker") works wherever the marker stands; if every
training sequence has the marker at the same p, "the token at absolute position p + 1" fits the
training data just as well: a positional shortcut, exposed by moving the marker at test time.
"""
import torch

from posviz.validate import MAX_LENGTH, PosvizError, check_int

IGNORE = -100          # target at positions without an answer (cross_entropy ignore_index)
BOS = 0                # token id at position 0
MAX_VOCAB = 4096
MAX_BATCH = 4096


def check_task(vocab_size, offset):
    """Validate the task parameters; return them as ints."""
    vocab_size = check_int("vocab_size", vocab_size, 3, MAX_VOCAB)
    offset = check_int("offset", offset, 1, 64)
    return vocab_size, offset


def make_batch(batch_size, length, *, vocab_size=32, offset=2, seed=0):
    """A deterministic batch of the copy-with-offset task.

    Returns (tokens LongTensor[N,L], targets LongTensor[N,L]); tokens[:, 0] = BOS,
    targets[:, i] = tokens[:, i - offset] for i >= offset, IGNORE elsewhere.
    Same (batch_size, length, vocab_size, offset, seed) -> identical tensors.
    """
    batch_size = check_int("batch_size", batch_size, 1, MAX_BATCH)
    length = check_int("length", length, 2, MAX_LENGTH)
    vocab_size, offset = check_task(vocab_size, offset)
    seed = check_int("seed", seed, 0, 2**62)
    if offset >= length:
        raise PosvizError("range", name="offset", lo=1, hi=length - 1, got=offset)
    g = torch.Generator().manual_seed(seed)
    tokens = torch.randint(1, vocab_size, (batch_size, length), generator=g)   # [N,L]
    tokens[:, 0] = BOS
    targets = torch.full_like(tokens, IGNORE)                                # [N,L]
    targets[:, offset:] = tokens[:, :-offset]                                # [N,L-k]
    return tokens, targets


def make_marker_batch(batch_size, length, *, vocab_size=32, marker_at=None, marker_range=(1, 56), seed=0):
    """A deterministic batch of the marker task (see the module docstring).

    marker_at: the marker's position p for every sequence (the shortcut's training data, or one test
    position), or None: p ~ Uniform{marker_range[0], ..., marker_range[1]} per sequence.
    Returns (tokens LongTensor[N,L], targets LongTensor[N,L], marker positions LongTensor[N]).
    """
    batch_size = check_int("batch_size", batch_size, 1, MAX_BATCH)
    length = check_int("length", length, 4, MAX_LENGTH)
    vocab_size = check_int("vocab_size", vocab_size, 4, MAX_VOCAB)
    seed = check_int("seed", seed, 0, 2**62)
    g = torch.Generator().manual_seed(seed)
    tokens = torch.randint(1, vocab_size - 1, (batch_size, length), generator=g)   # [N,L] content 1..V-2
    tokens[:, 0] = BOS
    if marker_at is None:
        lo = check_int("marker_range[0]", marker_range[0], 1, length - 3)
        hi = check_int("marker_range[1]", marker_range[1], lo, length - 3)
        where = torch.randint(lo, hi + 1, (batch_size,), generator=g)             # [N]
    else:
        where = torch.full((batch_size,), check_int("marker_at", marker_at, 1, length - 3))  # [N]
    rows = torch.arange(batch_size)                                               # [N]
    tokens[rows, where] = vocab_size - 1
    answer = tokens[rows, where + 1]                                              # [N]
    pos = torch.arange(length)                                                    # [L]
    targets = torch.where(pos[None, :] >= where[:, None] + 2, answer[:, None],
                          torch.full_like(tokens, IGNORE))                        # [N,L]
    return tokens, targets, where


def answer_mask(length, offset):
    """True at the positions that carry an answer (i >= offset) -> BoolTensor[L]."""
    length = check_int("length", length, 2, MAX_LENGTH)
    offset = check_int("offset", offset, 1, 64)
    return torch.arange(length) >= offset                                    # [L]

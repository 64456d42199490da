r"""How a query-key score depends on the two positions m and n, for one token at every position.

Three ways position reaches the score q_m·k_n, each through a linear layer W_Q, W_K:
    integer     a bare seat number: X_p = [1, p, 0, ...] (“Position encodings”: why not a bare integer?)
    sinusoidal  X_p = PE(p): a shift is a fixed rotation of PE, so a linear layer *can* read the offset
                (“Same words, different order…” §03), whether it does depends on W_Q, W_K
    rope        q_m = R(m) W_Q x, k_n = R(n) W_K x: the score depends on n − m for every W_Q, W_K (§08)
and how far a score matrix depends on n − m alone (relative_residual: 0 when it does).
"""
import torch

from posviz.pe.rope import apply_rope
from posviz.pe.sinusoidal import sinusoidal_positions
from posviz.validate import PosvizError, check_choice, check_float, check_int

METHODS = ("integer", "sinusoidal", "rope")
WEIGHTS = ("random", "identity")
MAX_LENGTH = 128
MAX_DIM = 256
RELATIVE = 1e-4      # below this relative_residual a score depends on n − m only (float32 rounding aside)


def projections(dim: int, weights: str = "random", seed: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
    """(W_Q, W_K) [D,D] float32: standard normal entries / sqrt(D) drawn from Generator(seed), or the identity."""
    dim = check_int("dim", dim, 2, MAX_DIM)
    check_choice("weights", weights, WEIGHTS)
    if weights == "identity":
        return torch.eye(dim), torch.eye(dim)                                     # [D,D] x2
    g = torch.Generator().manual_seed(check_int("seed", seed, 0, 2**31 - 1))
    w = torch.randn(2, dim, dim, generator=g) / dim ** 0.5                         # [2,D,D]
    return w[0], w[1]


def position_inputs(method: str, length: int, dim: int, *, base: float = 10000.0, seed: int = 0) -> torch.Tensor:
    r"""What the linear layer reads at each position p = 0..L-1 -> Tensor[L, D] float32.

    Formula:
        \text{integer: } X_p = (1,\ p,\ 0,\dots,0) \qquad \text{sinusoidal: } X_p = PE(p)
        \text{rope: } X_p = x \text{ (one token, the same at every position; position enters as } R(p))
    """
    check_choice("method", method, METHODS)
    length = check_int("length", length, 2, MAX_LENGTH)
    dim = check_int("dim", dim, 2, MAX_DIM)
    if method == "integer":
        x = torch.zeros(length, dim)                                               # [L,D]
        x[:, 0] = 1.0
        x[:, 1] = torch.arange(length, dtype=torch.float32)
        return x
    if method == "sinusoidal":
        return sinusoidal_positions(length, dim, base=base)                        # [L,D]
    g = torch.Generator().manual_seed(check_int("seed", seed, 0, 2**31 - 1) + 1)
    x = torch.randn(dim, generator=g)                                              # [D]
    return (x / x.norm()).expand(length, dim).clone()                              # [L,D]


def position_scores(method: str, length: int, dim: int, *, weights: str = "random", seed: int = 0,
                    base: float = 10000.0) -> torch.Tensor:
    r"""The score of query position m against key position n -> Tensor[L, L] float32 (row m, column n).

    Formula:
        s(m, n) = (X_m W_Q)\cdot(X_n W_K) \quad \text{(integer, sinusoidal)}
        s(m, n) = \big(R(m)\,W_Q^\top x\big)\cdot\big(R(n)\,W_K^\top x\big)
            = x^\top W_Q R(n-m) W_K^\top x \quad \text{(rope)}
        \text{integer, } W = I:\ s(m, n) = 1 + m\,n
        \text{sinusoidal, } W = I:\ s(m,n) = \sum_i \cos\big((n-m)\,\omega_i\big)
    """
    check_float("base", base, 1.0, 1e12, lo_open=True)
    if method == "rope" and dim % 2:
        raise PosvizError("even", name="dim", got=dim)
    x = position_inputs(method, length, dim, base=base, seed=seed)                  # [L,D]
    wq, wk = projections(dim, weights, seed)                                       # [D,D] x2
    q, k = x @ wq, x @ wk                                                          # [L,D] x2
    if method == "rope":
        pos = torch.arange(q.shape[0])                                             # [L]
        q = apply_rope(q[None, None], pos, base=base)[0, 0]                        # [L,D]
        k = apply_rope(k[None, None], pos, base=base)[0, 0]                        # [L,D]
    return q @ k.T                                                                 # [L,L]


def relative_part(scores: torch.Tensor) -> torch.Tensor:
    r"""The part of a score matrix that depends on n − m alone: each entry replaced by the mean of its diagonal.

    Formula:
        T(s)(m, n) = \operatorname{mean}\{\, s(m', n') : n' - m' = n - m \,\}

    scores [L, L] -> Tensor[L, L] float64.
    """
    s = torch.as_tensor(scores, dtype=torch.float64)                               # [L,L]
    length = s.shape[0]
    if s.ndim != 2 or s.shape[1] != length:
        raise PosvizError("ndim", name="scores", ndim=2, shape=list(s.shape))
    i = torch.arange(length)                                                       # [L]
    off = (i[None, :] - i[:, None]) + length - 1                                   # [L,L] n - m, shifted to >= 0
    total = torch.zeros(2 * length - 1, dtype=torch.float64).index_add_(0, off.flatten(), s.flatten())   # [2L-1]
    count = torch.bincount(off.flatten(), minlength=2 * length - 1).to(torch.float64)                    # [2L-1]
    return (total / count)[off]                                                    # [L,L]


def relative_residual(scores: torch.Tensor) -> float:
    r"""How far a score matrix depends on more than n − m: 0 when it depends on n − m only, up to 1.

    Formula:
        r = \frac{\lVert s - T(s) \rVert_F}{\lVert s - \bar s \rVert_F}
    """
    s = torch.as_tensor(scores, dtype=torch.float64)                               # [L,L]
    spread = (s - s.mean()).norm()
    return 0.0 if spread == 0 else float((s - relative_part(s)).norm() / spread)

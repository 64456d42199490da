r"""Which RoPE frequency pairs a trained tiny model uses, and what becomes of them past the training length.

After RoPE, a head's score splits into one term per frequency pair i (interleaved pairs 2i, 2i+1):

    q~_m . k~_n = sum_i c_i(m, n),   c_i(m, n) = |q_{m,i}| |k_{n,i}| cos((m - n) theta_i + phi_i)

Two readings of the trained models (the "rope" recipe, every seed):
    pair_shares        how much of the score each pair carries: mean |c_i| over the (m, n) of a range of
                       offsets m - n, as a share of the sum over the pairs (offsets seen in training,
                       0..L_train-1, and offsets never seen, >= L_train)
    rotation_ablation  (in posviz.tinylm.evaluate) accuracy per bucket with one pair's rotation
                       removed (theta_i = 0 in every layer and head): the pair then carries content only
plus, per head, its diagonal (the offset it attends to most and the weight there): a head with most of
its weight on one offset is a positional head.

Barbero et al. 2024 ("Round and Round We Go! What makes Rotary Positional Encodings useful?") found
in Gemma 7B that the highest frequencies build positional heads (diagonal, previous token) and the
lowest ones carry semantic content, and that removing the lowest frequencies (p-RoPE) can help.
"""
import torch

from posviz.tinylm.task import make_batch
from posviz.validate import check_int

EVAL_SEED = 2**61 + 3 * 10**6     # sequences of this analysis (apart from every other evaluation)


def pair_contributions(q, k):
    r"""The score of every query m and key n split into its frequency pairs.

    Formula:
        c_i(m,n)=\tilde q_{m,2i}\,\tilde k_{n,2i}+\tilde q_{m,2i+1}\,\tilde k_{n,2i+1},\qquad
        \tilde q_m^\top\tilde k_n=\sum_{i<d/2}c_i(m,n)

    q, k [N,H,L,d] (after RoPE) -> c [N,H,L,L,d/2].
    """
    qp = q.unflatten(-1, (-1, 2))                                                  # [N,H,L,d/2,2]
    kp = k.unflatten(-1, (-1, 2))                                                  # [N,H,L,d/2,2]
    return torch.einsum("nhmic,nhkic->nhmki", qp, kp)                              # [N,H,L,L,d/2]


def region_masks(length, regions):
    """Causal (m, n) pairs whose offset m - n lies in [lo, hi), for each (lo, hi) -> BoolTensor[R,L,L]."""
    i = torch.arange(length)                                                       # [L]
    d = i[:, None] - i[None, :]                                                    # [L,L] m - n
    return torch.stack([(d >= lo) & (d < hi) for lo, hi in regions])               # [R,L,L]


@torch.no_grad()
def pair_shares(model, *, length=512, regions=((0, 64), (64, 512)), num_sequences=8):
    r"""Share of each frequency pair in the size of the score, per layer, head and range of offsets.

    Formula:
        \bar c_i(R)=\operatorname{mean}_{(m,n):\ m-n\in R}\,|c_i(m,n)|,\qquad
        \text{share}_i(R)=\frac{\bar c_i(R)}{\sum_j \bar c_j(R)}

    -> Tensor [n_layers, H, R, d/2] (float64; each row sums to 1).
    """
    length = check_int("length", length, 2, 1024)
    masks = region_masks(length, regions).to(torch.float64)                        # [R,L,L]
    cfg = model.cfg
    total = torch.zeros(cfg.n_layers, cfg.n_heads, len(regions), cfg.head_dim // 2, dtype=torch.float64)
    for s in range(check_int("num_sequences", num_sequences, 1, 256)):
        x, _ = make_batch(1, length, vocab_size=cfg.vocab_size, seed=EVAL_SEED + s)  # [1,L]
        qk = []
        model(x, capture=qk)
        for layer, (q, k) in enumerate(qk):
            c = pair_contributions(q, k)[0].abs().to(torch.float64)                # [H,L,L,d/2]
            total[layer] += torch.einsum("hmki,rmk->hri", c, masks)                # [H,R,d/2]
    return total / total.sum(-1, keepdim=True)                                     # [n_layers,H,R,d/2]


@torch.no_grad()
def head_diagonals(model, *, length=64, num_sequences=8):
    r"""Each head's strongest diagonal: the offset Δ* it puts most weight on and that weight, over the
    queries that have every offset up to the training length behind them (so a longer sequence keeps
    the training range's queries).

    Formula:
        \bar a(\Delta)=\operatorname{mean}_{m}\,a_{m,m-\Delta},\qquad \Delta^*=\arg\max_\Delta \bar a(\Delta)

    -> (offset LongTensor[n_layers, H], weight Tensor[n_layers, H]).
    """
    cfg = model.cfg
    x, _ = make_batch(check_int("num_sequences", num_sequences, 1, 256), length, vocab_size=cfg.vocab_size,
                      seed=EVAL_SEED + 1000)                                       # [N,L]
    _, maps = model(x, return_attention=True)                                      # n_layers x [N,H,L,L]
    i = torch.arange(length)                                                       # [L]
    d = (i[:, None] - i[None, :]).clamp_min(0)                                     # [L,L]
    keep = (i[:, None] >= i[None, :]).to(torch.float64)                            # [L,L] causal
    count = torch.zeros(length, dtype=torch.float64).index_add_(0, d.flatten(), keep.flatten())  # [L]
    offs, weights = [], []
    for a in maps:
        m = a.mean(0).to(torch.float64) * keep                                     # [H,L,L]
        per = torch.zeros(cfg.n_heads, length, dtype=torch.float64).index_add_(1, d.flatten(), m.flatten(1))  # [H,L]
        mean = per / count.clamp_min(1)                                            # [H,L] mean weight per offset
        w, o = mean.max(-1)                                                        # [H] x2
        offs.append(o)
        weights.append(w)
    return torch.stack(offs), torch.stack(weights)                                 # [n_layers,H] x2

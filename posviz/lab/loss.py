r"""Pad labels in the loss (“Same words, different order…” §11: padding must be masked as a key *and* its labels
ignored by the loss): the toy attention layer as a next-token model, its loss with and without ignore_index.

The layer's output at position t, read through the tied embedding (logits z_t = O_t E^T), predicts token t + 1.
Padding a sentence with k pad tokens adds k labels (the pad id) after its last real token. With the pad labels
set to ignore_index = -100 they drop out of the mean and the loss stays that of the real tokens; left in, they
are scored like words, and the loss moves with the number of pads alone.
"""
import torch
from torch.nn import functional as F

from posviz.lab import toy_model
from posviz.lab.tokens import PAD_ID, encode
from posviz.pe.position_ids import position_ids_from_mask
from posviz.validate import check_choice, check_int

IGNORE_INDEX = -100        # torch.nn.functional.cross_entropy's default ignore_index
MAX_PADS = 24


def next_token_labels(token_ids: torch.Tensor, attention_mask: torch.Tensor, *, ignore_pads: bool) -> torch.Tensor:
    r"""The label of every position: the next token's id; the last position, and with `ignore_pads` every position
    where the token or the next one is a pad (a pad predicted, or a prediction read off a pad: with left padding
    the last pad would predict the first word), get ignore_index.

    Formula:
        y_t = \begin{cases} \text{id}_{t+1} & t+1 < L \text{ and (mask}_t = \text{mask}_{t+1} = 1
            \text{ or not ignoring pads)}\\ -100 & \text{else} \end{cases}

    token_ids, attention_mask [N,L] -> LongTensor[N,L].
    """
    labels = torch.full_like(token_ids, IGNORE_INDEX)                             # [N,L]
    labels[:, :-1] = token_ids[:, 1:]                                             # [N,L-1] next token
    if ignore_pads:
        pad = (attention_mask[:, 1:] == 0) | (attention_mask[:, :-1] == 0)        # [N,L-1]
        labels[:, :-1] = labels[:, :-1].masked_fill(pad, IGNORE_INDEX)            # [N,L-1]
    return labels


def next_token_loss(model, token_ids: torch.Tensor, attention_mask: torch.Tensor, *, ignore_pads: bool,
                    causal: bool = True) -> float:
    r"""Cross-entropy of the toy layer's next-token predictions (tied embedding), pads masked as keys, positions
    from the mask.

    Formula:
        z_t = O_t\,E^\top,\qquad \mathcal L = -\frac{1}{|C|}\sum_{t \in C} \log \operatorname{softmax}(z_t)_{y_t},
            \quad C = \{t : y_t \ne -100\}
    """
    logits = next_token_logits(model, token_ids, attention_mask, causal=causal)   # [N,L,V]
    return cross_entropy(logits, token_ids, attention_mask, ignore_pads=ignore_pads)


def next_token_logits(model, token_ids: torch.Tensor, attention_mask: torch.Tensor, *, causal: bool = True):
    """z = O E^T: the toy layer's output read through its token embedding, positions from the mask
    -> FloatTensor[N,L,V]."""
    pos = position_ids_from_mask(attention_mask)                                  # [N,L]
    out = toy_model.forward(model, token_ids, attention_mask, pos, causal=causal).output   # [N,L,D]
    return out @ model.embed.T                                                    # [N,L,V]


def cross_entropy(logits: torch.Tensor, token_ids: torch.Tensor, attention_mask: torch.Tensor, *,
                  ignore_pads: bool) -> float:
    """The mean cross-entropy of logits [N,L,V] against next_token_labels (ignore_index -100 drops a label)."""
    labels = next_token_labels(token_ids, attention_mask, ignore_pads=ignore_pads)   # [N,L]
    return float(F.cross_entropy(logits.flatten(0, 1), labels.flatten(), ignore_index=IGNORE_INDEX))


def padded(token_ids: torch.Tensor, pads: int, side: str) -> torch.Tensor:
    """token_ids [N,n] with `pads` pad ids added on `side` ("left" or "right") -> LongTensor[N, n + pads]."""
    pad = torch.full((token_ids.shape[0], pads), PAD_ID, dtype=torch.long)       # [N,k]
    return torch.cat([pad, token_ids] if side == "left" else [token_ids, pad], dim=1)   # [N,n+k]


@torch.no_grad()
def pad_loss_curve(sentence, *, method="rope", padding_side="right", num_heads=2, head_dim=16, causal=True,
                   max_pads=12, seed=0, name="sentence"):
    """The loss of one sentence padded with 0..max_pads pad tokens, with the pad labels ignored and kept
    -> dict(pads [0..max_pads], ignored [float], kept [float], tokens)."""
    check_choice("padding_side", padding_side, ("left", "right"))
    max_pads = check_int("max_pads", max_pads, 0, MAX_PADS)
    row = encode([sentence], names=[name])                                        # Batch [1,n]
    n = row.token_ids.shape[1]
    model = toy_model.build_model(method, num_heads=num_heads, head_dim=head_dim, max_length=n, seed=seed)
    out = {"pads": list(range(max_pads + 1)), "ignored": [], "kept": [], "tokens": row.tokens[0]}
    for k in out["pads"]:
        ids = padded(row.token_ids, k, padding_side)                              # [1,n+k]
        mask = (ids != PAD_ID).long()                                             # [1,n+k]
        logits = next_token_logits(model, ids, mask, causal=causal)              # [1,n+k,V] one forward, two losses
        out["ignored"].append(cross_entropy(logits, ids, mask, ignore_pads=True))
        out["kept"].append(cross_entropy(logits, ids, mask, ignore_pads=False))
    return out

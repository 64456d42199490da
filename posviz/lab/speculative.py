r"""Speculative decoding with a tree of drafts (Medusa, Cai et al. 2024; EAGLE, Li et al. 2024; SpecInfer,
Miao et al. 2024): the base model checks a whole tree of guessed continuations in one forward pass.

The tree's root is the next token (position P after a prefix of P cached tokens); its children are
alternative guesses for the token after it, their children guesses for the one after that, and so on.
The nodes are fed flattened, breadth first (node 0 the root, then depth 1, then depth 2, ...). Two things
make one pass equal to decoding every branch on its own:

    position ids   a node at depth t is the (P + t)-th token of its branch: siblings share P + t
                   (Medusa's medusa_position_ids: the depth, plus the prefix length)
    the tree mask  a node sees the prefix, its ancestors and itself, never a sibling or a cousin

The bugs: "consecutive" ids P, P+1, P+2, ... in flattened order (as if the drafts were one sequence): a
node's position is its index, not its depth; "causal" mask: the plain causal mask over the flattened nodes,
so a node also attends to siblings and cousins fed before it.
"""
import torch

from posviz.lab.kv_cache import attend, one_thread, per_position_error, random_qkv
from posviz.pe.rope import apply_rope
from posviz.validate import PosvizError, check_choice, check_int

TREE_SHAPES = {"2": (2,), "3": (3,), "2x2": (2, 2), "3x2": (3, 2), "2x2x2": (2, 2, 2), "4x2x1": (4, 2, 1)}
ID_SCHEMES = ("depth", "consecutive")
MASKS = ("tree", "causal")
SETUPS = {"correct": ("depth", "tree"), "consecutive": ("consecutive", "tree"), "causal": ("depth", "causal")}
MAX_PREFIX = 64


def tree_nodes(branching):
    r"""A full tree from its branching per depth, breadth first: node 0 is the root -> (parents [N], depths [N]);
    the root's parent is -1.

    Formula:
        N = 1 + b_1 + b_1 b_2 + \cdots,\qquad \mathrm{depth}(n) = \mathrm{depth}(\mathrm{parent}(n)) + 1
    """
    branching = tuple(check_int("branching", b, 1, 8) for b in branching)
    if not 1 <= len(branching) <= 4:
        raise PosvizError("tree_depth", got=len(branching))
    parents, depths, level = [-1], [0], [0]
    for depth, b in enumerate(branching, 1):
        nxt = []
        for node in level:
            for _ in range(b):
                parents.append(node)
                depths.append(depth)
                nxt.append(len(parents) - 1)
        level = nxt
    return parents, depths


def ancestors(parents, node):
    """The path from the root to `node` (both included), root first."""
    path = []
    while node != -1:
        path.append(node)
        node = parents[node]
    return path[::-1]


def tree_position_ids(depths, prefix_length, scheme="depth"):
    r"""The position id of every node -> LongTensor[N]: "depth" P + depth (siblings share it), or the bug
    "consecutive" P + index in the flattened order.

    Formula:
        \mathrm{pos}(n) = P + \mathrm{depth}(n)\qquad(\text{consecutive: } P + n)
    """
    check_choice("scheme", scheme, ID_SCHEMES)
    p = check_int("prefix_length", prefix_length, 0, MAX_PREFIX)
    steps = depths if scheme == "depth" else range(len(depths))
    return torch.tensor([p + s for s in steps])                           # [N]


def tree_mask(parents, prefix_length, kind="tree"):
    r"""Which keys each node may attend to -> BoolTensor[N, P+N]: the P prefix keys, then the N nodes; "tree":
    its ancestors and itself; "causal" (the bug): every node fed at or before it.

    Formula:
        M_{n,\,P+m} = [\,m \in \mathrm{ancestors}(n)\,]\qquad(\text{causal: } [\,m \le n\,]),\qquad M_{n,\,s<P} = 1
    """
    check_choice("kind", kind, MASKS)
    p = check_int("prefix_length", prefix_length, 0, MAX_PREFIX)
    n = len(parents)
    mask = torch.zeros(n, p + n, dtype=torch.bool)                        # [N,P+N]
    mask[:, :p] = True
    for node in range(n):
        seen = ancestors(parents, node) if kind == "tree" else range(node + 1)
        mask[node, [p + m for m in seen]] = True
    return mask


def tree_attention(q, k, v, *, prefix_length, position_ids, mask):
    r"""One forward pass over the prefix (cached, positions 0..P-1) and the tree's nodes -> out [N_b,H,N,d] of
    the nodes.

    Formula:
        \mathrm{out}_n = \sum_{s\,:\,M_{ns}} \operatorname{softmax}_s
            \Big(\frac{(R(\mathrm{pos}_n)q_n)^\top R(\mathrm{pos}_s)k_s}{\sqrt d}\Big)\,v_s

    q, k, v [N_b,H,P+N,d]: the prefix's rows, then the nodes'.
    """
    p = check_int("prefix_length", prefix_length, 0, MAX_PREFIX)
    pos = torch.cat([torch.arange(p), torch.as_tensor(position_ids)])     # [P+N]
    qr = apply_rope(q[:, :, p:], pos[p:])                                  # [N_b,H,N,d]
    kr = apply_rope(k, pos)                                                # [N_b,H,P+N,d]
    scores = qr @ kr.transpose(-1, -2) / q.shape[-1] ** 0.5                # [N_b,H,N,P+N]
    probs = scores.masked_fill(~mask, float("-inf")).softmax(dim=-1)       # [N_b,H,N,P+N]
    return probs @ v                                                       # [N_b,H,N,d]


def branch_reference(q, k, v, *, prefix_length, parents):
    r"""Every node decoded the slow way: its branch (prefix, then root .. node) as one sequence at positions
    0, 1, 2, ..., causal attention, the node's output -> out [N_b,H,N,d].

    Formula:
        \mathrm{ref}_n = \mathrm{attention}\big(\text{prefix} \Vert \mathrm{ancestors}(n)\big)_{\text{last}}
    """
    p = check_int("prefix_length", prefix_length, 0, MAX_PREFIX)
    outs = []
    for node in range(len(parents)):
        idx = torch.tensor(list(range(p)) + [p + m for m in ancestors(parents, node)])  # [P+depth+1]
        pos = torch.arange(idx.numel())                                    # [P+depth+1]
        qr = apply_rope(q[:, :, idx[-1:]], pos[-1:])                       # [N_b,H,1,d]
        kr = apply_rope(k[:, :, idx], pos)                                 # [N_b,H,P+depth+1,d]
        outs.append(attend(qr, kr, v[:, :, idx], causal=False))           # [N_b,H,1,d]
    return torch.cat(outs, dim=-2)                                         # [N_b,H,N,d]


def compare_tree(prefix_length, shape="2x2", *, heads=2, head_dim=16, seed=0):
    r"""The tree pass under every setup (correct, consecutive ids, causal mask) against each node decoded
    on its own branch, on one random q, k, v [1,H,P+N,d] (float32).

    Formula:
        \mathrm{err}_n = \max_{h,c}\big|\mathrm{out}^{\text{setup}}_n - \mathrm{ref}_n\big|

    Plain data: parents, depths, position_ids[scheme], mask[kind] (0/1 rows), errors[setup] per node,
    max_error[setup], wrong[setup] (nodes whose error is above 1e-5).
    """
    check_choice("shape", shape, TREE_SHAPES)
    p = check_int("prefix_length", prefix_length, 1, MAX_PREFIX)
    parents, depths = tree_nodes(TREE_SHAPES[shape])
    with one_thread(), torch.inference_mode():
        q, k, v = random_qkv(1, heads, p + len(parents), head_dim, seed=seed)   # [1,H,P+N,d] x3
        ref = branch_reference(q, k, v, prefix_length=p, parents=parents)      # [1,H,N,d]
        ids = {s: tree_position_ids(depths, p, s) for s in ID_SCHEMES}
        masks = {m: tree_mask(parents, p, m) for m in MASKS}
        res = {"parents": parents, "depths": depths, "prefix_length": p,
               "position_ids": {s: x.tolist() for s, x in ids.items()},
               "mask": {m: x.int().tolist() for m, x in masks.items()}, "errors": {}}
        for setup, (scheme, kind) in SETUPS.items():
            out = tree_attention(q, k, v, prefix_length=p, position_ids=ids[scheme], mask=masks[kind])  # [1,H,N,d]
            res["errors"][setup] = per_position_error(out, ref).tolist()
        res["max_error"] = {s: max(e) for s, e in res["errors"].items()}
        res["wrong"] = {s: [n for n, e in enumerate(errs) if e > 1e-5] for s, errs in res["errors"].items()}
        return res

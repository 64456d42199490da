"""posviz.lab.speculative: one tree pass with depth ids and the tree mask equals every branch decoded alone; the
two bugs do not; Medusa's position ids by hand."""
import pytest
import torch

from posviz.lab import speculative as S
from posviz.validate import PosvizError


def test_the_tree_by_hand():
    """2 x 2: root 0; its children 1, 2; 3, 4 under 1; 5, 6 under 2."""
    parents, depths = S.tree_nodes((2, 2))
    assert parents == [-1, 0, 0, 1, 1, 2, 2] and depths == [0, 1, 1, 2, 2, 2, 2]
    assert S.ancestors(parents, 5) == [0, 2, 5]
    # Medusa: medusa_position_ids = depth, plus the input length P; siblings share theirs
    assert S.tree_position_ids(depths, 6).tolist() == [6, 7, 7, 8, 8, 8, 8]
    assert S.tree_position_ids(depths, 6, "consecutive").tolist() == [6, 7, 8, 9, 10, 11, 12]
    mask = S.tree_mask(parents, 2)
    assert mask[5].int().tolist() == [1, 1, 1, 0, 1, 0, 0, 1, 0]            # prefix 0 1, root, node 2, itself
    assert S.tree_mask(parents, 2, "causal")[5].int().tolist() == [1, 1, 1, 1, 1, 1, 1, 1, 0]


@pytest.mark.parametrize("shape", list(S.TREE_SHAPES))
def test_one_pass_equals_every_branch_decoded_alone(shape):
    r = S.compare_tree(5, shape)
    n = len(r["parents"])
    assert r["max_error"]["correct"] < 1e-5 and r["wrong"]["correct"] == []
    # only the root and its first child have an index equal to their depth: every other node is wrong
    assert r["wrong"]["consecutive"] == list(range(2, n))
    # a node fed after a sibling or a cousin sees it under the causal mask: all but the root and its first child
    assert r["wrong"]["causal"] == list(range(2, n))


def test_the_tree_pass_with_a_chain_is_plain_decoding():
    """A tree of one branch (1 x 1 x 1) is a sequence: consecutive ids and the causal mask are then right."""
    parents, depths = S.tree_nodes((1, 1, 1))
    assert S.tree_position_ids(depths, 3).tolist() == S.tree_position_ids(depths, 3, "consecutive").tolist()
    assert torch.equal(S.tree_mask(parents, 3), S.tree_mask(parents, 3, "causal"))


def test_bad_trees_are_refused():
    with pytest.raises(PosvizError) as e:
        S.tree_nodes((2, 2, 2, 2, 2))
    assert e.value.code == "tree_depth"
    with pytest.raises(PosvizError):
        S.compare_tree(4, "5x5")

"""Scenes of the lab page: an ordered story, each scene a title and narration key (posviz.text),
the widget values it sets and the figure it talks about ("show": a ui.plot key of app_pages/lab.py).

Every scene pins the model (heads, head width, pairing, table rows, no causal mask), so the numbers
its narration states hold whatever the visitor changed before (tests/views/test_view_lab.py checks them)."""

_BUGS_OFF = {"lab_nopos": False, "lab_qonly": False, "lab_rotv": False, "lab_hidden": False,
             "lab_unmasked": False, "lab_layoutbug": False, "lab_lowp": False}
_MODEL = {"lab_heads": 2, "lab_dim": 16, "lab_layout": "interleaved", "lab_maxlen": 16, "lab_causal": False}


_PACK = {"lab_method": "rope", "lab_side": "left", "lab_scheme": "mask", "lab_row": 0, "lab_head": 0, "lab_pack": True,
         "lab_pack_off": 100, "lab_pack_ids": "reset"}


def _scene(name, show, **values):
    return {"title": f"lab.scene.{name}", "say": f"lab.scene.{name}.say", "show": show,
            "values": {**_BUGS_OFF, **_MODEL, "lab_pack": False, **values}}


SCENES = {"lab": [
    _scene("right", "lab_attn", lab_method="rope", lab_side="left", lab_scheme="mask", lab_row=0, lab_head=0),
    _scene("arange", "lab_summary", lab_method="sinusoidal", lab_side="left", lab_scheme="arange", lab_row=0,
           lab_head=0, lab_matrix=True),
    _scene("tokid", "lab_attn_chosen", lab_method="rope", lab_side="left", lab_scheme="token_ids", lab_row=1,
           lab_head=0),
    _scene("qonly", "lab_attn_chosen", lab_method="rope", lab_side="left", lab_scheme="mask", lab_qonly=True,
           lab_row=1, lab_head=0),
    _scene("pads", "lab_attn_diff", lab_method="rope", lab_side="left", lab_scheme="mask", lab_unmasked=True,
           lab_row=0, lab_head=1),
    _scene("pack_leak", "lab_pack_summary", **_PACK, lab_pack_mask="causal", lab_pack_ranks=1, lab_pack_restart=False,
           lab_pack_all=True),
    _scene("pack_cp", "lab_pack_err", **_PACK, lab_pack_mask="block", lab_pack_ranks=2, lab_pack_restart=True),
    _scene("lowp", "lab_attn_chosen", lab_method="rope", lab_side="left", lab_scheme="mask", lab_lowp=True,
           lab_dtype="bfloat16", lab_offset=8192, lab_row=1, lab_head=0),
]}

# RoPE's angles in low precision along the context (issue 37): opens its deep dive; appended.
SCENES["lab"] += [
    _scene("angles", "lab_angles_fig", lab_method="rope", lab_side="left", lab_scheme="mask", lab_lowp=True,
           lab_dtype="bfloat16", lab_offset=8192, lab_angles=True, lab_row=1, lab_head=0),
]

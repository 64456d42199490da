"""Scenes of the lab page: an ordered story, each scene a title and narration key (posviz.text)
and the widget values it sets."""

_BUGS_OFF = {"lab_nopos": False, "lab_qonly": False, "lab_rotv": False, "lab_hidden": False,
             "lab_unmasked": False, "lab_layoutbug": False, "lab_lowp": False}


def _scene(name, **values):
    return {"title": f"lab.scene.{name}", "say": f"lab.scene.{name}.say", "values": {**_BUGS_OFF, "lab_heads": 2, **values}}


SCENES = {"lab": [
    _scene("right", lab_method="rope", lab_side="left", lab_scheme="mask", lab_row=0, lab_head=0),
    _scene("arange", lab_method="sinusoidal", lab_side="left", lab_scheme="arange", lab_row=0, lab_head=0),
    _scene("tokid", lab_method="rope", lab_side="left", lab_scheme="token_ids", lab_row=1, lab_head=0),
    _scene("qonly", lab_method="rope", lab_side="left", lab_scheme="mask", lab_qonly=True, lab_row=1, lab_head=0),
    _scene("pads", lab_method="rope", lab_side="left", lab_scheme="mask", lab_unmasked=True, lab_row=0, lab_head=1),
    _scene("lowp", lab_method="rope", lab_side="left", lab_scheme="mask", lab_lowp=True, lab_dtype="bfloat16",
           lab_offset=8192, lab_row=1, lab_head=0),
]}

"""Scenes of the two "train short, test long" pages: an ordered story, each scene a title and narration key
(posviz.text), the figure it talks about (`show`, a ui.plot key of app_pages/length.py or
app_pages/length_today.py) and the widget values it sets. Every scene pins the run its maps read (run 0)
and keeps the main chart's legend short (at most four lines), so the legend stays in view in lecture mode.
The numbers the narration states are read off posviz.views.length in tests/views/test_view_length.py."""

_MAPS = {"len_metric": "acc", "len_layer": 2, "len_head": 1, "len_live": False, "len_run": 0}
SCENES = {
    "length": [
        {"title": "length.s1.title", "say": "length.s1.say", "show": "len_main",
         "values": {**_MAPS, "len_show": ["sinusoidal", "learned", "learned_clamp"], "len_model": "sinusoidal",
                    "len_long": 256}},
        {"title": "length.s2.title", "say": "length.s2.say", "show": "len_main",
         "values": {**_MAPS, "len_show": ["rope", "alibi", "t5"], "len_model": "t5", "len_head": 3, "len_long": 512},
         "question": {"id": "length.far", "choices": ("rope", "alibi", "t5")}},
        {"title": "length.s3.title", "say": "length.s3.say", "show": "len_main",
         "values": {**_MAPS, "len_show": ["rope", "rope_pi", "rope_ntk", "rope_yarn"], "len_model": "rope_yarn",
                    "len_long": 512}},
        {"title": "length.s4.title", "say": "length.s4.say", "show": "len_maps_long",
         "values": {**_MAPS, "len_show": ["rope", "alibi", "t5"], "len_model": "rope", "len_long": 512}},
        {"title": "length.s_alias.title", "say": "length.s_alias.say", "show": "len_alias",
         "values": {**_MAPS, "len_model": "rope", "len_long": 512, "len_alias_target": 2, "len_alias_tol": 40}},
        {"title": "length.s5.title", "say": "length.s5.say", "show": "len_main",
         "values": {**_MAPS, "len_show": ["nope", "alibi", "sinusoidal"], "len_metric": "loss", "len_model": "nope",
                    "len_long": 256}},
        {"title": "length.s_runs.title", "say": "length.s_runs.say", "show": "len_main",
         "values": {**_MAPS, "len_show": ["nope", "rope", "t5"], "len_model": "rope", "len_long": 256}},
    ],
    "length_today": [
        {"title": "lenf.s1.title", "say": "lenf.s1.say", "show": "lenf_main",
         "values": {"lenf_show": ["rope_l4", "rope_nope4", "rope_nope2"]}},
        {"title": "lenf.s2.title", "say": "lenf.s2.say", "show": "lenf_main",
         "values": {"lenf_show": ["rope", "rope_partial", "rope_prop", "rope_qknorm"]}},
        {"title": "lenf.s3.title", "say": "lenf.s3.say", "show": "lenf_shares_seen", "values": {"lenf_run": 0}},
        {"title": "lenf.s4.title", "say": "lenf.s4.say", "show": "lenf_ablation", "values": {"lenf_run": 0}},
        {"title": "lenf.s5.title", "say": "lenf.s5.say", "show": "lenf_scale_fig",
         "values": {"lenf_scale": ["rope_pi4", "ft_pi", "rope_yarn4", "ft_yarn"]}},
        {"title": "lenf.s6.title", "say": "lenf.s6.say", "show": "lenf_scale_fig",
         "values": {"lenf_scale": ["rope", "ft_none", "rope_ntk4", "ft_ntk"]}},
        {"title": "lenf.s7.title", "say": "lenf.s7.say", "show": "lenf_table", "values": {"lenf_run": 0}},
        {"title": "lenf.s8.title", "say": "lenf.s8.say", "show": "lenf_marker", "values": {"lenf_run": 0}},
    ],
}

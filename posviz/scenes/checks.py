"""Scenes of the checks page: an ordered story, each scene a title and narration key (posviz.text),
what it shows (`show`: a step's box from its heading and PASS/FAIL badge down, the summary table of all
nine verdicts when the narration compares steps, or the problem number) and the widget values it sets."""


def _breaks(*on):
    return {f"chk_break{i}": i in on for i in range(1, 10)}


SCENES = {"checks": [
    {"title": "checks.scene.pass", "say": "checks.scene.pass.say", "show": "chk_summary", "values": _breaks()},
    {"title": "checks.scene.shift", "say": "checks.scene.shift.say", "show": "chk_step3", "values": _breaks(3)},
    {"title": "checks.scene.cache", "say": "checks.scene.cache.say", "show": "chk_step6", "values": _breaks(6)},
    # "steps 2 and 7 fail together": the summary holds both verdicts (step 7's box is ~3,000 px below step 2's)
    {"title": "checks.scene.padding", "say": "checks.scene.padding.say", "show": "chk_summary",
     "values": _breaks(2, 7)},
    {"title": "checks.scene.boundary", "say": "checks.scene.boundary.say", "show": "chk_step8",
     "values": _breaks(8)},
    {"title": "checks.scene.angles", "say": "checks.scene.angles.say", "show": "chk_step9", "values": _breaks(9)},
    {"title": "checks.scene.generator", "say": "checks.scene.generator.say", "show": "chk_gen_seed",
     "values": _breaks() | {"chk_more_gen": True, "chk_gen_seed": 22, "chk_gen_reveal": False}},
]}

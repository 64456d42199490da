"""The gallery: real models' published RoPE settings, as data files, each with its source.

posviz/pe/model_configs/<key>.json holds, per model: its name, Hugging Face repo, source address,
release date, `config` (the RoPE-relevant fields of the published config.json, exactly as
published: rope_scaling in the transformers-4 spelling, legacy keys as they are), `check` ("copy":
checked against a public copy of the file; "known": written from the published file, no copy was
reachable from here), and optionally l_train / l_target (the lengths the extrapolation page opens
at; by default the trained length and the maximum length the config allows).

Every view of a model reads `config` through posviz.pe.rope_config.read_model_rope, exactly as a
pasted config.json: the gallery, the extrapolation page's presets and the tests share one reading.
"""
from __future__ import annotations

import copy
import gzip
import json
import pathlib
import sys

from posviz.pe import model_probe
from posviz.pe.rope_config import read_model_rope, text_config
from posviz.validate import check_choice

CONFIG_DIR = pathlib.Path(__file__).with_name("model_configs")
FIELDS = ("key", "name", "repo", "source", "released", "check", "config")


def _load():
    out = []
    for path in sorted(CONFIG_DIR.glob("*.json")):
        entry = json.loads(path.read_text(encoding="utf-8"))
        assert entry["key"] == path.stem and all(k in entry for k in FIELDS), path.name
        out.append(entry)
    out.sort(key=lambda e: (e["released"], e["key"]))
    return {e["key"]: e for e in out}


GALLERY = _load()
KEYS = tuple(GALLERY)


def model(key: str) -> dict:
    """One gallery entry (a deep copy) with its reading: + "rope" (ModelRope), l_train, l_target."""
    check_choice("model", key, KEYS)
    entry = copy.deepcopy(GALLERY[key])
    rope = read_model_rope(copy.deepcopy(entry["config"]))
    l_train, l_target = own_lengths(rope, entry.get("l_train"), entry.get("l_target"))
    return {**entry, "rope": rope, "l_train": l_train, "l_target": l_target}


def own_lengths(rope, l_train=None, l_target=None) -> tuple[int, int]:
    """The lengths a model is analysed at, gallery entry or pasted config alike: its trained length, and its
    maximum length when that is longer (else 4x the trained length); a length the page does not offer is
    replaced by the nearest one it does (a pasted config can say anything)."""
    l_train = int(l_train or rope.trained_length or rope.max_length or 4096)
    l_target = int(l_target or (rope.max_length if (rope.max_length or 0) > l_train else 4 * l_train))
    return _offered(l_train), _offered(l_target)


def _offered(n):
    return n if not LENGTHS or n in LENGTHS else min(LENGTHS, key=lambda x: (abs(x - n), x))


def config_json(key: str) -> str:
    """The model's config fields as JSON text (what a user would paste)."""
    check_choice("model", key, KEYS)
    return json.dumps(GALLERY[key]["config"], indent=2)


def _default_lengths():
    out = set()
    for e in GALLERY.values():
        out.update(v for v in (e.get("l_train"), e.get("l_target")) if v)
    return out


LENGTHS = ()   # set below, once the gallery's own lengths are known (own_lengths snaps to it)


# Lengths the extrapolation page offers: powers of two plus every gallery model's own lengths
# (the trained and maximum lengths of the configs, as read; see tests/pe/test_models.py).
LENGTHS = tuple(sorted({2 ** k for k in range(8, 24)} | _default_lengths()
                       | {2048, 4096, 8192, 16384, 32768, 40960, 65536, 128000, 131072, 132096, 163840, 196608,
                          262144, 1048576}))


def write_probes(path=model_probe.SHIPPED) -> int:
    """Probe every gallery model's text config and write the probes where posviz.pe.model_probe finds them first
    (a fresh process then reads the gallery without building 50 models). -> the number written."""
    out = {}
    for key in KEYS:
        tc = text_config(copy.deepcopy(GALLERY[key]["config"]))
        out[model_probe.store_key(tc)] = model_probe.to_dict(model_probe.probe(tc))
    path.write_bytes(gzip.compress(json.dumps(out, sort_keys=True).encode(), mtime=0))
    return len(out)


if __name__ == "__main__":
    if sys.argv[1:] != ["--probes"]:
        sys.exit("usage: python -m posviz.pe.models --probes   (writes posviz/pe/model_configs/probes.json.gz)")
    print(f"{write_probes()} probes written to {model_probe.SHIPPED}")

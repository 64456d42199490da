"""Every figure the app draws, as the browser receives it: for a refactor that must not change one.

Runs each page headless (AppTest) in both languages, in normal and lecture mode, at its defaults, at
each of its scenes and with every deep dive open, and records each chart's spec by its key.

    python -m benchmarks.figure_specs --write before.json    # before the change
    python -m benchmarks.figure_specs --compare before.json  # after it: lists every chart that differs
"""
import argparse
import json
import sys

from harness.apptest import figures, open_page, page_names
from posviz.scenes import SCENES

# The URL-bound deep dives (ui.more) of each page: opened so that their charts are drawn too.
DEEP_DIVES = {"rope": ("rope_steps",), "sinusoidal": ("sin_by_hand", "sin_column_order"),
              "relative": ("rel_side",), "lab": ("lab_tensors", "lab_pads"), "models": ("models_all",),
              "checks": ("chk_more_ex", "chk_more_gen")}


def views(page):
    """(name, query params) of every view of `page` worth recording."""
    yield "default", {}
    for i in range(len(SCENES.get(page, ()))):
        yield f"scene{i + 1}", {"scene": str(i + 1)}
    if page in DEEP_DIVES:
        yield "open", {key: "true" for key in DEEP_DIVES[page]}


def collect():
    out = {}
    for page in page_names():
        for lang in ("en", "zh"):
            for present in ("0", "1"):
                for name, params in views(page):
                    at = open_page(page, lang, present=present, **params)
                    for i, fig in enumerate(figures(at)):
                        out[f"{page}/{lang}/present={present}/{name}/{i}"] = fig
                print(page, lang, present, file=sys.stderr)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    group = ap.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", metavar="FILE", help="record every figure's spec in FILE")
    group.add_argument("--compare", metavar="FILE", help="compare every figure's spec with FILE")
    args = ap.parse_args()
    specs = collect()
    if args.write:
        with open(args.write, "w") as f:
            json.dump(specs, f, sort_keys=True)
        print(f"{len(specs)} figures written to {args.write}")
        return 0
    with open(args.compare) as f:
        before = json.load(f)
    differ = sorted(k for k in before.keys() & specs.keys() if before[k] != specs[k])
    gone, new = sorted(before.keys() - specs.keys()), sorted(specs.keys() - before.keys())
    for label, keys in (("differ", differ), ("gone", gone), ("new", new)):
        for k in keys:
            print(label, k)
    print(f"{len(specs)} figures now, {len(before)} before: {len(differ)} differ, {len(gone)} gone, {len(new)} new")
    return 1 if differ or gone or new else 0


if __name__ == "__main__":
    sys.exit(main())

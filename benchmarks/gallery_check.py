"""Every gallery model: posviz vs transformers, as a markdown table (issue 13's "Must show").

    python -m benchmarks.gallery_check [OUT.md]

For each model of posviz/pe/model_configs the config is read by posviz.pe.rope_config.read_model_rope,
its frequencies computed by posviz.pe.scaling, and compared with the model's own rotary-embedding
module in transformers (built from the config, no weights): the max relative difference over the
inv_freq and attention factor of every layer type (and LongRoPE's long factors above L0).
"""
import argparse
import sys

from posviz.pe import models as gallery
from posviz.views import models as view


def table():
    rows = ["| model | released | model_type | head_dim | rotary | θ | scaling | trained → max | layers "
            "| softmax scale | layer types checked | max rel. diff vs transformers |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    worst = 0.0
    for r in view.table_rows("released"):
        e = view.entry(r["key"])
        c = view.transformers_check(e["config_json"])
        rel = 0.0 if c.get("none") else c.get("max_rel", float("inf"))   # no RoPE, and none in transformers
        worst = max(worst, rel)
        pattern = " · ".join(f"{n} {k}" for k, n in r["pattern"].items())
        scaling = r["scaling"] + (f" ×{r['factor']:g}" if r["factor"] else "")
        checked = ", ".join(row[0] for row in c.get("rows", [])) or c.get("error", "") or \
            ("no RoPE; transformers: no rotary module" if c.get("none") else "")
        rows.append(f"| [{r['name']}]({r['source'].split(' ')[0]}) | {r['released']} | {e['model_type']} "
                    f"| {r['head_dim']} | {r['rotary_dim']} | {r['theta']} | {scaling} "
                    f"| {r['trained']:,} → {r['max_length']:,} | {pattern} "
                    f"| {r['softmax']:.4f} | {checked} | {rel:.1e} |")
    version = view.transformers_check(view.entry(gallery.KEYS[0])["config_json"])["version"]
    head = (f"# Gallery: posviz vs transformers {version}\n\n{len(gallery.KEYS)} models; worst max relative difference "
            f"{worst:.1e} (budget 1e-6).\n\n")
    return head + "\n".join(rows) + "\n", worst


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out", nargs="?", help="also write the table to this markdown file")
    args = ap.parse_args(argv)
    text, worst = table()
    print(text)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    return 0 if worst <= 1e-6 else 1


if __name__ == "__main__":
    sys.exit(main())

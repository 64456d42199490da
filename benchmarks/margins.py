"""Figures drawn in one pass. plotly.js draws a figure, finds that its title, colour bar, legend or
axis labels need wider margins than the figure asked for, grows them and draws the whole figure a
second time: about twice the browser's time for every chart on every slider move (Streamlit mounts a
changed chart afresh). posviz/figures/margins.json holds the margins plotly settles on for each chart
of every page, as drawn in Chromium in both languages: at 1280x720 in normal and lecture mode, and on a
390x844 phone (its User-Agent, which the server reads, says "Mobile") in normal mode; posviz.ui asks for
them up front, so that plotly draws once. Margins only ever grow: a chart that needs more room than the
table gives (other data, another width) still gets it, in a second pass.

    python -m benchmarks.margins              # how many charts are drawn in one pass, per mode and width
    python -m benchmarks.margins --write      # refit the table (after changing a figure's layout)
"""
import argparse
import json
import math
import os
import sys
import time

from harness.browser import MARGINS_JS, PHONE, app_server, grown_sides, launch, settle
from posviz.figures import style

HERE = os.path.dirname(os.path.abspath(__file__))


PAGES = ("", "sinusoidal", "relative", "rope", "decay", "extrapolation", "models", "frontier", "length", "length-today",
         "lab", "kv-cache",
         # views whose charts the default view does not draw (deep dives open, a section switched on)
         "kv-cache?kv_stream=true&kv_sinks=true", "lab?lab_pack=true&lab_pack_all=true",
         "relative?rel_xl=true&rel_deberta=true&rel_fire=true&rel_xpos=true&rel_cope=true",
         "kv-cache?kv_evict=true&kv_tree=true", "lab?lab_angles=true&lab_pads=true",
         "models?models_all=true&models_prop=true", "extrapolation?ext_preset=gemma4_31b",
         "extrapolation?ext_preset=llama4_scout")
DESKTOP = dict(viewport={"width": 1280, "height": 720})
SIDES = "lrtb"
SLACK_PX = 4   # plotly still grows a margin by 1-2 px when asked for exactly its own; a tick label may gain a digit


def measure(base, browser, screen, langs=("en", "zh"), modes=(0, 1), pages=PAGES):
    """Every chart of every page's default view on `screen` (DESKTOP or PHONE, a browser context's
    options): [{page, key, lang, present, phone, asked, drawn}]."""
    out = []
    ctx = browser.new_context(**screen)
    page = ctx.new_page()
    for lang in langs:
        for present in modes:
            for path in pages:
                sep = "&" if "?" in path else "?"
                page.goto(f"{base}/{path}{sep}lang={lang}" + ("&present=1" if present else ""))
                page.wait_for_selector(".js-plotly-plot .main-svg", timeout=90000)
                settle(page)
                time.sleep(0.3)
                for row in page.evaluate(MARGINS_JS):
                    row.update(page=path or "overview", lang=lang, present=present, phone=screen is PHONE)
                    out.append(row)
    ctx.close()
    return out


def _mode(row):
    """The table entry a measured row belongs to (lecture mode on a phone has none: it is fitted on the projector)."""
    if row["present"]:
        return None if row["phone"] else "present"
    return "phone" if row["phone"] else "normal"


def fit(rows, table=None):
    """The table raised to the margins plotly drew each chart with (over the languages), rounded up to
    whole pixels, SLACK_PX added where plotly had to grow a margin:
    {key: {"normal"|"present"|"phone": {side: px}}}."""
    table = {k: {m: dict(v) for m, v in modes.items()} for k, modes in (table or {}).items()}
    for row in rows:
        if not row["key"] or _mode(row) is None:
            continue
        mode = table.setdefault(row["key"], {}).setdefault(_mode(row), {})
        for k in SIDES:
            px = int(math.ceil(row["drawn"][k] - 1e-6)) + (SLACK_PX if k in grown_sides(row) else 0)
            mode[k] = max(mode.get(k, 0), px)
    return table


def report(label, rows):
    n = len(rows)
    twice = [r for r in rows if grown_sides(r)]
    print(f"  {label:<28} {n - len(twice):>3} of {n:>3} charts drawn in one pass")
    return twice


def _save(table):
    with open(style.MARGINS_FILE, "w") as f:
        json.dump(dict(sorted(table.items())), f, indent=1, sort_keys=True)
        f.write("\n")


def write(pages, passes=4):
    """Fit the table: measure every chart (1280x720 in both modes, a phone in normal mode) on a server
    started without it (each figure's own margins), then again with the fitted table until plotly grows
    none (a legend placed in plot fractions moves with the margin, so its first fit can fall short).
    The old table is put back if a pass fails."""
    from playwright.sync_api import sync_playwright

    with open(style.MARGINS_FILE) as f:
        old = f.read()
    keep = json.loads(old) if set(pages) != set(PAGES) else {}
    table = {}
    try:
        for n in range(1, passes + 1):
            _save(table)                            # the server reads the table when it starts
            with app_server() as (base, _, _), sync_playwright() as pw:
                browser = launch(pw)
                rows = measure(base, browser, DESKTOP, pages=pages) + measure(base, browser, PHONE, modes=(0,),
                                                                               pages=pages)
                browser.close()
            twice = [r for r in rows if grown_sides(r)]
            print(f"pass {n}: {len(rows) - len(twice)} of {len(rows)} charts drawn in one pass")
            table = fit(rows, table)
            if n > 1 and not twice:
                break
    except BaseException:
        with open(style.MARGINS_FILE, "w") as f:
            f.write(old)
        raise
    table = {**keep, **table}     # a refit of some pages keeps the others' charts
    _save(table)
    print(f"wrote {len(table)} charts' margins to {style.MARGINS_FILE}")
    return 0


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--write", action="store_true", help=f"refit {style.MARGINS_FILE}")
    p.add_argument("--pages", default=",".join(PAGES), help="comma-separated paths ('' = the overview)")
    p.add_argument("-v", "--verbose", action="store_true", help="list every chart drawn twice")
    args = p.parse_args(argv)
    pages = tuple(args.pages.split(","))
    from playwright.sync_api import sync_playwright

    if args.write:
        return write(pages)
    with app_server() as (base, _, _), sync_playwright() as pw:
        browser = launch(pw)
        desk = measure(base, browser, DESKTOP, pages=pages)
        phone = measure(base, browser, PHONE, pages=pages)
        browser.close()
    print("plotly.js draws a chart twice when it has to grow the chart's margins")
    twice = []
    for rows, width in ((desk, "1280x720"), (phone, "390x844 phone")):
        for present in (0, 1):
            sel = [r for r in rows if r["present"] == present]
            twice += report(f"{width}, {'lecture' if present else 'normal'} mode", sel)
    if args.verbose:
        for r in twice:
            print(f"    {r['page']:>13} {r['key']:<24} {r['lang']} {'lecture' if r['present'] else 'normal '} "
                  + " ".join(f"{k} {r['asked'][k]}->{r['drawn'][k]:.0f}" for k in grown_sides(r)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

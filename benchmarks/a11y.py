"""axe-core's violations per page, in posviz's content and in Streamlit's chrome apart: every page and every
scene's view, in English and Chinese, at 1280x720, in lecture mode (1280x720, ?present=1) and on a 390x844 phone.
Prints a table per page (rules / elements by impact) and, with -v, every violation. `--screens dark`: 1280x720 in the
dark theme (the visitor's system setting).

    python -m benchmarks.a11y                         # everything (about 20 minutes on 2 shared cores)
    python -m benchmarks.a11y --pages rope,decay --screens desk --no-scenes -v
    python -m benchmarks.a11y --json out.json         # every violation of every view, for a later comparison
"""
import argparse
import collections
import json
import os
import sys
import time

from harness.a11y import IMPACTS, axe, counts, next_scene, report, scene_count, split
from harness.browser import PHONE, PROJECTOR, app_server, launch, page_paths, settle

SCREENS = {"desk": (PROJECTOR, False), "present": (PROJECTOR, True), "phone": (PHONE, False),
           "dark": ({**PROJECTOR, "color_scheme": "dark"}, False)}


def _views(ctx, base, path, lang, present, scenes, verbose):
    """(scene index or 0 for the page as opened, violations) of one page view and, if `scenes`, each of its scenes."""
    page = ctx.new_page()
    try:
        page.goto(f"{base}/{path}?lang={lang}" + ("&present=1" if present else ""))
        settle(page)
        yield 0, axe(page)
        n = scene_count(path) if scenes else 0
        for i in range(1, n + 1):
            next_scene(page, i, n)
            yield i, axe(page)
    finally:
        page.close()


def _row(c):
    return "  ".join(f"{c[i][0]:>2}/{c[i][1]:<4}" for i in IMPACTS[:3])


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--pages", default="", help="url paths, comma separated (overview = the default page)")
    p.add_argument("--screens", default="desk,present,phone")
    p.add_argument("--langs", default="en,zh")
    p.add_argument("--no-scenes", action="store_true", help="only the pages as opened")
    p.add_argument("--json", help="write every view's violations to this file")
    p.add_argument("-v", "--verbose", action="store_true")
    args = p.parse_args(argv)
    paths = [("" if x == "overview" else x) for x in args.pages.split(",")] if args.pages else page_paths()
    from playwright.sync_api import sync_playwright

    t0 = time.time()
    found = collections.defaultdict(list)     # (path, where) -> violations of every view
    out = []
    with app_server() as (base, _, _), sync_playwright() as pw:
        browser = launch(pw)
        for screen in args.screens.split(","):
            kw, present = SCREENS[screen]
            ctx = browser.new_context(**kw)
            for path in paths:
                for lang in args.langs.split(","):
                    for scene, vs in _views(ctx, base, path, lang, present, not args.no_scenes, args.verbose):
                        out.append({"page": path, "lang": lang, "screen": screen, "scene": scene, "violations": vs})
                        for where in ("posviz", "streamlit"):
                            found[path, where] += split(vs, where)
                        if args.verbose and split(vs, "posviz"):
                            print(f"--- /{path} {lang} {screen} scene {scene}\n{report(split(vs, 'posviz'))}")
                        print(".", end="", flush=True, file=sys.stderr)
            ctx.close()
    print(file=sys.stderr)
    print(f"views: {len(out)}; {time.time() - t0:.0f} s, load average {os.getloadavg()[0]:.1f}")
    summary(paths, found)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(out, f, ensure_ascii=False)


def summary(paths, found):
    """The table per page and the rules with the pages they fail on. found: {(path, where): violations}."""
    print("rules / elements summed over a page's views (critical, serious, moderate)")
    print(f"{'page':<16}{'posviz: critical  serious  moderate':<40}streamlit's chrome")
    for path in paths:
        mine, chrome = (counts(_by_rule(found[path, w])) for w in ("posviz", "streamlit"))
        print(f"/{path:<15}{_row(mine):<40}{_row(chrome)}")
    rules = collections.defaultdict(set)
    for path in paths:
        for w in ("posviz", "streamlit"):
            for v in found[path, w]:
                rules[w, v["rule"], v["impact"]].add(f"/{path}")
    for (w, rule, impact), pages in sorted(rules.items()):
        print(f"  {w:<10}{rule:<32}{impact:<10}{len(pages)} pages")


def _by_rule(violations):
    """The violations of several views merged by rule (their elements added up)."""
    merged = {}
    for v in violations:
        merged.setdefault(v["rule"], {**v, "nodes": []})["nodes"] += v["nodes"]
    return list(merged.values())


if __name__ == "__main__":
    main()

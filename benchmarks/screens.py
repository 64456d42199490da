"""Screenshots of pages as visitors see them: desktop, projector (1280x720, ?present=1) and phone
(390x844, touch), in English and Chinese. Prints any exception box, error box or plot wider than
the viewport; saves full-page PNGs to look at.

    python -m benchmarks.screens OUTDIR rope relative          # "" or overview = the default page
    python -m benchmarks.screens OUTDIR rope --query 'rope_m=10' --views phone,present --langs zh
"""
import argparse
import os
import sys

from harness.browser import PHONE, app_server, launch, settle

VIEWS = {
    "desktop": dict(viewport={"width": 1280, "height": 900}),
    "present": dict(viewport={"width": 1280, "height": 720}),
    "phone": PHONE,
}

MAX_TALL = 16000
TALL_JS = """() => { const m = document.querySelector('[data-testid="stMain"]'); return m ? m.scrollHeight : 900; }"""
WIDE_PLOTS_JS = """() => Array.from(document.querySelectorAll('.js-plotly-plot'))
  .filter(p => p.getBoundingClientRect().right > window.innerWidth + 1).length"""


def _slice(path, height):
    """Cut a tall screenshot into NAME-1.png, NAME-2.png, ... of `height` pixels (easier to look at)."""
    from PIL import Image

    im = Image.open(path)
    n = 0
    for n, top in enumerate(range(0, im.height, height), 1):
        im.crop((0, top, im.width, min(top + height, im.height))).save(path.replace(".png", f"-{n}.png"))
    return n


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("out")
    p.add_argument("paths", nargs="+")
    p.add_argument("--views", default="desktop,present,phone")
    p.add_argument("--langs", default="en,zh")
    p.add_argument("--query", default="", help="extra query string, e.g. 'rope_m=10&rope_n=40'")
    args = p.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    from playwright.sync_api import sync_playwright

    problems = 0
    with app_server() as (base, _, _), sync_playwright() as pw:
        browser = launch(pw)
        for view in args.views.split(","):
            ctx = browser.new_context(**VIEWS[view])
            for path in args.paths:
                path = "" if path in ("", "overview") else path
                for lang in args.langs.split(","):
                    q = (f"lang={lang}" + ("&present=1" if view == "present" else "")
                         + (f"&{args.query}" if args.query else ""))
                    page = ctx.new_page()
                    page.goto(f"{base}/{path}?{q}")
                    settle(page)
                    page.wait_for_timeout(800)
                    exc = page.locator('[data-testid="stException"]').count()
                    err = page.locator('[data-testid="stAlertContentError"]').count()
                    wide = page.evaluate(WIDE_PLOTS_JS)
                    name = f"{path or 'overview'}-{view}-{lang}.png"
                    # Streamlit scrolls inside its main block, not the document: grow the viewport to
                    # the content's height for one whole-page picture, then put it back.
                    size = dict(VIEWS[view]["viewport"])
                    tall = page.evaluate(TALL_JS)
                    page.set_viewport_size({"width": size["width"], "height": min(max(tall, size["height"]), MAX_TALL)})
                    page.wait_for_timeout(1200)
                    page.screenshot(path=os.path.join(args.out, name))
                    page.set_viewport_size(size)
                    scale = VIEWS[view].get("device_scale_factor", 1)
                    slices = _slice(os.path.join(args.out, name), size["height"] * scale)
                    flag = "" if not (exc or err or wide) else f"  exceptions={exc} errors={err} wide_plots={wide}"
                    problems += bool(flag)
                    print(f"{name} ({slices} slices){flag}")
                    page.close()
            ctx.close()
        browser.close()
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

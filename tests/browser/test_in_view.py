"""In view after every scene (issue 26 items 12-14), measured in Chromium: at 1280x720 in lecture mode and on a
390x844 phone, in Chinese (the taller narrations), each scene leaves its narration and the thing it talks about
on screen together: the narration whole and readable, the figure whole with its legend (a checks step: its
heading and PASS/FAIL badge), clear of the app header and of the narration; in lecture mode every number the
narration quotes that the page shows is on that screen, at least 22 px (issue 33 items 3, 4).

Also: the share link after a scene and a later widget change reopens exactly that view (item 17), in the real
browser, whose frontend writes bound widgets into the URL.

Uses the browser tier's shared server (app_url) and Chromium (browser). POSVIZ_SHOTS=DIR saves a screenshot per scene.
"""
import os
import time

import pytest

from harness.browser import PHONE, PROJECTOR, page_paths, settle
from posviz import scenes

LECTURE = PROJECTOR
VIEWS = {"lecture": (LECTURE, "&present=1"), "phone": (PHONE, "")}
# a page's scenes are keyed by its script's name (kv_cache), its URL is app.py's path (kv-cache)
PATHS = {(path or "overview").replace("-", "_"): path for path in page_paths()}
PAGES = sorted(scenes.SCENES)
SHOTS = os.environ.get("POSVIZ_SHOTS")


# Where things are after a scene: the header's bottom, the narration (and whether all of it shows), the target
# and, inside it, a plotly legend, a checks step's heading and badge, and the plot's own title.
MEASURE_JS = """(key) => {
  const box = e => { if (!e) return null; const r = e.getBoundingClientRect();
    return r.width && r.height ? {top: r.top, bottom: r.bottom, left: r.left, right: r.right} : null; };
  const main = document.querySelector('[data-testid="stMain"]');
  const el = main.querySelector('.st-key-' + CSS.escape(key));
  const say = main.querySelector('.st-key-scene_say'), pin = say && say.parentElement;
  const header = document.querySelector('[data-testid="stHeader"]');
  return {vh: innerHeight, vw: innerWidth, header: box(header) ? box(header).bottom : 0,
    say: box(say), sayWhole: pin ? pin.scrollHeight <= pin.clientHeight + 1 : null,
    sayText: say ? say.innerText : '', target: box(el),
    legend: el ? box(el.querySelector('.legend')) : null, svg: el ? box(el.querySelector('.main-svg')) : null,
    heading: el ? box(el.querySelector('h4')) : null,
    badge: el ? box(el.querySelector('h4 .stMarkdownBadge')) : null,
    badgePx: el && el.querySelector('h4 .stMarkdownBadge')
      ? parseFloat(getComputedStyle(el.querySelector('h4 .stMarkdownBadge')).fontSize) : null};
}"""


# Issue 33 items 3 and 4: the results a narration quotes (a decimal, a number of three or more digits, a percentage;
# not a value the scene sets: the widgets show those), and where the page shows them. One that the page's text shows
# somewhere (outside the narration and the widgets) must be on the screen the scene lands on, and in lecture mode at
# least 22 px there. Text in plotly's SVG counts (its screen size: font size times the SVG's scale); a range of
# positions ("448–511") is read off an axis in view whose tick labels span it.
NUMBERS_JS = r"""(settings) => {
  const main = document.querySelector('[data-testid="stMain"]');
  const say = main.querySelector('.st-key-scene_say'), pin = say && say.parentElement;
  const header = document.querySelector('[data-testid="stHeader"]');
  const hb = header ? header.getBoundingClientRect().bottom : 0;
  const sr = pin ? pin.getBoundingClientRect() : null;
  const side = Boolean(sr) && sr.width < 0.8 * innerWidth;
  const top = side || !sr ? hb : Math.max(hb, sr.bottom), right = side ? sr.left : innerWidth;
  const re = /\d+(?:[.,\u2009\u202f ]\d+)*(?:e-?\d+)?/g;
  const norm = (s) => s.replace(/[,\u2009\u202f ](?=\d{3}(?!\d))/g, '').replace(/[\u2009\u202f ]/g, ' ');
  // a number in powers of ten is one number, written one way: "1.24·10⁻⁶" (a narration) and "1.24e-06" (a metric)
  // are both "1.24e-6", and neither is the 1.2 of a tick label
  const SUP = {'⁰': '0', '¹': '1', '²': '2', '³': '3', '⁴': '4', '⁵': '5', '⁶': '6', '⁷': '7', '⁸': '8', '⁹': '9',
               '⁻': '-', '⁺': ''};
  const sci = (s) => s.replace(/(\d+(?:\.\d+)?)\s*[·×]\s*10([⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)/g,
                               (m, a, e) => a + 'e' + (+[...e].map((c) => SUP[c]).join('')))
    .replace(/(\d+(?:\.\d+)?)[eE]([-+\u2212]?\d+)(?![\d.])/g, (m, a, e) => a + 'e' + (+e.replace('\u2212', '-')));
  // a number, not a name's (Qwen2.5-VL, Llama 3.1, §08) or a year; "(5, 7)" is two numbers, "28,473" one
  const tokens = (raw) => { const s = sci(raw); return [...s.matchAll(re)].filter((m) =>
    !/[A-Za-z§_\-]$|[A-Z][a-z]+ $/.test(s.slice(0, m.index)) && !/^[A-Za-z]/.test(s.slice(m.index + m[0].length)))
    .flatMap((m) => norm(m[0]).split(/[ ,]/)).filter((t) => t.length > 1 && !/^(199\d|20[0-2]\d)$/.test(t)); };
  const body = say ? say.innerText.split('—').slice(1).join('—') : '';
  // the results it quotes: a decimal, a number of three or more digits, a percentage; not the scene's own settings
  const percent = new Set([...body.matchAll(/(\d+)(?:\s*[–-]\s*(\d+))?\s*%/g)].flatMap((m) => [m[1], m[2]]));
  const want = [...new Set(tokens(body))].filter((n) => !settings.includes(n) &&
    (/\./.test(n) || n.length >= 3 || percent.has(n)));
  // a range of positions ("448–511", not "89–97 %") is read off an axis: its ends count as shown when a plot in
  // view has an axis whose tick labels span them
  const ranges = new Set([...body.matchAll(/(\d+)\s*[–-]\s*(\d+)(?!\s*%|\d)/g)].flatMap((m) => [m[1], m[2]]));
  const spans = [];
  main.querySelectorAll('.js-plotly-plot').forEach((g) => ['.xtick', '.ytick'].forEach((sel) => {
    const vals = [...g.querySelectorAll(sel + ' text')].filter((t) => {
      const r = t.getBoundingClientRect();
      return r.width && r.bottom > top && r.top < innerHeight && r.left < right; })
      .map((t) => parseFloat(t.textContent.replace(/[,\u2009\u202f ]/g, '').replace('−', '-'))).filter(isFinite);
    if (vals.length > 1) spans.push([Math.min(...vals), Math.max(...vals)]);
  }));
  const onAxis = (n) => ranges.has(n) && spans.some(([a, b]) => a <= +n && +n <= b + (b - a) / 4);
  const widgets = '[data-testid="stSlider"], [data-testid="stSelectbox"], [data-testid="stRadio"], ' +
    '[data-testid="stMultiSelect"], [data-testid="stNumberInput"], [data-testid="stCheckbox"], ' +
    '[data-testid="stTextInput"], [data-testid="stWidgetLabel"], .st-key-scenes_nav';
  const found = {};
  const note = (text, rect, px, widget) => tokens(text).forEach((n) => {
    if (!want.includes(n)) return;
    const f = found[n] || (found[n] = {elsewhere: false, inview: false, px: 0, dy: null});
    if (!widget) f.elsewhere = true;
    const vis = rect.bottom > top + 2 && rect.top < innerHeight - 2 && rect.right > 0 && rect.left < right - 2;
    if (vis) { f.inview = true; f.px = Math.max(f.px, px); }
    else if (!widget && (f.dy === null || Math.abs(rect.top - top) < Math.abs(f.dy))) f.dy = Math.round(rect.top - top);
  });
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    if ((pin && pin.contains(t)) || !t.textContent.trim()) continue;
    const el = t.parentElement, cs = getComputedStyle(el);
    if (cs.visibility === 'hidden' || cs.display === 'none' || parseFloat(cs.opacity) === 0) continue;
    const r = document.createRange(); r.selectNodeContents(t);
    const rects = Array.from(r.getClientRects()).filter((x) => x.width && x.height);
    if (!rects.length) continue;
    let px = parseFloat(cs.fontSize);
    if (el instanceof SVGElement && el.getScreenCTM) { const m = el.getScreenCTM(); px *= Math.hypot(m.a, m.b); }
    const widget = Boolean(el.closest(widgets));
    rects.forEach((rc) => note(t.textContent, rc, px, widget));
  }
  return want.map((n) => {
    const f = {...(found[n] || {elsewhere: false, inview: false, px: 0, dy: null})};
    if (!f.inview && onAxis(n)) Object.assign(f, {inview: true, px: 99});
    return {n, ...f};
  });
}"""


def _settings(sc):
    """The numbers a scene sets (its widgets show them), as NUMBERS_JS compares them."""
    out = set()
    for v in sc["values"].values():
        for x in (v if isinstance(v, (list, tuple)) else [v]):
            if isinstance(x, (int, float)) and not isinstance(x, bool):
                out.add(f"{x:g}" if isinstance(x, float) else str(x))
    return sorted(out)


def _number_problems(numbers, lecture):
    bad = [f"{n['n']} is shown {n['dy']:+} px from the screen, not on it" for n in numbers
           if n["elsewhere"] and not n["inview"]]
    if lecture:
        bad += [f"{n['n']} is {n['px']:.0f} px (a projector needs >= 22)" for n in numbers
                if n["elsewhere"] and n["inview"] and n["px"] < 21.5]
    return bad


def _still(page, timeout=6.0):
    """Wait until the smooth scroll of a scene has come to rest."""
    t0, last, same = time.time(), None, 0
    while time.time() - t0 < timeout:
        top = page.evaluate("document.querySelector('[data-testid=\"stMain\"]').scrollTop")
        same = same + 1 if top == last else 0
        if same >= 8:
            return
        last = top
        time.sleep(0.15)


def _inside(b, top, bottom, what):
    if b is None:
        return [f"{what}: not drawn"]
    out = []
    if b["top"] < top - 1:
        out.append(f"{what} top {b['top']:.0f} < {top:.0f} (under the header or the narration)")
    if b["bottom"] > bottom + 1:
        out.append(f"{what} bottom {b['bottom']:.0f} > {bottom:.0f} (below the screen)")
    return out


def _problems(m, sc, lecture):
    """What is not in view after scene `sc`, from a MEASURE_JS reading."""
    bad = []
    vh = m["vh"]
    if m["say"] is None:
        return ["no narration"]
    bad += _inside(m["say"], m["header"], vh, "narration")
    if not m["sayWhole"]:
        bad.append("narration cut (it scrolls inside its box)")
    pinned_top = m["say"]["right"] - m["say"]["left"] > 0.8 * m["vw"]       # narrow screen: pinned at the top
    top = max(m["header"], m["say"]["bottom"] if pinned_top else 0)
    t = m["target"]
    if t is None:
        return bad + [f"{sc['show']}: not on the page"]
    if not pinned_top and t["right"] > m["say"]["left"] + 1:
        bad.append(f"{sc['show']} runs under the narration panel ({t['right']:.0f} > {m['say']['left']:.0f})")
    if not pinned_top and m["svg"] is not None and m["svg"]["right"] > m["say"]["left"] + 1:   # issue 33 item 6
        bad.append(f"{sc['show']}'s plot is drawn under the narration panel ({m['svg']['right']:.0f} > "
                   f"{m['say']['left']:.0f})")
    if sc["show"].startswith("chk_step"):                   # a step's box: its heading and badge, then the rest
        bad += _inside(m["heading"], top, vh, "step heading") + _inside(m["badge"], top, vh, "PASS/FAIL badge")
        if lecture and m["badgePx"] < 22:
            bad.append(f"PASS/FAIL badge {m['badgePx']} px (a projector needs >= 22)")
        bad += _inside({**t, "bottom": t["top"] + 1}, top, vh, sc["show"])
    else:
        bad += _inside(t, top, vh, sc["show"])
        if m["legend"] is not None:
            bad += _inside(m["legend"], top, vh, "legend")
    return bad


@pytest.mark.parametrize("view", sorted(VIEWS))
@pytest.mark.parametrize("page_name", PAGES)
def test_every_scene_shows_its_narration_and_its_figure_together(browser, app_url, page_name, view):
    opts, query = VIEWS[view]
    ctx = browser.new_context(**opts)
    page = ctx.new_page()
    page.goto(f"{app_url}/{PATHS[page_name]}?lang=zh{query}")
    settle(page)
    report = []
    try:
        for i, sc in enumerate(scenes.SCENES[page_name]):
            page.locator(".st-key-scenes_nav button").nth(1).click()
            time.sleep(0.3)
            settle(page)
            _still(page)
            m = page.evaluate(MEASURE_JS, sc["show"])
            if SHOTS:
                os.makedirs(SHOTS, exist_ok=True)
                page.screenshot(path=os.path.join(SHOTS, f"{page_name}-{view}-s{i + 1}.png"))
            assert f"{i + 1}/{len(scenes.SCENES[page_name])}" in m["sayText"], (i + 1, m["sayText"][:80])
            report += [f"scene {i + 1} ({sc['show']}): {p}" for p in _problems(m, sc, view == "lecture")]
            if view == "lecture":
                numbers = page.evaluate(NUMBERS_JS, _settings(sc))
                report += [f"scene {i + 1} ({sc['show']}): {p}" for p in _number_problems(numbers, True)]
    finally:
        page.close()
        ctx.close()
    assert not report, f"/{page_name} {view}:\n" + "\n".join(report)


def _widget_values(page):
    return page.evaluate("""() => Array.from(document.querySelectorAll(
        '[data-testid="stMain"] [data-testid="stSlider"] input[type="range"]')).map(s => s.value)""")


def test_a_share_link_after_a_scene_and_a_moved_slider_reopens_that_view(browser, app_url):
    """Item 17 in the browser: /rope, Next scene (m = 1), m back to 2 (its default). The URL used to keep
    scene=1 and drop rope_m, so the link reopened m = 1 beside a narration about position 1."""
    ctx = browser.new_context(**LECTURE)
    page = ctx.new_page()
    try:
        page.goto(f"{app_url}/rope?lang=en")
        settle(page)
        page.locator(".st-key-scenes_nav button").nth(1).click()
        time.sleep(0.3)
        settle(page)
        assert "scene=1" in page.url and "rope_m=1" in page.url
        m = page.locator('[data-testid="stMain"] [data-testid="stSlider"] input[type="range"]').first
        m.focus()
        page.keyboard.press("ArrowRight")                   # m: 1 -> 2, the default
        time.sleep(0.5)
        settle(page)
        assert "scene=" not in page.url and "rope_m=" not in page.url, page.url
        assert page.locator(".st-key-scene_say").count() == 0           # no narration about position 1
        seen, url = _widget_values(page), page.url
        again = ctx.new_page()
        again.goto(url)
        settle(again)
        assert _widget_values(again) == seen and seen[0] == "2", (seen, _widget_values(again))
        assert again.locator(".st-key-scene_say").count() == 0
        again.close()
    finally:
        page.close()
        ctx.close()


METRIC_CUT_JS = """() => Array.from(document.querySelectorAll('[data-testid="stMain"] [data-testid="stMetricLabel"]'))
  .flatMap(l => Array.from(l.querySelectorAll('*')).concat([l]))
  .filter(e => e.children.length === 0 && e.textContent.trim() && e.scrollWidth > e.clientWidth + 1)
  .map(e => e.textContent.trim())"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_metric_label_is_cut_in_lecture_mode(browser, app_url, lang):
    """Issue 26 item 16: a /rope metric label read "前后半配对的代码读交错配对的权…" on the projector."""
    ctx = browser.new_context(**LECTURE)
    cut = {}
    try:
        for name in sorted(scenes.SCENES) + ["remember"]:
            page = ctx.new_page()
            page.goto(f"{app_url}/{PATHS[name]}?lang={lang}&present=1")
            settle(page)
            labels = page.evaluate(METRIC_CUT_JS)
            if labels:
                cut[name] = labels
            page.close()
    finally:
        ctx.close()
    assert not cut, cut


# ---------------------------------------------------------------- on a phone (item 19) and the overview diagram (15)
TITLES_JS = """() => Array.from(document.querySelectorAll('[data-testid="stMain"] .js-plotly-plot')).flatMap(p => {
  const t = p.querySelector('.gtitle'), bar = p.querySelector('.modebar'), box = p.getBoundingClientRect();
  if (!t || !t.textContent.trim()) return [];
  const r = t.getBoundingClientRect(), b = bar ? bar.getBoundingClientRect() : null;
  const under = b && b.width && r.top < b.bottom && r.bottom > b.top && r.left < b.right && r.right > b.left;
  const cut = r.right > box.right + 1 || r.left < box.left - 1;
  return under || cut ? [`${t.textContent.slice(0, 40)}: ${under ? 'under the toolbar' : ''} ${cut ? 'cut' : ''}`] : [];
})"""


def _phone_page(browser, app_url, path, lang):
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    page.goto(f"{app_url}/{path}?lang={lang}")
    settle(page)
    page.wait_for_selector(".js-plotly-plot .main-svg", timeout=60000)
    settle(page)
    return ctx, page


PHONE_TITLES = [("extrapolation", "en"), ("extrapolation", "zh"), ("decay", "zh"), ("models", "en"), ("models", "zh"),
                ("frontier", "zh"), ("length", "zh"), ("length-today", "en")]


@pytest.mark.parametrize("path, lang", PHONE_TITLES)
def test_phone_chart_titles_clear_the_toolbar_and_fit(browser, app_url, path, lang):
    """Issue 26 item 19: on a phone plotly's toolbar always shows; titles ran under it and off the side."""
    ctx, page = _phone_page(browser, app_url, path, lang)
    try:
        page.evaluate("window.scrollTo(0, 0)")
        assert not page.evaluate(TITLES_JS)
    finally:
        ctx.close()


SUMMARY_JS = """() => Array.from(document.querySelectorAll('.st-key-chk_summary tr')).flatMap(tr => {
  const cells = Array.from(tr.children), out = [];
  for (const c of [cells[0], cells[cells.length - 1]]) {
    const r = document.createRange(); r.selectNodeContents(c);
    const lines = new Set(Array.from(r.getClientRects()).map(x => Math.round(x.top))).size;
    if (lines > 1) out.push(`${c.textContent} in ${lines} lines`);
  }
  return out;
})"""

THUMBS_JS = """() => Array.from(document.querySelectorAll(
  '[data-testid="stMain"] [data-testid="stSlider"] div:has(> [data-testid="stSliderThumbValue"])'))
  .slice(0, 4).flatMap(th => {
    th.scrollIntoView({block: 'center'}); const r = th.getBoundingClientRect();
    const cx = (r.left + r.right) / 2, cy = (r.top + r.bottom) / 2;
    return [[18, 0], [-18, 0], [0, 18], [0, -18]].filter(([dx, dy]) => {
      const e = document.elementFromPoint(cx + dx, cy + dy); return !(e && (e === th || th.contains(e))); })
      .map(([dx, dy]) => `${th.textContent}: (${dx}, ${dy}) misses the ${r.width}px thumb`); })"""


def test_phone_checks_summary_keeps_its_verdicts_whole_and_sliders_take_a_thumb(browser, app_url):
    """Issue 26 item 19: zh /checks wrapped "通/过" a character a line; slider thumbs were 12x12 px targets."""
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    try:
        page.goto(f"{app_url}/checks?lang=zh")
        settle(page)
        assert page.locator(".st-key-chk_summary td").count() >= 27
        assert not page.evaluate(SUMMARY_JS)
        page.goto(f"{app_url}/decay?lang=zh")
        settle(page)
        assert page.locator('[data-testid="stSlider"] [data-testid="stSliderThumbValue"]').count() >= 2
        assert not page.evaluate(THUMBS_JS)
    finally:
        ctx.close()


GALLERY_JS = """() => { const g = document.querySelector('[data-testid="stMain"] [data-testid="stDataFrame"]');
  const s = g && g.querySelector('.dvn-scroller');
  return g ? {cols: g.querySelectorAll('[role="columnheader"]').length,
              scroll: s ? s.scrollWidth - s.clientWidth : null, right: g.getBoundingClientRect().right,
              vw: innerWidth} : null; }"""


def test_phone_models_gallery_shows_every_column(browser, app_url):
    """Issue 26 item 19: the gallery showed 3 of its 10 columns at 390 px; drawn long (ui.table), all of them."""
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    try:
        page.goto(f"{app_url}/models?lang=zh")
        settle(page)
        page.wait_for_selector('[data-testid="stDataFrame"] [role="columnheader"]', state="attached", timeout=60000)
        g = page.evaluate(GALLERY_JS)
        assert g["cols"] == 3 and g["scroll"] is not None and g["scroll"] <= 1 and g["right"] <= g["vw"], g
    finally:
        ctx.close()


DOT_JS = """() => { const svgs = Array.from(document.querySelectorAll(
    '[data-testid="stMain"] [data-testid="stGraphVizChart"] svg'));
  const px = svgs.flatMap(s => Array.from(s.querySelectorAll('text')).map(t =>
    t.getScreenCTM().a * parseFloat(t.getAttribute('font-size'))));
  return {n: svgs.length, min: Math.min(...px)}; }"""


@pytest.mark.parametrize("view", sorted(VIEWS))
def test_overview_diagram_text_is_readable(browser, app_url, view):
    """Issue 26 item 15: the "where position enters" diagram drew 13 px text in lecture mode, 8 px on a phone."""
    opts, query = VIEWS[view]
    ctx = browser.new_context(**opts)
    page = ctx.new_page()
    try:
        page.goto(f"{app_url}/?lang=zh{query}")
        settle(page)
        page.wait_for_selector('[data-testid="stGraphVizChart"] svg text', timeout=60000)
        d = page.evaluate(DOT_JS)
        assert d["n"] == 3 and d["min"] >= (22 if view == "lecture" else 12), d
    finally:
        ctx.close()


# ---------------------------------------------------------------- issue 33 item 5: phone and projector layouts
CLEAR_JS = """(key) => { const g = document.querySelector('[data-testid="stMain"] .st-key-' + key + ' .js-plotly-plot');
  if (!g) return null; g.scrollIntoView({block: 'start'});
  const r = (e) => { if (!e) return null; const b = e.getBoundingClientRect(); return {top: b.top, bottom: b.bottom}; };
  const ticks = [...g.querySelectorAll('.xtick text')].map(r).filter(Boolean);
  const plot = g.querySelector('.nsewdrag');                       // the plot area
  const p = plot.getBoundingClientRect(), box = g.getBoundingClientRect();
  return {legend: r(g.querySelector('.legend')), title: r(g.querySelector('.g-xtitle')),
          ticksBottom: Math.max(...ticks.map((t) => t.bottom)), plotWidth: p.width, width: box.width,
          rows: g.querySelectorAll('.annotation').length}; }"""


@pytest.mark.parametrize("view, path, key", [("phone", "kv-cache?kv_stream=true", "kv_stream_errors"),
                                             ("phone", "models?models_prop=true", "models_prop_dims"),
                                             ("phone", "models?models_all=true", "models_strip_all"),
                                             ("phone", "extrapolation?ext_preset=gpt_oss_20b", "ext_strip"),
                                             ("desk", "extrapolation?ext_preset=gpt_oss_20b", "ext_strip"),
                                             ("lecture", "extrapolation?ext_preset=gpt_oss_20b", "ext_strip")])
def test_legends_clear_axis_titles_and_ticks_and_strips_take_the_width(browser, app_url, view, path, key):
    """Issue 33 item 5: /kv-cache streaming's axis title ran over the first legend entry, /extrapolation's
    layer-strip legend hid the ticks, /models' row labels took a phone's width (~30 px strips)."""
    opts = LECTURE if view != "phone" else PHONE
    ctx = browser.new_context(**opts)
    page = ctx.new_page()
    try:
        page.goto(f"{app_url}/{path}&lang=zh" + ("&present=1" if view == "lecture" else ""))
        settle(page)
        page.wait_for_selector(f".st-key-{key} .js-plotly-plot .main-svg", timeout=60000)
        time.sleep(0.5)
        m = page.evaluate(CLEAR_JS, key)
        assert m["legend"]["top"] >= m["ticksBottom"] - 1, m
        if m["title"]:
            assert m["legend"]["top"] >= m["title"]["bottom"] - 1, m
        if key.startswith(("models_", "ext_strip")):
            assert m["plotWidth"] >= 0.7 * m["width"], m         # the names above the strips, not beside them
    finally:
        ctx.close()

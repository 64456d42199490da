"""Every page in Debian's Chromium, each view (page, language, screen, mode) opened once and checked by
every test of that view (a module-scoped fixture; tests/conftest.py sends the tests of a view to one test
process, one after another):

- it loads without an error and draws, through the app's frame (1280x720, both languages);
- plotly.js draws every chart in one pass at 1280x720 (normal and lecture mode) and on a 390x844 phone
  (its User-Agent tells the server, which asks for the phone's margins): the margins the figure asks for
  (posviz/figures/margins.json) already hold its title, colour bar, legend and axis labels, so plotly never
  grows them and draws the chart a second time (half the browser's time per chart, on every load and every
  slider move);
- lecture mode is readable on a 1280x720 projector, and every figure fits the phone (issue 12);
- the accessibility tier (issue 35): axe-core (WCAG 2.0-2.2 A and AA, best practices) finds no serious or critical
  violation in posviz's content on every page in both languages at 1280x720, in lecture mode, on a phone and (in
  Chinese) in the dark theme, and in every scene (SCENE_VIEWS), and every chart's text has AA contrast; Streamlit's
  own chrome (header, toolbar, navigation) fails only the rules harness/a11y.CHROME_KNOWN explains;
- no metric label is cut in lecture mode, phone chart titles clear plotly's toolbar, the overview diagram's text is
  readable (issue 26 items 15, 16, 19);
- in view after every scene (harness/in_view.py: issue 26 items 12-14, issue 33 items 3, 4), in Chinese in lecture
  mode and on a phone.

The scenes are walked last, once per view in the view's open page (one Next press each): each scene's axe run and,
in those two views, its in-view measurement are taken in that one walk, which both scene tests read.

In CI (CI=true) a missing browser is a failure, never a skip (tests/browser/conftest.py).
"""
import os
import time

import pytest

from harness import a11y, in_view
from harness.browser import MARGINS_JS, MIN_PROJECTOR_PX, PHONE, PROJECTOR, grown_sides, page_paths, settle
from posviz import scenes

PATHS = page_paths()
NO_PLOT_OK = {"checks", "remember", "hall"}   # /hall draws a chart only after a reveal
PLOTTED = [p for p in PATHS if p not in NO_PLOT_OK]
SCREENS = {"desk": PROJECTOR, "phone": PHONE, "dark": {**PROJECTOR, "color_scheme": "dark"}}
# a page's scenes are keyed by its script's name (kv_cache), its URL is app.py's path (kv-cache)
SCENE_KEY = {path: (path or "overview").replace("-", "_") for path in PATHS}
WITH_SCENES = [path for path in PATHS if SCENE_KEY[path] in scenes.SCENES]
SHOTS = os.environ.get("POSVIZ_SHOTS")      # a directory: a screenshot per scene of the in-view walk


def views(paths, langs, screens):
    """The views (path, lang, screen, present) of `paths` x `langs` x `screens` ((screen, present) pairs),
    with ids page-lang-screen[-present]: the tests of one view have the same id."""
    return [pytest.param((path, lang, screen, present),
                         id=f"{path or 'overview'}-{lang}-{screen}" + ("-present" if present else ""))
            for path in paths for lang in langs for screen, present in screens]


@pytest.fixture(scope="module")
def screens(browser):
    """A browser context per screen, and the JavaScript errors of its pages."""
    out = {}
    for name, kw in SCREENS.items():
        ctx, errors = browser.new_context(**kw), []
        ctx.on("weberror", lambda e, errors=errors: errors.append(str(e.error)[:200]))
        out[name] = ctx, errors
    yield out
    for ctx, _ in out.values():
        ctx.close()


@pytest.fixture(scope="module")
def view(request, app_url, screens):
    """(url path, the settled page of one view with its charts drawn, the JavaScript errors while it was open)."""
    path, lang, screen, present = request.param
    ctx, errors = screens[screen]
    errors.clear()
    page = ctx.new_page()
    page.goto(f"{app_url}/{path}?lang={lang}" + ("&present=1" if present else ""))
    settle(page)
    if path not in NO_PLOT_OK:
        page.wait_for_selector(".js-plotly-plot .main-svg", timeout=60000)
        settle(page)
    yield path, page, errors
    page.close()


@pytest.mark.parametrize("view", views(PATHS, ["en", "zh"], [("desk", 0)]), indirect=True)
def test_page_loads_without_errors_and_draws(view):
    path, page, errors = view
    assert page.locator('[data-testid="stException"]').count() == 0
    assert page.get_by_text("Page not found").count() == 0
    assert page.locator('[data-testid="stMain"] h1').count() >= 1
    if path not in NO_PLOT_OK:
        assert page.locator(".js-plotly-plot").count() >= 1
    # the sidebar frame (language switch) is there: the page ran through app.py
    assert page.locator('[data-testid="stSidebar"] [role="radiogroup"]').count() >= 1
    assert not errors, errors


@pytest.mark.parametrize("view", views(PLOTTED, ["en", "zh"], [("desk", 0), ("desk", 1), ("phone", 0)]),
                         indirect=True)
def test_every_chart_is_drawn_in_one_pass(view):
    _, page, _ = view
    rows = page.evaluate(MARGINS_JS)
    assert rows
    twice = {r["key"]: {k: (r["asked"][k], round(r["drawn"][k])) for k in grown_sides(r)}
             for r in rows if grown_sides(r)}
    assert not twice, f"plotly grew these margins (asked, drawn): {twice}; refit: python -m benchmarks.margins --write"


FONT_SIZES_JS = """() => {
  const sel = ['[data-testid="stSliderThumbValue"]', '[data-testid="stWidgetLabel"] p', '[role="radiogroup"] label p',
    '[data-testid="stMetricLabel"] p', '[data-testid="stMetricValue"]', '[data-testid="stSelectbox"] input',
    '[data-testid="stMultiSelectTagsContainer"] span', '[data-testid="stNumberInput"] input',
    '[data-testid="stTextInput"] input',
    '[data-testid="stTable"] td', '[data-testid="stTable"] th',
    '[data-testid="stCaptionContainer"]', '[data-testid="stMarkdownContainer"] p', '[data-testid="stAlert"] p',
    '.js-plotly-plot .gtitle', '.js-plotly-plot .xtitle', '.js-plotly-plot .ytitle', '.js-plotly-plot .annotation-text',
    '.js-plotly-plot .xtick text', '.js-plotly-plot .ytick text', '.js-plotly-plot .legendtext',
    '.js-plotly-plot .cbtitle text', '.js-plotly-plot .cbaxis text'];
  const small = [];
  for (const s of sel) for (const el of document.querySelectorAll('[data-testid="stMain"] ' + s)) {
    const text = (el.tagName === 'INPUT' ? el.value : el.textContent).trim();     // an input shows its value
    if (!text || el.closest('[data-testid="stExpander"]') || el.closest('[data-testid="stCode"]')) continue;
    const r = el.getBoundingClientRect(); if (r.width === 0 || r.height === 0) continue;
    const px = parseFloat(getComputedStyle(el).fontSize) || parseFloat(el.getAttribute('font-size') || '0');
    if (px < %d) small.push(s + ' ' + px + 'px: ' + text.slice(0, 40));
  }
  return small; }""" % MIN_PROJECTOR_PX


LAYOUT_JS = """() => {
  const W = window.innerWidth, problems = [];
  const hit = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  document.querySelectorAll('.js-plotly-plot').forEach((gd, k) => {
    const r = gd.getBoundingClientRect();
    if (r.right > W + 1) problems.push(`plot ${k} is ${Math.round(r.right)} px wide on a ${W} px screen`);
    const titles = Array.from(gd.querySelectorAll('.annotation-text, .gtitle')).filter(t => t.textContent.trim())
      .map(t => [t.textContent.trim().slice(0, 30), t.getBoundingClientRect()]);
    for (let i = 0; i < titles.length; i++) for (let j = i + 1; j < titles.length; j++)
      if (hit(titles[i][1], titles[j][1])) problems.push(`plot ${k}: "${titles[i][0]}" overlaps "${titles[j][0]}"`);
    const areas = Array.from(gd.querySelectorAll('.nsewdrag')).map(a => a.getBoundingClientRect());
    gd.querySelectorAll('.colorbar').forEach(cb => { const c = cb.getBoundingClientRect();
      if (areas.some(a => hit(a, c))) problems.push(`plot ${k}: a colorbar covers a panel`); });
  });
  document.querySelectorAll('[data-testid="stMarkdownContainer"] table').forEach((t, k) => {   // wide ones scroll
    const right = t.getBoundingClientRect().right;
    if (right > W + 1) problems.push(`table ${k} runs ${Math.round(right)} px on a ${W} px screen`);
  });
  return problems; }"""


@pytest.mark.parametrize("view", views(PATHS, ["zh"], [("desk", 1)]), indirect=True)
def test_lecture_mode_text_is_projector_sized(view):
    path, page, _ = view
    time.sleep(1)
    small = page.evaluate(FONT_SIZES_JS)
    assert not small, f"/{path}: text under {MIN_PROJECTOR_PX} px in lecture mode:\n" + "\n".join(small[:20])
    # the stylesheets are not shown as text (a second <style> on the line of the first one's end was read as
    # markdown: "a checks step's PASS / FAIL: its inline size is 14 px */" above every page's title)
    shown = page.locator('[data-testid="stMain"]').inner_text()
    assert "*/" not in shown and "!important" not in shown, shown[:300]


@pytest.mark.parametrize("view", views(PATHS, ["zh"], [("phone", 0)]), indirect=True)
def test_every_figure_fits_a_phone(view):
    path, page, _ = view
    time.sleep(1)
    problems = page.evaluate(LAYOUT_JS)
    assert not problems, f"/{path} on a 390 px phone:\n" + "\n".join(problems[:20])
    hint = page.locator(".st-key-scene_hint")
    assert hint.count() == 0 or not hint.first.is_visible(), "keyboard hint shown on a touch screen"


# ---------------------------------------------------------------- issue 26 items 15, 16, 19, on the views above
METRIC_CUT_JS = """() => Array.from(document.querySelectorAll('[data-testid="stMain"] [data-testid="stMetricLabel"]'))
  .flatMap(l => Array.from(l.querySelectorAll('*')).concat([l]))
  .filter(e => e.children.length === 0 && e.textContent.trim() && e.scrollWidth > e.clientWidth + 1)
  .map(e => e.textContent.trim())"""


METRIC_PATHS = [p for p in PATHS if p in WITH_SCENES or SCENE_KEY[p] == "remember"]


@pytest.mark.parametrize("view", views(METRIC_PATHS, ["en", "zh"], [("desk", 1)]), indirect=True)
def test_no_metric_label_is_cut_in_lecture_mode(view):
    """Issue 26 item 16: a /rope metric label read "前后半配对的代码读交错配对的权…" on the projector."""
    path, page, _ = view
    assert not page.evaluate(METRIC_CUT_JS), path


TITLES_JS = """() => Array.from(document.querySelectorAll('[data-testid="stMain"] .js-plotly-plot')).flatMap(p => {
  const t = p.querySelector('.gtitle'), bar = p.querySelector('.modebar'), box = p.getBoundingClientRect();
  if (!t || !t.textContent.trim()) return [];
  const r = t.getBoundingClientRect(), b = bar ? bar.getBoundingClientRect() : null;
  const under = b && b.width && r.top < b.bottom && r.bottom > b.top && r.left < b.right && r.right > b.left;
  const cut = r.right > box.right + 1 || r.left < box.left - 1;
  return under || cut ? [`${t.textContent.slice(0, 40)}: ${under ? 'under the toolbar' : ''} ${cut ? 'cut' : ''}`] : [];
})"""

PHONE_TITLES = [("extrapolation", "en"), ("extrapolation", "zh"), ("decay", "zh"), ("models", "en"), ("models", "zh"),
                ("frontier", "zh"), ("length", "zh"), ("length-today", "en")]


@pytest.mark.parametrize("view", [v for path, lang in PHONE_TITLES for v in views([path], [lang], [("phone", 0)])],
                         indirect=True)
def test_phone_chart_titles_clear_the_toolbar_and_fit(view):
    """Issue 26 item 19: on a phone plotly's toolbar always shows; titles ran under it and off the side."""
    _, page, _ = view
    page.evaluate("window.scrollTo(0, 0)")
    assert not page.evaluate(TITLES_JS)


DOT_JS = """() => { const svgs = Array.from(document.querySelectorAll(
    '[data-testid="stMain"] [data-testid="stGraphVizChart"] svg'));
  const px = svgs.flatMap(s => Array.from(s.querySelectorAll('text')).map(t =>
    t.getScreenCTM().a * parseFloat(t.getAttribute('font-size'))));
  return {n: svgs.length, min: Math.min(...px)}; }"""


@pytest.mark.parametrize("view", views([""], ["zh"], [("desk", 1), ("phone", 0)]), indirect=True)
def test_overview_diagram_text_is_readable(view, request):
    """Issue 26 item 15: the "where position enters" diagram drew 13 px text in lecture mode, 8 px on a phone."""
    _, page, _ = view
    page.wait_for_selector('[data-testid="stGraphVizChart"] svg text', timeout=60000)
    d = page.evaluate(DOT_JS)
    lecture = request.node.callspec.params["view"][3] == 1
    assert d["n"] == 3 and d["min"] >= (22 if lecture else 12), d


# ---------------------------------------------------------------- accessibility (issue 35)
A11Y_VIEWS = views(PATHS, ["en", "zh"], [("desk", 0), ("desk", 1), ("phone", 0)])


def _problems(page, where):
    """axe's serious and critical violations in posviz's content, a new failure of Streamlit's chrome, and chart text
    under AA contrast, as lines (none: accessible)."""
    found = a11y.axe(page)
    mine = [v for v in a11y.split(found, "posviz") if v["impact"] in ("serious", "critical")]
    chrome = [v for v in a11y.split(found, "streamlit") if v["rule"] not in a11y.CHROME_KNOWN]
    text = a11y.chart_text_contrast(page)
    out = [f"{where}: {a11y.report(mine)}"] if mine else []
    out += [f"{where}: Streamlit's chrome fails a rule not in CHROME_KNOWN: {a11y.report(chrome)}"] if chrome else []
    out += [f"{where}: chart text under AA contrast: {t}" for t in text[:5]]
    return out


@pytest.mark.parametrize("view", A11Y_VIEWS + views(PATHS, ["zh"], [("dark", 0)]), indirect=True)
def test_axe_finds_nothing_serious_in_posviz_content(view):
    path, page, _ = view
    problems = _problems(page, f"/{path}")
    assert not problems, "\n".join(problems)


# Every scene at 1280x720 in English, in lecture mode and on a phone in Chinese: each scene on every screen and in both
# languages, in 267 scene views rather than all 534 combinations (a scene costs a rerun and an axe run, ~2-3 s).
SCENE_VIEWS = views(PATHS, ["en"], [("desk", 0)]) + views(PATHS, ["zh"], [("desk", 1), ("phone", 0)])
# In view after every scene: in Chinese (the taller narrations), in lecture mode at 1280x720 and on a phone.
IN_VIEW_VIEWS = views(WITH_SCENES, ["zh"], [("desk", 1), ("phone", 0)])
_WALKS = {}


def _walk(request, view):
    """The view's scenes, walked once in its open page (the last use of the page): per scene, the axe problems and,
    in the IN_VIEW_VIEWS, what is not in view. Both scene tests read it; an error while walking fails both."""
    path, page, _ = view
    if page not in _WALKS:
        _WALKS[page] = _walk_scenes(page, path, request.node.callspec.params["view"])
    if isinstance(_WALKS[page], BaseException):
        raise _WALKS[page]
    return _WALKS[page]


def _walk_scenes(page, path, param):
    _, lang, screen, present = param
    measure = lang == "zh" and (screen, present) in (("desk", 1), ("phone", 0))
    items = scenes.SCENES.get(SCENE_KEY[path], [])
    out = []
    try:
        for i, sc in enumerate(items, 1):
            a11y.next_scene(page, i, len(items))
            where = f"/{path} scene {i}/{len(items)}"
            seen = _in_view(page, path, param, i, sc) if measure else []
            out.append({"axe": _problems(page, where), "in_view": [f"{where} ({sc['show']}): {p}" for p in seen]})
    except Exception as e:          # kept for the other scene test of this view
        return e
    return out


def _in_view(page, path, param, i, sc):
    """What is not in view right after scene i (harness/in_view.py)."""
    _, _, screen, present = param
    n = len(scenes.SCENES[SCENE_KEY[path]])
    in_view.still(page)
    m = page.evaluate(in_view.MEASURE_JS, sc["show"])
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        view = "lecture" if present else screen
        page.screenshot(path=os.path.join(SHOTS, f"{SCENE_KEY[path]}-{view}-s{i}.png"))
    out = [] if f"{i}/{n}" in m["sayText"] else [f"the narration does not say {i}/{n}: {m['sayText'][:80]}"]
    out += in_view.problems(m, sc, bool(present))
    if present:
        out += in_view.number_problems(page.evaluate(in_view.NUMBERS_JS, in_view.settings(sc)), True)
    return out


@pytest.mark.parametrize("view", SCENE_VIEWS, indirect=True)
def test_axe_finds_nothing_serious_in_any_scene(view, request):
    """After a view's other tests: its page walks through its scenes (_walk)."""
    _, _, errors = view
    problems = [p for scene in _walk(request, view) for p in scene["axe"]]
    assert not problems, "\n".join(problems)
    assert not errors, errors


@pytest.mark.parametrize("view", IN_VIEW_VIEWS, indirect=True)
def test_every_scene_shows_its_narration_and_its_figure_together(view, request):
    """Issue 26 items 12-14, issue 33 items 3, 4: each scene leaves its narration and its figure on screen together,
    and in lecture mode the numbers it quotes, at 22 px or more (harness/in_view.py)."""
    path, _, _ = view
    report = [p for scene in _walk(request, view) for p in scene["in_view"]]
    assert not report, f"/{path}:\n" + "\n".join(report)

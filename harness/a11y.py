"""axe-core in Chromium: the accessibility tier of the browser tests and `python -m benchmarks.a11y`.

axe-core is the copy shipped inside the `axe-playwright-python` package (requirements-dev.txt): nothing is
downloaded at test time. It runs in the page with the WCAG 2.0 / 2.1 / 2.2 A and AA rules and axe's best
practices. Each violation's elements are sorted into posviz's own content and Streamlit's chrome (its
header and toolbar, the page navigation, the sidebar's header, the main menu): posviz cannot change the
chrome's markup, so it is reported apart.

A view's scenes are walked in the page that is already open (its Next button), one axe run per scene.
"""
import collections
import time

from axe_playwright_python.base import AXE_SCRIPT

from harness.browser import settle
from posviz.scenes import SCENES

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa", "best-practice"]
IMPACTS = ("critical", "serious", "moderate", "minor")

# Streamlit's own chrome: drawn by Streamlit around every app, the same on every page.
CHROME = ", ".join(f'[data-testid="{t}"]' for t in (
    "stHeader", "stToolbar", "stDecoration", "stStatusWidget", "stMainMenu", "stMainMenuPopover", "stAppDeployButton",
    "stSidebarHeader", "stSidebarNav", "stSidebarCollapseButton", "stExpandSidebarButton", "stSidebarCollapsedControl",
    "stLogo", "stToolbarActions"))

# The rules Streamlit's own chrome fails on every page (posviz cannot change its markup), and why; a test fails on any
# other, so that a Streamlit upgrade that breaks (or mends) the chrome is noticed.
CHROME_KNOWN = {
    # the sidebar's page list: its "View N more" button sits in a <div> inside the <ul> (list), and the <li> of each
    # page inside a <div> inside the <ul> (listitem). Streamlit's markup; a page link still reads as a link.
    "list": "Streamlit's navigation: a <div> directly inside its <ul>",
    "listitem": "Streamlit's navigation: its <li> items are not direct children of the <ul>",
}

# One call: axe injected once per document, run, and every violating element sorted (posviz or chrome) in the page.
_RUN_JS = """async ([script, tags, chrome, context]) => {
  if (!window.axe) (0, eval)(script);
  const r = await axe.run(context || document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations'],
                                                elementRef: true});
  return r.violations.map(v => ({rule: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map(n => ({
    where: n.element && n.element.closest && n.element.closest(chrome) ? 'streamlit' : 'posviz',
    impact: n.impact || v.impact, target: n.target.map(String).join(' >> '), html: n.html.slice(0, 300),
    why: [...n.any, ...n.all, ...n.none].map(c => c.message).join(' | ').slice(0, 300)}))}));
}"""


def axe(page, context=None):
    """axe-core's violations on `page` (or within `context`, an axe context such as {"include": [...]}): a list of
    {rule, impact, help, nodes: [{where: "posviz" | "streamlit", impact, target, html, why}]}."""
    return page.evaluate(_RUN_JS, [AXE_SCRIPT, TAGS, CHROME, context])


def split(violations, where):
    """The violations with only their nodes in `where` ("posviz" or "streamlit"); rules left without nodes dropped."""
    out = []
    for v in violations:
        nodes = [n for n in v["nodes"] if n["where"] == where]
        if nodes:
            out.append({**v, "nodes": nodes})
    return out


def counts(violations):
    """{impact: (rules, elements)} of a list of violations (split() first for one side)."""
    rules, nodes = collections.Counter(), collections.Counter()
    for v in violations:
        for impact in {n["impact"] for n in v["nodes"]}:
            rules[impact] += 1
        for n in v["nodes"]:
            nodes[n["impact"]] += 1
    return {i: (rules[i], nodes[i]) for i in IMPACTS}


def report(violations, limit=4):
    """A few readable lines per violation: rule, impact, elements, and the first `limit` elements."""
    lines = []
    for v in violations:
        lines.append(f"{v['rule']} ({v['impact']}, {len(v['nodes'])} elements): {v['help']}")
        lines += [f"    {n['target']}  {n['html'][:140]}\n      {n['why'][:200]}" for n in v["nodes"][:limit]]
    return "\n".join(lines)


SCENE_NEXT = '[data-testid="stMain"] .st-key-scenes_nav button'
_SCENE_SAID_JS = """(i) => Array.from(document.querySelectorAll('[data-testid="stMain"] [data-testid="stAlert"]'))
  .some(a => a.innerText.includes(i))"""


def scene_count(path):
    """How many scenes the page at url path `path` ("" for the default page) has."""
    return len(SCENES.get((path or "overview").replace("-", "_"), ()))


def next_scene(page, i, n, timeout=60):
    """Press the open page's Next scene button and wait until scene `i` (1-based) of `n` is drawn."""
    page.locator(SCENE_NEXT).nth(1).click()
    t0 = time.time()
    while not page.evaluate(_SCENE_SAID_JS, f"{i}/{n}"):
        if time.time() - t0 > timeout:
            raise TimeoutError(f"scene {i}/{n} did not show")
        time.sleep(0.1)
    settle(page, timeout)


# plotly.js draws its text in SVG, which axe-core does not check: each chart's text (titles, tick labels, legend,
# annotations, colour bars, the animation's controls) against what it is drawn on (its annotation's or legend's own
# box, else the chart's background), WCAG 1.4.3: 4.5:1, 3:1 for large text (24 px, or 18.66 px bold). A heatmap's cell
# text is left out: plotly.js picks black or white for each cell by contrast.
CHART_TEXT_JS = """() => {
  const probe = document.createElement('i');
  document.body.append(probe);
  const rgba = (s) => {
    probe.style.color = ''; probe.style.color = s || 'transparent';
    const m = getComputedStyle(probe).color.match(/[\\d.]+/g).map(Number);
    return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1];
  };
  const over = (f, b) => [0, 1, 2].map(i => f[i] * f[3] + b[i] * (1 - f[3])).concat(1);
  const lin = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = (c) => 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const out = [];
  document.querySelectorAll('[data-testid="stMain"] .js-plotly-plot').forEach(gd => {
    const fl = gd._fullLayout; if (!fl) return;
    const paper = over(rgba(fl.paper_bgcolor), [255, 255, 255, 1]);
    const holder = gd.closest('[class*="st-key-"]'), key = holder ? holder.className.match(/st-key-(\\S+)/)[1] : '?';
    gd.querySelectorAll('text').forEach(t => {
      const text = t.textContent.trim();
      if (!text || t.closest('.hoverlayer, .heatmaplayer')) return;
      const r = t.getBoundingClientRect(); if (!r.width || !r.height) return;
      const cs = getComputedStyle(t);
      if (cs.visibility === 'hidden' || cs.display === 'none') return;
      let alpha = parseFloat(cs.fillOpacity || '1') * parseFloat(cs.opacity || '1');
      for (let g = t.parentElement; g && g !== gd; g = g.parentElement) {
        alpha *= parseFloat(getComputedStyle(g).opacity || '1');
      }
      if (alpha === 0) return;
      let bg = paper;
      const group = t.closest('.annotation, .legend, .colorbar, .updatemenu-container, .slider-container');
      const box = group && group.querySelector('rect.bg, rect.updatemenu-item-rect, rect.slider-rail-rect');
      if (box) {
        const bcs = getComputedStyle(box), fill = rgba(bcs.fill);
        fill[3] *= parseFloat(bcs.fillOpacity || '1');
        if (fill[3] > 0) bg = over(fill, paper);
      }
      const bar = t.classList.contains('bartext-inside') && t.closest('g.point');   // a number written inside its bar
      const shape = bar && bar.querySelector('path');
      if (shape) {
        const scs = getComputedStyle(shape), fill = rgba(scs.fill);
        fill[3] *= parseFloat(scs.fillOpacity || '1') * parseFloat(scs.opacity || '1');
        if (fill[3] > 0) bg = over(fill, paper);
      }
      const fg = rgba(cs.fill); fg[3] *= alpha;
      const px = parseFloat(cs.fontSize), bold = parseInt(cs.fontWeight, 10) >= 700;
      const need = px >= 24 || (bold && px >= 18.66) ? 3 : 4.5;
      const c = ratio(over(fg, bg), bg);
      if (c < need - 0.005) out.push({key, text: text.slice(0, 40), ratio: Math.round(c * 100) / 100, need,
                                      color: cs.fill, on: 'rgb(' + bg.slice(0, 3).map(Math.round).join(',') + ')'});
    });
  });
  probe.remove();
  return out;
}"""


def chart_text_contrast(page):
    """The chart texts of `page` below AA contrast: [{key, text, ratio, need, color, on}]."""
    return page.evaluate(CHART_TEXT_JS)

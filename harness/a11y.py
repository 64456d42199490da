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

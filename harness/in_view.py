"""In view after every scene (issue 26 items 12-14; issue 33 items 3, 4), measured in Chromium: each scene leaves its
narration and the thing it talks about on screen together: the narration whole and readable, the figure whole with its
legend (a checks step: its heading and PASS/FAIL badge), clear of the app header and of the narration; in lecture mode
every number the narration quotes that the page shows is on that screen, at least 22 px.

Used by tests/browser/test_pages.py, which walks each view's scenes once (in Chinese, the taller narrations, at
1280x720 in lecture mode and on a 390x844 phone) for these checks and axe's.
"""
import time

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


def settings(sc):
    """The numbers a scene sets (its widgets show them), as NUMBERS_JS compares them."""
    out = set()
    for v in sc["values"].values():
        for x in (v if isinstance(v, (list, tuple)) else [v]):
            if isinstance(x, (int, float)) and not isinstance(x, bool):
                out.add(f"{x:g}" if isinstance(x, float) else str(x))
    return sorted(out)


def number_problems(numbers, lecture):
    bad = [f"{n['n']} is shown {n['dy']:+} px from the screen, not on it" for n in numbers
           if n["elsewhere"] and not n["inview"]]
    if lecture:
        bad += [f"{n['n']} is {n['px']:.0f} px (a projector needs >= 22)" for n in numbers
                if n["elsewhere"] and n["inview"] and n["px"] < 21.5]
    return bad


def still(page, timeout=6.0):
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


def problems(m, sc, lecture):
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

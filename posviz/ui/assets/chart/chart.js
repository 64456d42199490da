// posviz's chart element (posviz/ui/plotting.py: plot). One plotly.js figure per element, drawn in place:
// Streamlit keeps a keyed element mounted and calls this function again with the element's new data, and
// the figure is updated with Plotly.react on the same <div> (a figure whose bytes did not change costs
// nothing). Charts in view are drawn first, one per task; the others when they come into view, or in idle
// time after those in view. plotly.js is plotly's cartesian partial bundle (posviz/ui/assets/plotly), loaded once:
// from posviz's own route (posviz/ui/routes.py), which the browser keeps for a year, else from Streamlit's
// component route (posviz.plotly), which it downloads again in every new tab.
const PLOTLY_URLS = [new URL('../../../posviz/plotly-cartesian.min.js', import.meta.url).href,
                     new URL('../posviz.plotly/plotly-cartesian.min.js', import.meta.url).href];
const CSS_URL = new URL('chart.css', import.meta.url).href;
const w = window;
const decoder = new TextDecoder();

// plotly.js, 1.5 MB (0.5 MB gzipped), loaded by a <script> element from its URL: the browser compiles it while it
// downloads (from a blob out of the browser's Cache Storage it was compiled after, on the page's main thread: a
// first chart 1.2 s later). The URL names the bundle's plotly.js version.
function loadScript(url, version) {
  return new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = `${url}?v=${encodeURIComponent(version)}`;
    s.async = true;
    s.onload = () => (w.Plotly ? resolve(w.Plotly) : reject(new Error('no plotly.js at ' + url)));
    s.onerror = () => { s.remove(); reject(new Error('plotly.js did not load from ' + url)); };
    document.head.appendChild(s);
  });
}

function plotlyReady(version) {
  if (!w.__posvizPlotly) {
    w.__posvizPlotly = w.Plotly ? Promise.resolve(w.Plotly)
      : loadScript(PLOTLY_URLS[0], version).catch(() => loadScript(PLOTLY_URLS[1], version));
    w.__posvizPlotly.catch(() => { w.__posvizPlotly = null; });
  }
  return w.__posvizPlotly;
}

// Called by the page frame's script (assets/scenes.js) as a page starts: plotly.js loads while the page's script
// runs on the server, not after the first chart arrives (about a second of a first visit's wait).
export function preload(version) {
  plotlyReady(version).catch(() => {});
}

function stylesheet() {
  if (document.querySelector('link[data-posviz-chart]')) return;
  const l = document.createElement('link');
  l.rel = 'stylesheet';
  l.href = CSS_URL;
  l.dataset.posvizChart = '1';
  document.head.appendChild(l);
}

// ---------------------------------------------------------------- what to draw, in which order
const waiting = new Set();          // charts with a figure not drawn yet
let loop = 0;                       // the drawing loop that runs; a new figure or a chart coming into view starts another

function inView(c) {
  const r = c.box.getBoundingClientRect();
  return r.bottom > -50 && r.top < innerHeight + 50 && r.width > 0;
}

function post(fn) {                 // a new task, after the browser has had its turn (input, paint)
  const ch = new MessageChannel();
  ch.port1.onmessage = fn;
  ch.port2.postMessage(0);
}

function pump() {
  const me = ++loop;
  plotlyReady().then((Plotly) => {
    const step = () => {
      if (me !== loop) return;
      [...waiting].filter((c) => !c.box.isConnected).forEach((c) => waiting.delete(c));
      const seen = [...waiting].filter(inView);
      if (seen.length) {            // in view: a scene's figure first (scenes.js marks it), then the highest, one per task
        const tops = seen.map((c) => c.box.getBoundingClientRect().top);
        draw(Plotly, seen.find((c) => c.box.closest('.posviz-shown')) || seen[tops.indexOf(Math.min(...tops))]);
        post(step);
      } else if (waiting.size) {    // out of view: drawn when they come into view, or one per idle period
        const idle = w.requestIdleCallback || ((f) => setTimeout(f, 50));
        idle(() => {
          if (me !== loop) return;
          const next = waiting.values().next().value;
          if (next) draw(Plotly, next);
          post(step);
        }, {timeout: 1500});
      }
    };
    step();
  }, () => {});
}

// charts out of view whose width changed (the ResizeObserver in mount): resized when they come into view, or one per
// idle period
const resized = new Set();
let idleQueued = false;
function resizeNow(c) {
  resized.delete(c);
  if (c.box.isConnected && c.gd.offsetParent && w.Plotly && !c.full) w.Plotly.Plots.resize(c.gd).catch(() => {});
}
function later() {
  if (idleQueued) return;
  idleQueued = true;
  const idle = w.requestIdleCallback || ((f) => setTimeout(f, 50));
  idle(() => {
    idleQueued = false;
    const next = resized.values().next().value;
    if (next) resizeNow(next);
    if (resized.size) later();
  }, {timeout: 1500});
}

const observer = new IntersectionObserver((entries) => {
  entries.forEach((e) => { if (e.isIntersecting && resized.has(e.target.__posvizChart)) resizeNow(e.target.__posvizChart); });
  if (entries.some((e) => e.isIntersecting && waiting.has(e.target.__posvizChart))) {
    pump();                         // the idle wait is overtaken: what is in view now comes first
  }
}, {rootMargin: '50px'});

function draw(Plotly, c) {
  waiting.delete(c);
  const spec = c.spec;
  if (!spec) return;
  const fig = spec.figure;
  // the same config object while its JSON is the same: Plotly.react draws anew (newPlot) when the config differs
  const cfg = JSON.stringify([spec.config, spec.labels]);
  if (cfg !== c.cfgText) {
    c.cfgText = cfg;
    c.config = {...spec.config, modeBarButtonsToAdd: [altButton(c, spec.labels), fullButton(c, spec.labels)]};
  }
  const config = c.config;
  const first = !c.drawn;
  // gd.dataset: posvizState "pending" from a new figure's arrival to the end of its drawing (Plotly.react's promise),
  // then "drawn"; posvizDraws counts the figures drawn in this <div>; posvizNew is 1 for its first figure only
  const done = () => {
    if (c.spec !== spec) return;
    keyboard(c);
    c.gd.dataset.posvizState = 'drawn';
    // plotly.js drew at the width its <div> had when the drawing started; a scene's side panel can narrow the page
    // while it draws (the resize then asked for was lost: /decay scene 5's chart stayed full width under the panel)
    const drawnAt = c.gd._fullLayout && c.gd._fullLayout.width, now = c.gd.getBoundingClientRect().width;
    if (!c.full && drawnAt && now && c.gd.offsetParent && !(c.gd.layout && c.gd.layout.width) &&
        Math.abs(drawnAt - now) > 1) Plotly.Plots.resize(c.gd).catch(() => {});
  };
  Plotly.react(c.gd, {data: fig.data || [], layout: fig.layout || {}, frames: fig.frames || [], config}).then(done, done);
  c.drawn = true;
  c.gd.dataset.posvizDraws = String((+c.gd.dataset.posvizDraws || 0) + 1);
  c.gd.dataset.posvizNew = first ? '1' : '0';
  if (c.full) fit(Plotly, c);
}

// ---------------------------------------------------------------- fullscreen: a fixed overlay, phones too
const FULL_ICON = {width: 24, height: 24,
  path: 'M3 3h7v2H5v5H3V3zm11 0h7v7h-2V5h-5V3zM3 14h2v5h5v2H3v-7zm16 0h2v7h-7v-2h5v-5z'};

// The text alternative's button: lines of text.
const ALT_ICON = {width: 24, height: 24, path: 'M3 4h18v2H3V4zm0 5h18v2H3V9zm0 5h12v2H3v-2zm0 5h18v2H3v-2z'};

function altButton(c, labels) {
  return {name: 'posvizAlt', title: labels.alt, icon: ALT_ICON, click: () => toggleAlt(c)};
}

function fullButton(c, labels) {
  return {name: 'posvizFull', title: labels.full, icon: FULL_ICON, click: () => setFull(c, !c.full)};
}

function fit(Plotly, c) {
  // plotly.js keeps (and relayout changes) the layout object it was given: the figure's own size is kept aside
  c.size = {width: c.gd.layout.width ?? null, height: c.gd.layout.height ?? null};
  const r = c.gd.getBoundingClientRect();
  Plotly.relayout(c.gd, {width: Math.floor(r.width), height: Math.floor(r.height)}).catch(() => {});
}

function fullscreenButton(c) {
  const name = c.spec && c.spec.labels.full;
  return name ? c.gd.querySelector(`.modebar-btn[data-title="${CSS.escape(name)}"]`) : null;
}

function setFull(c, on) {
  if (Boolean(c.full) === on) return;
  c.full = on;
  if (on) c.returnTo = document.activeElement;   // where focus goes back to when the overlay closes
  c.box.classList.toggle('posviz-full', on);
  document.documentElement.classList.toggle('posviz-full-open', on);
  c.close.hidden = !on;
  c.gd.style.height = on ? '' : `${c.height}px`;    // in fullscreen the overlay gives the plot its height
  plotlyReady().then((Plotly) => {
    if (on) {
      fit(Plotly, c);
      c.close.focus();
    } else {
      if (c.size) Plotly.relayout(c.gd, c.size).catch(() => {});
    }
  });
  if (!on) {
    const back = c.returnTo && c.returnTo.isConnected && c.returnTo !== document.body ? c.returnTo : fullscreenButton(c);
    c.returnTo = null;
    if (back) back.focus({preventScroll: true});
  }
}

addEventListener('keydown', (e) => {
  if (e.key !== 'Escape') return;
  document.querySelectorAll('.posviz-chart.posviz-full').forEach((b) => b.__posvizChart && setFull(b.__posvizChart, false));
});

// ---------------------------------------------------------------- keyboard and screen readers
// plotly.js's toolbar is one Tab stop here, a toolbar whose buttons the arrow keys move between (the button last
// used keeps the stop), each named by its title; the toolbar shows while focus is in the chart. Its animation
// controls (play / pause, the frame slider) are SVG: each is given a role, a name and a place in the Tab order, and
// Enter / Space (arrow keys on the slider) do what a click does.
function keyboard(c) {
  const bar = c.gd.querySelector('.modebar');
  if (bar) {
    bar.setAttribute('role', 'toolbar');
    bar.setAttribute('aria-label', c.spec.labels.figure);
    const buttons = [...bar.querySelectorAll('.modebar-btn')];
    const stop = buttons.includes(c.toolStop) ? c.toolStop : buttons[0];
    buttons.forEach((b) => {
      if (b.tagName !== 'BUTTON') b.setAttribute('role', 'button');
      b.setAttribute('aria-label', b.getAttribute('data-title') || '');
      b.tabIndex = b === stop ? 0 : -1;
    });
    const words = altToggle(c);
    if (words) {
      words.setAttribute('aria-expanded', String(Boolean(c.altOpen)));
      words.setAttribute('aria-controls', c.alt.id);
    }
  }
  c.gd.querySelectorAll('.updatemenu-button:not([tabindex])').forEach((b) => {
    b.setAttribute('role', 'button');
    b.setAttribute('tabindex', '0');
    b.setAttribute('aria-label', b.textContent.trim());
  });
  const sliders = (c.gd._fullLayout && c.gd._fullLayout.sliders) || [];
  c.gd.querySelectorAll('.slider-container').forEach((g, i) => {
    const s = sliders[i];
    if (!s || !s.steps || !s.steps.length) return;
    const step = s.steps[s.active] || s.steps[0];
    g.setAttribute('role', 'slider');
    g.setAttribute('tabindex', '0');
    g.setAttribute('aria-label', c.spec.labels.step || c.spec.labels.figure);
    g.setAttribute('aria-valuemin', '0');
    g.setAttribute('aria-valuemax', String(s.steps.length - 1));
    g.setAttribute('aria-valuenow', String(s.active || 0));
    g.setAttribute('aria-valuetext', step.label || String(s.active || 0));
    g.dataset.posvizSlider = String(i);
  });
}

const STEP_METHODS = ['animate', 'relayout', 'restyle', 'update'];    // what a slider's step may call

function slide(c, g, key) {
  const i = +g.dataset.posvizSlider;
  const s = c.gd._fullLayout.sliders[i], n = s.steps.length, now = s.active || 0;
  const to = {ArrowRight: now + 1, ArrowUp: now + 1, ArrowLeft: now - 1, ArrowDown: now - 1, Home: 0, End: n - 1,
              PageUp: now + 5, PageDown: now - 5}[key];
  if (to === undefined) return false;
  const next = Math.max(0, Math.min(n - 1, to));
  const step = s.steps[next];
  plotlyReady().then((Plotly) => Plotly.relayout(c.gd, {[`sliders[${i}].active`]: next})
    .then(() => (STEP_METHODS.includes(step.method) ? Plotly[step.method](c.gd, ...step.args) : null))
    .then(() => {
      keyboard(c);                 // plotly.js drew the slider anew: its new element gets its role and value
      const again = c.gd.querySelectorAll('.slider-container')[i];
      if (again && document.activeElement !== again) again.focus();
    })).catch(() => {});
  return true;
}

function toolbarKey(c, el, key) {
  const buttons = [...el.closest('.modebar').querySelectorAll('.modebar-btn')];
  const i = buttons.indexOf(el), n = buttons.length;
  const to = {ArrowRight: i + 1, ArrowDown: i + 1, ArrowLeft: i - 1, ArrowUp: i - 1, Home: 0, End: n - 1}[key];
  if (to === undefined || i < 0) return false;
  c.toolStop = buttons[(to + n) % n];
  buttons.forEach((b) => { b.tabIndex = b === c.toolStop ? 0 : -1; });
  c.toolStop.focus();
  return true;
}

function onKey(c, e) {
  const el = e.target;
  if (el.matches && el.matches('.modebar-btn') && toolbarKey(c, el, e.key)) {
    e.preventDefault();
    return;
  }
  if (el.matches && el.matches('.slider-container[data-posviz-slider]')) {
    if (slide(c, el, e.key)) e.preventDefault();
    return;
  }
  if ((e.key === 'Enter' || e.key === ' ') && el.matches && el.matches('.modebar-btn, .updatemenu-button')) {
    e.preventDefault();
    el.dispatchEvent(new MouseEvent('click', {bubbles: true}));
    if (el.matches('.updatemenu-button')) setTimeout(() => keyboard(c), 0);
  }
}

// The text alternative (ui.describe): a sentence per trace and a small table of the numbers, in a panel under the
// figure that the toolbar's "in words" button opens and closes (closed, it takes no room: a scene's figure fits
// the screen as before). Written when it is opened, and again for a new figure while it is open.
function altToggle(c) {
  const name = c.spec && c.spec.labels.alt;
  return name ? c.gd.querySelector(`.modebar-btn[data-title="${CSS.escape(name)}"]`) : null;
}

function toggleAlt(c) {
  c.altOpen = !c.altOpen;
  c.alt.hidden = !c.altOpen;
  writeAlt(c);
  const b = altToggle(c);
  if (b) b.setAttribute('aria-expanded', String(c.altOpen));
}

function writeAlt(c) {
  const alt = c.spec && c.spec.alt;
  if (!alt) return;
  c.alt.setAttribute('aria-label', c.spec.labels.alt);
  if (!c.altOpen) return;
  const body = document.createDocumentFragment();
  alt.sentences.forEach((text) => {
    const p = document.createElement('p');
    p.textContent = text;
    body.append(p);
  });
  if (alt.head && alt.rows && alt.rows.length) {
    const wrap = document.createElement('div');
    wrap.className = 'posviz-alt-table';
    wrap.tabIndex = 0;                         // it scrolls sideways on a phone: reachable by keyboard
    wrap.setAttribute('role', 'group');
    wrap.setAttribute('aria-label', c.spec.labels.alt);
    const table = document.createElement('table');
    const head = table.createTHead().insertRow();
    alt.head.forEach((h) => { const th = document.createElement('th'); th.scope = 'col'; th.textContent = h; head.append(th); });
    const rows = table.createTBody();
    alt.rows.forEach((r) => { const tr = rows.insertRow(); r.forEach((v) => { tr.insertCell().textContent = v; }); });
    wrap.append(table);
    body.append(wrap);
  }
  c.alt.replaceChildren(body);
}

// ---------------------------------------------------------------- the element
let altIds = 0;

function mount(root) {
  stylesheet();
  const box = document.createElement('div');
  box.className = 'posviz-chart';
  box.setAttribute('role', 'figure');
  const gd = document.createElement('div');
  gd.className = 'posviz-plot';
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'posviz-close';
  close.textContent = '\u00d7';
  close.hidden = true;
  const alt = document.createElement('div');
  alt.className = 'posviz-alt';
  alt.setAttribute('role', 'region');
  alt.id = `posviz-alt-${++altIds}`;
  alt.hidden = true;
  box.append(gd, close, alt);
  root.appendChild(box);
  const c = {root, box, gd, close, alt, altOpen: false, bytes: null, spec: null, drawn: false, full: false};
  close.addEventListener('click', () => setFull(c, false));
  box.addEventListener('keydown', (e) => onKey(c, e));
  box.__posvizChart = c;
  observer.observe(box);
  let width = 0;
  c.resize = new ResizeObserver((entries) => {
    const now = Math.round(entries[0].contentRect.width);
    // (not while hidden: a page leaving, a closed tab; plotly.js refuses an undisplayed <div>)
    if (c.drawn && !c.full && width && now && now !== width && w.Plotly && gd.isConnected && gd.offsetParent) {
      // a chart out of view is drawn at its new width when it comes into view, or in idle time: a page that
      // narrows (a scene's narration beside it) redraws the charts in view first, not every chart at once
      if (inView(c) || waiting.has(c)) w.Plotly.Plots.resize(gd).catch(() => {});
      else { resized.add(c); later(); }
    }
    width = now;
  });
  c.resize.observe(box);
  return c;
}

function same(a, b) {
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function plain(t) {
  const text = typeof t === 'string' ? t : (t && t.text) || '';
  return String(text).replace(/<br\s*\/?>/gi, ' ').replace(/<[^>]*>/g, '').replace(/\s+/g, ' ').trim();
}

// What the figure shows, for a screen reader: its title; without one, its subplots' titles (annotations)
// or its axes' titles.
function describe(layout) {
  const title = plain(layout.title);
  if (title) return title;
  const parts = (layout.annotations || []).slice(0, 4).map(plain).filter(Boolean);
  if (!parts.length) {
    for (const [k, v] of Object.entries(layout)) if (/^[xy]axis\d*$/.test(k) && v) parts.push(plain(v.title));
  }
  return [...new Set(parts.filter(Boolean))].slice(0, 4).join(' · ');
}

export default function (component) {
  const {data, parentElement: root} = component;
  const c = root.__posvizChart || (root.__posvizChart = mount(root));
  if (data && !same(c.bytes, data)) {
    c.bytes = data;
    c.spec = JSON.parse(decoder.decode(data));
    const lay = c.spec.figure.layout || {};
    c.box.setAttribute('aria-label', describe(lay) || c.spec.labels.figure);
    c.close.setAttribute('aria-label', c.spec.labels.close);
    c.close.title = c.spec.labels.close;
    writeAlt(c);
    // The plot's height, in its style, from the moment its figure arrives: the page (and a scene placing the
    // figure) sees the new size before it is drawn. plotly.js's resize (a width change) relayouts with autosize,
    // which drops layout.height and reads this <div>'s height instead (0 without one: the chart collapsed).
    c.height = lay.height || c.height || 450;
    if (!c.full) c.gd.style.height = `${c.height}px`;
    c.gd.dataset.posvizState = 'pending';
    plotlyReady(c.spec.plotly);
    waiting.add(c);
    pump();
  }
  return () => setTimeout(() => {
    if (root.isConnected) return;          // a late call of a replaced run, not the element going away
    waiting.delete(c);
    resized.delete(c);
    observer.unobserve(c.box);
    c.resize.disconnect();
    if (c.full) setFull(c, false);
    if (w.Plotly) w.Plotly.purge(c.gd);
    delete root.__posvizChart;
  }, 0);
}

// posviz's chart element (posviz/ui/plotting.py: plot). One plotly.js figure per element, drawn in place:
// Streamlit keeps a keyed element mounted and calls this function again with the element's new data, and
// the figure is updated with Plotly.react on the same <div> (a figure whose bytes did not change costs
// nothing). Charts in view are drawn first, one per task; the others when they come into view, or in idle
// time after those in view. plotly.js is the installed plotly package's own copy (posviz.plotly), loaded once.
const PLOTLY_URL = new URL('../posviz.plotly/plotly.min.js', import.meta.url).href;
const CSS_URL = new URL('chart.css', import.meta.url).href;
const w = window;
const decoder = new TextDecoder();

// plotly.js, 4.8 MB (1.45 MB as Streamlit sends it, gzipped), loaded by a <script> element from its URL: the browser
// compiles it while it downloads (from a blob out of the browser's Cache Storage it was compiled after, on the
// page's main thread: a first chart 1.2 s later). The URL names the plotly package's version.
function plotlyReady(version) {
  if (!w.__posvizPlotly) {
    w.__posvizPlotly = new Promise((resolve, reject) => {
      if (w.Plotly) { resolve(w.Plotly); return; }
      const s = document.createElement('script');
      s.src = `${PLOTLY_URL}?v=${encodeURIComponent(version)}`;
      s.async = true;
      s.onload = () => resolve(w.Plotly);
      s.onerror = () => { w.__posvizPlotly = null; reject(new Error('plotly.js did not load')); };
      document.head.appendChild(s);
    });
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
      if (seen.length) {            // in view: the highest first, one chart per task
        const tops = seen.map((c) => c.box.getBoundingClientRect().top);
        draw(Plotly, seen[tops.indexOf(Math.min(...tops))]);
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

const observer = new IntersectionObserver((entries) => {
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
    c.config = {...spec.config, modeBarButtonsToAdd: [fullButton(c, spec.labels)]};
  }
  const config = c.config;
  const first = !c.drawn;
  // gd.dataset: posvizState "pending" from a new figure's arrival to the end of its drawing (Plotly.react's promise),
  // then "drawn"; posvizDraws counts the figures drawn in this <div>; posvizNew is 1 for its first figure only
  const done = () => {
    if (c.spec === spec) c.gd.dataset.posvizState = 'drawn';
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

function fullButton(c, labels) {
  return {name: 'posvizFull', title: labels.full, icon: FULL_ICON, click: () => setFull(c, !c.full)};
}

function fit(Plotly, c) {
  // plotly.js keeps (and relayout changes) the layout object it was given: the figure's own size is kept aside
  c.size = {width: c.gd.layout.width ?? null, height: c.gd.layout.height ?? null};
  const r = c.gd.getBoundingClientRect();
  Plotly.relayout(c.gd, {width: Math.floor(r.width), height: Math.floor(r.height)}).catch(() => {});
}

function setFull(c, on) {
  if (Boolean(c.full) === on) return;
  c.full = on;
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
}

addEventListener('keydown', (e) => {
  if (e.key !== 'Escape') return;
  document.querySelectorAll('.posviz-chart.posviz-full').forEach((b) => b.__posvizChart && setFull(b.__posvizChart, false));
});

// ---------------------------------------------------------------- the element
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
  box.append(gd, close);
  root.appendChild(box);
  const c = {root, box, gd, close, bytes: null, spec: null, drawn: false, full: false};
  close.addEventListener('click', () => setFull(c, false));
  box.__posvizChart = c;
  observer.observe(box);
  let width = 0;
  c.resize = new ResizeObserver((entries) => {
    const now = Math.round(entries[0].contentRect.width);
    // (not while hidden: a page leaving, a closed tab; plotly.js refuses an undisplayed <div>)
    if (c.drawn && !c.full && width && now && now !== width && w.Plotly && gd.isConnected && gd.offsetParent) {
      w.Plotly.Plots.resize(gd).catch(() => {});
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
    observer.unobserve(c.box);
    c.resize.disconnect();
    if (c.full) setFull(c, false);
    if (w.Plotly) w.Plotly.purge(c.gd);
    delete root.__posvizChart;
  }, 0);
}

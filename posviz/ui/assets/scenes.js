(() => {
  const w = window;
  if (!w.__posvizFrame) {
    w.__posvizFrame = true;
    // the chart element's plotly.js (posviz/ui/assets/chart/chart.js) starts loading with the page
    import('./_stcore/bidi-components/posviz.chart/chart.js').then((m) => m.preload(%s)).catch(() => {});
    let pushed = false;
    ['keydown', 'pointerdown'].forEach((type) => w.addEventListener(type, () => { pushed = false; }, true));
    const push = history.pushState.bind(history);
    history.pushState = function (state, title, url) {
      const samePath = url && new URL(url, location.href).pathname === location.pathname;
      if (samePath && pushed) return history.replaceState(state, title, url);
      pushed = true;
      return push(state, title, url);
    };
    w.addEventListener('keydown', (e) => {
      const next = e.key === 'PageDown' || (e.altKey && e.key === 'ArrowRight');
      const prev = e.key === 'PageUp' || (e.altKey && e.key === 'ArrowLeft');
      if (!next && !prev) return;
      const buttons = document.querySelectorAll('.st-key-scenes_nav button');
      const b = buttons[next ? 1 : 0];
      if (!b) return;
      e.preventDefault(); e.stopImmediatePropagation();
      if (!b.disabled) b.click();
    }, true);
  }
  const [target, chosen] = [%s, %s];   // chosen: when the scene was picked, so a repeated target runs anew
  if (!target) return;
  const t0 = Date.now(), me = {};
  w.__posvizSeek = me;               // a later scene's script takes over: this one stops
  let placed = 0, moved = false;     // when the figure was brought into view; the user scrolled since
  ['wheel', 'touchmove', 'keydown'].forEach((type) => w.addEventListener(type, () => { moved = true; },
                                                                          {once: true, capture: true}));
  const place = (el, behavior) => {
    // the narration is pinned under the app header (frame.css) and the figure goes below it; where the two do
    // not fit one above the other on a wide screen, the narration becomes a panel beside the page instead
    const say = document.querySelector('[data-testid="stMain"] .st-key-scene_say');
    const pin = say && say.parentElement;
    if (behavior === 'smooth') {         // chosen once per scene, measured with the narration on top
      document.body.classList.remove('posviz-side');
      const tall = pin && 72 + pin.getBoundingClientRect().height + 12 + el.getBoundingClientRect().height > innerHeight;
      document.body.classList.toggle('posviz-side', Boolean(tall) && innerWidth >= 1100);
    }
    const below = pin && getComputedStyle(pin).position === 'sticky' ? pin.getBoundingClientRect().height : 0;
    el.style.scrollMarginTop = below ? `calc(4.5rem + ${Math.ceil(below)}px)` : '';
    const still = behavior === 'smooth' && w.matchMedia('(prefers-reduced-motion: reduce)').matches;  // jump, no motion
    el.scrollIntoView({behavior: still ? 'auto' : behavior, block: 'start'});
    return parseFloat(getComputedStyle(el).scrollMarginTop) || 0;
  };
  let want = 0, last = null, tall = 0;   // tall: the figure's height when it was placed
  const seek = () => {
    if (moved || w.__posvizSeek !== me) return;
    const el = document.querySelector('[data-testid="stMain"] .st-key-' + CSS.escape(target));
    const idle = (app() || {}).dataset?.testScriptState !== 'running';
    if (el && idle && !placed) {
      want = place(el, 'smooth');
      tall = el.getBoundingClientRect().height;
      placed = Date.now();
      document.querySelectorAll('.posviz-shown').forEach(x => x.classList.remove('posviz-shown'));
      el.classList.add('posviz-shown');
      setTimeout(() => el.classList.remove('posviz-shown'), 2500);
    } else if (el && idle && Math.abs(el.getBoundingClientRect().height - tall) > 24) {
      // the figure took its new size after it was placed (a chart's new figure arrives after the run ends):
      // placed again, the narration beside it or above it chosen anew
      want = place(el, 'smooth');
      tall = el.getBoundingClientRect().height;
    } else if (el && idle) {
      // the page came to rest elsewhere (a rerun the scene caused, an expander it opened, cut the smooth scroll
      // short or moved the page): back to the figure at once
      const top = el.getBoundingClientRect().top;
      if (top === last && Math.abs(top - want) > 24) place(el, 'auto');
      last = top;
    }
    if (Date.now() - t0 < 8000) setTimeout(seek, placed ? 200 : 100);
  };
  const app = () => document.querySelector('[data-testid="stApp"]');
  seek();
})();

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
    // The scene keys. Never while a text field has focus (its keys are the typist's: Option+arrow moves by word
    // on a Mac); Alt+arrow everywhere else (as Streamlit's shortcut on the scene buttons); in lecture mode only
    // (?present=1) a presenter's clicker: PageDown / PageUp, also over a focused slider, and plain arrows when
    // no widget has focus (the scene buttons themselves aside). Outside lecture mode PageDown / PageUp scroll
    // the page as in any other. No single-letter key: Streamlit keeps r and c.
    const typing = (el) => Boolean(el) && (el.isContentEditable || el.tagName === 'TEXTAREA' ||
      el.tagName === 'SELECT' || (el.tagName === 'INPUT' && !['checkbox', 'radio', 'range', 'button', 'submit',
                                                                'reset', 'file', 'color'].includes(el.type)));
    // a widget: what takes arrow keys or a press (the page's own scroll container, focused by a click on it, is none)
    const widget = ['input', 'textarea', 'select', 'button', 'a[href]', 'summary', '[contenteditable]'].concat(
      ['slider', 'radio', 'checkbox', 'switch', 'combobox', 'listbox', 'option', 'tab', 'spinbutton', 'textbox',
       'grid', 'button', 'link', 'menuitem'].map((r) => `[role="${r}"]`)).join(', ');
    const free = (el) => !el || Boolean(el.closest('.st-key-scenes_nav')) || !el.closest(widget);
    const sceneKey = (e) => {
      const plain = !e.altKey && !e.ctrlKey && !e.metaKey && !e.shiftKey;
      const arrow = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
      const page = e.key === 'PageDown' ? 1 : e.key === 'PageUp' ? -1 : 0;
      // Alt+arrow: the scene, never the focused slider's own arrow key as well (taken here, before either)
      if (e.altKey && !e.ctrlKey && !e.metaKey && arrow) return typing(document.activeElement) ? 'block' : arrow;
      if (!plain || !(arrow || page) || typing(document.activeElement)) return 0;
      if (!['1', 'true'].includes(new URLSearchParams(location.search).get('present'))) return 0;
      return page || (free(document.activeElement) ? arrow : 0);
    };
    w.addEventListener('keydown', (e) => {
      const step = sceneKey(e);
      if (step === 'block') { e.stopImmediatePropagation(); return; }   // Streamlit's shortcut stays out of the text
      if (!step) return;
      const b = document.querySelectorAll('.st-key-scenes_nav button')[step > 0 ? 1 : 0];
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

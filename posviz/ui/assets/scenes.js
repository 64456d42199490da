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
    // ---------------------------------------------------------------- bringing a scene's figure into view
    // Where the figure goes: its top just under the app header and, where the narration is pinned there (frame.css),
    // under the narration; where the two do not fit one above the other on a wide screen, the narration becomes a
    // panel beside the page instead (body.posviz-side). The page moves only as far as needed: not at all when the
    // whole figure is already on screen under the narration; else the figure's top goes to that line, in a short
    // glide (at most 250 ms, none for a small step, none under prefers-reduced-motion).
    const rem = () => parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
    const pinOf = () => {
      const say = document.querySelector('[data-testid="stMain"] .st-key-scene_say');
      return say && say.parentElement;
    };
    const scroller = (el) => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        if (/auto|scroll/.test(getComputedStyle(p).overflowY) && p.scrollHeight > p.clientHeight) return p;
      }
      return document.scrollingElement;
    };
    // the line the figure's top goes to; say: the narration's height (guessed before the run: the narration to
    // come is not on the page yet). The narration stays beside the page while the figure fits the screen there (a
    // change of side re-lays the page out and moves everything); else the side is chosen measured with the
    // narration on top: beside the page where the two do not fit one above the other on a wide screen.
    const line = (el, say) => {
      const body = document.body.classList, pin = pinOf(), head = 4.5 * rem();
      if (body.contains('posviz-side') && innerWidth >= 1100 && head + el.getBoundingClientRect().height <= innerHeight) {
        return head;
      }
      body.remove('posviz-side');
      const h = say !== undefined ? say : pin ? pin.getBoundingClientRect().height : 0;
      const side = h > 0 && innerWidth >= 1100 && head + h + 12 + el.getBoundingClientRect().height > innerHeight;
      body.toggle('posviz-side', side);
      if (pin && say === undefined && !side) w.__posvizSay = h;
      return head + (side ? 0 : h);
    };
    // in view: on screen whole, under the line, starting in the screen's upper 60 %% (a figure taller than the room
    // under the line: its top at the line)
    const inPlace = (el, top) => {
      const r = el.getBoundingClientRect();
      if (r.height > innerHeight - top) return Math.abs(r.top - top) <= 8;
      return r.top >= top - 0.75 * rem() && r.top < 0.6 * innerHeight && r.bottom <= innerHeight + 1;
    };
    let glideId = 0;
    w.__posvizGliding = false;
    const glide = (box, to) => {
      const me = ++glideId, from = box.scrollTop, d = to - from;
      const still = w.matchMedia('(prefers-reduced-motion: reduce)').matches;
      const ms = still || Math.abs(d) < 0.15 * innerHeight ? 0 : Math.min(250, 120 + Math.abs(d) / 20);
      if (!ms) { w.__posvizGliding = false; box.scrollTo({top: to, behavior: 'instant'}); return; }
      const t0 = performance.now();
      w.__posvizGliding = true;
      const frame = (now) => {
        if (me !== glideId) return;
        const k = Math.max(0, Math.min(1, (now - t0) / ms));
        box.scrollTo({top: from + d * (1 - (1 - k) ** 3), behavior: 'instant'});
        if (k < 1) requestAnimationFrame(frame); else w.__posvizGliding = false;
      };
      requestAnimationFrame(frame);
    };
    // the user's own scrolling stops a glide (registered before the scene keys: a scene key starts its glide after)
    ['wheel', 'touchmove', 'keydown'].forEach((type) => w.addEventListener(type, () => {
      glideId++; w.__posvizGliding = false; }, {capture: true, passive: true}));
    const bring = (el, say) => {
      const top = line(el, say);
      if (inPlace(el, top)) return;
      const box = scroller(el), r = el.getBoundingClientRect();
      const to = Math.max(0, Math.min(box.scrollHeight - box.clientHeight, box.scrollTop + r.top - top));
      if (Math.abs(to - box.scrollTop) >= 1) glide(box, to);
    };
    const mark = (el) => {
      document.querySelectorAll('.posviz-shown').forEach((x) => x !== el && x.classList.remove('posviz-shown'));
      el.classList.add('posviz-shown');       // also the chart element's sign to draw this figure first (chart.js)
      clearTimeout(w.__posvizMarkTimer);
      w.__posvizMarkTimer = setTimeout(() => el.classList.remove('posviz-shown'), 2500);
    };
    const app = () => document.querySelector('[data-testid="stApp"]');
    const find = (target) => document.querySelector('[data-testid="stMain"] .st-key-' + CSS.escape(target));
    // go(target, early): bring the figure `target` (its element's key) into view and mark it. early: at the press of
    // a scene button, before the server runs the page (the figure as it is now, the narration's height guessed as
    // the last one's); else after the run that chose the scene, which settles the place as the page has come to be.
    w.__posvizGo = (target, early) => {
      const me = {};
      w.__posvizSeek = me;               // a later scene takes over: this one stops
      if (early) {
        const el = find(target);
        if (!el || !el.getBoundingClientRect().height) return;   // not on the page yet: placed after the run
        mark(el);
        const pin = pinOf(), beside = document.body.classList.contains('posviz-side');
        bring(el, pin && !beside ? pin.getBoundingClientRect().height
          : w.__posvizSay || Math.round((innerWidth < 700 ? 0.3 : 0.12) * innerHeight));
        return;
      }
      const t0 = Date.now();
      let placed = 0, moved = false, tall = 0, last = null;   // when it was placed; the user scrolled since
      ['wheel', 'touchmove', 'keydown'].forEach((type) => w.addEventListener(type, () => { moved = true; },
                                                                              {once: true, capture: true}));
      // looked at when the run ends, when the figure changes size (ResizeObserver) and every 50 ms (200 ms once
      // placed a while): until 6 s after it was last placed (30 s for a run to end, a cold server's first)
      let watched = null, timer = 0;
      const sized = new ResizeObserver(() => seek());
      const ended = new MutationObserver(() => seek());
      const done = () => { sized.disconnect(); ended.disconnect(); clearTimeout(timer); };
      const seek = () => {
        if (moved || w.__posvizSeek !== me || Date.now() - (placed || t0) > (placed ? 6000 : 30000)) { done(); return; }
        const el = find(target);
        if (el && el !== watched) { sized.disconnect(); sized.observe(el); watched = el; }
        const idle = (app() || {}).dataset?.testScriptState !== 'running';
        if (el && idle && !w.__posvizGliding) {
          const h = el.getBoundingClientRect().height;
          if (!placed || Math.abs(h - tall) > 24) {
            // placed once the run has ended; again when the figure took another size after that (a chart's new
            // figure arrives after the run ends), the narration beside it or above it chosen anew
            if (!placed) mark(el);
            bring(el);
            tall = el.getBoundingClientRect().height;
            placed = Date.now();
          } else {
            // the page came to rest elsewhere (a rerun the scene caused, an expander it opened, cut the glide
            // short or moved the page): back to the figure
            const top = el.getBoundingClientRect().top;
            if (top === last) bring(el);
            last = top;
          }
        }
        clearTimeout(timer);
        timer = setTimeout(seek, placed && Date.now() - placed > 1500 ? 200 : 50);
      };
      if (app()) ended.observe(app(), {attributes: true, attributeFilter: ['data-test-script-state']});
      seek();
    };
    // A press of Previous / Next (a click, or a scene key, which clicks the button): the scene it opens, and so its
    // figure, is known here (the page's scenes and the current one come with this script); the page starts moving
    // at once, while the server runs the page. Previous and Next open the scene before and after the current one.
    w.addEventListener('click', (e) => {
      const b = e.target && e.target.closest && e.target.closest('.st-key-scenes_nav button');
      const s = w.__posvizScenes;
      if (!b || b.disabled || !s || !s.shows.length) return;
      const i = Array.from(document.querySelectorAll('.st-key-scenes_nav button')).indexOf(b);
      if (i < 0 || i > 1) return;
      const next = Math.max(0, Math.min(s.shows.length - 1, s.cur + (i === 0 ? -1 : 1)));
      if (next === s.cur) return;
      s.cur = next;                      // a second press before the run ends goes on from there
      if (s.shows[next]) w.__posvizGo(s.shows[next], true);
    }, true);
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
  w.__posvizScenes = {shows: %s, cur: %s};   // the page's scene figures (keys) and the current scene (-1: none)
  const [target, chosen] = [%s, %s];   // chosen: when the scene was picked, so a repeated target runs anew
  if (target) w.__posvizGo(target, false);
})();

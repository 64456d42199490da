(() => {
  const w = window;
  if (!w.__posvizFrame) {
    w.__posvizFrame = true;
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
  const t0 = Date.now();
  const seek = () => {
    const el = document.querySelector('[data-testid="stMain"] .st-key-' + CSS.escape(target));
    const idle = (app() || {}).dataset?.testScriptState !== 'running';
    if (el && idle) {
      el.scrollIntoView({behavior: 'smooth', block: 'start'});
      document.querySelectorAll('.posviz-shown').forEach(x => x.classList.remove('posviz-shown'));
      el.classList.add('posviz-shown');
      setTimeout(() => el.classList.remove('posviz-shown'), 2500);
    } else if (Date.now() - t0 < 8000) setTimeout(seek, 100);
  };
  const app = () => document.querySelector('[data-testid="stApp"]');
  seek();
})();

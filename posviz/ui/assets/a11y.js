(() => {
  // posviz's frame for assistive technology (issue 35), sent with the frame's script (scenes.client_script).
  // The page's language, so that a screen reader reads Chinese as Chinese: "zh-CN" or "en".
  document.documentElement.lang = %s;
  const w = window;
  if (w.__posvizA11y) return;
  w.__posvizA11y = true;
  // A region that scrolls (a formula wider than a phone, a fixed-width diagram, a wide table, a code listing) takes
  // keyboard focus, so that arrow keys scroll it (WCAG 2.1.1); one that fits is no Tab stop.
  const SCROLLERS = '.katex-display, [data-testid="stText"], [data-testid="stMarkdownContainer"] table, ' +
                    '[data-testid="stCode"] pre, [data-testid="stTable"] div:has(> table)';
  const scrolls = (el) => {
    const s = getComputedStyle(el);
    const x = /auto|scroll/.test(s.overflowX) && el.scrollWidth > el.clientWidth;
    const y = /auto|scroll/.test(s.overflowY) && el.scrollHeight > el.clientHeight;
    return x || y;
  };
  const mark = () => {
    document.querySelectorAll(SCROLLERS).forEach((el) => {
      if (scrolls(el)) {
        if (!el.hasAttribute('tabindex')) { el.tabIndex = 0; el.dataset.posvizScroll = '1'; }
      } else if (el.dataset.posvizScroll) {
        el.removeAttribute('tabindex');
        delete el.dataset.posvizScroll;
      }
    });
  };
  let queued = 0;
  const later = () => { if (!queued) queued = setTimeout(() => { queued = 0; mark(); }, 150); };
  new MutationObserver(later).observe(document.body, {childList: true, subtree: true});
  // a region starts to scroll when the page narrows around it too (a scene's side panel, a sidebar): no node changes
  new ResizeObserver(later).observe(document.body);
  w.addEventListener('resize', later);
  later();
})();

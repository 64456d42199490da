(() => {
  // a paste over the limit is refused here, before the text box takes it (a 5 MB paste froze the tab)
  const [key, limit, say] = [%s, %s, %s];
  const w = window;
  w.__posvizPaste = w.__posvizPaste || {};
  const known = w.__posvizPaste[key];
  if (known) { known.say = say; return; }   // the listener is in place: only the message's language may change
  const me = w.__posvizPaste[key] = {say};
  const note = (box, text) => {
    let el = box.parentElement.querySelector(':scope > .posviz-paste-refused');
    if (!text) { if (el) el.remove(); return; }
    if (!el) {
      el = document.createElement('div');
      el.className = 'posviz-paste-refused';
      el.setAttribute('role', 'alert');
      box.after(el);
    }
    el.textContent = text;            // text only: never HTML
  };
  document.addEventListener('paste', (e) => {
    const box = e.target && e.target.closest && e.target.closest('.st-key-' + key);
    if (!box) return;
    const text = (e.clipboardData && e.clipboardData.getData('text')) || '';
    const bytes = new Blob([text]).size;
    if (bytes <= limit) { note(box, ''); return; }
    e.preventDefault();
    e.stopImmediatePropagation();
    note(box, me.say.replace('{size}', bytes.toLocaleString('en-US')));
  }, true);
})();

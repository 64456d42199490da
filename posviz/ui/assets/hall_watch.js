// A student's phone watches its hall room (posviz/ui/hall.py: _watch). Every data.every ms it asks posviz's route
// (posviz/ui/routes.py: hall_version) for the room's version, a read of the store and no script run; when the
// lecturer asked or revealed since the page was drawn (another version, or no room any more), it asks Streamlit
// for one rerun of the page, which draws the new question or the reveal. Draws nothing.
export default function (component) {
  const {data, parentElement: root, setTriggerValue} = component;
  const state = root.__posvizWatch || (root.__posvizWatch = {});
  clearTimeout(state.timer);
  state.data = data;
  state.asked = false;
  const look = async () => {
    const d = state.data;
    if (!d || state.asked) return;
    try {
      const url = new URL(d.url, window.location.origin);
      url.searchParams.set('room', d.room);
      const r = await fetch(url, {cache: 'no-store', credentials: 'same-origin'});
      if (r.ok) {
        const {version} = await r.json();
        if (version !== d.version && state.data === d && !state.asked) {
          state.asked = true;                      // one rerun; the new page's data starts the next watch
          setTriggerValue('changed', version === null ? -1 : version);
          return;
        }
      }
    } catch (e) {
      // the server away for a moment (a replica restarting): look again at the next tick
    }
    if (state.data === d) state.timer = setTimeout(look, d.every);
  };
  if (data) state.timer = setTimeout(look, data.every);
  return () => setTimeout(() => {
    if (root.isConnected) return;                  // a late call of a replaced run, not the element going away
    clearTimeout(state.timer);
    delete root.__posvizWatch;
  }, 0);
}

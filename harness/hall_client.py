"""A headless browser tab for the hall (benchmarks/bench_hall.py, tests/browser/test_cluster.py): a
harness/ws_load.Session that also follows the page's fragments, as Streamlit's frontend does: the fragment each
widget belongs to (a widget change reruns that fragment alone), the timers the server asks for (`auto_rerun`:
the lecturer's live count), the success boxes and metrics each run draws and the student's answer box (its data);
and what a student's phone sends to posviz's routes as its scripts do: an answer (`post_answer`, as
assets/hall_answer.js), a look at the room's version (`room_version`, as assets/hall_watch.js).
"""
import asyncio
import json
import types
import urllib.parse

from harness import ws_load
from posviz.ui.hall import ANSWER_PATH, VERSION_PATH

ANSWER_BOX = "posviz.hall_answer"     # the answer box's element (posviz/ui/hall.py: _answer_box)


def cfg(run_timeout=60.0):
    return types.SimpleNamespace(query="", cache=True, locale="en-US", run_timeout=run_timeout, seed=1,
                                 mode="random", widget=None, verbose=False)


class Tab(ws_load.Session):
    """A ws_load session that also knows its fragments: the fragment of each widget, the timers the server
    asks for (auto_rerun), the success boxes and metrics of the run in flight."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.widget_fragment = {}     # widget id -> fragment id
        self.timers = {}              # fragment id -> interval (s)
        self.fragment = ""            # the fragment the next rerun runs ("" = the whole page)
        self.successes = []
        self.metrics = {}
        self.answer_box = None        # the data of the student's answer box in the last run that drew one

    def _on_frame(self, raw, now):
        msg = ws_load.ForwardMsg()
        msg.ParseFromString(raw)
        if msg.WhichOneof("type") == "auto_rerun":
            self.timers[msg.auto_rerun.fragment_id] = msg.auto_rerun.interval
        elif msg.WhichOneof("type") == "delta" and msg.delta.WhichOneof("type") == "new_element":
            el = msg.delta.new_element
            kind = el.WhichOneof("type")
            if kind == "alert" and el.alert.format == ws_load.Alert.SUCCESS:
                self.successes.append(el.alert.body)
            elif kind == "metric":
                self.metrics[el.metric.label] = el.metric.body
            elif kind == "radio" and msg.delta.fragment_id:
                self.widget_fragment[el.radio.id] = msg.delta.fragment_id
            elif kind == "bidi_component" and el.bidi_component.component_name == ANSWER_BOX:
                self.answer_box = json.loads(el.bidi_component.json)
        if msg.WhichOneof("type") == "new_session" and self.fragment:
            self._kept = (dict(self.widgets), list(self.run_widget_ids))   # a fragment run redraws only its part
        if msg.WhichOneof("type") == "script_finished" and msg.script_finished == ws_load.FINISHED_FRAGMENT:
            widgets, ids = getattr(self, "_kept", ({}, []))
            super()._on_frame(raw, now)
            self.widgets = {**widgets, **self.widgets}
            self.run_widget_ids = list(dict.fromkeys(ids + self.run_widget_ids))
            return
        super()._on_frame(raw, now)

    def _backmsg(self, first):
        bm, n = super()._backmsg(first)
        if self.fragment:
            bm.rerun_script.fragment_id = self.fragment
            bm.rerun_script.is_auto_rerun = self.fragment in self.timers
        return bm, n

    async def run(self, fragment="", deadline=None):
        """One rerun: of `fragment` (its id), or of the whole page -> the ws_load RunRec."""
        self.fragment, self.successes = fragment, []
        try:
            return await self.rerun("interaction" if self.runs else "initial", len(self.runs),
                                    deadline or asyncio.get_running_loop().time() + 60)
        finally:
            self.fragment = ""

    def voter(self):
        return (ws_load.qs_get(self.qs, "me") or [None])[0]


async def open_tab(i, base, path, query, deadline):
    """A tab on /path?query through the balancer, its first run done -> the Tab (its disconnect set on failure)."""
    c = cfg()
    c.query = query
    tab = Tab(i, path, c, base, base.replace("http://", "ws://") + "/_stcore/stream")
    if not await ws_load._connect(tab, deadline):
        return tab
    await tab.run(deadline=deadline)
    return tab


async def _http(base, method, path, body=None, timeout=10.0):
    """One HTTP/1.1 request to base (a plain http:// URL) -> (status, the JSON body), or (None, None) when the
    server did not answer (a phone's script would show "not sent" or look again)."""
    url = urllib.parse.urlsplit(base)
    data = b"" if body is None else json.dumps(body).encode()
    head = (f"{method} {path} HTTP/1.1\r\nHost: {url.netloc}\r\nConnection: close\r\n"
            + (f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n" if body is not None else "")
            + "\r\n")
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(url.hostname, url.port), timeout)
        writer.write(head.encode() + data)
        raw = await asyncio.wait_for(reader.read(), timeout)
        writer.close()
    except (OSError, asyncio.TimeoutError):
        return None, None
    head, _, got = raw.partition(b"\r\n\r\n")
    try:
        status = int(head.split(b" ", 2)[1])
        if b"transfer-encoding: chunked" in head.lower():      # one chunk: "<size>\r\n<json>\r\n0\r\n\r\n"
            got = got.split(b"\r\n", 2)[1]
        return status, json.loads(got)
    except (IndexError, ValueError):
        return None, None


async def post_answer(base, box, value, timeout=10.0):
    """The answer `value` sent as the answer box `box` (a Tab's answer_box) sends it -> (status, the route's
    JSON): (200, {"status": "new" | "changed"}) once the store holds it."""
    return await _http(base, "POST", ANSWER_PATH, {k: box[k] for k in ("room", "me", "q", "lang")} | {"v": value},
                       timeout)


async def room_version(base, code, timeout=10.0):
    """GET base + VERSION_PATH?room=code, as a phone's watch asks it -> the room's version (None: no room), or
    "error" when the server did not answer 200 (the phone looks again at its next tick)."""
    status, got = await _http(base, "GET", f"{VERSION_PATH}?{urllib.parse.urlencode({'room': code})}", None,
                              timeout)
    return got["version"] if status == 200 else "error"

"""posviz's own route (posviz/ui/routes.py, served by app.py's st.App): plotly.js under a versioned URL with a year's
cache lifetime, so that a second tab does not download it again (issue 34 item 2)."""
import gzip
import json
import pathlib
import posixpath
import re

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient
from streamlit.web.server.app_discovery import discover_asgi_app

from posviz import text
from posviz.hall import rooms
from posviz.ui import hall as ui_hall
from posviz.ui import plotting, routes

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUNDLE = (plotting.PLOTLY_DIR / "plotly-cartesian.min.js").read_bytes()
URL = f"{routes.PLOTLY_PATH}?v={plotting.PLOTLY_JS}"


def client():
    return TestClient(Starlette(routes=routes.ROUTES))


def test_the_bundle_is_served_gzipped_for_a_year():
    r = client().get(URL, headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200 and r.headers["content-encoding"] == "gzip"
    assert r.content == BUNDLE                                      # decoded by the client: the very bytes
    assert int(r.headers["content-length"]) == len(gzip.compress(BUNDLE, 9, mtime=0)) < len(BUNDLE) / 2
    cache = r.headers["cache-control"]
    assert "immutable" in cache and int(re.search(r"max-age=(\d+)", cache)[1]) >= 365 * 24 * 3600
    assert r.headers["content-type"].startswith("text/javascript") and r.headers["vary"] == "Accept-Encoding"


def test_plain_when_not_asked_for_gzip_and_304_when_held():
    c = client()
    plain = c.get(URL, headers={"Accept-Encoding": "identity"})
    assert plain.status_code == 200 and "content-encoding" not in plain.headers and plain.content == BUNDLE
    held = c.get(URL, headers={"If-None-Match": plain.headers["etag"]})
    assert held.status_code == 304 and not held.content


def test_only_the_served_version_is_found():
    c = client()
    for bad in ("?v=0.0.1", "?v=", "", f"?v={plotting.PLOTLY_JS}x"):
        assert c.get(routes.PLOTLY_PATH + bad).status_code == 404
    assert c.post(URL).status_code == 405


def test_the_chart_element_asks_the_route_first_then_streamlits():
    """chart.js is served at /_stcore/bidi-components/posviz.chart/chart.js: its first URL is the route's path,
    its second the component route of the same bundle."""
    js = (plotting.PLOTLY_DIR.parent / "chart" / "chart.js").read_text(encoding="utf-8")
    first, second = re.findall(r"new URL\('([^']+plotly-cartesian\.min\.js)'", js)
    here = "/_stcore/bidi-components/posviz.chart/"
    assert posixpath.normpath(here + first) == routes.PLOTLY_PATH
    assert posixpath.normpath(here + second) == "/_stcore/bidi-components/posviz.plotly/plotly-cartesian.min.js"


def test_streamlit_run_serves_app_py_as_its_st_app():
    """`streamlit run app.py` finds the st.App (uvicorn imports app:app), and the page script is the same file."""
    found = discover_asgi_app(ROOT / "app.py")
    assert found.is_asgi_app and found.import_string == "app:app"
    src = (ROOT / "app.py").read_text(encoding="utf-8")
    assert 'app = st.App(__file__, routes=routes.ROUTES)' in src and 'if __name__ == "__main__":' in src


# ---------------------------------------------------------------- a room's version, polled by the students' phones
@pytest.fixture
def hall(tmp_path, monkeypatch):
    monkeypatch.setenv("POSVIZ_HALL_DB", str(tmp_path / "hall.sqlite3"))
    monkeypatch.setattr(ui_hall, "_made", [])
    return ui_hall.the_hall()


def test_a_rooms_version_moves_when_the_lecturer_asks_and_reveals(hall):
    code, key = hall.open_room("test")
    c = client()

    def version(room):
        r = c.get(ui_hall.VERSION_PATH, params={"room": room})
        assert r.status_code == 200 and r.headers["cache-control"] == "no-store"
        return r.json()["version"]

    v0 = version(code)
    assert version(code.lower()) == v0                                   # typed any way, as the join form takes it
    hall.ask(code, key, "rope.shift")
    v1 = version(code)
    hall.reveal(code, key)
    v2 = version(code)
    assert v0 < v1 < v2 == hall.room(code)["version"]
    hall.close_room(code, key)
    assert version(code) != v2                                           # closed: the phones redraw
    for bad in ("", "ABC", "<script>", "Z" * 500, "ABCDE0"):              # no code: nothing is looked up
        assert version(bad) is None
    assert c.post(ui_hall.VERSION_PATH, params={"room": code}).status_code == 405


def test_a_room_that_expired_or_never_was_has_no_version(hall, monkeypatch):
    code, _ = hall.open_room("test")
    assert client().get(ui_hall.VERSION_PATH, params={"room": "ZZZZZZ"}).json() == {"version": None}
    monkeypatch.setattr(hall, "clock", lambda: 1e12)                       # far past every room's expiry
    assert client().get(ui_hall.VERSION_PATH, params={"room": code}).json() == {"version": None}


def test_a_store_out_of_reach_is_503_and_the_phone_asks_again(hall, monkeypatch):
    code, _ = hall.open_room("test")

    def away(*a, **kw):
        raise ConnectionError("the store restarts")
    monkeypatch.setattr(hall.store, "room", away)
    r = client().get(ui_hall.VERSION_PATH, params={"room": code})
    assert r.status_code == 503 and r.json() == {"version": None}
    js = (plotting.PLOTLY_DIR.parent / "hall_watch.js").read_text(encoding="utf-8")
    assert "if (r.ok)" in js and "setTimeout(look, d.every)" in js         # not ok: the next tick looks again


# ---------------------------------------------------------------- a student's answer
def _answer(hall, **over):
    code, key = hall.open_room("test")
    hall.ask(code, key, "rope.shift")
    body = {"room": code, "me": rooms.new_voter(), "q": "rope.shift", "v": 1, "lang": "zh", **over}
    return code, body


def test_an_answer_is_held_once_per_voter_and_may_change(hall):
    code, body = _answer(hall)
    c = client()
    r = c.post(ui_hall.ANSWER_PATH, json=body)
    assert (r.status_code, r.json(), r.headers["cache-control"]) == (200, {"status": "new"}, "no-store")
    assert c.post(ui_hall.ANSWER_PATH, json={**body, "v": 2}).json() == {"status": "changed"}
    assert hall.count(code, "rope.shift") == 1 and hall.answer_of(code, "rope.shift", body["me"]) == 2
    assert c.post(ui_hall.ANSWER_PATH, json={**body, "room": body["room"].lower()}).status_code == 200


@pytest.mark.parametrize("change, status, err", [
    (dict(v=7), 400, ("hall_answer", {"n": 4})), (dict(v=True), 400, ("hall_answer", {"n": 4})),
    (dict(v="1"), 400, ("hall_answer", {"n": 4})), (dict(q="rope.nope"), 409, ("hall_not_open", {})),
    (dict(me="not-a-token"), 409, ("hall_not_open", {})),
    (dict(room="ZZZZZZ"), 409, ("hall_unknown", {"room": "ZZZZZZ"})),
    (dict(room=5), 400, ("hall_request", {})), (dict(lang="fr", v=7), 400, ("hall_answer", {"n": 4}))])
def test_what_is_not_an_answer_is_refused_in_the_users_language(hall, change, status, err):
    code, body = _answer(hall, **change)
    r = client().post(ui_hall.ANSWER_PATH, json=body)
    lang = body["lang"] if body["lang"] in ("en", "zh") and isinstance(body["room"], str) else "en"
    assert (r.status_code, r.json()) == (status, {"error": text.get(lang, f"err.{err[0]}", **err[1])})
    assert hall.count(code, "rope.shift") == 0


def test_only_json_from_this_site_and_small(hall):
    code, body = _answer(hall)
    c = client()
    raw = json.dumps(body)
    assert c.post(ui_hall.ANSWER_PATH, content=raw, headers={"Content-Type": "text/plain"}).status_code == 415
    assert c.post(ui_hall.ANSWER_PATH, json=body, headers={"Origin": "https://elsewhere.example"}).status_code == 403
    assert c.post(ui_hall.ANSWER_PATH, json=body, headers={"Origin": "http://testserver"}).status_code == 200
    big = json.dumps({**body, "pad": "x" * routes.MAX_ANSWER_BYTES})
    assert c.post(ui_hall.ANSWER_PATH, content=big, headers={"Content-Type": "application/json"}).status_code == 413
    for bad in ("{", "[1, 2]", "null", '"x"'):
        assert c.post(ui_hall.ANSWER_PATH, content=bad, headers={"Content-Type": "application/json"}).status_code == 400
    assert c.get(ui_hall.ANSWER_PATH).status_code == 405
    assert hall.count(code, "rope.shift") == 1


def test_a_voter_tapping_too_fast_is_told_to_wait_and_a_store_away_is_503(hall, monkeypatch):
    code, body = _answer(hall)
    c = client()
    got = [c.post(ui_hall.ANSWER_PATH, json={**body, "v": k % 4}).status_code for k in range(rooms.VOTER_RATE[0] + 1)]
    assert got[:-1] == [200] * rooms.VOTER_RATE[0] and got[-1] == 429
    assert c.post(ui_hall.ANSWER_PATH, json={**body, "me": rooms.new_voter()}).status_code == 200   # another phone

    def away(*a, **kw):
        raise OSError("the store restarts")
    monkeypatch.setattr(hall.store, "put_answer", away)
    r = c.post(ui_hall.ANSWER_PATH, json={**body, "me": rooms.new_voter()})
    assert (r.status_code, r.json()) == (503, {"error": text.get("zh", "err.hall_store")})

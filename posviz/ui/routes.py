"""posviz's own HTTP routes, served beside Streamlit's by app.py's st.App: plotly.js under a URL that names its
version, which a browser keeps for a year; a hall room's version, which the students' phones poll; a student's
answer.

Streamlit serves a components-v2 element's files with `Cache-Control: public` and no lifetime, so every new tab
downloaded plotly.js again (0.5 MB gzipped). Here the URL holds the bundle's plotly.js version (`?v=`, checked:
another version is not found), so the bytes behind one URL never change and the browser may keep them
`immutable`. The chart element (assets/chart/chart.js) loads plotly.js from here, and from Streamlit's component
route if this one is not served.

A student's phone asks every few seconds whether the lecturer asked or revealed since its page was drawn
(posviz/ui/hall.py: `_watch`). As a Streamlit fragment with run_every, every such look was a script run of its own
(~2.4 ms of server CPU: 300 idle phones cost a sixth of a core); here it is one read of the store. A
student's answer was a fragment run too (4-6 ms of CPU, most of it Streamlit's: a script thread, the new-session
message, the sends); here it is the store's write and the rules of posviz.hall.rooms, nothing else.
"""
import functools
import gzip
import json
import urllib.parse

from starlette.concurrency import run_in_threadpool
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from posviz import text
from posviz.hall import rooms
from posviz.ui.hall import ANSWER_PATH, VERSION_PATH, the_hall
from posviz.ui.plotting import PLOTLY_DIR, PLOTLY_JS

PLOTLY_PATH = "/posviz/plotly-cartesian.min.js"      # ?v=<plotly.js version>; chart.js's PLOTLY_URLS[0]
YEAR = 365 * 24 * 3600
MAX_ANSWER_BYTES = 1024                               # an answer's JSON: a code, a token, a question id, a number
_HEADERS = {"Cache-Control": f"public, max-age={YEAR}, immutable", "ETag": f'"{PLOTLY_JS}"',
            "Vary": "Accept-Encoding", "X-Content-Type-Options": "nosniff"}


@functools.cache
def _bundle():
    """(the bundle's bytes, the same gzipped): read and compressed once per process."""
    raw = (PLOTLY_DIR / "plotly-cartesian.min.js").read_bytes()
    return raw, gzip.compress(raw, compresslevel=9, mtime=0)


async def plotly_js(request):
    """GET PLOTLY_PATH?v=<version>: the bundle, gzipped where the browser takes gzip; 304 to a browser that
    already holds it; 404 for any other version (an old page's script falls back to Streamlit's route)."""
    if request.query_params.get("v") != PLOTLY_JS:
        return Response(status_code=404)
    if request.headers.get("if-none-match") == _HEADERS["ETag"]:
        return Response(status_code=304, headers=_HEADERS)
    raw, packed = _bundle()
    zipped = "gzip" in request.headers.get("accept-encoding", "")
    return Response(packed if zipped else raw, media_type="text/javascript; charset=utf-8",
                    headers={**_HEADERS, **({"Content-Encoding": "gzip"} if zipped else {})})


async def hall_version(request):
    """GET VERSION_PATH?room=<code> -> {"version": n} of a live room, {"version": null} for no room (a code
    that is none is not looked up); 503 while the store is out of reach (the phone asks again). Never cached."""
    try:
        version = await run_in_threadpool(the_hall().version, request.query_params.get("room", ""))
    except rooms.HallError:     # the store away for a moment (a Redis restart): the next look asks again
        return JSONResponse({"version": None}, status_code=503, headers={"Cache-Control": "no-store"})
    return JSONResponse({"version": version}, headers={"Cache-Control": "no-store"})


def _refused(status, lang, code, **params):
    """A refusal: {"error": err.<code> in the user's language}."""
    return JSONResponse({"error": text.get(lang, f"err.{code}", **params)}, status_code=status,
                        headers={"Cache-Control": "no-store"})


async def _small_body(request):
    """The request's body, or None when it is longer than MAX_ANSWER_BYTES (read no further than that)."""
    got = b""
    async for chunk in request.stream():
        got += chunk
        if len(got) > MAX_ANSWER_BYTES:
            return None
    return got


def _same_site(request):
    """No Origin (not a browser's cross-site request), or the Origin of this very host: a page elsewhere cannot
    answer for a student's phone (and JSON from elsewhere needs a preflight this route never grants)."""
    origin = request.headers.get("origin")
    return origin is None or urllib.parse.urlsplit(origin).netloc == request.headers.get("host")


async def hall_answer(request):
    """POST ANSWER_PATH, JSON {room, me, q, v, lang} -> {"status": "new" | "changed"} once the store holds the
    answer (the phone then shows it acknowledged), else {"error": why, in the user's language}: 400 not an
    answer, 403 from another site, 409 the rules (no such room, not open, a cap), 413 too long, 415 not JSON,
    429 a rate limit, 503 the store away. The rules are posviz.hall.rooms.Hall.answer's, as for every answer."""
    lang = "en"
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        return _refused(415, lang, "hall_request")
    if not _same_site(request):
        return _refused(403, lang, "hall_request")
    body = await _small_body(request)
    if body is None:
        return _refused(413, lang, "hall_request")
    try:
        d = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        d = None
    if not isinstance(d, dict) or not all(isinstance(d.get(k), str) for k in ("room", "me", "q")):
        return _refused(400, lang, "hall_request")
    lang = d.get("lang") if d.get("lang") in text.LANGS else "en"
    try:
        status = await run_in_threadpool(the_hall().answer, d["room"], d["me"], d["q"], d.get("v"))
    except rooms.HallError as e:
        return JSONResponse({"error": e.message(lang)}, headers={"Cache-Control": "no-store"},
                            status_code={"hall_rate": 429, "hall_store": 503, "hall_answer": 400,
                                         "hall_number": 400}.get(e.code, 409))
    return JSONResponse({"status": status}, headers={"Cache-Control": "no-store"})


ROUTES = [Route(PLOTLY_PATH, plotly_js, methods=["GET", "HEAD"]),
          Route(VERSION_PATH, hall_version, methods=["GET"]),
          Route(ANSWER_PATH, hall_answer, methods=["POST"])]

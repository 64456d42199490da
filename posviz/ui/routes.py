"""posviz's own HTTP routes, served beside Streamlit's by app.py's st.App: plotly.js under a URL that names its
version, which a browser keeps for a year; a hall room's version, which the students' phones poll.

Streamlit serves a components-v2 element's files with `Cache-Control: public` and no lifetime, so every new tab
downloaded plotly.js again (0.5 MB gzipped). Here the URL holds the bundle's plotly.js version (`?v=`, checked:
another version is not found), so the bytes behind one URL never change and the browser may keep them
`immutable`. The chart element (assets/chart/chart.js) loads plotly.js from here, and from Streamlit's component
route if this one is not served.

A student's phone asks every few seconds whether the lecturer asked or revealed since its page was drawn
(posviz/ui/hall.py: `_watch`). As a Streamlit fragment with run_every, every such look was a script run of its own
(~2.4 ms of server CPU: a hall of 300 phones idle cost a third of a core); here it is one read of the store.
"""
import functools
import gzip

from starlette.concurrency import run_in_threadpool
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from posviz.hall import rooms
from posviz.ui.hall import VERSION_PATH, the_hall
from posviz.ui.plotting import PLOTLY_DIR, PLOTLY_JS

PLOTLY_PATH = "/posviz/plotly-cartesian.min.js"      # ?v=<plotly.js version>; chart.js's PLOTLY_URLS[0]
YEAR = 365 * 24 * 3600
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


def _room_version(code):
    """The version of live room `code` (a normal code), None when there is no such room (gone, expired)."""
    h = the_hall()
    room = h.store.room(code, now=h.clock())
    return None if room is None else room["version"]


async def hall_version(request):
    """GET VERSION_PATH?room=<code> -> {"version": n} of a live room, {"version": null} for no room (a code
    that is none is not looked up); 503 while the store is out of reach (the phone asks again). Never cached."""
    code = rooms.normal_code(request.query_params.get("room", ""))
    try:
        version = None if code is None else await run_in_threadpool(_room_version, code)
    except Exception:     # the store away for a moment (a Redis restart): the next look asks again
        return JSONResponse({"version": None}, status_code=503, headers={"Cache-Control": "no-store"})
    return JSONResponse({"version": version}, headers={"Cache-Control": "no-store"})


ROUTES = [Route(PLOTLY_PATH, plotly_js, methods=["GET", "HEAD"]),
          Route(VERSION_PATH, hall_version, methods=["GET"])]

"""Warm a freshly started posviz server before visitors arrive.

    python -m deploy.warm http://127.0.0.1:8501            # every page, en + zh, normal + lecture mode
    python -m deploy.warm URL --scenes            # and every scene of every page (a lecture's values)
    python -m deploy.warm URL --wait 60 --marker /tmp/posviz.warm

A fresh process has empty caches: the first visitor of each page computes its views and figures,
and the first visit of /extrapolation imports transformers (about 5 s holding the GIL). When a
class opens the link in the same minute, those first computations queue behind each other and
everyone waits (benchmarks/bench_load.py, part class). This script opens every page once over
Streamlit's own websocket protocol, as a browser tab does, in both languages and both modes (the
figure labels and the lecture-mode style are part of the cached figures), so that visitors find
the caches full. deploy/cluster.py and deploy/serve.py (the container) run it before a replica
takes visitors.

The pages are read from the server's own navigation, the scenes from posviz.scenes (data only); a
page that raises or is not found is reported, and the exit status is 1.
"""
import argparse
import asyncio
import concurrent.futures
import pathlib
import sys
import time
import urllib.parse
import urllib.request

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

ROOT = pathlib.Path(__file__).resolve().parent.parent

LANGS = ("en", "zh")
MODES = ("", "1")            # ?present=: normal, lecture
_NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))   # loopback: never through a proxy


class WarmError(RuntimeError):
    pass


def healthy(url, timeout=2.0):
    """True when the server at `url` answers /_stcore/health with ok (never through a proxy)."""
    try:
        with _NO_PROXY.open(f"{url}/_stcore/health", timeout=timeout) as r:
            return r.status == 200 and r.read(16).strip() == b"ok"
    except OSError:
        return False


def wait_healthy(url, timeout):
    deadline = time.monotonic() + timeout
    while not healthy(url):
        if time.monotonic() > deadline:
            raise WarmError(f"{url} not healthy after {timeout:.0f} s")
        time.sleep(0.25)


async def open_page(url, path, query, timeout=120.0):
    """Run one page once in a fresh session, as a browser tab's first load does.
    Returns (seconds, url paths of the app's pages, error text or None)."""
    u = urllib.parse.urlsplit(url)
    scheme = "wss" if u.scheme == "https" else "ws"
    bm = BackMsg()
    cs = bm.rerun_script
    cs.query_string, cs.page_name = query, path
    cs.context_info.locale, cs.context_info.timezone = "en-US", "UTC"
    cs.context_info.url = f"{url}/{path}"          # origin + pathname, as the browser sends it
    t0 = time.monotonic()
    pages, error = [], None
    async with connect(f"{scheme}://{u.netloc}/_stcore/stream", subprotocols=["streamlit", "PLACEHOLDER_AUTH_TOKEN"],
                       origin=f"{u.scheme}://{u.netloc}", proxy=None, max_size=256 * 2**20, open_timeout=timeout,
                       ping_interval=None) as ws:
        await ws.send(bm.SerializeToString())
        while True:
            msg = ForwardMsg()
            msg.ParseFromString(await asyncio.wait_for(ws.recv(), timeout))
            kind = msg.WhichOneof("type")
            if kind == "navigation":
                pages = [p.url_pathname for p in msg.navigation.app_pages]
            elif kind == "page_not_found":
                error = f"page not found: {msg.page_not_found.page_name!r}"
            elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element" \
                    and msg.delta.new_element.WhichOneof("type") == "exception":
                error = error or f"exception: {msg.delta.new_element.exception.type}"
            elif kind == "script_finished":
                status = msg.script_finished
                if status == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    continue                           # st.rerun(): the run goes on
                if status != ForwardMsg.FINISHED_SUCCESSFULLY:
                    error = error or f"script finished with status {status}"
                return time.monotonic() - t0, pages, error


def scene_counts():
    """{url path: number of scenes} from posviz.scenes (data only; "" is the overview)."""
    from posviz.scenes import SCENES
    return {("" if name == "overview" else name.replace("_", "-")): len(items) for name, items in SCENES.items()}


async def _warm(url, langs, modes, scenes, timeout):
    seconds, pages, error = await open_page(url, "", "lang=en", timeout)
    if not pages:
        raise WarmError(f"{url} sent no page list (navigation){f': {error}' if error else ''}")
    results = [("", "lang=en", seconds, error)]
    counts = scene_counts() if scenes else {}
    for lang in langs:
        for mode in modes:
            query = f"lang={lang}" + (f"&present={mode}" if mode else "")
            runs = [(path, query) for path in pages] + [
                (path, f"{query}&scene={n}") for path in pages for n in range(1, counts.get(path, 0) + 1)]
            for path, q in runs:
                if (path, q) == ("", "lang=en"):
                    continue
                s, _, err = await open_page(url, path, q, timeout)
                results.append((path, q, s, err))
    return results


def warm(url, langs=LANGS, modes=MODES, scenes=False, timeout=120.0):
    """Open every page of the app at `url` once per language and mode, one after another (a warm-up
    is not a load test); scenes=True: every scene of every page too (?scene=N, the values a lecture
    and its shared links ask for). Returns [(url path, query, seconds, error or None)]."""
    def run():
        return asyncio.run(_warm(url.rstrip("/"), langs, modes, scenes, timeout))
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return run()
    # called where an event loop already runs (Playwright's sync API, a notebook): a thread of its own
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("url", help="the server, e.g. http://127.0.0.1:8501")
    ap.add_argument("--wait", type=float, default=0.0, help="seconds to wait for /_stcore/health first")
    ap.add_argument("--marker", help="write this file when every page has run (a readiness probe can test it)")
    ap.add_argument("--scenes", action="store_true", help="every page's scenes too (?scene=N), for a lecture")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds allowed per page run")
    a = ap.parse_args(argv)
    url = a.url.rstrip("/")
    t0 = time.monotonic()
    try:
        if a.wait:
            wait_healthy(url, a.wait)
        results = warm(url, scenes=a.scenes, timeout=a.timeout)
    except (WarmError, OSError, asyncio.TimeoutError, WebSocketException) as e:
        print(f"warm: {url}: {e}", file=sys.stderr)
        return 1
    failed = [r for r in results if r[3]]
    for path, query, _, err in failed:
        print(f"warm: /{path}?{query}: {err}", file=sys.stderr)
    slowest = max(results, key=lambda r: r[2])
    print(f"warm: {len(results)} page runs in {time.monotonic() - t0:.1f} s (slowest /{slowest[0]}?{slowest[1]} "
          f"{slowest[2]:.1f} s), {len(failed)} failed")
    if failed:
        return 1
    if a.marker:
        pathlib.Path(a.marker).write_text(f"{time.time():.0f}\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

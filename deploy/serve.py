"""The container's entry point: `streamlit run app.py`, then warm it (deploy/warm.py: every page and
scene once per language and mode), then mark it ready.

    python -m deploy.serve                      # port 8501 on 0.0.0.0, marker /tmp/posviz.warm
    POSVIZ_PORT=8502 python -m deploy.serve

The server answers /_stcore/health at once (the liveness probe). The marker file appears once
every page and scene has run in both languages and modes; deploy/kubernetes.yaml's readiness probe
waits for it, so no visitor reaches a cold replica. A failed warm-up is printed, and the marker is
written all the same while Streamlit runs: the replica then serves cold rather than never.
SIGTERM and SIGINT go to Streamlit; this process exits with its status (0 when Streamlit ended by the signal
it was sent).
"""
import argparse
import os
import pathlib
import signal
import subprocess
import sys

from deploy import warm

HERE = pathlib.Path(__file__).resolve().parent

MARKER = os.environ.get("POSVIZ_READY_FILE", "/tmp/posviz.warm")


def main(argv=None):
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("\n", " "), epilog=__doc__.split("\n\n", 1)[1],
                            formatter_class=argparse.RawDescriptionHelpFormatter).parse_args(argv)
    port = int(os.environ.get("POSVIZ_PORT", "8501"))
    pathlib.Path(MARKER).unlink(missing_ok=True)
    proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", str(HERE.parent / "app.py"),
                             f"--server.port={port}", "--server.address=0.0.0.0"], cwd=HERE.parent)
    asked = []                    # the signals forwarded to Streamlit: a stop the container was asked for

    def forward(sig, _frame):
        asked.append(sig)
        proc.send_signal(sig)

    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, forward)
    if warm.main([f"http://127.0.0.1:{port}", "--wait", "120", "--scenes", "--marker", MARKER]) != 0 \
            and proc.poll() is None:
        print("serve: the warm-up failed (see above); serving cold", file=sys.stderr, flush=True)
        pathlib.Path(MARKER).write_text("cold\n", encoding="utf-8")
    rc = proc.wait()
    # Streamlit's server (uvicorn) stops gracefully on SIGTERM / SIGINT, then ends by that signal again (its exit
    # status says so): a stop that was asked for is a clean exit here
    return 0 if asked and rc in (-signal.SIGTERM, -signal.SIGINT) else rc


if __name__ == "__main__":
    sys.exit(main())

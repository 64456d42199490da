"""Pasted texts too long for a URL, kept on the server under a short id so that a share link can carry the id
instead of the text (a 56 KB config.json made a 79,648-character URL that the server refused on reload).

Content-addressed (the id is the text's hash, so the same paste always gets the same id), bounded (at most
MAX_PASTES kept, the oldest dropped first), on disk under POSVIZ_CACHE_DIR (else ~/.cache/posviz), so replicas on
one machine and a restarted server still open the link; a link whose paste is gone says so."""
import hashlib
import os
import pathlib
import re
import threading

MAX_PASTES = 512
_LOCK = threading.Lock()
_ID = re.compile(r"^[0-9a-f]{16}$")


def _folder() -> pathlib.Path:
    root = os.environ.get("POSVIZ_CACHE_DIR") or pathlib.Path.home() / ".cache" / "posviz"
    return pathlib.Path(root) / "pastes"


def paste_id(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def save(text: str) -> str | None:
    """Keep `text` -> its id (None when the disk refuses: the link then cannot carry the paste)."""
    key = paste_id(text)
    try:
        with _LOCK:
            folder = _folder()
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"{key}.json"
            if not path.exists():
                files = sorted(folder.glob("*.json"), key=lambda f: f.stat().st_mtime)
                for old in files[: max(0, len(files) - MAX_PASTES + 1)]:
                    old.unlink(missing_ok=True)
                tmp = folder / f".{key}.{os.getpid()}.tmp"
                tmp.write_text(text, encoding="utf-8")
                tmp.replace(path)
            else:
                path.touch()
        return key
    except OSError:
        return None


def load(key: str) -> str | None:
    """The text kept under `key`, or None (an id that is not one, or a paste no longer kept)."""
    if not isinstance(key, str) or not _ID.match(key):
        return None
    try:
        return (_folder() / f"{key}.json").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None

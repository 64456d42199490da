"""The hall's rules: who may do what in a room, and what an answer may be.

A lecturer opens a room and gets its code (6 characters read off a projector: no 0/O, 1/I/L) and a
lecturer key (a secret only the lecturer's URL carries; the store keeps its SHA-256, compared in constant
time). Only the key opens, asks, reveals and closes; a code alone (a student's URL) can only answer.
Rooms expire ROOM_HOURS after they are opened; at most MAX_ROOMS are live at once, each takes at most
MAX_ANSWERS answers. A student (a browser session, an opaque voter token) answers the question the room
asks while it is open: a choice index or a number in the question's bounds, never text; the answer may
change until the reveal, and is one answer. Rate limits hold per browser session and per room, in the
store (every replica counts together). A refusal is a HallError (a PosvizError): its message, in the
user's language, is posviz.text's err.<code>.
"""
import functools
import hashlib
import hmac
import math
import os
import re
import secrets
import sqlite3
import tempfile
import time

import redis

from posviz.hall import store as s
from posviz.hall.redis_store import RedisStore
from posviz.hall.sqlite_store import SqliteStore
from posviz.scenes import QUESTIONS
from posviz.validate import PosvizError

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
KEY_BYTES = 24                   # secrets.token_urlsafe(24): 32 characters, 192 bits
VOTER = re.compile(r"[A-Za-z0-9_-]{16,32}")
KEY = re.compile(r"[A-Za-z0-9_-]{16,64}")
ROOM_HOURS = 4
MAX_ROOMS = 200                  # live rooms on one instance
MAX_ANSWERS = 20000              # answers one room takes: 400 students x 50 questions
# rate limits: (events, window in seconds), counted in the store
VOTER_RATE = (20, 60)            # answers of one browser session (changes included)
ROOM_RATE = (3000, 60)           # answers of one room: 300 students changing their minds ten times a minute
OPEN_RATE = (5, 3600)            # rooms one browser session opens
CODE_TRIES = 8


class HallError(PosvizError):
    """A request the rules refuse: err.<code> of posviz.text says why, in the user's language."""


def open_store(environ=None):
    """The store the environment asks for: Redis at POSVIZ_REDIS_URL when it is set, else SQLite at
    POSVIZ_HALL_DB (default: posviz-hall.sqlite3 in the temp folder, shared by every process of the machine)."""
    environ = os.environ if environ is None else environ
    if environ.get("POSVIZ_REDIS_URL"):
        return RedisStore(environ["POSVIZ_REDIS_URL"])
    return SqliteStore(environ.get("POSVIZ_HALL_DB") or os.path.join(tempfile.gettempdir(), "posviz-hall.sqlite3"))


def key_hash(key):
    """The SHA-256 (hex) the store keeps of a lecturer key; of anything that is not a key, of nothing."""
    return hashlib.sha256((key if isinstance(key, str) and KEY.fullmatch(key) else "").encode()).hexdigest()


def normal_code(code):
    """A room code as typed (any case, spaces, dashes) -> its canonical form, or None if it cannot be one."""
    if not isinstance(code, str):
        return None
    c = re.sub(r"[\s-]", "", code).upper()[: CODE_LENGTH + 1]
    return c if len(c) == CODE_LENGTH and all(ch in CODE_ALPHABET for ch in c) else None


def shown_code(code):
    """What a message may repeat of a code someone typed or put in a URL: its letters and digits, at most 12
    (never markdown or a link)."""
    return re.sub(r"[^A-Za-z0-9]", "", str(code))[:12]


def valid_voter(voter):
    return isinstance(voter, str) and VOTER.fullmatch(voter) is not None


def new_voter():
    """A fresh browser session's voter token (random, not personal)."""
    return secrets.token_urlsafe(12)


def encode(question, value):
    """An answer as the store keeps it, after the checks of the question's kind: a choice index in
    range(len(choices)) ("2"), or a finite number in the question's [lo, hi] ("0.5"); else HallError."""
    q = QUESTIONS[question]
    if "choices" in q:
        n = len(q["choices"])
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
            raise HallError("hall_answer", n=n)
        return str(value)
    lo, hi = q["number"]
    try:
        x = float(value)
    except (TypeError, ValueError, OverflowError):
        raise HallError("hall_number", lo=lo, hi=hi) from None
    if isinstance(value, bool) or not math.isfinite(x) or not lo <= x <= hi:
        raise HallError("hall_number", lo=lo, hi=hi)
    return format(x, ".10g")


def decode(question, text):
    """The stored text of an answer -> the choice index (int) or the number (float)."""
    return int(text) if "choices" in QUESTIONS[question] else float(text)


def _reaching_store(method):
    """A Hall method whose store cannot be reached (Redis down, a locked or broken SQLite file) raises
    HallError("hall_store"): a message in the user's language, never a traceback."""
    @functools.wraps(method)
    def run(*args, **kwargs):
        try:
            return method(*args, **kwargs)
        except (OSError, sqlite3.Error, redis.RedisError):
            raise HallError("hall_store") from None
    return run


class Hall:
    """The rules over a store (posviz.hall.store). `clock` gives seconds since the epoch (tests move it).
    Every public method reaches the store through _reaching_store."""

    def __init__(self, store, clock=time.time):
        self.store, self.clock = store, clock

    # ------------------------------------------------------------------ the lecturer
    @_reaching_store
    def open_room(self, session):
        """A new room for the browser session `session` (any text: its rate bucket) -> (code, key)."""
        now = self.clock()
        if self.store.hit([f"open:{session}"], window=OPEN_RATE[1], now=now)[0] > OPEN_RATE[0]:
            raise HallError("hall_rate")
        for _ in range(CODE_TRIES):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            key = secrets.token_urlsafe(KEY_BYTES)
            room = {"code": code, "key_hash": key_hash(key), "created": now, "expires": now + ROOM_HOURS * 3600}
            made = self.store.create_room(room, now=now, max_rooms=MAX_ROOMS)
            if made == s.CREATED:
                return code, key
            if made == s.FULL:
                break
        raise HallError("hall_full", n=MAX_ROOMS)

    @_reaching_store
    def is_lecturer(self, code, key):
        """True when `key` is the lecturer key of live room `code` (compared in constant time)."""
        code = normal_code(code)
        room = self.store.room(code, now=self.clock()) if code else None
        want = room["key_hash"] if room else key_hash(None)
        return hmac.compare_digest(key_hash(key), want) and room is not None

    def _lecturer(self, code, key):
        if not self.is_lecturer(code, key):
            raise HallError("hall_lecturer")
        return normal_code(code)

    @_reaching_store
    def ask(self, code, key, question):
        """Ask `question` (an id of posviz.scenes.QUESTIONS): it opens for answers."""
        code = self._lecturer(code, key)
        if question not in QUESTIONS:
            raise HallError("hall_question")
        return self._move(code, question, "open")

    @_reaching_store
    def reveal(self, code, key):
        """Close the open question to answers and show its result."""
        code = self._lecturer(code, key)
        room = self.room(code)
        if room["phase"] != "open":
            raise HallError("hall_not_open")
        return self._move(code, room["question"], "revealed")

    @_reaching_store
    def close_room(self, code, key):
        """No more questions or answers; the lecturer can still download the answers until it expires."""
        code = self._lecturer(code, key)
        return self._move(code, self.room(code)["question"], "closed")

    def _move(self, code, question, phase):
        if self.store.set_phase(code, question=question, phase=phase, now=self.clock()) != s.MOVED:
            raise HallError("hall_unknown", room=code)
        return self.room(code)

    # ------------------------------------------------------------------ everyone
    @_reaching_store
    def room(self, code):
        """The live room `code` (typed any way) as a dict, without its key hash; HallError when there is none."""
        c = normal_code(code)
        room = self.store.room(c, now=self.clock()) if c else None
        if room is None:
            raise HallError("hall_unknown", room=shown_code(code))
        return {k: v for k, v in room.items() if k != "key_hash"}

    @_reaching_store
    def version(self, code):
        """The version of live room `code` (typed any way; it moves when the lecturer asks, reveals or closes),
        None when there is no such room: what a student's phone polls (posviz/ui/routes.py)."""
        c = normal_code(code)
        room = self.store.room(c, now=self.clock()) if c else None
        return None if room is None else room["version"]

    @_reaching_store
    def answer(self, code, voter, question, value):
        """`voter` answers `question` in room `code` -> "new" or "changed" (the store's word); HallError when
        the room is gone, the question is not open, the answer is not one, or a rate limit is reached."""
        c = normal_code(code)
        if c is None:
            raise HallError("hall_unknown", room=shown_code(code))
        if not valid_voter(voter) or question not in QUESTIONS:
            raise HallError("hall_not_open")
        text = encode(question, value)
        now = self.clock()
        mine, room_n = self.store.hit([f"v:{c}:{voter}", f"r:{c}"], window=VOTER_RATE[1], now=now)
        if mine > VOTER_RATE[0] or room_n > ROOM_RATE[0]:
            raise HallError("hall_rate")
        got = self.store.put_answer(c, question, voter, text, now=now, max_answers=MAX_ANSWERS)
        if got == s.GONE:
            raise HallError("hall_unknown", room=c)
        if got == s.NOT_OPEN:
            raise HallError("hall_not_open")
        if got == s.CAPPED:
            raise HallError("hall_capped", n=MAX_ANSWERS)
        return got

    @_reaching_store
    def answer_of(self, code, question, voter):
        """`voter`'s answer to `question` (index or number), or None."""
        c = normal_code(code)
        if c is None or not valid_voter(voter) or question not in QUESTIONS:
            return None
        text = self.store.answer_of(c, question, voter)
        return None if text is None else decode(question, text)

    @_reaching_store
    def count(self, code, question):
        return self.store.count(normal_code(code), question)

    @_reaching_store
    def values(self, code, question):
        """Every answer to `question` in room `code`, decoded."""
        return [decode(question, v) for v in self.store.values(normal_code(code), question)]

    @_reaching_store
    def asked(self, code, key):
        """The questions asked in the room, in order (the lecturer's download)."""
        code = self._lecturer(code, key)
        return [q for q in self.store.asked(code) if q in QUESTIONS]

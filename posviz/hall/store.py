"""The hall's store: rooms, their answers and rate counters, in one place every replica reads.

`Store` is the interface; `SqliteStore` (posviz.hall.sqlite_store: one file in WAL mode, for every
process on one machine) and `RedisStore` (posviz.hall.redis_store: a Redis server, for replicas on
several machines) implement it and pass the same tests (tests/hall/test_store.py). `open_store()`
picks one from the environment: Redis when POSVIZ_REDIS_URL is set, else SQLite at POSVIZ_HALL_DB
(default: posviz-hall.sqlite3 in the system's temp folder).

Every method that decides something (create a room, take an answer, move a room on) decides it in one
atomic step of the backend (an SQLite transaction, a Redis Lua script), so that two replicas never
both take the last free room, and no answer slips in after the reveal. A write the method returned
from is durable (SQLite synchronous=FULL; Redis with appendfsync always): an acknowledged answer
survives a killed replica and a restarted Redis.

A room is a dict: code, key_hash (the SHA-256 of the lecturer's key, never the key), created,
expires (seconds since the epoch), question (the id of the question asked, "" before the first),
phase ("idle", "open", "revealed", "closed"), version (one more at every change of question or
phase: what students' pages poll) and answers (rows taken, for the cap). Answers are text (the rules
write a choice index or a number); a voter is an opaque token, one per browser session.
"""
PHASES = ("idle", "open", "revealed", "closed")
# create_room's outcomes
CREATED, TAKEN, FULL = "created", "taken", "full"
# put_answer's outcomes: a first answer, a changed answer, and the refusals
NEW, CHANGED, GONE, NOT_OPEN, CAPPED = "new", "changed", "gone", "not_open", "capped"
# set_phase's outcomes
MOVED = "moved"


class Store:
    """What the rules (posviz.hall.rooms) need of a backend. `now` is always passed in (seconds since the
    epoch): the rules own the clock, the tests move it."""

    def create_room(self, room, *, now, max_rooms):
        """Add `room` (a dict, see the module) unless its code is taken by a live room (TAKEN) or
        `max_rooms` rooms are live (FULL; rooms whose `expires` <= now are not live) -> CREATED."""
        raise NotImplementedError

    def room(self, code, *, now):
        """The room `code` as a dict, or None when there is none or it expired (expires <= now)."""
        raise NotImplementedError

    def set_phase(self, code, *, question, phase, now):
        """Ask `question` (phase "open"), reveal it ("revealed"), or close the room ("closed"; question
        kept): one atomic step; the room's version goes up by one -> MOVED, or GONE (no live room).
        The first time a question is asked in the room it is added to the room's asked questions."""
        raise NotImplementedError

    def put_answer(self, code, question, voter, value, *, now, max_answers):
        """Record `voter`'s answer `value` (text) to `question` in room `code`, in one atomic step: only
        while the room is live, `question` is its question and its phase is "open" (else GONE or
        NOT_OPEN); a voter's second answer replaces the first (CHANGED); a new one is refused once the
        room holds `max_answers` (CAPPED) -> NEW."""
        raise NotImplementedError

    def answer_of(self, code, question, voter):
        """`voter`'s answer to `question` (text), or None."""
        raise NotImplementedError

    def count(self, code, question):
        """How many voters answered `question` in room `code`."""
        raise NotImplementedError

    def values(self, code, question):
        """Every answer to `question` in room `code` (text), in no particular order."""
        raise NotImplementedError

    def asked(self, code):
        """The questions asked in room `code`, in the order they were first asked."""
        raise NotImplementedError

    def hit(self, buckets, *, window, now):
        """Count one event in each of `buckets` (names) for the current `window` (seconds; windows are
        fixed: floor(now / window)) -> the counts, in the order of `buckets`, this one included."""
        raise NotImplementedError

    def live_rooms(self, *, now):
        """How many rooms are live (expires > now)."""
        raise NotImplementedError

    def close(self):
        """Let go of connections (the data stays)."""


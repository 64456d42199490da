"""posviz.hall.store: the same tests on both backends (SQLite, Redis): rooms, phases, answers, rate
counters, atomicity under threads, and durability (an acknowledged answer survives a killed writer, a new
connection, a restarted Redis)."""
import concurrent.futures
import os
import signal
import subprocess
import sys
import textwrap

import pytest

from posviz.hall import store as s
from posviz.hall.redis_store import RedisStore
from posviz.hall.sqlite_store import SqliteStore

NOW = 1_800_000_000.0


def room(code="ABCDEF", expires=NOW + 3600):
    return {"code": code, "key_hash": "h" * 64, "created": NOW, "expires": expires}


def test_a_room_is_made_once_and_read_back_until_it_expires(store):
    assert store.create_room(room(), now=NOW, max_rooms=10) == s.CREATED
    assert store.create_room(room(), now=NOW, max_rooms=10) == s.TAKEN
    got = store.room("ABCDEF", now=NOW)
    assert got == {"code": "ABCDEF", "key_hash": "h" * 64, "created": NOW, "expires": NOW + 3600, "question": "",
                   "phase": "idle", "version": 0, "answers": 0}
    assert store.room("ABCDEF", now=NOW + 3600) is None          # expired: gone for everyone
    assert store.room("ZZZZZZ", now=NOW) is None
    assert store.live_rooms(now=NOW) == 1 and store.live_rooms(now=NOW + 3600) == 0
    # an expired room's code can be taken again
    assert store.create_room(room(expires=NOW + 7200), now=NOW + 3600, max_rooms=10) == s.CREATED


def test_the_cap_counts_live_rooms_only(store):
    for i, code in enumerate(("AAAAAA", "BBBBBB")):
        assert store.create_room(room(code, expires=NOW + 10 + i), now=NOW, max_rooms=2) == s.CREATED
    assert store.create_room(room("CCCCCC"), now=NOW, max_rooms=2) == s.FULL
    assert store.create_room(room("CCCCCC"), now=NOW + 10, max_rooms=2) == s.CREATED     # AAAAAA expired


def test_phases_move_the_version_and_remember_the_questions_asked_in_order(store):
    store.create_room(room(), now=NOW, max_rooms=10)
    assert store.set_phase("ABCDEF", question="q2", phase="open", now=NOW) == s.MOVED
    assert store.set_phase("ABCDEF", question="q2", phase="revealed", now=NOW) == s.MOVED
    assert store.set_phase("ABCDEF", question="q1", phase="open", now=NOW) == s.MOVED
    assert store.set_phase("ABCDEF", question="q2", phase="open", now=NOW) == s.MOVED
    r = store.room("ABCDEF", now=NOW)
    assert (r["question"], r["phase"], r["version"]) == ("q2", "open", 4)
    assert store.asked("ABCDEF") == ["q2", "q1"]
    assert store.set_phase("NOROOM", question="q1", phase="open", now=NOW) == s.GONE
    assert store.set_phase("ABCDEF", question="q1", phase="open", now=NOW + 3600) == s.GONE


def test_answers_only_while_the_question_is_open_one_per_voter(store):
    store.create_room(room(), now=NOW, max_rooms=10)
    put = lambda voter, value, q="q1", now=NOW: store.put_answer("ABCDEF", q, voter, value, now=now,  # noqa: E731
                                                                  max_answers=3)
    assert put("v1", "0") == s.NOT_OPEN                       # nothing asked yet
    store.set_phase("ABCDEF", question="q1", phase="open", now=NOW)
    assert put("v1", "0") == s.NEW
    assert put("v1", "2") == s.CHANGED                        # a change, not a second answer
    assert put("v2", "2") == s.NEW
    assert put("v3", "1", q="q2") == s.NOT_OPEN               # not the question asked
    assert store.count("ABCDEF", "q1") == 2
    assert sorted(store.values("ABCDEF", "q1")) == ["2", "2"]
    assert store.answer_of("ABCDEF", "q1", "v1") == "2" and store.answer_of("ABCDEF", "q1", "v9") is None
    assert put("v3", "1") == s.NEW
    assert put("v4", "1") == s.CAPPED                         # max_answers rows in the room
    assert put("v1", "1") == s.CHANGED                        # a change still goes through at the cap
    store.set_phase("ABCDEF", question="q1", phase="revealed", now=NOW)
    assert put("v5", "0") == s.NOT_OPEN and put("v1", "0") == s.NOT_OPEN     # the reveal closed it
    assert store.room("ABCDEF", now=NOW)["answers"] == 3
    assert put("v1", "0", now=NOW + 3600) == s.GONE
    assert store.put_answer("NOROOM", "q1", "v1", "0", now=NOW, max_answers=3) == s.GONE


def test_rate_counters_count_per_bucket_and_window(store):
    assert store.hit(["a", "b"], window=60, now=NOW) == [1, 1]
    assert store.hit(["a"], window=60, now=NOW + 1) == [2]
    assert store.hit(["a", "b"], window=60, now=NOW + 2) == [3, 2]
    assert store.hit(["a"], window=10, now=NOW + 2) == [1]                # another window length: its own count
    start = (NOW // 60 + 1) * 60
    assert store.hit(["a"], window=60, now=start) == [1]                  # the next window starts at 1


def test_concurrent_answers_are_each_counted_once_and_none_after_the_reveal(store):
    store.create_room(room(), now=NOW, max_rooms=10)
    store.set_phase("ABCDEF", question="q", phase="open", now=NOW)

    def answer(i):
        return store.put_answer("ABCDEF", "q", f"v{i % 40}", str(i % 3), now=NOW, max_answers=1000)

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        got = list(pool.map(answer, range(120)))
    assert got.count(s.NEW) == 40 and got.count(s.CHANGED) == 80
    assert store.count("ABCDEF", "q") == 40 == store.room("ABCDEF", now=NOW)["answers"]

    def late(i):
        if i == 10:
            return store.set_phase("ABCDEF", question="q", phase="revealed", now=NOW)
        return store.put_answer("ABCDEF", "q", f"late{i}", "1", now=NOW, max_answers=1000)

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        results = list(pool.map(late, range(40)))
    taken = sum(1 for r in results if r == s.NEW)
    assert store.count("ABCDEF", "q") == 40 + taken          # every NEW is counted, none slipped in unrecorded
    assert store.put_answer("ABCDEF", "q", "after", "1", now=NOW, max_answers=1000) == s.NOT_OPEN


WRITER = textwrap.dedent("""
    import os, signal, sys
    from posviz.hall.redis_store import RedisStore
    from posviz.hall.sqlite_store import SqliteStore
    kind, where = sys.argv[1], sys.argv[2]
    st = SqliteStore(where) if kind == "sqlite" else RedisStore(where)
    for i in range(25):
        assert st.put_answer("ABCDEF", "q", f"w{i}", "1", now=1_800_000_000.0, max_answers=1000) == "new"
        print(i, flush=True)                      # acknowledged
    os.kill(os.getpid(), signal.SIGKILL)          # killed with no goodbye
""")


def test_an_acknowledged_answer_survives_a_killed_writer(store, tmp_path):
    store.create_room(room(), now=NOW, max_rooms=10)
    store.set_phase("ABCDEF", question="q", phase="open", now=NOW)
    where = store.path if isinstance(store, SqliteStore) else store.url
    kind = "sqlite" if isinstance(store, SqliteStore) else "redis"
    p = subprocess.run([sys.executable, "-c", WRITER, kind, where], capture_output=True, text=True, timeout=60,
                       cwd=os.getcwd())
    assert p.returncode == -signal.SIGKILL, p.stderr
    acked = len(p.stdout.split())
    assert acked == 25
    fresh = SqliteStore(where) if kind == "sqlite" else RedisStore(where)
    assert fresh.count("ABCDEF", "q") == acked
    fresh.close()


def test_acknowledged_answers_survive_a_redis_restart(redis_server):
    st = RedisStore(redis_server.url)
    st.r.flushdb()
    st.create_room(room(), now=NOW, max_rooms=10)
    st.set_phase("ABCDEF", question="q", phase="open", now=NOW)
    for i in range(30):
        assert st.put_answer("ABCDEF", "q", f"v{i}", str(i % 2), now=NOW, max_answers=100) == s.NEW
    redis_server.restart()                 # SIGKILL, then the same data folder (appendonly, appendfsync always)
    again = RedisStore(redis_server.url)
    assert again.count("ABCDEF", "q") == 30
    assert sorted(again.values("ABCDEF", "q")) == ["0"] * 15 + ["1"] * 15
    assert again.room("ABCDEF", now=NOW)["phase"] == "open"
    st.close()
    again.close()


@pytest.mark.parametrize("kind", ["sqlite", "redis"])
def test_both_backends_implement_the_whole_interface(kind):
    cls = SqliteStore if kind == "sqlite" else RedisStore
    public = [n for n in vars(s.Store) if not n.startswith("_")]
    assert all(getattr(cls, n) is not getattr(s.Store, n) for n in public if n != "close") and public

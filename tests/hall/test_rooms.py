"""posviz.hall.rooms: who may do what, expiry, limits, rate limits, one answer per question per browser
session, what an answer may be; on both stores (tests/hall/conftest.py), with a clock the tests move."""
import hmac
import math

import pytest
import redis

from posviz import text
from posviz.hall import rooms
from posviz.hall.rooms import Hall, HallError
from posviz.scenes import QUESTIONS

CHOICE = "rope.shift"            # multiple choice, 4 options
NUMBER = "extrapolation.naive"   # a number in [0, 64]


class Clock:
    def __init__(self, t=1_800_000_000.0):
        self.t = t

    def __call__(self):
        return self.t


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def hall(store, clock):
    return Hall(store, clock)


def refused(code, fn, *args):
    with pytest.raises(HallError) as e:
        fn(*args)
    assert e.value.code == code, e.value.code
    for lang in text.LANGS:             # every refusal reads in both languages
        assert e.value.message(lang) and "{" not in e.value.message(lang)
    return e.value


def voter():
    return rooms.new_voter()


def test_codes_keys_and_voters_have_their_shapes(hall, store, clock):
    code, key = hall.open_room("s")
    assert len(code) == rooms.CODE_LENGTH and set(code) <= set(rooms.CODE_ALPHABET)
    assert not set("01OIL") & set(rooms.CODE_ALPHABET)
    assert len(key) >= 32 and rooms.KEY.fullmatch(key)
    stored = store.room(code, now=clock())
    assert key not in repr(stored) and stored["key_hash"] == rooms.key_hash(key)    # the store never sees the key
    assert "key_hash" not in hall.room(code)
    assert rooms.normal_code(f" {code[:3].lower()}-{code[3:]} ") == code
    assert rooms.normal_code("ABC") is None and rooms.normal_code("ABCDE0") is None and rooms.normal_code(None) is None
    assert rooms.valid_voter(voter()) and not rooms.valid_voter("x") and not rooms.valid_voter("a" * 16 + "<")


def test_only_the_lecturer_key_asks_reveals_and_closes(hall):
    code, key = hall.open_room("s")
    other_code, other_key = hall.open_room("s")
    for wrong in (None, "", key[:-1] + ("A" if key[-1] != "A" else "B"), other_key, code, 12, "x" * 200):
        assert not hall.is_lecturer(code, wrong)
        refused("hall_lecturer", hall.ask, code, wrong, CHOICE)
        refused("hall_lecturer", hall.reveal, code, wrong)
        refused("hall_lecturer", hall.close_room, code, wrong)
        refused("hall_lecturer", hall.asked, code, wrong)
    assert hall.is_lecturer(code, key) and hall.is_lecturer(code.lower(), key)
    refused("hall_question", hall.ask, code, key, "no.such.question")
    refused("hall_not_open", hall.reveal, code, key)          # nothing asked
    assert hall.ask(code, key, CHOICE)["phase"] == "open"
    assert hall.reveal(code, key)["phase"] == "revealed"
    assert hall.close_room(code, key)["phase"] == "closed"
    assert hall.room(other_code)["phase"] == "idle"          # the other room never moved


def test_the_key_is_compared_in_constant_time(hall, monkeypatch):
    code, key = hall.open_room("s")
    seen = []
    real = hmac.compare_digest
    monkeypatch.setattr(rooms.hmac, "compare_digest", lambda a, b: seen.append((a, b)) or real(a, b))
    assert hall.is_lecturer(code, key) and not hall.is_lecturer(code, "y" * 32) and not hall.is_lecturer("ZZZZZZ", key)
    # always two SHA-256 digests of equal length, whatever was given: no early exit on a prefix or a length
    assert len(seen) == 3 and all(len(a) == len(b) == 64 for a, b in seen)


def test_rooms_expire_after_their_hours(hall, clock):
    code, key = hall.open_room("s")
    clock.t += rooms.ROOM_HOURS * 3600 - 1
    assert hall.room(code)["code"] == code
    clock.t += 1
    e = refused("hall_unknown", hall.room, code)
    assert code in e.message("en") and code in e.message("zh")
    assert not hall.is_lecturer(code, key)
    refused("hall_lecturer", hall.ask, code, key, CHOICE)
    refused("hall_unknown", hall.answer, code, voter(), CHOICE, 0)
    refused("hall_unknown", hall.room, "NOSUCH")
    refused("hall_unknown", hall.answer, "not a code", voter(), CHOICE, 0)
    e = refused("hall_unknown", hall.room, "[a](//x.co)")          # a typed code is repeated as letters and digits
    assert "axco" in e.message("en") and "(" not in e.params["room"]


def test_one_answer_per_question_per_browser_session_changeable_until_the_reveal(hall):
    code, key = hall.open_room("s")
    me, you = voter(), voter()
    refused("hall_not_open", hall.answer, code, me, CHOICE, 0)        # not asked yet
    hall.ask(code, key, CHOICE)
    assert hall.answer(code, me, CHOICE, 1) == "new"
    assert hall.answer(code, me, CHOICE, 3) == "changed"
    assert hall.answer(code.lower(), you, CHOICE, 3) == "new"
    assert hall.count(code, CHOICE) == 2 and sorted(hall.values(code, CHOICE)) == [3, 3]
    assert hall.answer_of(code, CHOICE, me) == 3 and hall.answer_of(code, CHOICE, voter()) is None
    refused("hall_not_open", hall.answer, code, me, NUMBER, 4)        # another question than the one asked
    refused("hall_not_open", hall.answer, code, "not-a-voter", CHOICE, 1)
    hall.reveal(code, key)
    refused("hall_not_open", hall.answer, code, me, CHOICE, 0)        # the reveal ends the changes
    assert hall.answer_of(code, CHOICE, me) == 3
    hall.ask(code, key, NUMBER)
    assert hall.answer(code, me, NUMBER, 18) == "new" and hall.values(code, NUMBER) == [18.0]
    assert hall.asked(code, key) == [CHOICE, NUMBER]
    hall.close_room(code, key)
    refused("hall_not_open", hall.answer, code, you, NUMBER, 3)
    assert hall.values(code, CHOICE) == [3, 3]                         # closed, the answers stay for the download


@pytest.mark.parametrize("value", [-1, 4, 1.0, True, "1", None, [1]])
def test_a_choice_is_an_index_in_range_never_text(hall, value):
    code, key = hall.open_room("s")
    hall.ask(code, key, CHOICE)
    e = refused("hall_answer", hall.answer, code, voter(), CHOICE, value)
    assert "4" in e.message("en")
    assert hall.count(code, CHOICE) == 0


@pytest.mark.parametrize("value", [-0.5, 64.5, math.nan, math.inf, "eighteen", None, True, 10**400],
                         ids=["below", "above", "nan", "inf", "text", "none", "bool", "huge"])
def test_a_number_is_finite_and_in_its_bounds(hall, value):
    code, key = hall.open_room("s")
    hall.ask(code, key, NUMBER)
    refused("hall_number", hall.answer, code, voter(), NUMBER, value)
    assert hall.answer(code, voter(), NUMBER, "17.5") == "new"       # a number typed as text is a number
    assert hall.values(code, NUMBER) == [17.5]


def test_the_caps_on_rooms_and_on_answers(hall, monkeypatch):
    monkeypatch.setattr(rooms, "MAX_ROOMS", 2)
    monkeypatch.setattr(rooms, "MAX_ANSWERS", 3)
    code, key = hall.open_room("a")
    hall.open_room("b")
    e = refused("hall_full", hall.open_room, "c")
    assert "2" in e.message("en")
    hall.ask(code, key, CHOICE)
    voters = [voter() for _ in range(4)]
    for v in voters[:3]:
        hall.answer(code, v, CHOICE, 0)
    refused("hall_capped", hall.answer, code, voters[3], CHOICE, 0)
    assert hall.answer(code, voters[0], CHOICE, 2) == "changed"       # at the cap a change still counts


def test_rate_limits_per_browser_session_per_room_and_on_opening(hall, clock, monkeypatch):
    monkeypatch.setattr(rooms, "VOTER_RATE", (3, 60))
    monkeypatch.setattr(rooms, "ROOM_RATE", (5, 60))
    monkeypatch.setattr(rooms, "OPEN_RATE", (2, 3600))
    clock.t = 60 * 30_000_000          # at the start of a window
    code, key = hall.open_room("lecturer")
    hall.open_room("lecturer")
    refused("hall_rate", hall.open_room, "lecturer")           # this browser session opened enough rooms
    hall.open_room("another lecturer")
    hall.ask(code, key, CHOICE)
    me = voter()
    for i in range(3):
        hall.answer(code, me, CHOICE, i)
    refused("hall_rate", hall.answer, code, me, CHOICE, 3)
    assert hall.answer_of(code, CHOICE, me) == 2                 # the refused change did not happen
    hall.answer(code, voter(), CHOICE, 0)
    refused("hall_rate", hall.answer, code, voter(), CHOICE, 0)  # the room's limit (3 + 1 + this one > 5... )
    clock.t += 60                                                 # the next window
    assert hall.answer(code, me, CHOICE, 3) == "changed"


def test_a_store_out_of_reach_is_a_message_not_a_traceback(clock):
    down = rooms.RedisStore("redis://127.0.0.1:9/0")            # nothing listens on port 9
    hall = Hall(down, clock)
    for call in (lambda: hall.open_room("s"), lambda: hall.room("ABCDEF"), lambda: hall.is_lecturer("ABCDEF", "k" * 32),
                 lambda: hall.answer("ABCDEF", voter(), CHOICE, 0), lambda: hall.count("ABCDEF", CHOICE)):
        refused("hall_store", call)
    assert issubclass(redis.ConnectionError, redis.RedisError)


def test_open_store_follows_the_environment(tmp_path):
    st = rooms.open_store({"POSVIZ_HALL_DB": str(tmp_path / "x.sqlite3")})
    assert isinstance(st, rooms.SqliteStore) and st.path.endswith("x.sqlite3")
    st.close()
    assert isinstance(rooms.open_store({"POSVIZ_REDIS_URL": "redis://127.0.0.1:9/0"}), rooms.RedisStore)


def test_every_question_can_be_encoded_and_decoded():
    for qid, q in QUESTIONS.items():
        if "choices" in q:
            assert [rooms.decode(qid, rooms.encode(qid, i)) for i in range(len(q["choices"]))] == \
                list(range(len(q["choices"])))
        else:
            lo, hi = q["number"]
            assert rooms.decode(qid, rooms.encode(qid, lo)) == lo and rooms.decode(qid, rooms.encode(qid, hi)) == hi

"""The hall's flows in AppTest: the lecturer opens a room on /hall, asks a scene's question, sees the count and
reveals it; students join by the code, answer (and change their answer) and see the reveal; the lecturer
downloads the CSV and closes the room. Both languages; the key is in no student-visible place."""
import csv
import io
import json

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from harness.apptest import assert_clean, charts, open_page
from posviz import text
from posviz.hall import rooms
from posviz.scenes import QUESTIONS
from posviz.ui import hall as ui_hall
from posviz.ui import routes, sidebar

QID = "rope.shift"


@pytest.fixture(autouse=True)
def fresh_store(tmp_path, monkeypatch):
    monkeypatch.setenv("POSVIZ_HALL_DB", str(tmp_path / "hall.sqlite3"))
    monkeypatch.delenv("POSVIZ_REDIS_URL", raising=False)
    monkeypatch.setattr(ui_hall, "_made", [])


def everything(at):
    """Every text the page drew (markdown, captions, alerts, code, metrics, widget labels and options)."""
    parts = [e.value for kind in ("markdown", "caption", "success", "info", "warning", "error", "code", "title")
             for e in getattr(at, kind)]
    parts += [f"{m.label} {m.value}" for m in at.metric]
    parts += [str(r.options) for r in at.radio] + [b.label for b in at.button]
    return "\n".join(str(p) for p in parts)


def answer_box(at):
    """The student's answer box (assets/hall_answer.js) as the page hands it to the browser: its data, or None."""
    boxes = [json.loads(el.proto.json) for el in at.get("bidi_component")
             if el.proto.component_name == "posviz.hall_answer"]
    assert len(boxes) <= 1
    return boxes[0] if boxes else None


def tap(at, value):
    """What the answer box sends when the student taps `value` -> (HTTP status, the route's JSON)."""
    d = answer_box(at)
    r = TestClient(Starlette(routes=routes.ROUTES)).post(
        d["url"], json={"room": d["room"], "me": d["me"], "q": d["q"], "v": value, "lang": d["lang"]})
    return r.status_code, r.json()


def acknowledged(at, status, value):
    """The acknowledgement the box then shows, as the page's labels write it (** marks bold)."""
    d = answer_box(at)
    words = d["choices"][value] if "choices" in d else str(value)
    return d["labels"][status].replace("{answer}", words)


def open_room(lang="en"):
    at = open_page("hall", lang)
    assert_clean(at)
    at.button(key="hall_open").click().run()
    assert_clean(at)
    return at, at.query_params["hall"], at.query_params["hallkey"]


def test_the_landing_page_joins_by_code_and_opens_a_room():
    at = open_page("hall", "zh")
    assert_clean(at)
    assert at.text_input(key="hall_code") and at.button(key="hall_open")
    at.text_input(key="hall_code").set_value("0O1IL?").run()
    at.button(key="hall_join").click().run()
    assert text.get("zh", "err.hall_unknown", room="0O1IL") in everything(at)      # a code that cannot be one
    at.text_input(key="hall_code").set_value("abc def").run()
    at.button(key="hall_join").click().run()
    assert at.query_params["room"] == "ABCDEF"
    assert text.get("zh", "err.hall_unknown", room="ABCDEF") in everything(at)     # unknown: said in Chinese


def test_the_lecturer_room_shows_the_code_the_students_link_and_every_question():
    at, code, key = open_room()
    assert at.query_params["present"] == "1" and rooms.normal_code(code) == code
    assert any(m.value == code for m in at.metric)
    url = next(c.value for c in at.code if f"room={code}" in c.value)
    assert "hallkey" not in url and key not in url and "hall=" not in url.split("?")[1]
    links = at.get("page_link")
    assert len(links) == len(QUESTIONS)
    labels = [p.proto.label for p in links]
    for qid in QUESTIONS:
        assert sum(text.get("en", f"hall.q.{qid}") in label for label in labels) == 1, qid
    for p, qid in zip(links, ui_hall.ordered_questions()):      # the lecturer's own links: to the scene, in the room
        scene = QUESTIONS[qid]["scene"] + 1
        assert p.proto.query_string == f"scene={scene}&lang=en&present=1&hall={code}&hallkey={key}"
    # the share box never carries the lecturer's room and key
    at.session_state["ui_share"] = True
    at.run()
    for c in at.code:
        assert key not in c.value and "hallkey" not in c.value
    assert set(sidebar.PRIVATE) == {"hall", "hallkey", "me"}


def test_a_wrong_key_is_refused_and_shows_nothing_of_the_room():
    _, code, key = open_room()
    at = open_page("hall", "en", hall=code, hallkey="x" * 32)
    assert text.get("en", "err.hall_lecturer") in everything(at)
    assert not any(m.value == code for m in at.metric) and not at.get("page_link")
    at = open_page("rope", "en", present="1", scene="3", hall=code, hallkey=key[:-2] + "zz")
    assert text.get("en", "err.hall_lecturer") in everything(at)
    assert not [b for b in at.button if b.key in ("hall_ask", "hall_reveal")]


def test_ask_answer_change_reveal_and_download(tmp_path):
    _, code, key = open_room()
    lec = open_page("rope", "en", present="1", scene="3", hall=code, hallkey=key)
    assert_clean(lec)
    assert text.get("en", f"hall.q.{QID}") in everything(lec)
    lec.button(key="hall_ask").click().run()
    assert_clean(lec)
    assert any(m.label == text.get("en", "hall.count") and m.value == "0" for m in lec.metric)
    assert lec.button(key="hall_reveal")
    assert any(".st-key-rope_anim_fig" in m.value and "blur" in m.value for m in lec.markdown)   # the figure hidden

    students = [open_page("hall", lang, room=code.lower()) for lang in ("en", "zh", "en")]
    for s in students:
        assert_clean(s)
        assert key not in str(s.query_params) and "hallkey" not in s.query_params
        assert rooms.valid_voter(s.query_params["me"])
    picks = [0, 0, 2]
    for s, pick in zip(students, picks):
        box = answer_box(s)
        assert box["q"] == QID and box["mine"] is None and box["me"] == s.query_params["me"]
        assert tap(s, pick) == (200, {"status": "new"})
    zh = answer_box(students[1])
    assert zh["choices"][0] == "A. " + text.get("zh", f"hall.q.{QID}.same") and zh["lang"] == "zh"
    assert acknowledged(students[1], "new", 0) == text.get("zh", "hall.ack.new", answer=zh["choices"][0])
    assert tap(students[2], 1) == (200, {"status": "changed"})               # a change, not a second answer
    assert tap(students[2], 9)[0] == 400 and tap(students[2], 9)[1]["error"] == text.get("en", "err.hall_answer", n=4)
    again = open_page("hall", "en", room=code, me=students[0].query_params["me"])   # a reload: the same voter
    assert answer_box(again)["mine"] == 0
    assert acknowledged(again, "kept", 0) == text.get("en", "hall.ack.kept", answer=answer_box(again)["choices"][0])

    lec.run()
    assert any(m.label == text.get("en", "hall.count") and m.value == "3" for m in lec.metric)
    lec.button(key="hall_reveal").click().run()
    assert_clean(lec)
    chart = charts(lec)["hall_chart"]["figure"]
    assert chart["data"][0]["x"] == [2, 1, 0, 0]                            # same, up, down, depends
    assert chart["data"][0]["marker"]["color"][0] != chart["data"][0]["marker"]["color"][1]   # the right one marked
    shown = everything(lec)
    assert text.get("en", "hall.right", answer=text.get("en", f"hall.q.{QID}.same")) in shown
    assert text.get("en", "hall.right_share", share="67 %", n=3) in shown
    assert not any("blur" in m.value for m in lec.markdown)                 # the figure is back

    s = students[1]
    s.run()
    assert_clean(s)
    assert "hall_chart" in charts(s)
    assert text.get("zh", "hall.you.right", answer=text.get("zh", f"hall.q.{QID}.same")) in everything(s)
    students[2].run()
    assert text.get("en", "hall.you.wrong", answer=text.get("en", f"hall.q.{QID}.up")) in everything(students[2])
    assert answer_box(students[2]) is None                                  # no answering after the reveal
    late = TestClient(Starlette(routes=routes.ROUTES)).post(zh["url"], json={"room": zh["room"], "me": zh["me"],
                                                                           "q": QID, "v": 2, "lang": "zh"})
    assert (late.status_code, late.json()) == (409, {"error": text.get("zh", "err.hall_not_open")})   # revealed

    rows = list(csv.reader(io.StringIO(ui_hall.csv_text(code, key))))
    head, body = rows[0], rows[1:]
    assert head == [text.get("en", f"hall.csv.{c}") for c in ("question", "page", "scene", "text", "answer", "count",
                                                               "is_right", "answers", "right_share")]
    assert [(r[0], r[4], r[5], r[6], r[7], r[8]) for r in body] == [
        (QID, text.get("en", f"hall.q.{QID}.{c}"), n, yes, "3", "0.6667")
        for c, n, yes in (("same", "2", "yes"), ("up", "1", "no"), ("down", "0", "no"), ("depends", "0", "no"))]
    csv_all = ui_hall.csv_text(code, key)
    for s in students:
        assert s.query_params["me"] not in csv_all                          # no voter, no personal data


def test_a_number_question_and_closing_the_room():
    _, code, key = open_room("zh")
    lec = open_page("relative", "zh", present="1", scene="6", hall=code, hallkey=key)
    lec.button(key="hall_ask").click().run()
    assert_clean(lec)
    s = open_page("hall", "zh", room=code)
    box = answer_box(s)
    assert box["number"] == list(QUESTIONS["relative.decode"]["number"]) and "choices" not in box
    assert box["labels"]["send"] == text.get("zh", "hall.send")
    assert tap(s, 31) == (200, {"status": "new"})
    assert acknowledged(s, "new", 31) == text.get("zh", "hall.ack.new", answer="31")
    lo, hi = QUESTIONS["relative.decode"]["number"]
    assert tap(s, hi + 1) == (400, {"error": text.get("zh", "err.hall_number", lo=lo, hi=hi)})
    lec.button(key="hall_reveal").click().run()
    assert text.get("zh", "hall.right", answer="31") in everything(lec)
    room = open_page("hall", "zh", hall=code, hallkey=key)
    room.button(key="hall_close").click().run()
    assert_clean(room)
    assert text.get("zh", "hall.room.closed") in everything(room)
    s.run()
    assert text.get("zh", "hall.student.closed", code=code) in everything(s)

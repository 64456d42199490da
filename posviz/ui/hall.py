"""The hall on screen: the lecturer's room (/hall), the lecturer's panel in a scene that carries a question, and
a student's phone (/hall?room=CODE).

Who is who: the lecturer's URL carries the room (`hall`) and its lecturer key (`hallkey`), checked against the
store in constant time (posviz.hall.rooms) and then held in the session; a student's URL carries the room
(`room`) and a voter token (`me`, one per browser session, made on the first visit). The share box leaves
`hall`, `hallkey` and `me` out (sidebar.PRIVATE); the students' link and QR code are built here, from the
room's code alone.

What reruns: nothing for a student's answer (assets/hall_answer.js sends it to posviz's route: posviz.ui.routes);
the lecturer's live count is an st.fragment with run_every (COUNT_S), so no page reruns per answer; a student's
phone asks posviz's route for the room's version every POLL_S (assets/hall_watch.js; a read of the store, no script
run) and reruns the page only when the lecturer asked or revealed.
"""
import csv
import datetime
import functools
import io
import threading

import streamlit as st

from posviz.figures import hall as figs
from posviz.hall import rooms
from posviz.scenes import QUESTIONS, SCENES
from posviz.ui import frame, sidebar
from posviz.ui.frame import asset, lang, page, phone, present, t
from posviz.ui.labels import labels
from posviz.ui.plotting import plot
from posviz.views import hall as answers

COUNT_S = 0.5     # the lecturer's live count: "the same count within 1 s" on every replica
POLL_S = 2.0      # a student's phone looks for a new question or a reveal
VERSION_PATH = "/posviz/hall/version"   # ?room=<code>: the room's version (posviz.ui.routes.hall_version)
ANSWER_PATH = "/posviz/hall/answer"     # POST: a student's answer (posviz.ui.routes.hall_answer)
PAGE = "hall"     # this page's url path
# hides the figure of a scene whose question is open (its key: a constant of posviz.scenes, never user text)
_HIDE = "<style>.st-key-%s { filter: blur(22px); pointer-events: none; }</style>"

_made = []
_made_lock = threading.Lock()


def the_hall():
    """The process's Hall over the store the environment names (posviz.hall.rooms.open_store), made once."""
    with _made_lock:
        if not _made:
            _made.append(rooms.Hall(rooms.open_store()))
        return _made[0]


def _error(e):
    """A refusal of the rules, in the user's language."""
    st.error(e.message(lang()), icon=":material/block:")


# ---------------------------------------------------------------- questions as the user reads them
def _values(qid):
    return QUESTIONS[qid]["values"]


def right(qid):
    """The right answer of question `qid` (posviz.views.hall), computed from its scene's values."""
    sentences = (t("overview.default_a"), t("overview.default_b"))
    return answers.right_answer(qid, _values(qid), sentences)


def answer_text(qid, value):
    """An answer as the user reads it: a choice's label, or the number."""
    q = QUESTIONS[qid]
    if "choices" in q:
        code = value if isinstance(value, str) else q["choices"][value]
        return t(f"hall.q.{qid}.{code}")
    return f"{value:g}"


def _kind(qid):
    q = QUESTIONS[qid]
    if "choices" in q:
        return "  \n".join(f"{chr(65 + i)}. {t(f'hall.q.{qid}.{c}')}" for i, c in enumerate(q["choices"]))
    return t("hall.number.tol", tol=q["tol"]) if q["tol"] else t("hall.number")


def _tally(qid, values):
    q = QUESTIONS[qid]
    r = right(qid)["answer"]
    return answers.tally(tuple(values), choices=q.get("choices"), right=r, tol=q.get("tol", 0))


def _scene_title(qid):
    q = QUESTIONS[qid]
    return t(SCENES[q["page"]][q["scene"]]["title"])


def _page_file(qid):
    return f"app_pages/{QUESTIONS[qid]['page']}.py"


def _page_path(qid):
    return QUESTIONS[qid]["page"].replace("_", "-")


def ordered_questions():
    """The questions in the order of the app's pages (app.py's PAGES, as the navigation knows them), then of their
    scenes."""
    order = {file: i for i, (file, _, _) in enumerate(frame.APP_PAGES)}
    return sorted(QUESTIONS, key=lambda q: (order.get(_page_file(q), len(order)), QUESTIONS[q]["scene"]))


def reveal(qid, tally, *, key):
    """The class's chart beside the right answer, the share that was right and why (from the data). In lecture
    mode (the narrow panel beside the scene's figure) and on a phone (one column) the right answer comes first."""
    r = right(qid)
    said = t("hall.right", answer=answer_text(qid, r["answer"]))
    if present() or phone():
        st.success(said, icon=":material/check_circle:")
        chart, words = st.container(), st.container()
    else:
        chart, words = st.columns([3, 2])
        words.success(said, icon=":material/check_circle:")
    with chart:
        bars = [answer_text(qid, code) for code in tally["labels"]] if "choices" in QUESTIONS[qid] else tally["labels"]
        plot(figs.class_answers, bars, tally["counts"], tally["right_bar"], key=key, csv=False,
             labels=labels("hall.chart", "title", "x", "right", "other"))
    with words:
        if tally["n"]:
            st.markdown(t("hall.right_share", share=answers.share_text(tally["right_share"]), n=tally["n"]))
        else:
            st.markdown(t("hall.none"))
        st.caption(t(f"hall.q.{qid}.why", answer=answer_text(qid, r["answer"]), **r["facts"]))


# ---------------------------------------------------------------- the lecturer
def lecturer():
    """(code, key) of the room this session's lecturer holds, from the URL (hall, hallkey: checked once
    against the store) or the session; None for everyone else. While held, the URL keeps both."""
    code, key = st.query_params.get("hall"), st.query_params.get("hallkey")
    held = st.session_state.get("_hall_lecturer")
    if code and key and (held is None or held != (code, key)):
        try:
            ok = the_hall().is_lecturer(code, key)
        except rooms.HallError as e:
            _error(e)
            return None
        if not ok:
            _error(rooms.HallError("hall_lecturer"))
            return None
        held = st.session_state["_hall_lecturer"] = (rooms.normal_code(code), key)
    if held and (st.query_params.get("hall"), st.query_params.get("hallkey")) != held:
        st.query_params["hall"], st.query_params["hallkey"] = held
    if st.session_state.pop("_hall_present", False):      # a room just opened: the projector's layout
        st.query_params["present"] = "1"
    return held


def _open_room():
    try:
        code, key = the_hall().open_room(st.session_state.setdefault("_hall_session", rooms.new_voter()))
    except rooms.HallError as e:
        st.session_state["_hall_refused"] = (e.code, e.params)
        return
    st.session_state["_hall_lecturer"] = (code, key)      # lecturer() writes the URL in the run that follows
    st.session_state["_hall_present"] = True


def _act(action, *args):
    """A lecturer's button: ask, reveal or close; a refusal is shown on the next run."""
    try:
        action(*args)
    except rooms.HallError as e:
        st.session_state["_hall_refused"] = (e.code, e.params)


def _refusal():
    got = st.session_state.pop("_hall_refused", None)
    if got:
        _error(rooms.HallError(got[0], **got[1]))


def student_url(code, current_path):
    """The students' link of room `code`: the hall page with the room's code and the language, nothing else."""
    return sidebar.app_url(PAGE, current_path, {"room": [code], "lang": [lang()]})


def csv_text(code, key):
    """The room's answers as CSV, per question asked: a row per answer choice (or number bar) with its count,
    whether it is right, the question's count of answers and the share that was right. No voter appears."""
    h = the_hall()
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow([t(f"hall.csv.{c}") for c in ("question", "page", "scene", "text", "answer", "count", "is_right",
                                              "answers", "right_share")])
    for qid in h.asked(code, key):
        tl = _tally(qid, h.values(code, qid))
        share = "" if tl["right_share"] is None else f"{tl['right_share']:.4f}"
        for i, (bar, n) in enumerate(zip(tl["labels"], tl["counts"])):
            shown = answer_text(qid, bar) if "choices" in QUESTIONS[qid] else bar
            w.writerow([qid, _page_path(qid), QUESTIONS[qid]["scene"] + 1, t(f"hall.q.{qid}"), shown, n,
                        t("hall.csv.yes" if i == tl["right_bar"] else "hall.csv.no"), tl["n"], share])
    return out.getvalue()


def _lecturer_room(code, key):
    """The lecturer's /hall: the room's code, its students' link and QR code, the questions and their scenes,
    the download and the close button."""
    h = the_hall()
    try:
        room = h.room(code)
    except rooms.HallError as e:
        _error(e)
        st.session_state.pop("_hall_lecturer", None)
        return
    _refusal()
    url = student_url(code, PAGE)
    c = st.columns([1, 1, 2])
    c[0].metric(t("hall.room.code"), code)
    svg = sidebar.qr_svg(url) if url.startswith("http") else None
    if svg is not None:
        c[1].image(svg, width=sidebar.QR_PX)
    with c[2]:
        st.markdown(t("hall.room.students"))
        st.code(url, language=None, wrap_lines=True)
        if sidebar.is_local(url):
            st.warning(t("hall.room.local"), icon=":material/wifi_off:")
        ends = datetime.datetime.fromtimestamp(room["expires"], datetime.UTC).strftime("%H:%M")
        st.caption(t("hall.room.keep") + " " + t("hall.room.expires", time=ends))
    if room["phase"] == "closed":
        st.info(t("hall.room.closed"), icon=":material/lock:")
    elif room["question"]:
        st.markdown(t("hall.room.now", question=t(f"hall.q.{room['question']}"),
                      phase=t(f"hall.phase.{room['phase']}")))
    st.subheader(t("hall.room.questions"))
    st.caption(t("hall.room.questions.text"))
    for qid in ordered_questions():
        q = QUESTIONS[qid]
        params = {"scene": q["scene"] + 1, "lang": lang(), "present": "1", "hall": code, "hallkey": key}
        st.page_link(page(_page_file(qid)), query_params=params, icon=":material/quiz:",
                     label=f"{t('nav.' + _page_path(qid))} · "
                           f"{t('ui.scene')} {q['scene'] + 1} · {t(f'hall.q.{qid}')}")
    c = st.columns(2)
    c[0].download_button(t("hall.room.download"), lambda: csv_text(code, key), file_name=f"posviz_hall_{code}.csv",
                         mime="text/csv", icon=":material/download:", help=t("hall.room.download.help"),
                         on_click="ignore", key="hall_csv")
    c[1].button(t("hall.room.close"), on_click=_act, args=(h.close_room, code, key), icon=":material/lock:",
                disabled=room["phase"] == "closed", key="hall_close")


@st.fragment(run_every=COUNT_S)
def _live_count(code, qid):
    """The count of answers to the open question, redrawn every COUNT_S without a page rerun."""
    frame.resume()
    try:
        n = the_hall().count(code, qid)
    except rooms.HallError as e:
        _error(e)
        return
    st.metric(t("hall.count"), n)


def scene_question(page_name, index):
    """The id of the question scene `index` of `page_name` carries, or None."""
    for qid, q in QUESTIONS.items():
        if q["page"] == page_name and q["scene"] == index:
            return qid
    return None


def scene_panel(page_name, index, head, narration):
    """In place of a scene's narration, for the lecturer holding a room when the scene carries a question: the
    question, "Ask the hall", the live count and "Reveal" (the scene's figure and narration hidden until then),
    then the class's chart beside the right answer, the narration and the figure. True when it drew the panel."""
    qid = scene_question(page_name, index)
    held = lecturer() if qid else None
    if not held:
        return False
    code, key = held
    h = the_hall()
    try:
        room = h.room(code)
    except rooms.HallError as e:
        _error(e)
        return False
    current = room["question"] == qid and room["phase"] in ("open", "revealed")
    with st.container(key="scene_say", border=True):
        _refusal()
        st.markdown(f"{head} — {t('hall.panel.room', code=code, url=student_url(code, _page_path(qid)))}")
        st.markdown(f"**{t(f'hall.q.{qid}')}**")
        if not current or room["phase"] == "open":
            st.markdown(_kind(qid))
        if room["phase"] == "closed":
            st.info(t("hall.room.closed"), icon=":material/lock:")
        elif not current:
            if room["phase"] == "open" and room["question"]:
                st.caption(t("hall.panel.other", question=t(f"hall.q.{room['question']}")))
            st.button(t("hall.panel.ask"), type="primary", icon=":material/campaign:", key="hall_ask",
                      on_click=_act, args=(h.ask, code, key, qid))
        elif room["phase"] == "open":
            _live_count(code, qid)
            st.button(t("hall.panel.reveal"), type="primary", icon=":material/visibility:", key="hall_reveal",
                      on_click=_act, args=(h.reveal, code, key))
            st.caption(t("hall.panel.hidden"))
            # the figure that settles it stays hidden until the reveal (a constant key of posviz.scenes)
            hide = _HIDE % QUESTIONS[qid]["show"]
            st.markdown(hide, unsafe_allow_html=True)
        else:
            reveal(qid, _tally(qid, h.values(code, qid)), key="hall_chart")
            st.markdown(narration)
    return True


# ---------------------------------------------------------------- a student
def _voter():
    """This browser session's voter token: from the URL (`me`), else a new one written there (a reload, or a
    reconnection to another replica, keeps it)."""
    me = st.query_params.get("me")
    if not rooms.valid_voter(me):
        me = st.session_state.get("_hall_me") or rooms.new_voter()
        st.query_params["me"] = me
    st.session_state["_hall_me"] = me
    return me


@functools.cache
def _answerer():
    """The mounting function of the answer box (assets/hall_answer.js), made once."""
    return st.components.v2.component("posviz.hall_answer", js=asset("hall_answer.js"), isolate_styles=False)


def _answer_box(code, qid, voter):
    """The student's answer box: the choices or a number, sent to posviz's route (assets/hall_answer.js; no script
    run per answer) and acknowledged once the store holds it; the answer the store holds shown on a reload. Its
    phone-sized targets: assets/frame.css, .posviz-hall-answer."""
    mine = None
    try:
        mine = the_hall().answer_of(code, qid, voter)
    except rooms.HallError as e:
        _error(e)
    q = QUESTIONS[qid]
    labels = {k: t(f"hall.ack.{k}", answer="{answer}") for k in ("new", "changed", "kept")}
    data = {"url": ANSWER_PATH, "room": code, "me": voter, "q": qid, "lang": lang(), "mine": mine,
            "labels": {**labels, "failed": t("hall.ack.failed"), "answer": t("hall.answer"), "send": t("hall.send")}}
    if "choices" in q:   # looked up in this run: the user's language
        data["choices"] = [f"{chr(65 + i)}. {answer_text(qid, i)}" for i in range(len(q["choices"]))]
    else:
        data["number"] = list(q["number"])
    with st.container(key="hall_answer"):
        _answerer()(key=f"hall_pick_{qid}", data=data)


@functools.cache
def _watcher():
    """The mounting function of the phone's watch (assets/hall_watch.js), made once."""
    return st.components.v2.component("posviz.hall_watch", js=asset("hall_watch.js"))


def _watch(code, version):
    """Every POLL_S the phone asks the route for the room's version; when the lecturer asked or revealed since
    `version`, or the room is gone, the page reruns. Draws nothing (frame.css hides its element)."""
    _watcher()(key="hall_watch", data={"url": VERSION_PATH, "room": code, "version": version,
                                       "every": int(POLL_S * 1000)}, on_changed_change=lambda: None)


def _student(code):
    h = the_hall()
    try:
        room = h.room(code)
    except rooms.HallError as e:
        _error(e)
        _join_form()
        return
    voter = _voter()
    code, qid = room["code"], room["question"]
    if room["phase"] == "closed":
        st.info(t("hall.student.closed", code=code), icon=":material/lock:")
        return
    if room["phase"] == "idle" or not qid:
        st.info(t("hall.wait", code=code), icon=":material/hourglass_top:")
    elif room["phase"] == "open":
        st.markdown(f"#### {t(f'hall.q.{qid}')}")
        if "choices" not in QUESTIONS[qid]:
            st.caption(_kind(qid))
        _answer_box(code, qid, voter)
    else:
        st.markdown(f"#### {t(f'hall.q.{qid}')}")
        mine = h.answer_of(code, qid, voter)
        if mine is None:
            st.caption(t("hall.you.none"))
        else:
            st.markdown(t("hall.you.right" if is_right(qid, mine) else "hall.you.wrong", answer=answer_text(qid, mine)))
        tally = _tally(qid, h.values(code, qid))
        reveal(qid, tally, key="hall_chart")
        st.page_link(page(_page_file(qid)), label=t("hall.see_scene"), icon=":material/slideshow:",
                     query_params={"scene": QUESTIONS[qid]["scene"] + 1, "lang": lang()})
    _watch(code, room["version"])


def is_right(qid, value):
    """A student's answer (a choice index, or a number) is the right one (a number: within the tolerance)."""
    q, r = QUESTIONS[qid], right(qid)["answer"]
    return q["choices"][value] == r if "choices" in q else abs(value - r) <= q["tol"]


def _go(widget):
    code = rooms.normal_code(st.session_state.get(widget))
    st.session_state["_hall_typed"] = st.session_state.get(widget)
    if code:
        st.query_params["room"] = code


def _join_form():
    st.subheader(t("hall.join.title"))
    c = st.columns([2, 1], vertical_alignment="bottom")
    c[0].text_input(t("hall.join.code"), max_chars=12, key="hall_code", help=t("hall.join.code.help"))
    c[1].button(t("hall.join.go"), on_click=_go, args=("hall_code",), key="hall_join", type="primary")
    typed = st.session_state.pop("_hall_typed", None)
    if typed and not rooms.normal_code(typed):
        _error(rooms.HallError("hall_unknown", room=rooms.shown_code(typed)))


def room_page():
    """/hall: the lecturer's room when this session holds one, a student's question when the URL names a room
    (under the page's title only: the question comes first on a phone), else the join form and the lecturer's
    button that opens a room."""
    held = lecturer()
    st.title(t("hall.title"))
    if held or not st.query_params.get("room"):
        st.markdown(t("hall.intro"))
    if held:
        _lecturer_room(*held)
        return
    if st.query_params.get("room"):
        _student(st.query_params.get("room"))
        return
    _join_form()
    st.subheader(t("hall.open.title"))
    st.markdown(t("hall.open.text", hours=rooms.ROOM_HOURS))
    _refusal()
    st.button(t("hall.open.go"), on_click=_open_room, icon=":material/meeting_room:", key="hall_open")


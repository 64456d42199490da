"""AppTest of app_pages/remember.py ("What to remember"): both languages, every point of the first
article's §16 and of the second article's closing, and every link targeting an existing page and an
existing scene — the one whose title the mapping (posviz.views.remember) names."""
import ast
import pathlib
import urllib.parse

import pytest

from harness.apptest import assert_clean, open_page
from posviz import scenes, text
from posviz.views import remember as view

ROOT = pathlib.Path(__file__).resolve().parents[2]
ITEMS = [(section, point, item) for section, points in view.SECTIONS for point in points for item in point["links"]]


def _app_pages():
    """{page file: url path} of app.py's PAGES."""
    tree = ast.parse((ROOT / "app.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "PAGES":
            return {f: path for f, path, _ in ast.literal_eval(node.value)}
    raise AssertionError("app.py has no PAGES")


def test_the_articles_points_are_all_there():
    """Six points of §16 (“Same words, different order…”), five of the closing of “Position encodings”."""
    sections = dict(view.SECTIONS)
    assert len(sections["remember.s16"]) == 6 and len(sections["remember.closing"]) == 5
    for _, points in view.SECTIONS:
        for point in points:
            for part in ("title", "text", "look"):
                assert text.has(f"{point['key']}.{part}"), (point["key"], part)
            assert point["links"], point["key"]


@pytest.mark.parametrize("section, point, item", ITEMS,
                         ids=[f"{p['key']}->{i['page']}:{i['scene']}" for _, p, i in ITEMS])
def test_every_link_targets_an_existing_page_and_scene(section, point, item):
    pages = _app_pages()
    assert view.page_file(item["page"]) in pages, item
    assert pages[view.page_file(item["page"])] == view.URL_PATHS[item["page"]]
    assert text.has(view.nav_key(item["page"]))
    if item["scene"] is None:
        return
    story = scenes.SCENES[item["page"]]
    assert 1 <= item["scene"] <= len(story), f"{item['page']} has {len(story)} scenes, the link says {item['scene']}"
    now = story[item["scene"] - 1]["title"]
    assert now == item["title"], f"{item['page']} scene {item['scene']} is now {now}: update posviz.views.remember"


def test_url_paths_match_the_app():
    pages = _app_pages()
    for page, path in view.URL_PATHS.items():
        assert pages[view.page_file(page)] == path


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_page_renders_every_point_and_link(lang):
    at = open_page("remember", lang)
    assert_clean(at)
    assert at.title[0].value == text.get(lang, "remember.title")
    headers = [h.value for h in at.subheader]
    for _, points in view.SECTIONS:
        for number, point in enumerate(points, 1):
            assert f"{number} · {text.get(lang, point['key'] + '.title')}" in headers
    links = at.get("page_link")
    assert len(links) == len(ITEMS)
    for (_, _, item), el in zip(ITEMS, links):
        query = dict(urllib.parse.parse_qsl(el.proto.query_string))
        assert el.proto.page == view.URL_PATHS[item["page"]]
        assert query["lang"] == lang and "present" not in query
        if item["scene"] is None:
            assert "scene" not in query
        else:
            assert query["scene"] == str(item["scene"])
            assert text.get(lang, item["title"]) in el.proto.label       # the label names the scene
    captions = {c.value for c in at.caption}
    for _, _, item in ITEMS:                                            # and each group names its page
        if item["scene"] is not None:
            assert f"**{text.get(lang, view.nav_key(item['page']))}**" in captions


def test_lecture_mode_links_keep_lecture_mode():
    at = open_page("remember", "zh", present="1")
    assert_clean(at)
    for el in at.get("page_link"):
        query = dict(urllib.parse.parse_qsl(el.proto.query_string))
        assert query["present"] == "1" and query["lang"] == "zh"


def test_no_seed_and_chinese_wording():
    """The articles are cited by title; the causal mask is 因果掩码 (issue 14)."""
    from posviz.text import remember

    for lang, table in (("en", remember.EN), ("zh", remember.ZH)):
        for key, s in table.items():
            assert "seed" not in s.lower() and "种子" not in s, key
            if lang == "zh":
                assert "因果 mask" not in s and "causal mask" not in s, key


FIRST_LINK_PER_PAGE = list({item["page"]: item for _, _, item in ITEMS if item["scene"] is not None}.values())


@pytest.mark.parametrize("item", FIRST_LINK_PER_PAGE, ids=[i["page"] for i in FIRST_LINK_PER_PAGE])
def test_a_link_opens_its_scene(item):
    """What the hall sees after a click: the page opened with ?scene=N shows scene N (the frame applies it)."""
    at = open_page(item["page"], "zh", scene=str(item["scene"]))
    assert not at.exception, [e.value for e in at.exception]
    n = len(scenes.SCENES[item["page"]])
    assert any(f"{item['scene']}/{n}" in i.value and text.get("zh", item["title"]) in i.value for i in at.info)

"""Every user-visible string exists in both languages; scenes are well formed."""
import ast
import pathlib
import re

from harness.text_checks import english_outside_code as _english_outside_code
from posviz import scenes, text

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_languages_have_the_same_keys():
    en, zh = text.TABLES["en"], text.TABLES["zh"]
    assert set(en) - set(zh) == set(), f"missing in zh: {sorted(set(en) - set(zh))[:20]}"
    assert set(zh) - set(en) == set(), f"missing in en: {sorted(set(zh) - set(en))[:20]}"


def test_every_topic_module_has_parity_on_its_own():
    for topic in text.TOPICS:
        path = ROOT / "posviz" / "text" / f"{topic}.py"
        if not path.exists():
            continue
        mod = __import__(f"posviz.text.{topic}", fromlist=["EN", "ZH"])
        assert set(mod.EN) == set(mod.ZH), (topic, sorted(set(mod.EN) ^ set(mod.ZH))[:10])


def _fields(s):
    """The format fields of a string ({n}, {x:.3f} -> n, x), without escaped braces."""
    return sorted(set(re.findall(r"(?<!\{)\{([a-z_0-9]+)[^{}]*\}(?!\})", s)))


def test_no_empty_strings_and_format_fields_match():
    for key, en in text.TABLES["en"].items():
        zh = text.TABLES["zh"][key]
        assert en.strip() and zh.strip(), key
        assert _fields(en) == _fields(zh), (key, _fields(en), _fields(zh))


def test_chinese_strings_are_chinese():
    """A zh string identical to its en string is allowed only for names and symbols."""
    cjk = re.compile(r"[\u4e00-\u9fff]")
    untranslated = [k for k, en in text.TABLES["en"].items()
                    if len(en) > 40 and not cjk.search(text.TABLES["zh"][k])]
    assert not untranslated, untranslated[:10]


def test_scenes_are_well_formed_and_refer_to_page_widgets():
    for page, items in scenes.SCENES.items():
        assert 2 <= len(items) <= 8, page
        tree = ast.parse((ROOT / "app_pages" / f"{page}.py").read_text(encoding="utf-8"))
        literals = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
        prefixes = {n.values[0].value for n in ast.walk(tree) if isinstance(n, ast.JoinedStr)
                    and n.values and isinstance(n.values[0], ast.Constant)}  # f"chk_break{i}"
        for sc in items:
            assert text.has(sc["title"]) and text.has(sc["say"]), (page, sc["title"])
            for key in sc["values"]:
                made = key in literals or any(key.startswith(p) for p in prefixes if p)
                assert made, f"scene of {page} sets {key}, which the page does not create"


def test_pages_use_only_existing_text_keys():
    """Literal keys passed to ui.t / ui.header in pages exist."""
    for path in (ROOT / "app_pages").glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "t" and node.args and isinstance(node.args[0], ast.Constant)):
                assert text.has(node.args[0].value), f"{path.name}: unknown text key {node.args[0].value}"


# How the articles are cited to users: by their titles, never as "seed 000". A random seed is a seed.
SEED_AS_ARTICLE = re.compile(r"seed\s*0{0,2}[01]\b|seed\s*(article|text|paper)s?|(both|the two|two)\s+seeds|"
                             r"种子\s*(文章|0|00)|种子文章|种子\s*[一二]", re.I)


def _user_strings():
    """Every user-visible string: the text tables, and string literals in pages and figures."""
    for lang, table in text.TABLES.items():
        for key, value in table.items():
            yield f"text[{lang}] {key}", value
    for folder in ("app_pages", "posviz/figures"):
        for path in sorted((ROOT / folder).glob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and not _is_docstring(node, path):
                    yield f"{path.relative_to(ROOT)}:{node.lineno}", node.value


_DOCSTRING_LINES = {}


def _is_docstring(node, path):
    _cache = _DOCSTRING_LINES
    if path not in _cache:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        _cache[path] = {id(n.body[0].value) for n in ast.walk(tree)
                        if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef)) and n.body
                        and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
        _cache[(path, "lines")] = {n.body[0].value.lineno for n in ast.walk(tree)
                                   if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef)) and n.body
                                   and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    return node.lineno in _cache[(path, "lines")]


def test_no_user_text_calls_the_articles_seeds():
    bad = [f"{where}: {s[:90]!r}" for where, s in _user_strings() if SEED_AS_ARTICLE.search(s)]
    assert not bad, "cite the articles by title:\n" + "\n".join(bad)


def test_the_articles_are_cited_by_their_titles_in_both_languages():
    zh = " ".join(text.TABLES["zh"].values())
    en = " ".join(text.TABLES["en"].values())
    assert "《词相同但顺序不同" in zh and "《位置编码》" in zh
    assert "Same words, different order" in en and "Position encodings" in en


def test_chinese_errors_and_messages_have_no_english_sentences():
    bad = [f"{k}: {v[:100]!r}" for k, v in text.TABLES["zh"].items()
           if (k.startswith("err.") or k.startswith("ui.")) and _english_outside_code(v)]
    assert not bad, "\n".join(bad)

"""Every user-visible string exists in both languages; scenes are well formed."""
import ast
import os
import pathlib
import re

import pytest

from harness.apptest import open_page
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
        assert 2 <= len(items) <= 11, page    # 11: /relative's six, then one per deep dive of the family (issue 37)
        tree = ast.parse((ROOT / "app_pages" / f"{page}.py").read_text(encoding="utf-8"))
        literals = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
        prefixes = {n.values[0].value for n in ast.walk(tree) if isinstance(n, ast.JoinedStr)
                    and n.values and isinstance(n.values[0], ast.Constant)}  # f"chk_break{i}"
        for sc in items:
            assert text.has(sc["title"]) and text.has(sc["say"]), (page, sc["title"])
            for key in sc["values"]:
                made = key in literals or any(key.startswith(p) for p in prefixes if p)
                assert made, f"scene of {page} sets {key}, which the page does not create"


def _literal(node):
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _label_keys(node):
    """The text keys one ui.labels(...) call names literally: prefix.name, key, (key, {fields}), [keys]."""
    prefix = _literal(node.args[0]) if node.args else None
    names = [_literal(a) for a in node.args[1:]]
    keys = [f"{prefix}.{n}" for n in names if prefix and n]
    values = [kw.value for kw in node.keywords if kw.arg]
    values += [v for kw in node.keywords if kw.arg is None and isinstance(kw.value, ast.Dict) for v in kw.value.values]
    for v in values:
        parts = v.elts[:1] if isinstance(v, ast.Tuple) else v.elts if isinstance(v, ast.List) else [v]
        keys += [k for k in map(_literal, parts) if k]
    return keys


def test_pages_use_only_existing_text_keys():
    """Literal keys passed to ui.t and ui.labels in pages exist (keys built at run time are checked when
    a test draws them: tests run with POSVIZ_STRICT_TEXT=1, where a missing key raises)."""
    for path in (ROOT / "app_pages").glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            if node.func.attr == "t" and node.args and _literal(node.args[0]):
                assert text.has(node.args[0].value), f"{path.name}: unknown text key {node.args[0].value}"
            if node.func.attr == "labels":
                for key in _label_keys(node):
                    assert text.has(key), f"{path.name}:{node.lineno}: unknown text key {key}"


def test_the_labels_check_reads_every_form_of_key():
    call = ast.parse("ui.labels('a.b', 'c', 'd', x='e.f', y=('g.h', {'n': 1}), z=['i', 'j'], **{'k.l': 'm'})").body[0]
    assert _label_keys(call.value) == ["a.b.c", "a.b.d", "e.f", "g.h", "i", "j", "m"]


def test_a_missing_key_raises_in_tests_and_falls_back_for_users(monkeypatch):
    """Strict (every test run, tests/conftest.py): a key missing in the language asked for raises, also
    when English has it. Otherwise a user sees the English string, or at worst the key, never a traceback."""
    assert os.environ.get("POSVIZ_STRICT_TEXT") == "1"
    monkeypatch.delitem(text.TABLES["zh"], "rope.title")
    for lang, key in (("en", "no.such.key"), ("zh", "no.such.key"), ("zh", "rope.title")):
        with pytest.raises(LookupError, match=key):
            text.get(lang, key)
    assert text.get("en", "rope.title") and text.get("zh", "overview.title")
    monkeypatch.delenv("POSVIZ_STRICT_TEXT")
    assert text.get("zh", "rope.title") == text.get("en", "rope.title")
    assert text.get("zh", "no.such.key") == "no.such.key"


def test_a_page_missing_a_string_fails_its_test(monkeypatch):
    """The page stops with an exception instead of showing the raw key, so that assert_clean (every page
    test) fails on it."""
    monkeypatch.delitem(text.TABLES["zh"], "rope.clock.title")
    at = open_page("rope", "zh")
    assert at.exception and not any(h.value == "rope.clock.title" for h in at.subheader)


# How the articles are cited to users: by their titles, never as "seed 000". A random seed is a seed.
SEED_AS_ARTICLE = re.compile(r"seed\s*0{0,2}[01]\b|seed\s*(article|text|paper)s?|(both|the two|two)\s+seeds|"
                             r"种子\s*(文章|0|00)|种子文章|种子\s*[一二]|\bseeds'", re.I)


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


# The second article's reference list ("Position encodings", 参考资料): the year each work is cited with.
ARTICLE_YEARS = {"Vaswani": 2017, "Shaw": 2018, "Raffel": 2020, "Su": 2021, "Press": 2021, "Haviv": 2022,
                 "Kazemnejad": 2023, "Chen": 2023, "Peng": 2023}


def test_every_citation_of_an_article_reference_has_its_year():
    """Press, Smith & Lewis is 2021 everywhere (/decay said 2022)."""
    bad = []
    for where, s in _user_strings():
        for name, year in ARTICLE_YEARS.items():
            for m in re.finditer(rf"(?<!& )(?<!, )(?<!、)(?<!与 )\b{name}\b[^0-9▶\n]{{0,30}}?\b((?:19|20)\d\d)\b", s):
                if int(m.group(1)) != year:
                    bad.append(f"{where}: {m.group(0)!r} (the articles: {name} {year})")
    assert not bad, "\n".join(bad)


def test_every_file_and_module_the_text_names_exists():
    """/length pointed at posviz/weights/results.json; it is under posviz/tinylm/weights/."""
    import importlib

    bad = []
    for key, s in text.TABLES["en"].items():
        for path in re.findall(r"\b((?:posviz|app_pages|benchmarks|harness|deploy)/[\w/.-]*\w)", s):
            if not (ROOT / path).exists():
                bad.append(f"{key}: {path}")
        for dotted in re.findall(r"\b(posviz(?:\.\w+)+)", s):
            parts, obj = dotted.split("."), None
            for n in range(len(parts), 0, -1):
                try:
                    obj = importlib.import_module(".".join(parts[:n]))
                except ImportError:
                    continue
                for attr in parts[n:]:
                    obj = getattr(obj, attr, None)
                break
            if obj is None:
                bad.append(f"{key}: {dotted}")
    assert not bad, "\n".join(bad)


def test_checks_step9_says_which_positions_bfloat16_cannot_hold():
    """bfloat16 holds every integer up to 256 and 258 too: "above 256 not even p is representable" was wrong."""
    import torch

    exact = [p for p in range(0, 300) if int(torch.tensor(float(p)).bfloat16().float()) == p]
    assert exact[:257] == list(range(257)) and 257 not in exact and 258 in exact
    assert int(torch.tensor(257.0).bfloat16().float()) == 256
    for lang in text.LANGS:
        s = text.get(lang, "checks.step9.fail")
        assert "257" in s and "256" in s, (lang, s)
    assert "not even" not in text.get("en", "checks.step9.fail")


def test_chinese_uses_one_term_per_concept_the_articles():
    """posviz/text/terms.py: Query / Key (not 查询 / 键 / query / key), padding (not 补齐), position id (not 位置 id),
    偶奇配对 (not 奇偶配对), in every zh string outside `code`, $math$ and {fields}."""
    from posviz.text.terms import _ZH_TERMS

    bad = []
    for key, s in text.TABLES["zh"].items():
        prose = re.sub(r"`[^`]*`|\$[^$]*\$|\{[^{}]*\}", " ", s)
        for concept, term, variants in _ZH_TERMS:
            for m in re.finditer(variants, prose):
                near = prose[max(0, m.start() - 12):m.end() + 12]
                bad.append(f"{key}: {m.group(0)!r} for {concept} (use {term}): …{near}…")
    assert not bad, "\n".join(bad[:40])
    for concept, term, variants in _ZH_TERMS:     # the table's own term is never one of its variants
        assert not re.search(variants, term), concept


def _page_names(tree):
    """{name: object} of a page's posviz imports."""
    import importlib

    names = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("posviz"):
            mod = importlib.import_module(node.module)
            for a in node.names:
                sub = getattr(mod, a.name, None)
                names[a.asname or a.name] = importlib.import_module(f"{node.module}.{a.name}") if sub is None else sub
    return names


def _explained_functions():
    """(page, name, function) of every function a page hands to ui.explain (directly, or as explain=(...) of a
    section helper), resolved in the page's imports."""
    for path in sorted((ROOT / "app_pages").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = _page_names(tree)
        args = []
        for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call)):
            if isinstance(call.func, ast.Attribute) and call.func.attr == "explain":
                args += [a for a in call.args if not isinstance(a, ast.Starred)]
            args += [e for kw in call.keywords if kw.arg == "explain" and isinstance(kw.value, ast.Tuple)
                     for e in kw.value.elts]
        for arg in args:
            if isinstance(arg, ast.Subscript):      # STEP_FUNCTIONS[i] in a loop: every one of them
                box = eval(ast.unparse(arg.value), {}, dict(names))
                fns = list(box.values() if isinstance(box, dict) else box)
            else:
                fns = [eval(ast.unparse(arg), {}, dict(names))]       # the page's own names
            yield from ((path.stem, ast.unparse(arg), fn) for fn in fns)


def test_formula_and_code_listings_cite_the_articles_by_title():
    """Users read these sources in "Formula and code" (22 listings said "seed 000 §09's rope_attention", "The
    transparent formula of seed 000 §09", "(seed 000 §11)")."""
    import inspect

    shown = list(_explained_functions())
    assert len(shown) > 40
    bad = [f"{page}: {name}" for page, name, fn in shown if SEED_AS_ARTICLE.search(inspect.getsource(fn))]
    assert not bad, "\n".join(bad)
    import posviz.pe  # the one place that gives both titles in full

    assert "《词相同但顺序不同，注意力怎样辨别位置？从正弦编码到 RoPE》" in posviz.pe.__doc__
    assert "《位置编码》" in posviz.pe.__doc__


def test_issue_33_chinese_wording_and_figure_symbols():
    """Issue 33 item 7: "每个 token 的position id", "学习式表（63 之后 N/A）", 可学习 beside 学习式 for one table,
    relative.shaw.md's 值一侧, ASCII "; " and "." in the findings lines, raw λ_i, θ_i, k^R, W_UK in figure labels."""
    zh = text.TABLES["zh"]
    assert zh["frontier.fig.ids.title"] == "每个 token 的 position id"
    assert "N/A" not in zh["w.len_model.learned"] and "学习式表" in zh["w.len_model.learned"]
    assert "可学习表" not in zh["lab.pack.oor"] and "学习式位置表" in zh["lab.pack.oor"]
    assert "值一侧" not in zh["relative.shaw.md"]
    assert zh["length.f.sep"] == "；" and zh["length.f.line"].endswith("。") and "**：" in zh["length.f.line"]
    legends = {"models.prop.proportional", "models.prop.partial"}     # row names and legend entries of /models
    for lang in text.LANGS:
        for key, s in text.TABLES[lang].items():
            if ".fig." in key or key.endswith(("_x", "_y", ".fig")) or key in legends:
                assert not re.search(r"λ_i|θ_i|θ′_i|k\^R|q\^R|W_UK(?!<)", s), (lang, key, s)

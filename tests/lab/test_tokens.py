import pytest
import torch

from posviz.lab.tokens import MAX_CHARS, MAX_TOKENS, MAX_WORD, PAD, PAD_ID, build_vocab, encode, tokenize


def test_whitespace_words_and_cjk_characters():
    assert tokenize("dog bites man") == ["dog", "bites", "man"]
    assert tokenize("猫追狗") == ["猫", "追", "狗"]
    assert tokenize("我爱ML") == ["我", "爱", "ML"]          # mixed: Latin run stays one word
    assert tokenize("  你也爱 ML吗 ") == ["你", "也", "爱", "ML", "吗"]
    assert tokenize("こんにちは") == list("こんにちは")
    assert tokenize("tab\tand\nnewline") == ["tab", "and", "newline"]


def test_markup_is_kept_as_plain_text():
    assert tokenize("<script>alert(1)</script>") == ["<script>alert(1)</script>"]
    assert tokenize("<b>bold</b> x") == ["<b>bold</b>", "x"]


@pytest.mark.parametrize("bad, msg", [
    ("", "empty"), ("   ", "empty"), ("\n\t ", "empty"), ("\u200b", "empty"),
    ("x" * 10_000, "too long"), ("a" * (MAX_CHARS + 1), "too long"),
    (" ".join(["w"] * (MAX_TOKENS + 1)), "too many tokens"), ("猫" * (MAX_TOKENS + 1), "too many tokens"),
    (None, "must be text"), (42, "must be text"), ("x" * 500, "per word"),
])
def test_invalid_sentences(bad, msg):
    with pytest.raises(ValueError, match=msg) as e:
        tokenize(bad, name="sentence A")
    assert "sentence A" in str(e.value)


def test_limits_are_inclusive():
    assert len(tokenize(" ".join(["w"] * MAX_TOKENS))) == MAX_TOKENS
    assert tokenize("a" * MAX_WORD) == ["a" * MAX_WORD]
    assert len(tokenize("猫" * MAX_TOKENS)) == MAX_TOKENS


def test_vocab_and_padding():
    assert build_vocab([["a", "b"], ["b", "c"]]) == {"a": 1, "b": 2, "c": 3}
    b = encode(["我爱ML", "你也爱ML吗"], padding_side="left")
    assert b.token_ids.tolist() == [[0, 0, 1, 2, 3], [4, 5, 2, 3, 6]]
    assert b.attention_mask.tolist() == [[0, 0, 1, 1, 1], [1, 1, 1, 1, 1]]
    assert b.tokens[0] == [PAD, PAD, "我", "爱", "ML"]
    assert b.lengths == (3, 5)
    r = encode(["我爱ML", "你也爱ML吗"], padding_side="right")
    assert r.token_ids.tolist() == [[1, 2, 3, 0, 0], [4, 5, 2, 3, 6]]
    assert (r.token_ids == PAD_ID).eq(r.attention_mask == 0).all()
    assert r.token_ids.dtype == torch.long


def test_encode_validation():
    with pytest.raises(ValueError, match="padding_side"):
        encode(["a"], padding_side="middle")
    with pytest.raises(ValueError, match="sentences"):
        encode("a b")
    with pytest.raises(ValueError, match="sentence 2"):
        encode(["a", "  "])


def test_errors_are_coded_and_speak_chinese():
    from posviz import text

    for bad, code in (("", "lab.empty"), ("x" * 600, "lab.too_long"), ("猫" * (MAX_TOKENS + 1), "lab.too_many_tokens"),
                      ("x" * 60, "lab.long_word"), (7, "lab.not_text")):
        with pytest.raises(ValueError) as e:
            tokenize(bad, name="句子 A")
        assert e.value.code == code and text.has(f"err.{code}")
        zh = e.value.message("zh")
        assert zh.startswith("句子 A") and not any(w in zh for w in ("empty", "too long", "allowed"))
    with pytest.raises(ValueError, match="vocab"):
        encode(["a b"], vocab={"a": 1})

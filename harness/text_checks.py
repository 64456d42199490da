"""Checks of user-visible text shared by the tests (the string tables and the boxes a page shows)."""
import re

# An English sentence: four or more English words in a row (code in backticks and names of models are not).
ENGLISH_SENTENCE = re.compile(r"(?<![`\w])(?:[A-Za-z][a-z]+[ ,;:]+){3,}[A-Za-z][a-z]+")


def english_outside_code(s):
    """The first English sentence of `s` outside `code`, $formulas$ and {format fields} (a match), or None."""
    return ENGLISH_SENTENCE.search(re.sub(r"`[^`]*`|\$[^$]*\$|\{[^}]*\}", " ", s))

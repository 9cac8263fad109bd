"""A scenario's own words (its title and description, the names of its sides, formations,
units, locales and places) in one language or several: a text, or an object of texts by
language code, ``{"en": "France", "pl": "Francja", "fr": "France", "ja": "フランス"}``
(docs/scenario-format.md, "Texts in several languages").

The core keeps such a value as the file gives it: the screen shows the player's language
(``static/i18n.js``, ``I18n.pick``). The core's own English (a refusal's ``str()``, a sort
order) reads ``english``: the English text, else the first given.
"""

from __future__ import annotations

from typing import Any

from .parsing import brief, expect, show, worded_options

# The languages the app has words for (static/i18n/<code>.json).
LANGUAGES = ("en", "pl", "fr", "ja")


def check_words(value: Any, place: str, empty: bool = False) -> None:
    """Refuse ``value`` unless it is a text (non-empty unless ``empty``) or an object of such
    texts by language code (one at least, each code one of ``LANGUAGES``), naming ``place``.

    >>> check_words("France", "sides[0] name")
    >>> check_words({"en": "France", "ja": "フランス"}, "sides[0] name")
    >>> check_words({"de": "Frankreich"}, "sides[0] name")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    muster.errors.ScenarioError: sides[0] name.de: unknown language "de", expected one of "en", ...
    >>> check_words({"pl": 3}, "sides[0] name")
    Traceback (most recent call last):
    ...
    muster.errors.ScenarioError: sides[0] name.pl: expected a non-empty text
    """
    problem = "problem.text" if empty else "problem.non_empty_text"
    if isinstance(value, dict):
        expect(len(value) > 0, place, "problem.words_object")
        for code, text in value.items():
            at = f"{place}.{brief(code, 12)}"
            known, got = worded_options(LANGUAGES), show(code)
            expect(code in LANGUAGES, at, "problem.unknown_language", got=got, options=known)
            expect(isinstance(text, str) and (empty or text != ""), at, problem)
        return
    expect(isinstance(value, str) and (empty or value != ""), place, problem)


def english(value: Any) -> str:
    """The English of a checked text of the file: the ``en`` text, else the first given.

    >>> english("France"), english({"pl": "Francja", "en": "France"}), english({"ja": "仏"})
    ('France', 'France', '仏')
    """
    if isinstance(value, dict):
        if isinstance(value.get("en"), str):
            return str(value["en"])
        return next((str(v) for v in value.values() if isinstance(v, str)), "")
    return str(value)

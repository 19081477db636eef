"""A player's language: a thin :class:`Translator` over the project's one message system, for the terminal table
(``burraco play``) and the coach's words in the browser (:mod:`burraco.coach`).

Every text of the terminal table is a code of the catalogues (``burraco.lang``, the section "the terminal table"
of each language), rendered by :func:`burraco.messages.render` in the player's form: cards given in the notation
(``7h 8h``) show as symbols (``7♥ 8♥``, the joker as the language's word), and an engine refusal shows as its
reason only. The language defaults to the system locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``) and falls back to
English; ``burraco play --lang`` overrides it (a resumed game keeps the language it was played in).

>>> tr = Translator("it")
>>> tr("tui_stock", n=41)
'Tallone: 41'
>>> Translator("de")("tui_cards", n=1), Translator("de")("tui_cards", n=11)
('1 Karte', '11 Karten')
>>> tr("tui_selected", cards="7h Td JK")
'scelte: 7♥ 10♦ Jolly'
>>> from burraco.messages import msg
>>> Translator("de")("tui_refused", reason=msg("stock_empty"))
'Nicht erlaubt: der Stapel ist leer'
"""

from __future__ import annotations

import locale
import os
from collections.abc import Iterable

from .cards import CARD_STR
from .messages import LANGS, Message, Param, card_symbol, catalogue, msg, render

__all__ = ["LANGS", "Translator", "check_lang", "default_lang"]


def default_lang() -> str:
    """The language of the system locale when it is one of LANGS, else English."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        v = os.environ.get(var)
        if v:
            code = v.split(":")[0].split(".")[0].split("_")[0].lower()
            return code if code in LANGS else "en"
    try:
        loc = locale.getlocale()[0] or ""
    except ValueError:
        loc = ""
    code = loc.split("_")[0].lower()
    return code if code in LANGS else "en"


def check_lang(lang: str | None) -> str:
    """``lang`` when it is known, the system default when None; raises ValueError for an unknown one."""
    if lang is None:
        return default_lang()
    code = lang.strip().lower()
    if code not in LANGS:
        raise ValueError(f"unknown language {lang!r} (languages are {', '.join(LANGS)})")
    return code


class Translator:
    """The texts of one language: ``tr(code, **params)`` renders a catalogue code for the player's screen."""

    def __init__(self, lang: str | None = None) -> None:
        self.lang = check_lang(lang)
        self._words: dict[str, dict[str, str]] = catalogue(self.lang)["words"]
        #: the joker as this language names it (``Jolly``)
        self.joker = self._words["joker"]["JK"]

    def __call__(self, code: str, **params: Param) -> str:
        """The message ``code`` with its parameters (cards in the notation; a nested Message is rendered too)."""
        return render(Message(code, params), self.lang, player=True)

    def render(self, m: Message) -> str:
        """An engine message (a refusal, a hint's reason, a line of the moves log) in this language."""
        return render(m, self.lang, player=True)

    def word(self, table: str, key: str) -> str:
        """A word of the catalogue's ``table`` (English where this language lacks it, else the key)."""
        return self._words.get(table, {}).get(key, key)

    def words(self, table: str) -> dict[str, str]:
        """A whole word table of this language."""
        return dict(self._words.get(table, {}))

    def card(self, c: int) -> str:
        """A card as the player reads it: ``7♥``, ``10♦``, the joker as the language's word."""
        return card_symbol(CARD_STR[c], self.joker)

    def cards_text(self, cards: Iterable[int]) -> str:
        """Cards as the player reads them, space-separated."""
        return " ".join(self.card(c) for c in cards)

    def cards(self, n: int) -> str:
        """``11 cards``, ``1 card``."""
        return self.render(msg("tui_cards", n=n))

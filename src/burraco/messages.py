"""The engine's messages in five languages: every refusal and hint reason is a code with parameters.

An engine error (:class:`~burraco.actions.ActionError`, :class:`~burraco.melds.MeldError`) carries a
:class:`Message` as ``err.msg``; ``str(err)`` is its English text. Interfaces render it in the player's language:

>>> from burraco import Game, preset
>>> from burraco.messages import render
>>> g = Game.new(preset("italian"), seed=1)
>>> err = g.check(g.parse("E discard 3d"))
>>> err.msg.code, err.msg.params["reason"].code
('action_refused', 'not_your_turn')
>>> render(err.msg, "en")
"E discard 3d: it is N's turn, not E's (§3.1)"
>>> render(err.msg, "it")
'E discard 3d: tocca a N, non a E (§3.1)'

A template is text with three kinds of fields:

* ``{name}`` — the parameter's value; a nested :class:`Message` is rendered in the same language, a list is joined
  with the language's ``and``;
* ``{name:table}`` — the word ``words[table][str(value)]`` of the language (suit names, ranks with their article …);
* ``{name|one|other}`` — ``one`` when the parameter is 1, else ``other`` (plurals).

Cards travel in the notation of RECORDS.md §1 (``7h``, ``Td``, ``JK``), in parameters named ``card``, ``cards``,
``meld``, ``other``, ``top`` or ``wilds`` (:data:`CARD_PARAMS`). ``render(m, lang, symbols=True)`` shows them as a
player reads them (``7♥``, ``10♦``), and ``player=True`` also leaves out the record notation of a refused action
(``action_refused`` renders as its reason): the form for a table's screen.

>>> render(msg("not_a_meld", cards="5h 6h 7c", reason=msg("wrong_suit", card="7c", suit="h")), "it", symbols=True)
'5♥ 6♥ 7♣ non è un gioco: 7♣ non è di cuori e non è una matta'

:func:`catalogue` gives a language's templates and words as JSON, so a browser renders the same messages with the
same rules (``docs/protocol.md``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, Union

from .lang import de, en, it, nl, pt

#: the languages every message exists in
LANGS = ("en", "it", "de", "pt", "nl")

_CATALOGUES: dict[str, tuple[dict[str, str], dict[str, dict[str, str]]]] = {
    "en": (en.TEMPLATES, en.WORDS),
    "it": (it.TEMPLATES, it.WORDS),
    "de": (de.TEMPLATES, de.WORDS),
    "pt": (pt.TEMPLATES, pt.WORDS),
    "nl": (nl.TEMPLATES, nl.WORDS),
}

#: a field of a template: ``{name}``, ``{name:table}`` or ``{name|one|other}``
FIELD = re.compile(r"\{(\w+)(?::(\w+))?(?:\|([^|{}]*)\|([^{}]*))?\}")

#: the parameters that hold cards in the notation of RECORDS.md §1 (space-separated where several)
CARD_PARAMS = frozenset({"card", "cards", "meld", "other", "top", "wilds"})
#: the suit symbols in the order of the notation's suits ``h d c s``
SUIT_SYMBOLS = "♥♦♣♠"
_NOTATION = re.compile(r"^([A2-9TJQK])([hdcs])$")


def card_symbol(token: str, joker: str = "JK") -> str:
    """A card of the notation as a player reads it: ``7h`` → ``7♥``, ``Td`` → ``10♦``, ``JK`` → ``joker`` (the
    language's word in :func:`render`); any other text is returned as it is."""
    if token == "JK":
        return joker
    m = _NOTATION.match(token)
    if m is None:
        return token
    r, s = m.groups()
    return ("10" if r == "T" else r) + SUIT_SYMBOLS["hdcs".index(s)]


def cards_symbols(text: str, joker: str = "JK") -> str:
    """Every card of a space-separated text as a symbol (:func:`card_symbol`)."""
    return " ".join(card_symbol(t, joker) for t in text.split(" "))

Param = Union[str, int, "Message", Sequence[str | int]]


class Message(NamedTuple):
    """A message: its ``code`` (a key of the catalogues) and its parameters."""

    code: str
    params: Mapping[str, Param]

    def __str__(self) -> str:
        return render(self)


class MessageError(ValueError):
    """An error whose text is a :class:`Message` (``err.msg``); ``str(err)`` is its English text."""

    def __init__(self, message: Message | str) -> None:
        m = text(message) if isinstance(message, str) else message
        super().__init__(m)
        #: the error as a code with parameters, to show in the player's language
        self.msg = m

    @property
    def message(self) -> str:
        """The error in English."""
        return render(self.msg)

    def __str__(self) -> str:
        return render(self.msg)


def msg(code: str, **params: Param) -> Message:
    """Shorthand: ``msg("wrong_suit", card="7c", suit="h")``."""
    return Message(code, params)


def text(s: str) -> Message:
    """A message that is only English text (for errors outside the catalogue; rendered as is in every language)."""
    return Message("text", {"text": s})


def render(
    m: Message, lang: str = "en", *, symbols: bool = False, player: bool = False, you: str | None = None
) -> str:
    """The text of ``m`` in ``lang`` (English where the language or the code is unknown). ``symbols``: cards as
    ``7♥`` instead of ``7h``; ``player``: the form for a player's screen (symbols; a refused action without its
    record notation, told to the player who made it, "you"; the rules it cites as "rule 3.2" instead of "§3.2",
    :func:`player_citations`). ``you``: the seat the text is told to (a refusal's own seat, in the player form):
    a code with a second-person form (``code_you``) takes it."""
    symbols = symbols or player
    if player and m.code == "action_refused" and isinstance(m.params.get("reason"), Message):
        action = m.params.get("action")
        you = str(action).split(" ")[0] if isinstance(action, str) and action else you
        m = m.params["reason"]  # type: ignore[assignment]
    templates, words = _CATALOGUES.get(lang) or _CATALOGUES["en"]
    tpl = templates.get(f"{m.code}_you") if you is not None else None
    if tpl is None:
        tpl = templates.get(m.code)
    if tpl is None:
        tpl = en.TEMPLATES.get(m.code)
        if tpl is None:
            return " ".join(
                [m.code, *(f"{k}={_value(v, None, lang, words, symbols, player, you)}" for k, v in m.params.items())]
            )
    params = m.params

    def field(f: re.Match[str]) -> str:
        name, table, one, other = f.groups()
        v = params.get(name, "?")
        if one is not None:
            return one if v == 1 else other
        out = _value(v, table, lang, words, symbols, player, you)
        if symbols and name in CARD_PARAMS and isinstance(v, str):
            return cards_symbols(out, words.get("joker", {}).get("JK") or en.WORDS["joker"]["JK"])
        return out

    out = FIELD.sub(field, tpl)
    return player_citations(out, lang) if player else out


def _value(
    v: Param,
    table: str | None,
    lang: str,
    words: dict[str, dict[str, str]],
    symbols: bool,
    player: bool,
    you: str | None = None,
) -> str:
    if isinstance(v, Message):
        return render(v, lang, symbols=symbols, player=player, you=you)
    if isinstance(v, (list, tuple)):
        return words["join"]["and"].join(_value(x, table, lang, words, symbols, player, you) for x in v)
    if table is not None:
        w = words.get(table, {}).get(str(v))
        if w is None:
            w = en.WORDS.get(table, {}).get(str(v))
        return str(v) if w is None else w
    return str(v)


#: the rules an engine text cites, as it writes them: ``§3.2``, ``§6.6, §8.1.3``, ``§14.3–§14.4``, ``§0.1 C-22``
#: (a citation of another document, ``RECORDS.md §4``, is not a rule)
_CITED = re.compile(r"(?<!\.md )§\d+(?:\.\d+)*(?:(?:, |–)§\d+(?:\.\d+)*)*")
#: a reference to the rule book's table of disagreeing sources (``C-22``): meaningless on a player's screen
_CONTRADICTION = re.compile(r"(?:,|;)? ?\bC-\d+\b")


def player_citations(text: str, lang: str = "en") -> str:
    """A text's citations of the rule book as a player reads them: ``§3.2`` becomes ``rule 3.2`` (``regola
    3.2`` …), ``§6.6, §8.1.3`` ``rules 6.6, 8.1.3``; the keys of the sources' disagreements (``C-22``) go.

    >>> player_citations("it is N's turn, not S's (§3.1)"), player_citations("(§6.6, §8.1.3)", "it")
    ("it is N's turn, not S's (rule 3.1)", '(regole 6.6, 8.1.3)')
    >>> player_citations("(§0.1 C-22)"), player_citations("seats (RECORDS.md §4)")
    ('(rule 0.1)', 'seats (RECORDS.md §4)')
    """
    if "§" not in text:
        return text
    word = (_CATALOGUES.get(lang) or _CATALOGUES["en"])[1].get("rule") or en.WORDS["rule"]

    def cite(m: re.Match[str]) -> str:
        run = m.group(0)
        many = "," in run or "–" in run
        return f"{word['many' if many else 'one']} {run.replace('§', '')}"

    return _CITED.sub(cite, _CONTRADICTION.sub("", text))


def message_to_json(m: Message) -> dict[str, Any]:
    """``{"code": …, "params": {…}}``, nested messages in the same form (lists stay lists)."""
    return {
        "code": m.code,
        "params": {
            k: message_to_json(v) if isinstance(v, Message) else _plain(v) for k, v in m.params.items()
        },
    }


def _plain(v: Param) -> Any:
    return list(v) if isinstance(v, (list, tuple)) else v


def message_from_json(d: Mapping[str, Any]) -> Message:
    """The inverse of :func:`message_to_json`."""
    params: dict[str, Param] = {}
    for k, v in d["params"].items():
        params[k] = message_from_json(v) if isinstance(v, dict) else tuple(v) if isinstance(v, list) else v
    return Message(str(d["code"]), params)


def catalogue(lang: str) -> dict[str, Any]:
    """A language's ``{"templates": …, "words": …}`` (English templates fill any the language lacks)."""
    templates, words = _CATALOGUES.get(lang) or _CATALOGUES["en"]
    return {
        "lang": lang if lang in _CATALOGUES else "en",
        "templates": {**en.TEMPLATES, **templates},
        "words": {k: {**en.WORDS.get(k, {}), **v} for k, v in words.items()},
    }


__all__ = [
    "CARD_PARAMS",
    "FIELD",
    "SUIT_SYMBOLS",
    "card_symbol",
    "cards_symbols",
    "LANGS",
    "Message",
    "catalogue",
    "message_from_json",
    "message_to_json",
    "msg",
    "player_citations",
    "render",
    "text",
]

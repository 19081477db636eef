"""The typed commands of ``burraco play --plain``, and of the line where the full-screen table takes typed cards.

A command is a letter or a word (English, or the player's language: ``aiuto`` is ``help`` in Italian) and its
cards. Cards may be written in the notation (``7h``, ``Td``, ``10d``, ``JK``) or as they are shown (``7♥``,
``10♦``, the joker by its word in the player's language). ``1 2s`` adds 2♠ to meld 1, like ``a 1 2s``; cards alone
(``7h 8h 9h``) are a choice of cards (the full-screen table selects them).

>>> from burraco.i18n import Translator
>>> tr = Translator("it")
>>> parse_command("m 5h 3♥ 4h", "S", tr)
Command(kind='action', action=Action(seat='S', verb='meld', cards=(2, 3, 4), meld=0), cards=(), arg='')
>>> str(parse_command("a 2 jolly", "S", tr).action), str(parse_command("2 10c", "S", tr).action)
('S add 2 JK', 'S add 2 Tc')
>>> parse_command("aiuto", "S", tr).kind, parse_command("7♥ 8h", "S", tr).kind
('help', 'select')
>>> command_text(parse_command("a 2 jk 10c", "S", tr).action, tr)
'a 2 10♣ Jolly'
>>> parse_command("meld", "S", tr)
Traceback (most recent call last):
...
burraco.tui.commands.CommandError: Scrivi le carte come valore e seme, es. 7h 10d JK, o come si vedono: 7♥ 10♦
"""

from __future__ import annotations

from dataclasses import dataclass

from ..actions import Action
from ..cards import JOKER, CardError, parse_card
from ..i18n import Translator
from ..messages import catalogue

__all__ = ["WORDS", "Command", "CommandError", "command_text", "parse_command", "typed_card"]

#: command words (first token) -> kind; the player's language adds its own (the catalogue's ``tui_command``)
WORDS: dict[str, str] = {
    "d": "draw",
    "draw": "draw",
    "p": "pick",
    "pick": "pick",
    "take": "pick",
    "m": "meld",
    "meld": "meld",
    "a": "add",
    "add": "add",
    "x": "discard",
    "discard": "discard",
    "h": "hint",
    "hint": "hint",
    "u": "undo",
    "undo": "undo",
    "o": "sort",
    "sort": "sort",
    "t": "table",
    "table": "table",
    "l": "legal",
    "legal": "legal",
    "r": "rules",
    "rules": "rules",
    "s": "speed",
    "speed": "speed",
    "pace": "speed",
    "?": "help",
    "help": "help",
    "q": "quit",
    "quit": "quit",
    "exit": "quit",
    "timeout": "timeout",
    "time-out": "timeout",
}


def command_words(lang: str) -> dict[str, str]:
    """The command words of ``lang`` (its catalogue's ``tui_command`` table: kind -> words) and the English
    ones."""
    out = dict(WORDS)
    for kind, words in catalogue(lang)["words"].get("tui_command", {}).items():
        for w in words.split():
            out.setdefault(w.lower(), kind)
    return out


def command_text(a: Action, tr: Translator) -> str:
    """What the player types for ``a``, its cards as he reads them: ``m 3♥ 4♥ 5♥``, ``a 2 Jolly``."""
    cards = tr.cards_text(a.cards)
    short = {
        "draw": "d",
        "pick": "p",
        "meld": f"m {cards}",
        "add": f"a {a.meld} {cards}",
        "discard": f"x {cards}",
    }
    return short.get(a.verb, str(a).removeprefix(f"{a.seat} "))


class CommandError(ValueError):
    """A command that cannot be understood (the message is in the player's language)."""


@dataclass(frozen=True)
class Command:
    """``kind`` is ``action`` (with ``action``), ``select`` (cards alone, in ``cards``) or one of hint, undo, sort,
    table, legal, rules (``arg``: the rule asked for, ``6.4``, empty for the one last named), speed (``arg``: the
    pace asked for, empty to take the next one), timeout (the director's time-out, §9.4), help, quit, next (an
    empty line)."""

    kind: str
    action: Action | None = None
    cards: tuple[int, ...] = ()
    arg: str = ""


def typed_card(token: str, tr: Translator) -> int:
    """One card as the player typed it: the notation, the symbols, or the joker's word in his language."""
    if token.lower() == tr.joker.lower():
        return JOKER
    return parse_card(token)


def _cards(args: list[str], tr: Translator) -> tuple[int, ...]:
    if not args:
        raise CommandError(tr("tui_bad_cards"))
    try:
        return tuple(sorted(typed_card(a, tr) for a in args))
    except CardError as e:
        raise CommandError(tr("tui_bad_cards")) from e


def _all_cards(toks: list[str], tr: Translator) -> bool:
    try:
        for t in toks:
            typed_card(t, tr)
    except CardError:
        return False
    return True


def parse_command(text: str, seat: str, tr: Translator) -> Command:
    """Parse one line typed by the player sitting at ``seat`` (``N E S W``)."""
    toks = text.split()
    if not toks:
        return Command("next")
    word, args = toks[0].lower(), toks[1:]
    if word.isdigit():  # "1 2s": add to meld 1, as the prompt offers
        word, args = "a", toks
    kind = command_words(tr.lang).get(word)
    if kind is None:
        if _all_cards(toks, tr):
            return Command("select", cards=_cards(toks, tr))
        raise CommandError(tr("tui_unknown_command", cmd=toks[0]))
    if kind in ("draw", "pick"):
        return Command("action", Action(seat, kind))
    if kind == "meld":
        return Command("action", Action.meld_cards(seat, _cards(args, tr)))
    if kind == "add":
        if not args or not args[0].isdigit() or int(args[0]) < 1:
            raise CommandError(tr("tui_add_syntax"))
        return Command("action", Action.add(seat, int(args[0]), _cards(args[1:], tr)))
    if kind == "discard":
        cards = _cards(args, tr)
        if len(cards) != 1:
            raise CommandError(tr("tui_discard_one"))
        return Command("action", Action.discard(seat, cards[0]))
    if kind in ("speed", "rules"):
        return Command(kind, arg=" ".join(args))
    return Command(kind)

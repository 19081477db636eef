"""The typed commands of ``burraco play --plain`` (the full-screen table accepts the same letters as keys).

>>> from burraco.tui.i18n import Translator
>>> tr = Translator("en")
>>> parse_command("m 5h 3h 4h", "S", tr)
Command(kind='action', action=Action(seat='S', verb='meld', cards=(2, 3, 4), meld=0), arg='')
>>> str(parse_command("a 2 jk", "S", tr).action), parse_command("?", "S", tr).kind
('S add 2 JK', 'help')
>>> command_text(parse_command("a 2 jk 10c", "S", tr).action)
'a 2 Tc JK'
>>> parse_command("s slow", "S", tr)
Command(kind='speed', action=None, arg='slow')
>>> parse_command("meld", "S", tr)
Traceback (most recent call last):
...
burraco.tui.commands.CommandError: Write the cards as rank then suit, e.g. 7h Td JK
"""

from __future__ import annotations

from dataclasses import dataclass

from ..actions import Action
from ..cards import CARD_STR, CardError, parse_card
from .i18n import Translator

#: command words (first token) -> kind; actions are built by :func:`parse_command`
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
}


def command_text(a: Action) -> str:
    """What the player types for ``a`` (the inverse of :func:`parse_command`): ``m 3h 4h 5h``, ``a 2 JK``; the record
    notation for a move that has no command (``redraw``, ``swap``)."""
    cards = " ".join(CARD_STR[c] for c in a.cards)
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
    """``kind`` is ``action`` (with ``action``) or one of hint, undo, sort, table, legal, rules, speed (``arg``:
    the pace asked for, empty to take the next one), help, quit, next (an empty line)."""

    kind: str
    action: Action | None = None
    arg: str = ""


def _cards(args: list[str], tr: Translator) -> tuple[int, ...]:
    if not args:
        raise CommandError(tr("bad_cards"))
    try:
        return tuple(sorted(parse_card(a) for a in args))
    except CardError as e:
        raise CommandError(tr("bad_cards")) from e


def parse_command(text: str, seat: str, tr: Translator) -> Command:
    """Parse one line typed by the player sitting at ``seat`` (``N E S W``)."""
    toks = text.split()
    if not toks:
        return Command("next")
    word, args = toks[0].lower(), toks[1:]
    kind = WORDS.get(word)
    if kind is None:
        raise CommandError(tr("unknown_command", cmd=toks[0]))
    if kind in ("draw", "pick"):
        return Command("action", Action(seat, kind))
    if kind == "meld":
        return Command("action", Action.meld_cards(seat, _cards(args, tr)))
    if kind == "add":
        if not args or not args[0].isdigit() or int(args[0]) < 1:
            raise CommandError(tr("unknown_command", cmd=text.strip()))
        return Command("action", Action.add(seat, int(args[0]), _cards(args[1:], tr)))
    if kind == "discard":
        cards = _cards(args, tr)
        if len(cards) != 1:
            raise CommandError(tr("discard_one"))
        return Command("action", Action.discard(seat, cards[0]))
    if kind == "speed":
        return Command(kind, arg=" ".join(args))
    return Command(kind)


__all__ = ["Command", "CommandError", "WORDS", "command_text", "parse_command"]

"""The moves of a hand as one seat saw them: :func:`burraco.narrate` applied to every action, grouped in turns.

A :class:`HandLog` keeps, for every action of the hand, the messages of :func:`~burraco.narrate.narrate` told from
one seat's views (the seat's own draw names its card; the pozzetto taken and the end of the hand are lines of their
own), with the seat *letters* as names, so the log does not depend on the language: :func:`turn_text` renders a turn
in the player's language with the names the table uses. It also knows which cards of the seat's hand are new this
turn (drawn, picked up, the pozzetto taken in diretta), for the hand to mark them.

>>> from burraco import Game, preset
>>> g = Game.new(preset("italian-2p"), seed=3)
>>> g.apply("N draw"); g.apply(g.legal_actions()[0])
>>> log = HandLog.of_game(g, seat=1)
>>> [e.seat for e in log.events], len(log.turns())
([0, 0], 1)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..actions import DISCARD, Action
from ..game import Game
from ..i18n import Translator
from ..messages import Message
from ..narrate import narrate
from ..seats import seat_names
from ..view import View

__all__ = ["Event", "HandLog", "event_text", "turn_numbers", "turn_text"]


@dataclass(frozen=True)
class Event:
    """One action of the hand: who (seat index; -1 for a time-out), the action, what the table was told, the
    cards the log's seat gained by it (its own draw, pick-up or pozzetto in diretta) and the sides as they stood
    when it was played (with three and five players a pair forms during the hand: a line keeps the names it had)."""

    seat: int
    action: Action
    messages: tuple[Message, ...]
    gained: tuple[int, ...] = ()
    sides: tuple[tuple[int, ...], ...] = ()


def turn_numbers(actions: Sequence[Action]) -> list[int]:
    """The turn (1-based, as the moves log numbers its lines) of each action of a hand: a turn is the consecutive
    actions of one seat up to its discard; a time-out is a turn of its own.

    >>> from burraco.actions import parse_action
    >>> turn_numbers([parse_action(a) for a in ["N draw", "N discard 3h", "E pick", "timeout", "E meld 4h 5h 6h"]])
    [1, 1, 2, 3, 4]
    """
    out: list[int] = []
    prev: Action | None = None
    for a in actions:
        same = prev is not None and prev.seat == a.seat and a.seat != "" and prev.verb != DISCARD
        out.append(out[-1] if same else (out[-1] + 1 if out else 1))
        prev = a
    return out


class HandLog:
    """The events of one hand seen from ``seat`` (``viewer``: whose moves are told as "you"; -1 for none)."""

    def __init__(self, seat: int, viewer: int | None = None, seats: Sequence[str] = ()) -> None:
        self.seat = seat
        self.viewer = seat if viewer is None else viewer
        self.seats = tuple(seats)
        self.events: list[Event] = []

    @classmethod
    def of_game(cls, game: Game, seat: int, viewer: int | None = None) -> HandLog:
        """The log of ``game`` so far, rebuilt by replaying its actions from the deal (after undo or resume)."""
        log = cls(seat, viewer, game.seats)
        assert game.deal is not None
        g = Game(game.rules, game.deal, game.first, check=False)
        for a in game.actions:
            before = g.view(seat)
            g.apply(a)
            log.add(before, a, g.view(seat))
        return log

    def add(self, before: View, action: Action, after: View) -> Event:
        """Log ``action``, with the log seat's views just before and just after it."""
        if not self.seats:
            self.seats = seat_names(before.rules.players)
        messages = tuple(narrate(before, action, after, viewer=self.viewer))
        seat = self.seats.index(action.seat) if action.seat in self.seats else -1
        gained: tuple[int, ...] = ()
        if seat == self.seat:
            kept = Counter(before.hand)
            kept.subtract(action.cards)
            new = Counter(after.hand)
            new.subtract(kept)
            gained = tuple(sorted(new.elements()))
        e = Event(seat, action, messages, gained, before.side_seats)
        self.events.append(e)
        return e

    def turns(self) -> list[list[Event]]:
        """The events grouped in turns (:func:`turn_numbers`)."""
        out: list[list[Event]] = []
        for e, k in zip(self.events, turn_numbers([e.action for e in self.events]), strict=True):
            if len(out) < k:
                out.append([])
            out[-1].append(e)
        return out

    def last_of(self, seat: int) -> Event | None:
        """The last action of ``seat`` in this hand."""
        return next((e for e in reversed(self.events) if e.seat == seat), None)

    def fresh(self, hand: Sequence[int]) -> Counter[int]:
        """The cards of ``hand`` (the log seat's) that are new this turn: drawn, picked up or from the pozzetto
        taken in diretta, and not played since (none once the seat's turn is over)."""
        out: Counter[int] = Counter()
        turns = self.turns()
        if not turns or turns[-1][0].seat != self.seat or turns[-1][-1].action.verb == DISCARD:
            return out
        for e in turns[-1]:
            out.update(e.gained)
            out.subtract(e.action.cards)
        held = Counter(hand)
        return Counter({c: min(k, held[c]) for c, k in out.items() if k > 0 and held[c] > 0})


#: a meld named in a line of the log by more cards than this is named by its ends (``3♥ … J♥``): the table
#: shows it whole, and a line of the log stays short enough for an 80-column screen
MELD_NAMED_BY = 4


def _for_table(m: Message, names: Sequence[str], seats: Sequence[str]) -> Message:
    """``m`` as the table tells it: its ``who`` (a seat letter) replaced by the name the table gives that seat, a
    long meld it adds to named by its first and last cards."""
    params = dict(m.params)
    who = params.get("who")
    if isinstance(who, str) and who in seats:
        params["who"] = names[seats.index(who)]
    meld = params.get("meld")
    if isinstance(meld, str) and len(meld.split()) > MELD_NAMED_BY:
        cards = meld.split()
        params["meld"] = f"{cards[0]} … {cards[-1]}"
    return Message(m.code, params)


def event_text(tr: Translator, e: Event, names: Sequence[str], seats: Sequence[str], *, name: bool = True) -> str:
    """The messages of one action in the player's words; ``name=False`` leaves out the seat's name where a line
    begins with it (the line stands beside that seat, or after the first line of its turn)."""
    parts: list[str] = []
    for m in e.messages:
        m = _for_table(m, names, seats)
        text = tr.render(m)
        who = m.params.get("who")
        if (not name or parts) and isinstance(who, str) and text.startswith(who + " "):
            text = text[len(who) + 1 :]
        elif (not name or parts) and len(text) > 1 and text[0].isupper() and text[1].islower():
            text = text[0].lower() + text[1:]  # "You discard 7♥" after another line: "you discard 7♥"
        parts.append(text)
    return " · ".join(parts)


def turn_text(tr: Translator, turn: Sequence[Event], names: Sequence[str], seats: Sequence[str]) -> str:
    """A whole turn as one line: ``Partner (N) draws from the stock · opens 7♥ 8♥ 9♥ · discards 5♠``."""
    out: list[str] = []
    for i, e in enumerate(turn):
        out.append(event_text(tr, e, names, seats, name=i == 0))
    return " · ".join(out)

"""Actions: small immutable values with the text form of RECORDS.md §4.

>>> a = parse_action("N meld 5h 3h 4h")
>>> str(a)
'N meld 3h 4h 5h'
>>> parse_action(str(a)) == a
True
>>> str(parse_action("E add 2 jk 10c"))
'E add 2 Tc JK'
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import CARD_STR, CardError, parse_card
from .messages import Message, MessageError, msg

#: every seat letter of every player count (RECORDS.md §2): N E S W, and A … F for 3, 5 and 6 players
SEAT_LETTERS = ("N", "E", "S", "W", "A", "B", "C", "D", "F")
VERBS = ("draw", "pick", "meld", "add", "discard", "timeout", "redraw", "swap")

DRAW = "draw"
PICK = "pick"
MELD = "meld"
ADD = "add"
DISCARD = "discard"
TIMEOUT = "timeout"
#: house rule ``first_player_redraw`` (§14.1 row 36): the first player puts his first stock card on the pile and
#: draws again
REDRAW = "redraw"
#: house rule ``wild_may_return_to_hand`` (C-18, SEED2): a natural card replaces a sequence's wild, which goes to hand
SWAP = "swap"


class ActionError(MessageError):
    """An action the engine refuses. ``kind`` is ``"invalid"`` or ``"illegal"`` as RECORDS.md §5 defines them."""

    def __init__(self, message: Message | str, action: str = "") -> None:
        super().__init__(message)
        self.action = action
        self.kind: str = "illegal"


class InvalidActionError(ActionError):
    """Text that does not parse, an unknown seat or verb, cards the seat does not hold, a meld it does not have."""

    def __init__(self, message: Message | str, action: str = "") -> None:
        super().__init__(message, action)
        self.kind = "invalid"


class IllegalActionError(ActionError):
    """A well-formed action that the rules forbid here and now (wrong turn or phase, a bad meld, a dead end, …)."""


class Action(NamedTuple):
    """One action: ``seat`` (``"N"``…, ``""`` for a time-out), ``verb``, the cards (a sorted tuple of card types:
    the multiset is the identity, RECORDS.md §4) and, for ``add``, the 1-based meld number of the seat's side."""

    seat: str
    verb: str
    cards: tuple[int, ...] = ()
    meld: int = 0

    def __str__(self) -> str:
        if self.verb == TIMEOUT:
            return "timeout"
        if self.verb == ADD or self.verb == SWAP:
            return f"{self.seat} {self.verb} {self.meld} " + " ".join(CARD_STR[c] for c in self.cards)
        if self.cards:
            return f"{self.seat} {self.verb} " + " ".join(CARD_STR[c] for c in self.cards)
        return f"{self.seat} {self.verb}"

    @staticmethod
    def draw(seat: str) -> Action:
        return Action(seat, DRAW)

    @staticmethod
    def pick(seat: str) -> Action:
        return Action(seat, PICK)

    @staticmethod
    def meld_cards(seat: str, cards: list[int] | tuple[int, ...]) -> Action:
        return Action(seat, MELD, tuple(sorted(cards)))

    @staticmethod
    def add(seat: str, meld: int, cards: list[int] | tuple[int, ...]) -> Action:
        return Action(seat, ADD, tuple(sorted(cards)), meld)

    @staticmethod
    def discard(seat: str, card: int) -> Action:
        return Action(seat, DISCARD, (card,))

    @staticmethod
    def timeout() -> Action:
        return Action("", TIMEOUT)


def parse_action(text: str, seats: tuple[str, ...] = SEAT_LETTERS) -> Action:
    """Parse ``"<seat> <verb> [arguments]"`` (RECORDS.md §4); raises :class:`InvalidActionError`."""
    if not isinstance(text, str):
        raise InvalidActionError(msg("not_a_string", type=type(text).__name__), str(text))
    toks = text.split()
    if not toks:
        raise InvalidActionError(msg("empty_action"), text)
    if toks == ["timeout"]:
        return Action("", TIMEOUT)
    if len(toks) < 2:
        raise InvalidActionError(msg("not_an_action", action=text), text)
    seat, verb = toks[0], toks[1]
    if seat not in seats:
        if len(seat) > 1 and all(x in seats for x in seat):
            # a side's name (``AC``, ``NS``): an action names the one seat that plays (RECORDS.md §2, §4)
            raise InvalidActionError(
                msg("side_not_seat", action=text, seat=seat, seats=" ".join(seats)), text
            )
        raise InvalidActionError(
            msg("unknown_seat_named", action=text, seat=seat, seats=" ".join(seats)), text
        )
    if verb not in VERBS or verb == TIMEOUT:
        raise InvalidActionError(msg("unknown_verb", action=text, verb=verb), text)
    args = toks[2:]
    try:
        if verb in (DRAW, PICK, REDRAW):
            if args:
                raise InvalidActionError(msg("takes_no_arguments", action=text, verb=verb), text)
            return Action(seat, verb)
        if verb == DISCARD:
            if len(args) != 1:
                raise InvalidActionError(msg("discard_one_card", action=text), text)
            return Action(seat, DISCARD, (parse_card(args[0]),))
        if verb == MELD:
            if not args:
                raise InvalidActionError(msg("meld_needs_cards", action=text), text)
            return Action(seat, MELD, tuple(sorted(parse_card(a) for a in args)))
        # add / swap
        if len(args) < 2 or not (args[0].isascii() and args[0].isdigit()):
            raise InvalidActionError(msg("add_syntax", action=text, seat=seat, verb=verb), text)
        k = int(args[0])
        if k < 1:
            raise InvalidActionError(msg("melds_from_one", action=text), text)
        if verb == SWAP and len(args) != 2:
            raise InvalidActionError(msg("swap_syntax", action=text), text)
        return Action(seat, verb, tuple(sorted(parse_card(a) for a in args[1:])), k)
    except CardError as e:
        raise InvalidActionError(msg("bad_card_in_action", action=text, reason=e.msg), text) from e

"""What one seat may know (RULES.md §0.1 "Views"); :mod:`burraco.determinize` deals a full state consistent with it.

A :class:`View` holds the seat's own hand (without a pozzetto taken with the discard that it may not look at yet),
every meld, the discard pile (all of it when the rules keep it open, only the top card and the size when closed), the
size of the stock and of every hand, which pozzetti are left and who took them, the cards each seat was seen to pick
up from an open pile and still holds, and the public turn state. Nothing else: not the other hands, the stock order
or an unrevealed pozzetto. Legality never depends on hidden cards, so :func:`burraco.determinize.legal_actions` of a view is exact.

>>> from burraco import Game, preset
>>> v = Game.new(preset("italian"), seed=3).view(0)
>>> len(v.hand), v.stock_size, v.hand_sizes
(11, 41, (11, 11, 11, 11))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .cards import CARD_STR, JOKER, NUM_TYPES
from .melds import Meld, meld_json
from .rules import Rules
from .seats import scorer_names, seat_names

if TYPE_CHECKING:
    from .state import HandState


@dataclass(frozen=True)
class View:
    """The information set of one seat. Immutable; compare two views with ``==``."""

    rules: Rules
    seat: int
    turn: int  # -1 once the hand is over
    phase: str
    hand: tuple[int, ...]  # sorted card types the seat holds and may look at
    hidden_pozzetto: int  # cards of its own pozzetto it holds but may not look at yet
    hand_sizes: tuple[int, ...]
    melds: tuple[tuple[Meld, ...], ...]  # per side (:attr:`sides`)
    pile: tuple[int, ...]  # the whole pile (open) or only its top card (closed)
    pile_size: int
    stock_size: int
    pozzetti: tuple[bool, ...]  # which dealt pozzetti are still on the table
    poz_taken: tuple[int, ...]  # per side
    poz_order: tuple[int, ...]
    poz_by: tuple[int, ...]  # per side: the seat that took its (first) pozzetto, or -1
    poz_pending: tuple[bool, ...]
    hidden_seats: tuple[bool, ...]  # seats holding a pozzetto they have not seen yet
    known: tuple[bytes, ...]  # per seat: counts of cards seen picked up and still held
    unseen: bytes  # counts of the cards this seat cannot locate
    table: bytes  # counts of the cards in all melds
    # public turn state
    picked: bool
    drew: bool
    lone: int
    lone_gone: bool  # a copy of ``lone`` went from the picker's hand to the table after the pick-up
    top: int
    top_used: bool
    melded: bool
    opening: bool
    laid: int
    must_open: bool
    last_turn: bool
    stalemate_run: int
    turns: int
    timeout_called: bool
    timeout_left: int
    end: str | None
    closed_by: int
    first: int
    redrawn: bool = False  # the first player's redraw was used (house rule)
    drawn: int = -1  # the card this seat drew from the stock this turn (its own view only)
    #: the match totals before this hand, when the view comes from a :class:`~burraco.match.Match`: per side, or
    #: per player with 3 and 5 players (:func:`burraco.match.scorer_names`)
    match_totals: tuple[int, ...] | None = None
    #: the sides as tuples of seats, each seat's side and the sides' names (RECORDS.md §2); with 3 and 5 players
    #: they change when the first player goes out (``solo``: his seat, else -1)
    side_seats: tuple[tuple[int, ...], ...] = ((0, 2), (1, 3))
    seat_side: tuple[int, ...] = (0, 1, 0, 1)
    sides: tuple[str, ...] = ("NS", "EW")
    solo: int = -1

    @property
    def players(self) -> int:
        return self.rules.players

    def side_of(self, seat: int) -> int:
        """The index of the seat's side (in :attr:`melds`, :attr:`poz_taken`, :attr:`sides`)."""
        return self.seat_side[seat]

    def partners(self, seat: int) -> tuple[int, ...]:
        """The other seats of the seat's side (none for a player alone)."""
        return tuple(s for s in self.side_seats[self.seat_side[seat]] if s != seat)

    def opponents(self, seat: int) -> tuple[int, ...]:
        """The seats of every other side."""
        side = self.seat_side[seat]
        return tuple(s for s in range(self.rules.players) if self.seat_side[s] != side)

    def unseen_counts(self) -> list[int]:
        """Counts of the cards this seat cannot locate (other hands beyond known cards, stock, pozzetti, ...)."""
        return list(self.unseen)

    def to_json(self) -> dict[str, Any]:
        """The view as a JSON-ready dict, cards in the notation of RECORDS.md §1, seats and sides by name: the one
        JSON form of a view. Its keys are those of the server's ``view`` payload (docs/protocol.md: ``seat`` …
        ``closed_by``, and the sides as they stand: ``sides``, ``seat_side``, ``solo``, :func:`sides_json`) and,
        beyond them, ``rules`` (the preset's name), ``pozzetti_taken`` (per side),
        ``unseen`` (counts of the cards the seat cannot locate), ``match_totals`` and ``turn_state`` (the rest of
        the public turn state).

        >>> from burraco import Game, preset
        >>> d = Game.new(preset("italian-2p"), seed=1).view(0).to_json()
        >>> d["seat"], d["phase"], len(d["hand"]), d["hand_sizes"], d["stock"], d["known"]
        ('N', 'draw', 11, {'N': 11, 'S': 11}, 63, {'N': [], 'S': []})
        """
        from .seats import seat_names

        n = self.rules.players
        seats = seat_names(n)
        sides = self.sides
        k = len(sides)
        cs = CARD_STR

        def counts_list(b: bytes) -> list[str]:
            if not any(b):
                return []
            return [cs[c] for c, k in enumerate(b) if k for _ in range(k)]

        return {
            "rules": self.rules.name,
            "seat": seats[self.seat],
            "turn": seats[self.turn] if self.turn >= 0 else None,
            "phase": self.phase,
            "hand": [cs[c] for c in self.hand],
            "hidden_pozzetto": self.hidden_pozzetto,
            "drawn": cs[self.drawn] if self.drawn >= 0 else None,
            "hand_sizes": {seats[s]: self.hand_sizes[s] for s in range(n)},
            "melds": {sides[i]: [meld_json(m) for m in self.melds[i]] for i in range(k)},
            "pile": [cs[c] for c in self.pile],
            "pile_size": self.pile_size,
            "pile_open": self.rules.discard_pile_open,
            "stock": self.stock_size,
            "pozzetti_left": sum(1 for p in self.pozzetti if p),
            "pozzetto_taken": {sides[i]: self.poz_taken[i] > 0 for i in range(k)},
            "hidden_pozzetto_seats": [seats[s] for s in range(n) if self.hidden_seats[s]],
            # the cards each other seat was seen to take from an open pile and still holds
            "known": {seats[s]: counts_list(self.known[s]) if s != self.seat else [] for s in range(n)},
            "must_open": self.must_open,
            "last_turn": self.last_turn,
            "turns": self.turns,
            "end": self.end,
            "closed_by": seats[self.closed_by] if self.closed_by >= 0 else None,
            **sides_json(self.side_seats, self.sides, self.solo, n),
            "pozzetti_taken": {sides[i]: self.poz_taken[i] for i in range(k)},
            "unseen": {cs[c]: x for c, x in enumerate(self.unseen) if x},
            "match_totals": None
            if self.match_totals is None
            else dict(zip(scorer_names(self.rules), self.match_totals, strict=True)),
            "turn_state": {
                "picked": self.picked,
                "drew": self.drew,
                "melded": self.melded,
                "opening": self.opening,
                "laid": self.laid,
                "top_to_use": cs[self.top] if self.top >= 0 and not self.top_used else None,
                "lone": cs[self.lone] if self.lone >= 0 else None,
                "stalemate_run": self.stalemate_run,
                "timeout_called": self.timeout_called,
                "timeout_left": self.timeout_left,
                "redrawn": self.redrawn,
            },
        }


def hand_counts(cards: tuple[int, ...] | list[int]) -> bytearray:
    """Cards as counts per card type (a ``bytearray`` of one count per type, the joker last)."""
    v = bytearray(NUM_TYPES)
    for c in cards:
        v[c] += 1
    return v


def sides_json(
    side_seats: tuple[tuple[int, ...], ...], sides: tuple[str, ...], solo: int, players: int
) -> dict[str, Any]:
    """The sides as they stand (public, RECORDS.md §2): ``sides`` (name -> its seats, in side order),
    ``seat_side`` (seat -> its side's name) and ``solo`` (the seat playing alone against the pairs formed during
    a hand of 3 or 5 players, else None)."""

    seats = seat_names(players)
    return {
        "sides": {sides[k]: [seats[s] for s in members] for k, members in enumerate(side_seats)},
        "seat_side": {seats[s]: sides[k] for k, members in enumerate(side_seats) for s in members},
        "solo": seats[solo] if solo >= 0 else None,
    }


#: the keys of :func:`sides_json` (in :meth:`View.to_json` and the server's payloads)
SIDES_KEYS = ("sides", "seat_side", "solo")


def make_view(g: HandState, seat: int) -> View:
    """What ``seat`` may know of the hand ``g`` (what :meth:`Game.view <burraco.game.Game.view>` returns)."""
    hid = g.hidden[seat]
    h = g.hands[seat]
    hand: list[int] = []
    for c in range(NUM_TYPES):
        k = h[c] - (hid[c] if hid is not None else 0)
        if k:
            hand.extend([c] * k)
    if g.rules.discard_pile_open:
        pile = tuple(g.pile)
    else:
        pile = (g.pile[-1],) if g.pile else ()
    known = []
    for s in range(g.n):
        if s == seat and hid is not None:
            known.append(bytes(max(0, min(g.known[s][c], h[c] - hid[c])) for c in range(NUM_TYPES)))
        else:
            known.append(bytes(g.known[s]))
    # unseen = deck - own visible hand - melds - visible pile - cards others were seen to take (lane-wise on ints:
    # every lane stays non-negative, so no borrow crosses a card)
    fb = int.from_bytes
    pile_counts = bytearray(NUM_TYPES)
    for c in pile:
        pile_counts[c] += 1
    u = (
        fb(g.rules.deck_counts(), "big")
        - fb(bytes(hand_counts(hand)), "big")
        - fb(g.table, "big")
        - fb(pile_counts, "big")
    )
    for s in range(g.n):
        if s != seat:
            u -= fb(known[s], "big")
    unseen = u.to_bytes(NUM_TYPES, "big")
    # a frozen dataclass's __init__ sets every field through object.__setattr__ (half the cost of a view);
    # filling the instance dict directly builds the same object
    v = object.__new__(View)
    v.__dict__.update(
        {
            "rules": g.rules,
            "seat": seat,
            "turn": g.current_seat,
            "phase": g.phase,
            "hand": tuple(hand),
            "hidden_pozzetto": sum(hid) if hid is not None else 0,
            "hand_sizes": tuple(g.hand_n),
            "melds": tuple(tuple(m) for m in g.melds),
            "pile": pile,
            "pile_size": len(g.pile),
            "stock_size": len(g.stock),
            "pozzetti": tuple(p is not None for p in g.pozzetti),
            "poz_taken": tuple(g.poz_taken),
            "poz_order": tuple(g.poz_order),
            "poz_by": tuple(g.poz_by),
            "poz_pending": tuple(g.poz_pending),
            "hidden_seats": tuple(x is not None for x in g.hidden),
            "known": tuple(known),
            "unseen": unseen,
            "table": bytes(g.table),
            "picked": g.picked,
            "drew": g.drew,
            "lone": g.lone,
            "lone_gone": g.lone_gone,  # public: everybody saw what he melded
            "top": g.top,
            "top_used": g.top_used,
            "melded": g.melded,
            "opening": g.opening,
            "laid": g.laid,
            "must_open": g.must_open,
            "last_turn": g.last_turn,
            "stalemate_run": g.stalemate_run,
            "turns": g.turns,
            "timeout_called": g.timeout_called,
            "timeout_left": g.timeout_left,
            "end": g.end,
            "closed_by": g.closed_by,
            "first": g.first,
            "redrawn": g.redrawn,
            "drawn": g.drawn if seat == g.turn else -1,
            "match_totals": None,
            "side_seats": g.side_seats,
            "seat_side": g.side_of_seat,
            "sides": g.sides,
            "solo": g.solo,
        }
    )
    return v


__all__ = ["JOKER", "SIDES_KEYS", "View", "hand_counts", "make_view", "sides_json"]

"""The state of one hand: its fields, the questions every part of the engine asks of them, and the layout the native
core holds them in.

:class:`HandState` is the base of :class:`~burraco.game.Game`: the fields one hand is made of (:data:`STATE_FIELDS`),
set from a deal, and the seats, sides and cards held as the rest of the engine reads them. The parts of a hand stand
above it, each in the module named for it, and :class:`~burraco.game.Game` joins them:

- :mod:`burraco.pozzetto`: which pozzetto a side takes, taking it, and the pairs it forms with 3 and 5 players;
- :mod:`burraco.turns`: what each action does to the state (a turn's flow, the end of the hand);
- :mod:`burraco.legality`: whether an action is legal, why not, and the legal actions;
- :mod:`burraco.scoring`: the scores of the hand.

:func:`fields_of` and :func:`_set_state` carry the state to and from the native core's layout.
"""

from __future__ import annotations

from typing import Any

from .actions import Action, parse_action
from .cards import NUM_TYPES
from .deal import Deal
from .gen import Generator, generator
from .melds import CLEAN, DIRTY, SEMICLEAN, Meld, MeldRules, _new, meld_rules
from .rules import BurracoNeeded, Rules
from .seats import initial_sides, seat_names, seat_sides, side_name, side_names

DRAW_PHASE = "draw"
PLAY_PHASE = "play"
END_PHASE = "end"

#: how a hand ends (:attr:`Game.end <burraco.game.Game.end>`), in the order of the native core's end codes (0: it
#: runs)
ENDS: tuple[str | None, ...] = (None, "closed", "stock", "stalemate", "timeout", "cap")
_END_CODE = {e: i for i, e in enumerate(ENDS)}
_PHASES = (DRAW_PHASE, PLAY_PHASE, END_PHASE)
_PHASE_CODE = {p: i for i, p in enumerate(_PHASES)}
_BURRACO_CODE = {None: 0, CLEAN: 1, SEMICLEAN: 2, DIRTY: 3}


class HandState:
    """The fields of one hand and the questions on them: the base of :class:`~burraco.game.Game`, which describes
    them. Made from a deal with the seat to play first; ``deal=None`` makes an empty shell whose every field the
    caller sets."""

    #: the native core's copy of this state (``burraco._native.Hand``), made when first needed; None until then,
    #: False where the core cannot hold it
    _nh: Any = None

    def __init__(self, rules: Rules, deal: Deal | None, first: int, *, check: bool = True) -> None:
        """Start a hand from ``deal`` with seat ``first`` to play first (the dealer's left). ``deal=None`` makes an
        empty shell whose every field the caller sets (:meth:`Game.clone <burraco.game.Game.clone>`,
        :func:`burraco.determinize.determinize`)."""
        self.rules = rules
        self.deal = deal
        if deal is None:
            return
        if check:
            deal.check(rules)
        self.n = rules.players
        self.seats = seat_names(self.n)
        sides = initial_sides(self.n)
        #: the sides as tuples of seats, each seat's side and the sides' names (immutable values, replaced when
        #: they change: once in a hand with 3 and 5 players)
        self.side_seats: tuple[tuple[int, ...], ...] = sides
        self.side_of_seat: tuple[int, ...] = seat_sides(sides, self.n)
        self.sides: tuple[str, ...] = side_names(self.n)
        self.solo = -1  # 3 and 5 players: the seat that went out first and plays solo
        self._ctx: MeldRules = meld_rules(rules)
        self._gen: Generator = generator(self._ctx)
        self._values = rules.card_values()
        # counts per card type (a bytearray: cheap to copy, and bytes(h) is a ready-made cache key)
        self.hands: list[bytearray] = []
        for h in deal.hands:
            v = bytearray(NUM_TYPES)
            for c in h:
                v[c] += 1
            self.hands.append(v)
        self.hand_n: list[int] = [len(h) for h in deal.hands]
        self.stock: list[int] = list(reversed(deal.stock))  # top card at the end
        self.pile: list[int] = [] if deal.upcard is None else [deal.upcard]
        self.pozzetti: list[tuple[int, ...] | None] = list(deal.pozzetti)
        k = len(sides)
        self.poz_taken: list[int] = [0] * k  # pozzetti taken per side
        self.poz_order: list[int] = []  # sides in the order they took their first pozzetto
        self.poz_by: list[int] = [-1] * k  # seat that took the side's (first) pozzetto
        self.hidden: list[list[int] | None] = [
            None
        ] * self.n  # a pozzetto taken with the discard, not yet seen
        self.poz_pending: list[bool] = [False] * self.n  # …and whose owner's next turn has not started
        self.melds: list[list[Meld]] = [[] for _ in range(k)]
        self.known: list[bytearray] = [
            bytearray(NUM_TYPES) for _ in range(self.n)
        ]  # seen picked up, still held
        self.table = bytearray(NUM_TYPES)  # counts of the cards in all melds
        self.turn = first
        self.phase = DRAW_PHASE
        self.actions: list[Action] = []
        # turn flags
        self.picked = False
        self.drew = False
        self.lone = -1  # the card taken from a one-card pile
        self.lone_gone = False  # a copy of it has gone from the picker's hand to the table since (§0.1 twin copies)
        self.top = -1  # the top card of a picked-up pile (for "top card must be used")
        self.top_used = True
        self.melded = False  # a meld or attachment this turn
        self.opening = False  # this turn is the side's first opening under a first-meld minimum
        self.laid = 0  # card points laid this turn (first-meld minimum)
        self.must_open = False  # a pick-up that requires the first meld minimum this turn
        self.drawn = -1  # the card drawn from the stock this turn
        self.redrawn = False  # the first player's redraw was used (house rule)
        # hand-level flags
        self.last_turn = False
        self.stalemate_run = 0
        self.turns = 0
        self.timeout_called = False
        self.timeout_left = -1
        self.end: str | None = None
        self.closed_by = -1
        self.first = first
        # the last legal_actions() result, keyed by the number of actions applied (apply trusts it): a tuple, so
        # that the list handed to a player is its own and no change to it reaches the game
        self._legal: tuple[int, tuple[Action, ...]] | None = None
        self._meldkeys: list[tuple[frozenset[int], frozenset[tuple[int, int]]] | None] = [None] * k

    # ------------------------------------------------------------------------------------------------------------
    # the questions on the state
    # ------------------------------------------------------------------------------------------------------------
    def seat_name(self, seat: int) -> str:
        return self.seats[seat]

    def side_of(self, seat: int) -> int:
        """The index of the seat's side (in :attr:`sides`, :attr:`melds`, :attr:`poz_taken`)."""
        return self.side_of_seat[seat]

    def partner(self, seat: int) -> int:
        """The seat's partner, or the seat itself when it plays alone."""
        for s in self.side_seats[self.side_of_seat[seat]]:
            if s != seat:
                return s
        return seat

    @property
    def num_sides(self) -> int:
        return len(self.side_seats)

    def next_seat(self, seat: int) -> int:
        return (seat + self.rules.direction) % self.n

    @property
    def is_over(self) -> bool:
        """True once the hand has ended."""
        return self.end is not None

    @property
    def current_seat(self) -> int:
        """The seat to act, or -1 once the hand has ended."""
        return -1 if self.end is not None else self.turn

    def hand_cards(self, seat: int) -> list[int]:
        """The cards a seat holds (sorted by suit then rank, jokers last)."""
        out: list[int] = []
        h = self.hands[seat]
        for c in range(NUM_TYPES):
            if h[c]:
                out.extend([c] * h[c])
        return out

    def pozzetti_left(self) -> int:
        return sum(1 for p in self.pozzetti if p is not None)

    def _has_burraco(self, side: int, clean_only: bool | None = None) -> bool:
        if clean_only is None:
            clean_only = self.rules.closing_burraco is BurracoNeeded.CLEAN
        for m in self.melds[side]:
            if m.burraco is not None and (not clean_only or m.burraco == CLEAN):
                return True
        return False

    def parse(self, text: str) -> Action:
        """Parse an action string for this game's seats."""
        return parse_action(text, self.seats)


#: the fields of a :class:`~burraco.game.Game` that make its state (the rest, ``rules`` and the caches of the rules,
#: follow from the rules): what a pickled game holds; :meth:`Game.clone <burraco.game.Game.clone>` copies the same
#: fields
STATE_FIELDS = (
    "deal", "n", "seats", "sides", "side_seats", "side_of_seat", "solo", "hands", "hand_n", "stock", "pile",
    "pozzetti", "poz_taken", "poz_order", "poz_by", "hidden", "poz_pending", "melds", "known", "table", "turn",
    "phase", "actions", "picked", "drew", "lone", "lone_gone", "top", "top_used", "melded", "opening", "laid",
    "must_open", "drawn", "redrawn", "last_turn", "stalemate_run", "turns", "timeout_called", "timeout_left", "end",
    "closed_by", "first",
)  # fmt: skip


_FLAGS = frozenset(
    ("picked", "drew", "lone_gone", "top_used", "melded", "opening", "must_open", "redrawn", "last_turn",
     "timeout_called")
)  # fmt: skip
_INTS = (
    "turn", "phase", "picked", "drew", "lone", "lone_gone", "top", "top_used", "melded", "opening", "must_open",
    "drawn", "redrawn", "last_turn", "timeout_called", "end", "closed_by", "first", "laid", "stalemate_run",
    "turns", "timeout_left",
)  # fmt: skip


def _initial_side_of(n: int) -> tuple[int, ...]:
    return tuple(next(k for k, m in enumerate(initial_sides(n)) if s in m) for s in range(n))


def _groups(n: int, side_of_seat: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    k = max(side_of_seat) + 1
    return tuple(tuple(s for s in range(n) if side_of_seat[s] == j) for j in range(k))


def _side_names(n: int, side_of_seat: tuple[int, ...]) -> tuple[str, ...]:
    """The sides' names for each seat's side (the pairs of 3 and 5 players once formed)."""
    if tuple(side_of_seat) == _initial_side_of(n):
        return side_names(n)
    seats = seat_names(n)
    return tuple(side_name(seats, m) for m in _groups(n, tuple(side_of_seat)))


def _set_state(g: HandState, f: tuple[Any, ...], keep: bool = False) -> None:
    """``g``'s state from the native core's layout (the inverse of :func:`fields_of`, which holds neither the deal
    nor the actions) and its caches; with ``keep``, the fields ``g`` has already set are kept."""
    n = g.rules.players
    side_of_seat, solo = f[14] if len(f) > 14 else (_initial_side_of(n), -1)
    side_of_seat = tuple(side_of_seat)
    ctx = meld_rules(g.rules)
    fields: dict[str, Any] = {
        "n": n,
        "seats": seat_names(n),
        "sides": _side_names(n, side_of_seat),
        "side_seats": _groups(n, side_of_seat),
        "side_of_seat": side_of_seat,
        "solo": solo,
        "hands": [bytearray(h) for h in f[0]],
        "hand_n": list(f[1]),
        "stock": list(f[2]),
        "pile": list(f[3]),
        "pozzetti": list(f[4]),
        "poz_taken": list(f[5]),
        "poz_order": list(f[6]),
        "poz_by": list(f[7]),
        "hidden": [None if h is None else list(h) for h in f[8]],
        "poz_pending": [bool(p) for p in f[9]],
        "melds": [[_new(m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], ctx) for m in side] for side in f[10]],
        "known": [bytearray(k) for k in f[11]],
        "table": bytearray(f[12]),
    }
    for name, v in zip(_INTS, f[13], strict=False):
        fields[name] = _PHASES[v] if name == "phase" else ENDS[v] if name == "end" else bool(v) if name in _FLAGS else v
    fields["_meldkeys"] = [None] * len(fields["melds"])
    have = g.__dict__
    for name, v in fields.items():
        if not (keep and name in have):
            setattr(g, name, v)
    if "_ctx" not in have:
        g._ctx = ctx
        g._gen = generator(ctx)
        g._values = g.rules.card_values()
        g._legal = None


def _meld_fields(m: Meld) -> tuple[int, ...] | tuple[Any, ...]:
    return (m.kind, m.cards, m.suit, m.rank, m.mask, m.wild, m.wild_pos, m.naturals, _BURRACO_CODE[m.burraco])


def fields_of(g: HandState) -> tuple[Any, ...]:
    """The state of a Python game in the native core's layout (what :meth:`NativeHand.fields` returns): hands,
    hand sizes, stock (top last), pile, pozzetti, pozzetti taken, the order the sides took them, who took them,
    the hidden pozzetti, the pending ones, the melds (kind, cards, suit, rank, mask, wild, wild position, naturals,
    burraco class), the cards known, the table and the scalar fields."""
    ints = (
        g.turn, _PHASE_CODE[g.phase], int(g.picked), int(g.drew), g.lone, int(g.lone_gone), g.top, int(g.top_used),
        int(g.melded), int(g.opening), int(g.must_open), g.drawn, int(g.redrawn), int(g.last_turn),
        int(g.timeout_called), _END_CODE[g.end], g.closed_by, g.first, g.laid, g.stalemate_run, g.turns,
        g.timeout_left, len(g.actions), 0,
    )  # fmt: skip
    return (
        tuple(bytes(h) for h in g.hands),
        tuple(g.hand_n),
        tuple(g.stock),
        tuple(g.pile),
        tuple(g.pozzetti),
        tuple(g.poz_taken),
        tuple(g.poz_order),
        tuple(g.poz_by),
        tuple(None if h is None else bytes(h) for h in g.hidden),
        tuple(int(p) for p in g.poz_pending),
        tuple(tuple(_meld_fields(m) for m in side) for side in g.melds),
        tuple(bytes(k) for k in g.known),
        bytes(g.table),
        ints,
        (tuple(g.side_of_seat), g.solo),
    )

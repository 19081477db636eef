"""One hand of Burraco ("smazzata"): a pure state machine over a deal and a list of actions.

>>> from burraco import Game, preset
>>> g = Game.new(preset("italian"), seed=7)
>>> g.seat_name(g.current_seat), g.phase
('N', 'draw')
>>> sorted(str(a) for a in g.legal_actions())
['N draw', 'N pick']
>>> g.apply("N draw")
>>> g.phase
'play'

Seats are indices (``0 = N``, then clockwise ``E S W``; in 2-player games ``N S``; with 3, 5 and 6 players ``A B C
…``, RECORDS.md §2). A side is a value the state holds (:attr:`Game.side_of_seat`, :attr:`Game.side_seats`):
``NS`` and ``EW`` with 4 players, each seat its own side with 2, the three pairs of partners opposite (``AD``,
``BE``, ``CF``) with 6; with 3 and 5 players every seat is its own side until the first player goes out, then the
solo and the pairs of RULES.md §14.3–§14.4 (a pair's melds become one side's: the melds of its first seat, in seat
order, keep their numbers and its partner's follow in their order). Everything a seat may know leaves this module
only through :meth:`Game.view`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import compress
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from ._accel import check_native, native_rules, supported
from ._accel import core as _core
from .actions import (
    ADD,
    DISCARD,
    DRAW,
    MELD,
    PICK,
    REDRAW,
    SWAP,
    TIMEOUT,
    Action,
    ActionError,
    IllegalActionError,
    InvalidActionError,
    parse_action,
)
from .cards import CARD_STR, JOKER, NUM_TYPES, cards_str
from .deal import Deal, deal_from_seed
from .gen import Generator, generator
from .melds import (
    CLEAN,
    DIRTY,
    SEMICLEAN,
    SEQUENCE,
    SET,
    Meld,
    MeldError,
    MeldRules,
    burraco_bonus,
    meld_points,
    meld_rules,
)
from .messages import Message, msg
from .rules import BurracoNeeded, PickupRule, Rules, StockEnd, TimeoutPolicy

if TYPE_CHECKING:
    from .view import View

SEATS_4 = ("N", "E", "S", "W")
SEATS_2 = ("N", "S")
SIDES_4 = ("NS", "EW")
SIDES_2 = ("N", "S")
#: the seats of 3, 5 and 6 players (RECORDS.md §2)
SEATS_ABC = ("A", "B", "C", "D", "E", "F")
_ALL_SEATS = tuple(dict.fromkeys(SEATS_4 + SEATS_ABC))

DRAW_PHASE = "draw"
PLAY_PHASE = "play"
END_PHASE = "end"

#: how a hand ends (:attr:`Game.end`), in the order of the native core's end codes (0: it runs)
ENDS: tuple[str | None, ...] = (None, "closed", "stock", "stalemate", "timeout", "cap")
_END_CODE = {e: i for i, e in enumerate(ENDS)}
_PHASES = (DRAW_PHASE, PLAY_PHASE, END_PHASE)
_PHASE_CODE = {p: i for i, p in enumerate(_PHASES)}
_BURRACO_CODE = {None: 0, CLEAN: 1, SEMICLEAN: 2, DIRTY: 3}

WILD_TYPES = (JOKER, 1, 14, 27, 40)  # the joker and the four 2s


_Z4 = bytes(4)
_Z13 = bytes(13)
_DRAWS = {s: Action(s, DRAW) for s in _ALL_SEATS}
_PICKS = {s: Action(s, PICK) for s in _ALL_SEATS}
_CARDS_OF = itemgetter(2)  # an action's cards
_DISCARDS = {s: [Action(s, DISCARD, (c,)) for c in range(NUM_TYPES)] for s in _ALL_SEATS}


def refused(action: str, reason: Message) -> Message:
    """``"<action>: <reason>"``: the message of an action the engine refuses."""
    return msg("action_refused", action=action, reason=reason)


def seat_names(players: int) -> tuple[str, ...]:
    """The seats' letters for ``players`` players (RECORDS.md §2), in clockwise order."""
    if players == 4:
        return SEATS_4
    if players == 2:
        return SEATS_2
    return SEATS_ABC[:players]


if _core is not None:  # the native core makes the engine's own actions and knows the seats' names
    _core.configure(
        Action, (DRAW, PICK, MELD, ADD, DISCARD, REDRAW, SWAP), [seat_names(n) if n >= 2 else () for n in range(7)]
    )
_SERVED: dict[Rules, bool] = {}


def served(rules: Rules) -> bool:
    """Whether the native core serves :meth:`Game.legal_actions` and :meth:`Game.apply` for ``rules`` (it is built,
    ``BURRACO_PURE`` is unset and ``burraco.native.supported()`` takes the rules: every preset)."""
    got = _SERVED.get(rules)
    if got is None:
        got = _SERVED[rules] = _core is not None and supported(rules) is None
    return got


def initial_sides(players: int) -> tuple[tuple[int, ...], ...]:
    """The sides at the start of a hand, as tuples of seats: ``NS``/``EW`` with 4 players, the partners opposite
    with 6, every seat its own side otherwise (3 and 5 players until the first goes out, RULES.md §14.3)."""
    if players == 4:
        return ((0, 2), (1, 3))
    if players == 6:
        return ((0, 3), (1, 4), (2, 5))
    return tuple((s,) for s in range(players))


def side_name(seats: tuple[str, ...], members: tuple[int, ...]) -> str:
    """A side's name: its seats' letters in seat order (``NS``, ``AC``)."""
    return "".join(seats[s] for s in sorted(members))


def side_names(players: int) -> tuple[str, ...]:
    """The names of the sides at the start of a hand (:func:`initial_sides`)."""
    if players == 4:
        return SIDES_4
    if players == 2:
        return SIDES_2
    seats = seat_names(players)
    return tuple(side_name(seats, m) for m in initial_sides(players))


def split_share(total: int, members: int, rounding: str = "up") -> int:
    """Each player's share of a side's hand score (RULES.md §14.3): the whole score alone; a pair's halves rounded
    up (``"up"``: 305 -> 153, -305 -> -152) or down (``"down"``: 305 -> 152, -305 -> -153)."""
    if members == 1:
        return total
    return -(-total // members) if rounding == "up" else total // members


def player_shares(totals: Sequence[int], seat_side: Sequence[int], rounding: str = "up") -> list[int]:
    """Per seat, his share (:func:`split_share`) of his side's total, the sides' ``totals`` indexed as
    ``seat_side`` gives each seat's side."""
    members = [0] * len(totals)
    for k in seat_side:
        members[k] += 1
    return [split_share(totals[k], members[k], rounding) for k in seat_side]


def _seat_sides(sides: tuple[tuple[int, ...], ...], players: int) -> tuple[int, ...]:
    out = [0] * players
    for k, members in enumerate(sides):
        for m in members:
            out[m] = k
    return tuple(out)


def pairs_after(solo: int, players: int) -> tuple[tuple[int, ...], ...]:
    """The pairs formed when seat ``solo`` goes out first (RULES.md §14.3–§14.4): the others in seat order after
    him form pairs of alternating seats — with 3 players the other two, with 5 the 2nd and 4th, the 3rd and 5th
    counting the solo as the 1st."""
    others = [(solo + k) % players for k in range(1, players)]
    h = len(others) // 2
    return tuple(tuple(sorted((others[i], others[i + h]))) for i in range(h))


class Game:
    """The state of one hand. Create with :meth:`new` (from a seed) or :meth:`from_deal`.

    Where the native core is built (:func:`served`), a copy of the state in the core follows every :meth:`apply`
    and makes :meth:`legal_actions` (the same list in the same order as the Python code, which stays the reference
    and gives every refusal its reason). Change a game only through :meth:`apply`; code that sets its fields
    directly (a test building a position) calls :meth:`state_changed` afterwards."""

    #: the native core's copy of this state (``burraco._native.Hand``), made when first needed; None until then,
    #: False where the core cannot hold it
    _nh: Any = None

    # ------------------------------------------------------------------------------------------------------------
    # construction
    # ------------------------------------------------------------------------------------------------------------
    def __init__(self, rules: Rules, deal: Deal | None, first: int, *, check: bool = True) -> None:
        """Start a hand from ``deal`` with seat ``first`` to play first (the dealer's left). ``deal=None`` makes an
        empty shell whose every field the caller sets (:meth:`clone`, :func:`burraco.view.determinize`)."""
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
        self.side_of_seat: tuple[int, ...] = _seat_sides(sides, self.n)
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
        # the last legal_actions() result, keyed by the number of actions applied (apply trusts it)
        self._legal: tuple[int, list[Action]] | None = None
        self._meldkeys: list[tuple[frozenset[int], frozenset[tuple[int, int]]] | None] = [None] * k

    @classmethod
    def new(cls, rules: Rules, seed: int | random.Random | None = None, dealer: int | None = None) -> Game:
        """A hand dealt uniformly at random from ``seed``; ``dealer`` defaults to the last seat (W, or S)."""
        if dealer is None:
            dealer = rules.players - 1
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        deal = deal_from_seed(rules, rng)
        return cls(rules, deal, (dealer + rules.direction) % rules.players, check=False)

    @classmethod
    def from_deal(cls, rules: Rules, deal: Deal, dealer: int) -> Game:
        """A hand from an explicit deal; the seat on ``dealer``'s left plays first."""
        return cls(rules, deal, (dealer + rules.direction) % rules.players)

    def clone(self) -> Game:
        """An independent copy (melds are immutable values and are shared; the native core's copy of the state is
        cloned too). Every field is listed (faster than copying the instance dictionary); a test checks that none
        is forgotten."""
        g = Game(self.rules, None, 0)
        g.deal = self.deal
        g.n = self.n
        g.seats = self.seats
        g.sides = self.sides
        g.side_seats = self.side_seats
        g.side_of_seat = self.side_of_seat
        g.solo = self.solo
        g._ctx = self._ctx
        g._gen = self._gen
        g._values = self._values
        g.hands = [h[:] for h in self.hands]
        g.hand_n = self.hand_n[:]
        g.stock = self.stock[:]
        g.pile = self.pile[:]
        g.pozzetti = self.pozzetti[:]
        g.poz_taken = self.poz_taken[:]
        g.poz_order = self.poz_order[:]
        g.poz_by = self.poz_by[:]
        g.hidden = [None if h is None else h[:] for h in self.hidden]
        g.poz_pending = self.poz_pending[:]
        g.melds = [m[:] for m in self.melds]
        g.known = [k[:] for k in self.known]
        g.table = self.table[:]
        g.turn = self.turn
        g.phase = self.phase
        g.actions = self.actions[:]
        g.picked = self.picked
        g.drew = self.drew
        g.lone = self.lone
        g.lone_gone = self.lone_gone
        g.top = self.top
        g.top_used = self.top_used
        g.melded = self.melded
        g.opening = self.opening
        g.laid = self.laid
        g.must_open = self.must_open
        g.drawn = self.drawn
        g.redrawn = self.redrawn
        g.last_turn = self.last_turn
        g.stalemate_run = self.stalemate_run
        g.turns = self.turns
        g.timeout_called = self.timeout_called
        g.timeout_left = self.timeout_left
        g.end = self.end
        g.closed_by = self.closed_by
        g.first = self.first
        g._legal = self._legal
        g._meldkeys = self._meldkeys[:]
        if self._nh:
            g._nh = self._nh.clone()
        return g

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled as its rules and its fields (:data:`STATE_FIELDS`): the rules' caches and the native core's copy
        of the state are made again on loading, not pickled."""
        return (_rebuild_game, (self.rules, tuple(getattr(self, f) for f in STATE_FIELDS)))

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        """``copy.deepcopy`` is :meth:`clone`: the rules, the deal, the melds and the shared generation caches are
        immutable or caches, and copying them (the caches can hold hundreds of thousands of entries) is waste."""
        return self.clone()

    # ------------------------------------------------------------------------------------------------------------
    # basic queries
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

    def _pozzetto_for(self, side: int) -> int:
        """Index of the pozzetto this side would take on emptying its hand now, or -1 if none is due."""
        if self.rules.pozzetto_requires_burraco and not self._has_burraco(side, False):
            return -1
        taken = self.poz_taken[side]
        if taken == 0:
            for i, p in enumerate(self.pozzetti):
                if p is not None and not (self.rules.three_morto and i == 2):
                    return i
            return -1
        if (
            self.rules.three_morto
            and taken == 1
            and len(self.poz_order) == 2
            and self.poz_order[1] == side
            and self.pozzetti[2] is not None
        ):
            return 2
        return -1

    # ------------------------------------------------------------------------------------------------------------
    # applying actions
    # ------------------------------------------------------------------------------------------------------------
    def parse(self, text: str) -> Action:
        """Parse an action string for this game's seats."""
        return parse_action(text, self.seats)

    def apply(self, action: Action | str) -> None:
        """Apply a legal action, or raise :class:`ActionError` (``invalid`` or ``illegal``) leaving the state as is."""
        a = self.parse(action) if isinstance(action, str) else action
        known = self._legal
        if (known is None or known[0] != len(self.actions)) and self.end is None and served(self.rules):
            self.legal_actions()  # the core's list: cheaper than the checks
            known = self._legal
        if known is None or known[0] != len(self.actions) or a not in known[1]:
            err = self.check(a)
            if err is not None:
                raise err
        self._apply(a)

    def state_changed(self) -> None:
        """Forget what was worked out from the state (the last legal actions, the native core's copy, the meld
        keys): call it after setting a game's fields directly instead of through :meth:`apply`."""
        self._legal = None
        self._nh = None
        self._meldkeys = [None] * len(self.melds)

    def is_legal(self, action: Action | str) -> bool:
        """True when :meth:`apply` would accept the action (``a in legal_actions()`` for the seat's actions)."""
        try:
            a = self.parse(action) if isinstance(action, str) else action
        except ActionError:
            return False
        return self.check(a) is None

    def check(self, a: Action) -> ActionError | None:
        """The error :meth:`apply` would raise for ``a``, or None when it is legal."""
        text = str(a)
        if self.end is not None:
            return IllegalActionError(refused(text, msg("hand_over", end=self.end)), text)
        if a.verb == TIMEOUT:
            if not self.rules.has_timeouts:
                return IllegalActionError(msg("no_timeouts"), text)
            if self.timeout_called:
                return IllegalActionError(msg("timeout_called"), text)
            return None
        if a.seat not in self.seats:
            return InvalidActionError(refused(text, msg("unknown_seat", seat=a.seat)), text)
        seat = self.seats.index(a.seat)
        side = self.side_of(seat)
        h = self.hands[seat]
        # cards held / meld numbers (invalid)
        if a.verb in (MELD, ADD, DISCARD, SWAP):
            need: dict[int, int] = {}
            for c in a.cards:
                need[c] = need.get(c, 0) + 1
            for c, k in need.items():
                if h[c] < k:
                    lack = (
                        msg("holds_none", seat=a.seat, card=CARD_STR[c])
                        if h[c] == 0
                        else msg("holds_only", seat=a.seat, count=h[c], card=CARD_STR[c])
                    )
                    return InvalidActionError(refused(text, lack), text)
            if a.verb in (ADD, SWAP) and not 1 <= a.meld <= len(self.melds[side]):
                lack = msg("no_such_meld", side=self.sides[side], meld=a.meld, count=len(self.melds[side]))
                return InvalidActionError(refused(text, lack), text)
        if seat != self.turn:
            return IllegalActionError(
                refused(text, msg("not_your_turn", turn=self.seats[self.turn], seat=a.seat)), text
            )
        if a.verb in (DRAW, PICK):
            if self.phase != DRAW_PHASE:
                return IllegalActionError(refused(text, msg("already_drew", seat=a.seat)), text)
            if a.verb == DRAW:
                return None
            why: Message | None = self._pick_error(seat)
            return None if why is None else IllegalActionError(refused(text, why), text)
        if self.phase != PLAY_PHASE:
            return IllegalActionError(refused(text, msg("must_draw_first", seat=a.seat)), text)
        if a.verb == DISCARD:
            why = self._discard_error(seat, a.cards[0])
        elif a.verb == REDRAW:
            why = self._redraw_error(seat)
        elif a.verb == SWAP:
            why = self._swap_error(seat, side, a)
        elif not a.cards:
            return InvalidActionError(refused(text, msg("no_cards_named")), text)
        else:
            try:
                new = self._meld_result(side, a)
            except MeldError as e:
                return IllegalActionError(e.msg, text)
            why = self._after_meld_error(seat, a, new)
        return None if why is None else IllegalActionError(refused(text, why), text)

    def _meld_result(self, side: int, a: Action) -> Meld:
        """The meld created or changed by a meld/add action (raises MeldError)."""
        if a.verb == MELD:
            m = self._ctx.make(a.cards)
            self._check_duplicate(side, m)
            return m
        return self._ctx.attach(self.melds[side][a.meld - 1], a.cards)

    def _check_duplicate(self, side: int, m: Meld) -> None:
        r = self.rules
        for o in self.melds[side]:
            if o.kind != m.kind:
                continue
            if m.kind == SET and r.forbid_duplicate_set_rank and o.rank == m.rank:
                raise MeldError(msg("duplicate_set", cards=cards_str(m.cards), rank=m.rank))
            if m.kind == SEQUENCE and r.forbid_identical_sequences and o.suit == m.suit and o.mask == m.mask:
                raise MeldError(
                    msg(
                        "duplicate_sequence",
                        cards=cards_str(m.display_cards()),
                        other=cards_str(o.display_cards()),
                    )
                )

    def _apply(self, a: Action) -> None:
        """Apply an action already known to be legal (no checks), to the native core's copy too."""
        h = self._nh
        if h and not h.apply(a):  # a director's time-out: the core's copy is made again when needed
            self._nh = None
        self.actions.append(a)
        v = a.verb
        if v == TIMEOUT:
            self._timeout()
            return
        seat = self.turn
        if v == DRAW:
            self._draw(seat)
        elif v == PICK:
            self._pick(seat)
        elif v == DISCARD:
            self._discard(seat, a.cards[0])
        elif v == REDRAW:
            self._redraw(seat)
        elif v == SWAP:
            self._swap(seat, self.side_of(seat), a)
        else:
            side = self.side_of(seat)
            m = self._meld_result(side, a)
            self._lay(seat, side, a, m)

    # ----- take -------------------------------------------------------------------------------------------------
    def _draw(self, seat: int) -> None:
        if not self.stock:
            self._morto_to_stock()
        c = self.stock.pop()
        self.hands[seat][c] += 1
        self.hand_n[seat] += 1
        self.phase = PLAY_PHASE
        self.drew = True
        self.drawn = c
        if self.rules.stock_end is StockEnd.END_AFTER_THIRD_LAST and len(self.stock) <= 2:
            self.last_turn = True

    def _morto_to_stock(self) -> None:
        for i, p in enumerate(self.pozzetti):
            if p is not None:
                self.stock = list(reversed(p))
                self.pozzetti[i] = None
                return
        raise AssertionError("no stock and no morto")  # unreachable: the hand ends at the turn start

    def _pick(self, seat: int) -> None:
        pile = self.pile
        h = self.hands[seat]
        top = pile[-1]
        if len(pile) == 1:
            self.lone = top
            self.lone_gone = False
        self.top = top
        self.top_used = self.rules.pickup_rule is not PickupRule.MUST_USE_TOP_CARD
        kn = self.known[seat]
        if self.rules.discard_pile_open:
            for c in pile:
                h[c] += 1
                kn[c] += 1
        else:
            for c in pile:
                h[c] += 1
            kn[top] += 1
        self.hand_n[seat] += len(pile)
        self.pile = []
        self.picked = True
        self.phase = PLAY_PHASE
        side = self.side_of(seat)
        if self.rules.min_meld_required_for_pickup and self.rules.min_first_meld > 0 and not self.melds[side]:
            self.must_open = True
            self.opening = True

    # ----- house rules: redraw and swap --------------------------------------------------------------------------
    def _redraw_error(self, seat: int) -> Message | None:
        if not self.rules.first_player_redraw:
            return msg("no_redraw")
        if self.redrawn or self.turns > 0 or seat != self.first or not self.drew or self.melded:
            return msg("redraw_only_first")
        if not self.stock and self.pozzetti_left() == 0:
            return msg("stock_empty")
        if self.last_turn:
            return msg("stock_last_cards")
        return None

    def _redraw(self, seat: int) -> None:
        c = self.drawn
        self.hands[seat][c] -= 1
        self.hand_n[seat] -= 1
        self.pile.append(c)
        self.redrawn = True
        self._draw(seat)

    def _swap_target(self, m: Meld, c: int) -> int:
        """The position where natural ``c`` would replace ``m``'s wild, or 0 if it cannot."""
        if m.kind != SEQUENCE or m.wild < 0 or c == JOKER or c // 13 != m.suit:
            return 0
        r = c % 13 + 1
        spots = [m.wild_pos] if m.wild_pos else []
        if not m.wild_pos:  # a free wild stands for either end
            lo, hi = m.span()
            spots = [p for p in (lo - 1, hi + 1) if 1 <= p <= 14]
        for p in spots:
            if p == r or (r == 1 and p == 14):
                if p == 1 or p == 14:
                    other = 14 if p == 1 else 1
                    if m.mask >> other & 1 and not self._ctx.two_aces:
                        continue
                return p
        return 0

    def _swap_error(self, seat: int, side: int, a: Action) -> Message | None:
        if not self.rules.wild_may_return_to_hand:
            return msg("swap_not_allowed")
        m = self.melds[side][a.meld - 1]
        if len(a.cards) != 1:
            return msg("swap_one_card")
        if m.kind != SEQUENCE or m.wild < 0:
            return msg("swap_no_wild", meld=a.meld)
        if not self._swap_target(m, a.cards[0]):
            return msg("swap_wrong_card", card=CARD_STR[a.cards[0]], meld=a.meld)
        g = self.clone()
        g._swap(seat, side, a)
        if not g._completable({}):
            return msg("swap_dead_end")
        return None

    def _swap(self, seat: int, side: int, a: Action) -> None:
        m = self.melds[side][a.meld - 1]
        c = a.cards[0]
        p = self._swap_target(m, c)
        cards = list(m.cards)
        cards.remove(m.wild)
        cards.append(c)
        new = self._ctx.place(m.suit, m.mask | (1 << p), tuple(sorted(cards)))
        h = self.hands[seat]
        h[c] -= 1
        h[m.wild] += 1
        kn = self.known[seat]
        if kn[c]:
            kn[c] -= 1
        kn[m.wild] += 1  # everybody saw the wild go to his hand
        self.table[c] += 1
        self.table[m.wild] -= 1
        self.melds[side][a.meld - 1] = new
        self._meldkeys[side] = None
        self.melded = True
        if c == self.lone:
            self.lone_gone = True
        if self.opening:
            self.laid += self._values[c] - self._values[m.wild]
        if self.top >= 0 and not self.top_used and self.top == c:
            self.top_used = True

    def _house_actions(self, seat: int, name: str) -> list[Action]:
        """Legal redraw / swap actions under their house rules."""
        out: list[Action] = []
        r = self.rules
        if r.first_player_redraw and self._redraw_error(seat) is None:
            out.append(Action(name, REDRAW))
        if r.wild_may_return_to_hand:
            h = self.hands[seat]
            side = self.side_of(seat)
            for k, m in enumerate(self.melds[side], start=1):
                if m.kind != SEQUENCE or m.wild < 0:
                    continue
                b0 = m.suit * 13
                for c in range(b0, b0 + 13):
                    if h[c] and self._swap_target(m, c):
                        a = Action(name, SWAP, (c,), k)
                        if self._swap_error(seat, side, a) is None:
                            out.append(a)
        return out

    # ----- melds ------------------------------------------------------------------------------------------------
    def _lay(self, seat: int, side: int, a: Action, m: Meld) -> None:
        h = self.hands[seat]
        kn = self.known[seat]
        tb = self.table
        pts = 0
        vals = self._values
        for c in a.cards:
            tb[c] += 1
            h[c] -= 1
            if kn[c]:  # one publicly known copy is accounted for (observers cannot tell which copy was used)
                kn[c] -= 1
            pts += vals[c]
        self.hand_n[seat] -= len(a.cards)
        self._meldkeys[side] = None
        if a.verb == MELD:
            if not self.melds[side] and self.rules.min_first_meld > 0:
                self.opening = True
            self.melds[side].append(m)
        else:
            self.melds[side][a.meld - 1] = m
        self.melded = True
        if self.lone >= 0 and self.lone in a.cards:
            self.lone_gone = True
        if self.opening:
            self.laid += pts
        if self.top >= 0 and not self.top_used and self.top in a.cards:
            self.top_used = True
        if self.hand_n[seat] == 0:
            i = self._pozzetto_for(side)
            if i >= 0:
                self._take_pozzetto(seat, side, i, direct=True)
            else:  # Brazilian batida by melding the last card (legality checked before)
                self._finish("closed", seat)

    def _form_pairs(self, solo: int) -> None:
        """3 and 5 players: ``solo`` went out first; he plays solo and the others form pairs (RULES.md §14.3–§14.4).
        A pair's melds become one side's: its first seat's melds (in seat order) keep their numbers, its partner's
        follow in their order."""
        old = self.side_of_seat
        groups = tuple(sorted([(solo,), *pairs_after(solo, self.n)]))
        melds: list[list[Meld]] = []
        taken: list[int] = []
        by: list[int] = []
        for members in groups:
            ms: list[Meld] = []
            for m in members:
                ms += self.melds[old[m]]
            melds.append(ms)
            taken.append(sum(self.poz_taken[old[m]] for m in members))
            by.append(next((self.poz_by[old[m]] for m in members if self.poz_by[old[m]] >= 0), -1))
        self.side_seats = groups
        self.side_of_seat = _seat_sides(groups, self.n)
        self.sides = tuple(side_name(self.seats, g) for g in groups)
        self.melds = melds
        self.poz_taken = taken
        self.poz_by = by
        self.poz_order = [self.side_of_seat[old.index(s)] for s in self.poz_order]
        self._meldkeys = [None] * len(groups)
        self.solo = solo

    def _take_pozzetto(self, seat: int, side: int, i: int, direct: bool) -> None:
        if self.rules.solo_pair and self.solo < 0:
            self._form_pairs(seat)
            side = self.side_of_seat[seat]
        p = self.pozzetti[i]
        assert p is not None
        self.pozzetti[i] = None
        if self.poz_taken[side] == 0:
            self.poz_order.append(side)
            self.poz_by[side] = seat
        self.poz_taken[side] += 1
        h = self.hands[seat]
        for c in p:
            h[c] += 1
        self.hand_n[seat] += len(p)
        if not direct:
            self.poz_pending[seat] = True
            if len(self.side_seats[side]) > 1:  # seen after the partner's next discard (§0.1 C-22); alone: at once
                hid = [0] * NUM_TYPES
                for c in p:
                    hid[c] += 1
                self.hidden[seat] = hid

    # ----- discard and the end of a turn ------------------------------------------------------------------------
    def _discard(self, seat: int, c: int) -> None:
        h = self.hands[seat]
        h[c] -= 1
        self.hand_n[seat] -= 1
        kn = self.known[seat]
        if kn[c]:
            kn[c] -= 1
        self.pile.append(c)
        side = self.side_of(seat)
        closed = False
        if self.hand_n[seat] == 0:
            i = self._pozzetto_for(side)
            if i >= 0:
                self._take_pozzetto(seat, side, i, direct=False)
            else:
                closed = True
        # the partner's pozzetto taken with the discard becomes visible after this discard (§0.1 C-22)
        for p in self.side_seats[self.side_of_seat[seat]]:
            if p != seat and self.hidden[p] is not None:
                self.hidden[p] = None
        # stalemate bookkeeping (§9.3.2)
        if self.lone >= 0 and not self.melded and not self.drew:
            self.stalemate_run += 1
        else:
            self.stalemate_run = 0
        self.turns += 1
        if self.timeout_left > 0:
            self.timeout_left -= 1
        if closed:
            self._finish("closed", seat)
        elif self.last_turn:
            self._finish("stock")
        elif self.rules.stalemate and self.stalemate_run >= self.n:
            self._finish("stalemate")
        elif self.timeout_left == 0:
            self._finish("timeout")
        elif self.turns >= self.rules.turn_cap:
            self._finish("cap")
        else:
            self._next_turn()

    def _next_turn(self) -> None:
        self.turn = self.next_seat(self.turn)
        self.phase = DRAW_PHASE
        self.picked = False
        self.drew = False
        self.lone = -1
        self.lone_gone = False
        self.top = -1
        self.top_used = True
        self.melded = False
        self.opening = False
        self.laid = 0
        self.must_open = False
        self.drawn = -1
        self.poz_pending[self.turn] = False
        if len(self.side_seats[self.side_of_seat[self.turn]]) == 1:
            self.hidden[self.turn] = None
        if not self.stock and self.pozzetti_left() == 0:
            self._finish("stock")
        elif not self.stock and self.rules.stock_end is not StockEnd.MORTO_BECOMES_STOCK:
            self._finish("stock")

    def _finish(self, how: str, seat: int = -1) -> None:
        self.end = how
        self.closed_by = seat if how == "closed" else -1
        self.phase = END_PHASE

    def _timeout(self) -> None:
        self.timeout_called = True
        pol = self.rules.timeout_policy
        if pol is TimeoutPolicy.ROUND_FROM_CURRENT:
            self.timeout_left = self.n
        else:  # FIBUR_PARTNER_OF_NEXT_DRAWER
            started = self.phase != DRAW_PHASE
            if self.turns == 0 and not started:
                self.timeout_left = self.n  # before the first draw: one full round
            else:
                # X = next to draw; play until partner(X) is due, then a full round ending after left(X)
                x = self.next_seat(self.turn) if started else self.turn
                px = self.partner(x)
                until = (px - x) * self.rules.direction % self.n if px != x else 0
                self.timeout_left = (1 if started else 0) + until + self.n

    # ------------------------------------------------------------------------------------------------------------
    # legality
    # ------------------------------------------------------------------------------------------------------------
    def _pick_error(self, seat: int) -> Message | None:
        if not self.pile:
            return msg("pile_empty")
        r = self.rules
        if self.last_turn:
            return msg("pile_last_cards")
        if not r.pickup_with_one_card_allowed and self.hand_n[seat] == 1:
            return msg("pile_one_card")
        cond = r.pickup_rule is not PickupRule.NONE or (
            r.min_meld_required_for_pickup and r.min_first_meld > 0 and not self.melds[self.side_of(seat)]
        )
        if not cond:
            return None
        g = self.clone()
        if not r.discard_pile_open and len(g.pile) > 1:
            # legality never depends on cards the seat cannot see (§0.1): judge with the visible top card only
            g.pile = [g.pile[-1]]
            g._pick(seat)
            g.lone = -1
        else:
            g._pick(seat)
        if g._completable({}):
            return None
        if r.pickup_rule is PickupRule.MUST_USE_TOP_CARD:
            return msg("pile_top_unusable", card=CARD_STR[self.pile[-1]])
        if r.pickup_rule is PickupRule.MUST_OPEN_OR_ATTACH:
            return msg("pile_must_meld")
        return msg("pile_cannot_open", points=r.min_first_meld)

    def _pending(self) -> Message | None:
        """A condition that must be met before the turn may end, or None."""
        r = self.rules
        if self.picked and r.pickup_rule is PickupRule.MUST_OPEN_OR_ATTACH and not self.melded:
            return msg("pending_must_meld")
        if not self.top_used:
            return msg("pending_top_card", card=CARD_STR[self.top])
        if (self.opening and self.laid < r.min_first_meld) and (self.melded or self.must_open):
            return msg("pending_first_meld", points=r.min_first_meld, laid=self.laid)
        return None

    def _discard_error(self, seat: int, c: int) -> Message | None:
        r = self.rules
        if r.single_card_pile_no_rediscard and c == self.lone and not self.lone_gone and self.hands[seat][c] == 1:
            # the only copy in hand must be the one picked up (§6.4, §0.1 twin copies)
            return msg("lone_card_discard", card=CARD_STR[c])
        p = self._pending()
        if p is not None:
            return p
        if self.hand_n[seat] == 1:
            side = self.side_of(seat)
            if self._pozzetto_for(side) >= 0:
                return None
            return self._closing_error(side, c)
        return None

    def _unreached_morto(self, side: int) -> int:
        """The seat of ``side`` holding a pozzetto taken with the discard that does not count as taken yet (its
        owner's next turn has not started and the rules count such a pozzetto as not taken at scoring: Brazilian),
        or -1. While there is one the side may not go out (§0.1 C-22, decision of 2026-12-01)."""
        if self.rules.indirect_pozzetto_counts_if_unplayed:
            return -1
        for s in range(self.n):
            if self.poz_pending[s] and self.side_of(s) == side:
                return s
        return -1

    def _closing_error(self, side: int, c: int) -> Message | None:
        r = self.rules
        if self.poz_taken[side] == 0:
            if r.pozzetto_requires_burraco:
                return msg("pozzetto_needs_burraco")
            return msg("no_pozzetto_left")
        p = self._unreached_morto(side)
        if p >= 0:
            return msg("morto_not_reached", seat=self.seats[p])
        if not self._has_burraco(side):
            return msg(
                "close_needs_burraco", kind="clean" if r.closing_burraco is BurracoNeeded.CLEAN else "any"
            )
        if c >= 0 and not r.closing_discard_may_be_wild and (c == JOKER or c % 13 == 1):
            return msg("closing_wild", card=CARD_STR[c])
        return None

    def _after_meld_error(self, seat: int, a: Action, m: Meld | None) -> Message | None:
        """Why the player could not complete his turn after this meld/add (no dead ends, §0.1), or None."""
        left = self.hand_n[seat] - len(a.cards)
        r = self.rules
        side = self.side_of(seat)
        if left >= 2 and (self.top_used or self.top in a.cards):
            # the action itself meets "must meld"; a card other than the lone pick-up remains to discard
            if r.min_first_meld == 0 or (self.melds[side] and not self.opening):
                return None
            pts = sum(self._values[c] for c in a.cards)
            if self.laid + pts >= r.min_first_meld:
                return None
        if m is None:
            m = self._meld_result(side, a)
        g = self.clone()
        if left == 0 and g._pozzetto_for(side) < 0:
            # going out by melding: a Brazilian batida, never in rules that need a closing discard
            if r.closing_requires_discard:
                if g.poz_taken[side] == 0:
                    if r.pozzetto_requires_burraco and not g._has_burraco(side, False):
                        return msg("pozzetto_needs_burraco")  # 6 players (RULES.md §14.4)
                    return msg("last_meld_no_pozzetto")
                return msg("last_meld_needs_discard")
            g._lay(seat, side, a, m)
            if not g._has_burraco(side):
                return msg(
                    "go_out_needs_burraco",
                    kind="clean" if r.closing_burraco is BurracoNeeded.CLEAN else "any",
                )
            if g.poz_taken[side] == 0:
                return msg("no_morto_left")
            owner = g._unreached_morto(side)
            if owner >= 0:
                return msg("morto_not_reached", seat=self.seats[owner])
            return g._pending_at_end()
        g._lay(seat, side, a, m)
        if left == 0:
            # in diretta: taking the pozzetto completes the turn, but not before a first-meld minimum (§0.1)
            if g.opening and g.laid < r.min_first_meld:
                return msg("pozzetto_before_opening", points=r.min_first_meld)
            return None
        if g._completable({}):
            return None
        if left == 1:
            owner = g._unreached_morto(side)
            if owner >= 0:  # the last card could only go out, and the side may not go out yet (§0.1 C-22)
                return msg("dead_end_because", reason=msg("morto_not_reached", seat=self.seats[owner]))
            last = g.hand_cards(seat)[0]
            return msg("leaves_last_card", card=CARD_STR[last])
        p = g._pending()
        if p is not None:
            return msg("dead_end_because", reason=p)
        return msg("dead_end")

    def _pending_at_end(self) -> Message | None:
        if self.opening and self.laid < self.rules.min_first_meld:
            return msg("first_meld_minimum", points=self.rules.min_first_meld)
        if not self.top_used:
            return msg("top_card_unused")
        return None

    def _completable(self, memo: dict[Any, bool]) -> bool:
        """Can the player in turn (play phase) still end his turn legally, using only his hand and the table?"""
        seat = self.turn
        if self.end is not None:
            return self._pending_at_end() is None
        n = self.hand_n[seat]
        if n == 0:  # just went to the pozzetto in diretta
            return not (self.opening and self.laid < self.rules.min_first_meld)
        pending = self._pending()
        h = self.hands[seat]
        if pending is None:
            if n >= 2:
                # a card other than the lone picked-up one can always be discarded
                return True
        # a legal discard now?
        for c in range(NUM_TYPES):
            if h[c] and self._discard_error(seat, c) is None:
                return True
        key = (
            bytes(h),
            tuple(m.cards for m in self.melds[self.side_of(seat)]),
            self.laid,
            self.top_used,
            self.melded,
        )
        got = memo.get(key)
        if got is not None:
            return got
        memo[key] = False
        ok = False
        top_only = pending is not None and not self.top_used and not self.opening
        side = self.side_of(seat)
        for a in self._raw_meld_actions(seat):
            if top_only and self.top not in a.cards:
                continue
            m = self._meld_result(side, a)
            left = n - len(a.cards)
            if left == 0 and self._pozzetto_for(side) < 0:
                if self.rules.closing_requires_discard:
                    continue
                g = self.clone()
                g._lay(seat, side, a, m)
                if (
                    g.end is not None
                    and g._has_burraco(side)
                    and g.poz_taken[side]
                    and g._unreached_morto(side) < 0
                    and g._pending_at_end() is None
                ):
                    ok = True
                    break
                continue
            g = self.clone()
            g._lay(seat, side, a, m)
            if left == 0:
                if not (g.opening and g.laid < self.rules.min_first_meld):
                    ok = True
                    break
                continue
            if g._completable(memo):
                ok = True
                break
        memo[key] = ok
        return ok

    # ------------------------------------------------------------------------------------------------------------
    # legal actions
    # ------------------------------------------------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to act, each distinct action once (a director's time-out excluded)."""
        if self.end is not None:
            return []
        h = self._nh
        if h is None and served(self.rules):
            try:
                h = self._nh = _core.Hand(native_rules(self.rules), fields_of(self))  # type: ignore[union-attr]
            except ValueError:  # beyond the core's fixed sizes (more than 32 melds on a side): the Python engine
                self._nh = False
                h = None
        if h:
            out: list[Action] = h.legal_actions()
            if check_native:
                self._compare_native(out)
            self._legal = (len(self.actions), out)
            return out
        return self._py_legal_actions()

    def _compare_native(self, got: list[Action]) -> None:
        """``BURRACO_CHECK_NATIVE=1`` (the test suite): the core's legal actions must be the Python code's."""
        want = self._py_legal_actions()
        if got != want or fields_of(self) != self._nh.fields():
            raise AssertionError(
                "the native core's copy of the game differs from the Python engine after "
                f"{len(self.actions)} actions (was the game changed without apply() or state_changed()?): "
                f"legal {[str(a) for a in got]} != {[str(a) for a in want]}"
            )

    def _py_legal_actions(self) -> list[Action]:
        """:meth:`legal_actions` worked out by the Python engine (the reference)."""
        seat = self.turn
        name = self.seats[seat]
        if self.phase == DRAW_PHASE:
            out = [_DRAWS[name]]
            if self.pile and self._pick_error(seat) is None:
                out.append(_PICKS[name])
            self._legal = (len(self.actions), out)
            return out
        h = self.hands[seat]
        n = self.hand_n[seat]
        if n >= 3 and self._pending() is None:
            # no condition pending: every distinct card may be discarded (§3.4 keeps >= 2 cards after it), but for
            # the card taken from a one-card pile when the one copy in hand must be it (§6.4, §0.1 twin copies)
            da = _DISCARDS[name]
            out = list(compress(da, h))
            lone = self.lone
            if lone >= 0 and not self.lone_gone and h[lone] == 1 and self.rules.single_card_pile_no_rediscard:
                out.remove(da[lone])
        else:
            out = [
                Action(name, DISCARD, (c,))
                for c in range(NUM_TYPES)
                if h[c] and self._discard_error(seat, c) is None
            ]
        r = self.rules
        simple = r.pickup_rule is PickupRule.NONE and r.min_first_meld == 0
        if r.first_player_redraw or r.wild_may_return_to_hand:
            out += self._house_actions(seat, name)
        raw = self._raw_meld_actions(seat)
        if simple and (n >= 2 + 14 or not raw or n >= 2 + max(map(len, map(_CARDS_OF, raw)))):
            out += raw  # no meld leaves fewer than 2 cards: all are legal
        else:
            for a in raw:
                if (simple and n - len(a[2]) >= 2) or self._after_meld_error(seat, a, None) is None:
                    out.append(a)
        self._legal = (len(self.actions), out)
        return out

    def legal_actions_str(self) -> list[str]:
        """The legal actions as strings."""
        return [str(a) for a in self.legal_actions()]

    def _raw_meld_actions(self, seat: int) -> list[Action]:
        """Every distinct valid new meld and attachment from the hand (§4, §5.4, §0.1 C-16).

        Only the rules of melds are checked here; turn-level legality (dead ends, §3.4) is checked by the caller.
        """
        name = self.seats[seat]
        side = self.side_of_seat[seat]
        gen = self._gen
        hb = bytes(self.hands[seat])
        sig = (hb[52] > 0) | (hb[1] > 0) << 1 | (hb[14] > 0) << 2 | (hb[27] > 0) << 3 | (hb[40] > 0) << 4
        melds = self.melds[side]
        mk = self._meldkeys[side]
        if mk is None:
            r = self.rules
            mk = self._meldkeys[side] = (
                frozenset(m.rank for m in melds if m.kind == SET)
                if r.forbid_duplicate_set_rank
                else frozenset(),
                frozenset((m.suit, m.mask) for m in melds if m.kind == SEQUENCE)
                if r.forbid_identical_sequences
                else frozenset(),
            )
        set_ranks, seq_keys = mk
        tn = tuple.__new__
        out: list[Action] = []
        fb = int.from_bytes
        # cards per rank, summed lane by lane over the four suits (each total fits in a byte)
        tots = (
            fb(hb[0:13], "big") + fb(hb[13:26], "big") + fb(hb[26:39], "big") + fb(hb[39:52], "big")
        ).to_bytes(13, "big")
        for rank in gen.set_candidates(tots, 2 if sig else 3):
            if rank in set_ranks:
                continue
            base = rank - 1
            out += [tn(Action, (name, MELD, t, 0)) for t in gen.sets(rank, hb[base : base + 40 : 13], sig)]
        max_zeros = 11 if sig else 10  # a sequence needs 2 naturals and a wild, or 3 naturals
        for suit in (0, 1, 2, 3):
            b0 = suit * 13
            cs = hb[b0 : b0 + 13]
            if cs.count(0) > max_zeros:
                continue
            if seq_keys:
                out += [
                    tn(Action, (name, MELD, t, 0))
                    for t, smask in gen.sequences(suit, cs, sig)
                    if (suit, smask) not in seq_keys
                ]
            else:
                out += [tn(Action, (name, MELD, t, 0)) for t, _ in gen.sequences(suit, cs, sig)]
        k = 0
        for m in melds:
            k += 1
            if m.kind == SET:
                base = m.rank - 1
                cnt = hb[base : base + 40 : 13]
                if not sig and cnt == _Z4:
                    continue
            else:
                b0 = m.suit * 13
                cnt = hb[b0 : b0 + 13]
                if not sig and cnt == _Z13:
                    continue
            adds = gen.additions(m, cnt, sig)
            if adds:
                out += [tn(Action, (name, ADD, t, k)) for t in adds]
        return out

    # ------------------------------------------------------------------------------------------------------------
    # scoring
    # ------------------------------------------------------------------------------------------------------------
    def scores(self) -> dict[str, dict[str, int]] | None:
        """The score breakdown of RECORDS.md §5 per side once the hand has ended, else None."""
        if self.end is None:
            return None
        return {self.sides[s]: self.side_score(s) for s in range(len(self.sides))}

    def side_score(self, side: int) -> dict[str, int]:
        """Melds, bonuses, closing, hand, pozzetto and total of one side as things stand (§10.1)."""
        r = self.rules
        vals = self._values
        melds = 0
        bonuses = 0
        clean = False
        for m in self.melds[side]:
            melds += meld_points(m, vals)
            bonuses += self._bonus(m)
            if m.burraco == CLEAN:
                clean = True
        if r.no_canastra_penalty and not clean:
            melds = -melds
        closing = (
            r.closing_bonus
            if self.end == "closed" and self.closed_by >= 0 and self.side_of(self.closed_by) == side
            else 0
        )
        hand = 0
        uncounted = False
        for s in self.side_seats[side]:
            if self.poz_pending[s] and not r.indirect_pozzetto_counts_if_unplayed:
                uncounted = True
                continue  # a pozzetto taken with the discard, not yet played: its cards are ignored
            h = self.hands[s]
            hand -= sum(vals[c] * h[c] for c in range(NUM_TYPES) if h[c])
        taken = self.poz_taken[side] > 0 and not uncounted
        pozz = 0 if taken else -r.pozzetto_penalty
        total = melds + bonuses + closing + hand + pozz
        return {
            "melds": melds,
            "bonuses": bonuses,
            "closing": closing,
            "hand": hand,
            "pozzetto": pozz,
            "total": total,
        }

    def _bonus(self, m: Meld) -> int:
        return burraco_bonus(m, self.rules)

    def returns(self) -> list[int]:
        """Per seat: its side's hand total (0 for everybody while the hand is running); with 3 and 5 players a
        pair's players get their half (:meth:`player_points`)."""
        if self.end is None:
            return [0] * self.n
        if self.rules.players in (3, 5):
            return self.player_points()
        sc = self.scores()
        assert sc is not None
        return [sc[self.sides[self.side_of(s)]]["total"] for s in range(self.n)]

    def player_points(self) -> list[int]:
        """Per seat, what the hand adds to his match total with 3 and 5 players: the solo's whole score, each
        half of a pair's score (rounded as ``pair_split_rounding`` says, RULES.md §14.3), a player alone his own."""
        if self.end is None:
            return [0] * self.n
        totals = [self.side_score(k)["total"] for k in range(len(self.side_seats))]
        return player_shares(totals, self.side_of_seat, self.rules.pair_split_rounding)

    # ------------------------------------------------------------------------------------------------------------
    # output
    # ------------------------------------------------------------------------------------------------------------
    def table_json(self) -> dict[str, Any]:
        """The ``table`` object of RECORDS.md §5 (everything, as a replay sees it)."""
        return {
            "turn": None if self.end is not None else self.seats[self.turn],
            "phase": self.phase,
            "stock": len(self.stock),
            "pile": [CARD_STR[c] for c in self.pile],
            "hands": {self.seats[s]: self.hand_n[s] for s in range(self.n)},
            "pozzetti_left": self.pozzetti_left(),
            "pozzetto_taken": {self.sides[s]: self.poz_taken[s] > 0 for s in range(len(self.sides))},
            "melds": {self.sides[s]: [meld_json(m) for m in self.melds[s]] for s in range(len(self.sides))},
        }

    def result_json(self) -> dict[str, Any]:
        """One element of the replay output's ``hands`` list."""
        return {
            "end": self.end,
            "closed_by": self.seats[self.closed_by] if self.closed_by >= 0 else None,
            "table": self.table_json(),
            "scores": self.scores(),
        }

    def to_record(self, dealer: int | None = None) -> dict[str, Any]:
        """This hand as a one-hand record (RECORDS.md §3)."""
        from .rules import rules_to_json

        if dealer is None:
            dealer = (self.first - self.rules.direction) % self.n
        if self.deal is None:
            raise ValueError("a determinized game has no deal to record")
        return {
            "format": "burraco-record/1",
            "rules": rules_to_json(self.rules),
            "dealer": self.seats[dealer],
            "hands": [{"deal": self.deal.to_json(self.seats), "actions": [str(a) for a in self.actions]}],
        }

    def __repr__(self) -> str:
        state = self.end or f"{self.seats[self.turn]} to {self.phase}"
        return f"<Game {self.rules.name} {state}, stock {len(self.stock)}, {len(self.actions)} actions>"

    def view(self, seat: int) -> View:
        """What ``seat`` may know (RULES.md §0.1 "Views"): see :class:`burraco.view.View`."""
        from .view import make_view

        return make_view(self, seat)


#: the fields of a :class:`Game` that make its state (the rest, ``rules`` and the caches of the rules, follow from the
#: rules): what a pickled game holds; :meth:`Game.clone` copies the same fields
STATE_FIELDS = (
    "deal", "n", "seats", "sides", "side_seats", "side_of_seat", "solo", "hands", "hand_n", "stock", "pile",
    "pozzetti", "poz_taken", "poz_order", "poz_by", "hidden", "poz_pending", "melds", "known", "table", "turn",
    "phase", "actions", "picked", "drew", "lone", "lone_gone", "top", "top_used", "melded", "opening", "laid",
    "must_open", "drawn", "redrawn", "last_turn", "stalemate_run", "turns", "timeout_called", "timeout_left", "end",
    "closed_by", "first",
)  # fmt: skip


def _meld_fields(m: Meld) -> tuple[int, ...] | tuple[Any, ...]:
    return (m.kind, m.cards, m.suit, m.rank, m.mask, m.wild, m.wild_pos, m.naturals, _BURRACO_CODE[m.burraco])


def fields_of(g: Game) -> tuple[Any, ...]:
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


def _rebuild_game(rules: Rules, fields: tuple[Any, ...]) -> Game:
    """A game from :meth:`Game.__reduce__`'s parts."""
    g = Game(rules, None, 0)
    for name, value in zip(STATE_FIELDS, fields, strict=True):
        setattr(g, name, value)
    g._ctx = meld_rules(rules)
    g._gen = generator(g._ctx)
    g._values = rules.card_values()
    g._legal = None
    g._meldkeys = [None] * len(g.melds)
    return g


def meld_json(m: Meld) -> dict[str, Any]:
    """A meld as the replay result writes it (``cards``, ``kind``, ``wild``, ``burraco``; RECORDS.md §5)."""
    return {
        "cards": [CARD_STR[c] for c in m.display_cards()],
        "kind": "set" if m.kind == SET else "sequence",
        "wild": m.wild >= 0,
        "burraco": m.burraco,
    }

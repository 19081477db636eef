"""Determinization: a full state consistent with a seat's :class:`~burraco.view.View` (the unseen cards dealt
at random, or weighted by what the other seats were seen to do), the Python reference of what the native core
serves (:func:`burraco.native.determinize`). Searching players (:mod:`burraco.bots.ismcts`) and the coach play
their rollouts on such states.

>>> import random
>>> from burraco import Game, preset
>>> g = Game.new(preset("italian"), seed=3)
>>> v = g.view(0)
>>> d = determinize(v, random.Random(1))
>>> d.hand_cards(0) == g.hand_cards(0), d.view(0) == v
(True, True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from .actions import Action
from .cards import NUM_TYPES
from .game import Game
from .gen import generator
from .melds import meld_rules
from .native import determinize as on_core
from .seats import seat_names
from .view import View


def _shuffle(x: list[int], rng: random.Random) -> None:
    """Fisher-Yates driven by one uniform integer below len(x)! (drawn by rejection): its mixed-radix digits are
    independent uniform choices, so the distribution is that of ``rng.shuffle``, about twice as fast for the ~80
    unseen cards of a determinization."""
    n = len(x)
    if n < 2:
        return
    f = _FACT.get(n)
    if f is None:
        f = _FACT[n] = math.factorial(n)
    bits = f.bit_length()
    r = rng.getrandbits(bits)
    while r >= f:
        r = rng.getrandbits(bits)
    for i in range(n - 1, 0, -1):
        r, j = divmod(r, i + 1)
        x[i], x[j] = x[j], x[i]


_FACT: dict[int, int] = {}


_TURN_FIELDS = (
    "picked",
    "drew",
    "lone",
    "lone_gone",
    "top",
    "top_used",
    "melded",
    "opening",
    "laid",
    "must_open",
    "last_turn",
    "stalemate_run",
    "turns",
    "timeout_called",
    "timeout_left",
    "end",
    "closed_by",
    "first",
)


_ONES = (1.0,) * NUM_TYPES


def _weighted_sample(pool: list[int], w: Sequence[float], k: int, rng: random.Random) -> list[int]:
    """``k`` cards drawn from ``pool`` without replacement, each draw proportional to ``w[card]`` (Efraimidis and
    Spirakis: the ``k`` largest keys ``u ** (1 / w)``); the drawn cards are removed from ``pool``."""
    rnd = rng.random
    keyed = sorted(((rnd() ** (1.0 / w[c]) if w[c] > 0 else 0.0), i) for i, c in enumerate(pool))
    chosen = sorted((i for _, i in keyed[-k:]), reverse=True)
    out = [pool[i] for i in chosen]
    for i in chosen:
        pool[i] = pool[-1]
        pool.pop()
    return out


#: how many times a seat's sampled hand is drawn again while it holds a meld the seat is taken not to hold
#: (``determinize``'s ``avoid``); the last draw stays, so every world the view allows keeps some probability
AVOID_TRIES = 8

#: ranks of a run of naturals in one suit, in order: 3 … King, then the Ace above the King (a 2 is left out: in a
#: hand it is a wild as often as a natural)
_RUN_RANKS = (*range(2, 13), 0)


def holds_natural_meld(counts: Sequence[int], extra: Sequence[int], avoid: int) -> bool:
    """Whether the cards ``counts`` (53 counts) plus the cards ``extra`` (a list of card types) hold three naturals
    that make a meld of the kinds in ``avoid``: bit 0 a run of three in one suit (ranks 3 … K and Q K A), bit ``r``
    (1 = Ace … 13 = King) a set of three of rank ``r``."""
    h = list(counts)
    for c in extra:
        h[c] += 1
    if avoid & 1:
        for base in (0, 13, 26, 39):
            run = 0
            for r in _RUN_RANKS:
                run = run + 1 if h[base + r] else 0
                if run == 3:
                    return True
    for r in range(13):
        if avoid >> (r + 1) & 1 and h[r] + h[13 + r] + h[26 + r] + h[39 + r] >= 3:
            return True
    return False


def determinize(
    view: View,
    rng: random.Random,
    weights: Sequence[Sequence[float] | None] | None = None,
    avoid: Sequence[int] | None = None,
) -> Game:
    """A full :class:`Game` consistent with ``view``: every card the seat knows stays where it is (its hand, the
    table, the visible pile, the cards others were seen to pick up); the rest is dealt uniformly at random to the
    other hands, the stock, the pozzetti left, an unseen own pozzetto and the covered part of a closed pile.

    ``weights`` (optional, per seat a weight per card type, or None): the unknown cards of those seats' hands are
    drawn first, by weighted sampling without replacement (a card of weight 0.5 is half as likely as one of weight
    1 at each draw); the rest is dealt uniformly as above (:mod:`burraco.bots.infer` makes such weights).

    ``avoid`` (optional, per seat a mask of :func:`holds_natural_meld`, 0 for none): those seats' unknown cards are
    drawn the same way (weight 1 where ``weights`` gives none) and drawn again, up to :data:`AVOID_TRIES` times in
    all, while the seat's hand (its known cards and the drawn ones) holds such a meld of naturals.

    The result has no deal or action history (it cannot be written as a record); everything else is playable.
    Where the native core takes the rules, it draws the same numbers from ``rng`` and serves the result
    (:func:`burraco.native.determinize`: a few microseconds, the game's Python fields made when first read).
    """
    got = on_core(view, rng, weights, avoid, _determinize)
    return got if got is not None else _determinize(view, rng, weights, avoid)


def _determinize(
    view: View,
    rng: random.Random,
    weights: Sequence[Sequence[float] | None] | None = None,
    avoid: Sequence[int] | None = None,
) -> Game:
    """:func:`determinize` by the Python engine (the reference)."""
    from .game import Game

    r = view.rules
    n = r.players
    pool: list[int] = []
    for c, k in enumerate(view.unseen):
        if k:
            pool.extend([c] * k)
    drawn: list[list[int] | None] = [None] * n
    if weights is not None or avoid is not None:
        for s in range(n):
            w = weights[s] if weights is not None else None
            a = avoid[s] if avoid is not None else 0
            if (w is None and not a) or s == view.seat:
                continue
            k = view.hand_sizes[s] - sum(view.known[s])
            if k <= 0:
                continue
            ws = _ONES if w is None else w
            for tries in range(1, AVOID_TRIES + 1):
                saved = pool[:] if a else pool
                cards = _weighted_sample(pool, ws, k, rng)
                if not a or tries == AVOID_TRIES or not holds_natural_meld(view.known[s], cards, a):
                    break
                pool[:] = saved
            drawn[s] = cards
    _shuffle(pool, rng)
    pos = 0

    def take(k: int) -> list[int]:
        nonlocal pos
        out = pool[pos : pos + k]
        pos += k
        return out

    g = Game(r, None, 0)  # an empty shell: every field is set here
    g.n = n
    g.seats = seat_names(n)
    g._ctx = meld_rules(r)
    g._gen = generator(g._ctx)
    g._values = r.card_values()
    hands: list[bytearray] = []
    hidden: list[list[int] | None] = [None] * n
    for s in range(n):
        v = bytearray(NUM_TYPES)
        if s == view.seat:
            for c in view.hand:
                v[c] += 1
            if view.hidden_pozzetto:
                hid = [0] * NUM_TYPES
                for c in take(view.hidden_pozzetto):
                    v[c] += 1
                    hid[c] += 1
                hidden[s] = hid
        else:
            kn = view.known[s]
            v[:] = kn
            got = drawn[s]
            for c in take(view.hand_sizes[s] - sum(kn)) if got is None else got:
                v[c] += 1
            if view.hidden_seats[s]:
                hidden[s] = [0] * NUM_TYPES  # its content is unknown to us; only the flag matters here
        hands.append(v)
    g.hands = hands
    g.hand_n = list(view.hand_sizes)
    if r.discard_pile_open or view.pile_size == 0:
        g.pile = list(view.pile)
    else:
        g.pile = take(view.pile_size - 1) + [view.pile[-1]]
    g.stock = take(view.stock_size)
    g.pozzetti = [
        tuple(take(size)) if present else None for present, size in zip(view.pozzetti, r.pozzetto_sizes, strict=True)
    ]
    assert pos == len(pool), "determinization left cards over"
    g.poz_taken = list(view.poz_taken)
    g.poz_order = list(view.poz_order)
    g.poz_by = list(view.poz_by)
    g.hidden = hidden
    g.poz_pending = list(view.poz_pending)
    g.melds = [list(m) for m in view.melds]
    g.side_seats = view.side_seats
    g.side_of_seat = view.seat_side
    g.sides = view.sides
    g.solo = view.solo
    g.known = [bytearray(k) for k in view.known]
    g.table = bytearray(view.table)
    g.turn = view.turn if view.turn >= 0 else view.first
    g.phase = view.phase
    g.actions = []
    g._legal = None
    g._meldkeys = [None] * len(view.melds)
    for f in _TURN_FIELDS:
        setattr(g, f, getattr(view, f))
    g.redrawn = view.redrawn
    g.drawn = view.drawn
    if view.seat != g.turn and g.drew and g.end is None:
        # which card he drew is unknown to this seat: any card of his sampled hand may stand for it
        hand = g.hands[g.turn]
        g.drawn = next((c for c in range(NUM_TYPES) if hand[c]), -1)
    return g


def legal_actions(view: View) -> list[Action]:
    """The legal actions of the seat of ``view`` when it is the one to act, else none: exactly the game's own
    (legality never depends on hidden cards, RULES.md §0.1 "Views"), read from any state consistent with the view.

    >>> from burraco import Game, preset
    >>> g = Game.new(preset("italian"), seed=3)
    >>> legal_actions(g.view(0)) == g.legal_actions(), legal_actions(g.view(1))
    (True, [])
    """
    if view.turn != view.seat:
        return []
    return determinize(view, random.Random(0)).legal_actions()


__all__ = ["AVOID_TRIES", "determinize", "holds_natural_meld", "legal_actions"]

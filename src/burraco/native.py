"""The native core: one hand in compact C form (``burraco._native``, src/native/), beside the pure-Python
engine, which stays the reference.

A :class:`NativeHand` is made from a :class:`~burraco.game.Game` and serves the same legal actions (the same list,
in the same order), ``apply``, ``clone``, the scores at the hand's end and a random playout to the end of the hand
in one call that releases the GIL. tests/test_native.py compares it with the Python engine on every state of random
hands of every rule set it takes; ``supported(rules)`` says which those are (every preset and house rule, 2 to 6
players, the solo and the pairs of 3 and 5 players, the pick-up conditions and first-meld minimums included; not
sets of 2s or more than one wild per meld); anything else plays on the Python engine.

>>> from burraco import Game, preset
>>> g = Game.new(preset("italian"), seed=3)
>>> if available():
...     h = NativeHand.from_game(g)
...     assert h.legal_actions() == g.legal_actions()
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ._accel import check_native, core
from ._accel import native_rules as native_rules  # re-exported: the core's rules and what it plays
from ._accel import supported as supported
from .actions import Action, IllegalActionError, parse_action
from .cards import NUM_TYPES
from .deal import deal_from_seed
from .game import Game, _core_game, _CoreGame, served
from .messages import msg
from .rules import Rules
from .seats import seat_names
from .state import (
    _END_CODE,
    _PHASE_CODE,
    _PHASES,
    ENDS,
    STATE_FIELDS,
    _meld_fields,
    _set_state,
    _side_names,
    fields_of,
)

if TYPE_CHECKING:
    from .view import View

_LEVEL = {"easy": 0, "medium": 1, "hard": 2}
_SCORE_KEYS = ("melds", "bonuses", "closing", "hand", "pozzetto", "total")


_mod: ModuleType | None = core  # configured by burraco.game


def _core() -> ModuleType:
    """The C module, or RuntimeError where it is not built (or ``BURRACO_PURE`` is set)."""
    if _mod is None:
        raise RuntimeError("the native core is not built (or BURRACO_PURE is set)")
    return _mod


def available() -> bool:
    """True when the native core was built (setup.py, where a C compiler is present) and ``BURRACO_PURE`` is unset."""
    return _mod is not None


def build() -> str:
    """Which engine runs: ``"native"`` (the C core with the Python engine), or ``"pure"``."""
    return "native" if _mod is not None else "pure"





class NativeHand:
    """One hand on the native core, made from a :class:`~burraco.game.Game` (:meth:`from_game`)."""

    __slots__ = ("rules", "deal", "_h")

    rules: Rules
    _h: Any

    def __init__(self, rules: Rules, deal: Any, h: Any) -> None:
        self.rules = rules
        self.deal = deal
        self._h = h

    @classmethod
    def from_game(cls, g: Game) -> NativeHand:
        """The native copy of ``g`` (ValueError where ``supported(rules)`` refuses its rules)."""
        if isinstance(g, _CoreGame):  # a game served by the core alone: a copy of its state there
            return cls(g.rules, g.deal, g._nh.clone())
        return cls(g.rules, g.deal, _core().Hand(native_rules(g.rules), fields_of(g)))

    @classmethod
    def new(cls, rules: Rules, seed: int, dealer: int | None = None) -> NativeHand:
        """The hand ``Game.new(rules, seed, dealer)`` deals, dealt by the core (the same shuffle: Python's Mersenne
        Twister seeded as ``random.Random(seed)`` is, for every int ``seed``: negative ones and ones beyond 64 bits
        included). Its ``deal`` is worked out when asked for (:meth:`to_game`)."""
        if dealer is None:
            dealer = rules.players - 1
        first = (dealer + rules.direction) % rules.players
        return cls(rules, ("seed", seed), _core().new_hand(native_rules(rules), seed, first))

    def fields(self) -> tuple[Any, ...]:
        """The state in the layout of :func:`fields_of`."""
        got: tuple[Any, ...] = self._h.fields()
        return got

    def clone(self) -> NativeHand:
        """An independent copy."""
        return NativeHand(self.rules, self.deal, self._h.clone())

    def state_bytes(self) -> int:
        """The bytes of this hand's state that :meth:`clone` copies: the scalars, the hands, the cards seen picked
        up, the stock and the pile, the pozzetti and the melds on the table (16 bytes each); a clone holds them and
        room for one more meld."""
        got: int = self._h.state_bytes()
        return got

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to act, as :meth:`Game.legal_actions` lists them."""
        got: list[Action] = self._h.legal_actions()
        return got

    def apply(self, action: Action | str) -> None:
        """Apply a legal action, or its text (``"N draw"``, as :meth:`Game.apply` takes it); anything else raises the
        :class:`~burraco.actions.ActionError` the Python engine gives for it (the state is left as is)."""
        if self._h.apply(action):  # an Action of the legal list: no more Python than that
            return
        a = parse_action(action, seat_names(self.rules.players)) if isinstance(action, str) else action
        if a is not action and self._h.apply(a):
            return
        err = self.to_game().check(a) if isinstance(a, Action) else None
        raise err or IllegalActionError(msg("not_an_action", action=str(a)), str(a))

    def apply_index(self, i: int) -> None:
        """Apply the ``i``-th action of :meth:`legal_actions`."""
        self._h.apply_index(i)

    def random_playout(self, seed: int) -> int:
        """Play uniform random legal actions (the core's own random stream, splitmix64 seeded with ``seed`` modulo
        2**64: it has no Python counterpart) to the end of the hand, the GIL released; returns the number of
        decisions."""
        got: int = self._h.random_playout(seed)
        return got

    def heuristic_choice(self, level: str, rng: random.Random) -> Action:
        """What :class:`~burraco.bots.heuristic.HeuristicPlayer` of ``level`` with the generator ``rng`` chooses
        here (the seat in turn, from its view): the same action, ``rng`` advanced the same way."""
        i, state = self._h.heuristic_choice(_LEVEL[level], rng.getstate())
        rng.setstate(state)
        got: Action = self.legal_actions()[i]
        return got

    def discard_loglik(self, seat: int, level: str, tau: float) -> float:
        """How likely the other seats' latest discards (the pile's top cards, each seat's at the end of its latest
        turn) are with the hands this state gives them, the heuristic of ``level`` as the model of a player: the
        sum over those seats of log P(the card discarded), each card type of the hand then discarded with a weight
        exp(its discard score / ``tau``). ``seat``: the seat searching (its own discards are not weighed)."""
        got: float = self._h.discard_loglik(seat, _LEVEL[level], tau)
        return got

    def heuristic_playout(self, level: str, rngs: list[random.Random], depth: int | None = None) -> int:
        """Play the hand on with :class:`~burraco.bots.heuristic.HeuristicPlayer` of ``level`` at every seat, seat
        ``k`` drawing its ties from ``rngs[k]`` -- the rollout of the search player (``ISMCTSPlayer._rollout``) --
        to the end of the hand or for ``depth`` decisions, in one call that releases the GIL: the same decisions as
        the Python players make, the generators advanced the same way. Returns the number of decisions."""
        k, states, _ = self._h.heuristic_playout(
            _LEVEL[level], [r.getstate() for r in rngs], -1 if depth is None else depth
        )
        for r, st in zip(rngs, states, strict=True):
            r.setstate(st)
        got: int = k
        return got

    def seeded_heuristic_playout(self, level: str, seed: int, depth: int | None = None) -> int:
        """:meth:`heuristic_playout` with seat ``k`` drawing from ``random.Random(seed + k)`` (the search player's
        rollouts, which seed their players so and never use them afterwards), for every int ``seed``. Seeded in the
        core, a seat's generator only once it first draws, from the thread's copies of the last seeds' generators:
        the rollouts of every candidate move of a determinization share one seed, and seeding a Mersenne Twister
        costs more than a dozen decisions of the playout."""
        got: int = self._h.seeded_heuristic_playout(_LEVEL[level], seed, -1 if depth is None else depth)
        return got

    @property
    def end(self) -> str | None:
        """How the hand ended (as :attr:`Game.end`), or None while it runs."""
        got: str | None = ENDS[self._h.end]
        return got

    @property
    def is_over(self) -> bool:
        """True once the hand has ended."""
        return bool(self._h.end)

    @property
    def turn(self) -> int:
        """The seat in turn (the last one to act once the hand has ended)."""
        return int(self._h.turn)

    @property
    def phase(self) -> str:
        """``draw``, ``play`` or ``end``, as a :class:`~burraco.game.Game` says it."""
        return _PHASES[self._h.phase]

    def scores(self) -> dict[str, dict[str, int]] | None:
        """The score breakdown per side once the hand has ended (as :meth:`Game.scores`), else None."""
        if not self._h.end:
            return None
        names = _side_names(self.rules.players, self.fields()[14][0])
        return {names[k]: dict(zip(_SCORE_KEYS, v, strict=True)) for k, v in enumerate(self._h.scores())}

    def totals(self) -> list[int] | None:
        """Each side's total once the hand has ended (in the order of :meth:`scores`), else None."""
        if not self._h.end:
            return None
        return [v[5] for v in self._h.scores()]

    def side_of(self, seat: int) -> int:
        """The side of ``seat`` now (with 3 and 5 players the pairs form during the hand)."""
        got: int = self._h.side_of(seat)
        return got

    def to_game(self, actions: list[Action] | None = None) -> Game:
        """A Python :class:`Game` in this state (``actions``: its history, for records; empty by default)."""
        deal = self.deal
        if isinstance(deal, tuple):  # dealt by the core (:meth:`new`): the deal Game.new makes from that seed
            deal = self.deal = deal_from_seed(self.rules, deal[1])
        return game_from_fields(self.rules, deal, self.fields(), actions or [])


def game_from_fields(rules: Rules, deal: Any, f: tuple[Any, ...], actions: list[Action]) -> Game:
    """A Python game from the native layout (:func:`fields_of`)."""
    g = Game(rules, None, 0)
    g.deal = deal
    g.actions = list(actions)
    _set_state(g, f)
    assert len(g.hands) == rules.players and all(len(h) == NUM_TYPES for h in g.hands)
    return g


def _write_back(g: Game, h: NativeHand, acts: Sequence[Action]) -> None:
    """``g`` becomes the state the core's playout left in ``h`` (after ``acts``), its caches cleared."""
    if isinstance(g, _CoreGame):  # a game served by the core alone: it is served by the playout's copy now
        g.actions.extend(acts)
        g._nh = h._h
        g._legal = None
        if g._shadow is not None:  # BURRACO_CHECK_NATIVE: the Python engine plays the same actions
            for a in acts:
                g._shadow.apply(a)
            g._check_shadow()
        return
    done = game_from_fields(g.rules, g.deal, h.fields(), [*g.actions, *acts])
    for name in STATE_FIELDS:
        setattr(g, name, getattr(done, name))
    g.state_changed()
    g._nh = h._h  # the core's copy of the state it has just played to


def play_random(g: Game, rng: random.Random) -> int | None:
    """Play ``g`` to the end of the hand as :func:`burraco.sim.play_hand` does -- ``legal[rng.randrange(len(legal))]``
    at every decision -- on the native core, drawing from ``rng`` exactly what the Python loop draws (the core runs
    Python's Mersenne Twister on ``rng``'s state and gives the state back), so the hand, ``g`` afterwards (its
    actions included) and ``rng`` are the same as on the Python engine. Returns the number of decisions, or None
    (``g`` untouched) where the core cannot play it: not built, rules it refuses, a ``rng`` of another type."""
    if _mod is None or type(rng) is not random.Random or g.end is not None:
        return None
    if supported(g.rules) is not None:
        return None
    h = NativeHand.from_game(g)
    k, state, acts = h._h.python_playout(rng.getstate(), True)
    rng.setstate(state)
    _write_back(g, h, acts)
    got: int = k
    return got


def heuristic_rollout(g: Game, level: str, rngs: list[random.Random], depth: int | None = None) -> int | None:
    """``ISMCTSPlayer._rollout`` on the native core, in place: :class:`~burraco.bots.heuristic.HeuristicPlayer` of
    ``level`` at every seat (seat ``k`` drawing from ``rngs[k]``) for ``depth`` decisions or to the end of the
    hand; ``g`` (its actions included) and the generators end as the Python rollout leaves them. Returns the
    decisions played, or None (``g`` untouched) where the core cannot play it."""
    if _mod is None or g.end is not None or supported(g.rules) is not None:
        return None
    h = NativeHand.from_game(g)
    k, states, acts = h._h.heuristic_playout(
        _LEVEL[level], [r.getstate() for r in rngs], -1 if depth is None else depth, True
    )
    for r, st in zip(rngs, states, strict=True):
        r.setstate(st)
    _write_back(g, h, acts)
    got: int = k
    return got


def random_hands(g: Game, count: int, seed: int) -> int:
    """Play ``count`` random playouts from copies of ``g`` on the native core, the GIL released; returns the total
    number of decisions."""
    if _mod is None:
        raise RuntimeError("the native core is not built (or BURRACO_PURE is set)")
    got: int = _mod.random_hands(NativeHand.from_game(g)._h, count, seed)
    return got


class Determinizer:
    """The determinizations of one :class:`~burraco.view.View` on the native core: :meth:`sample` is
    :func:`burraco.determinize.determinize` (``weights`` and ``avoid`` as there), drawing the same numbers from ``rng``,
    so that it gives the same state; the view's fixed part is converted once, a sample costs a few microseconds."""

    __slots__ = ("rules", "_d")

    def __init__(
        self,
        view: View,
        weights: Sequence[Sequence[float] | None] | None = None,
        avoid: Sequence[int] | None = None,
    ) -> None:
        r = view.rules
        if _mod is None or not served(r):
            raise ValueError(f"the native core does not determinize this view: {supported(r) or 'not built'}")
        self.rules = r
        n = r.players
        seat = view.seat
        need = [0 if s == seat else view.hand_sizes[s] - sum(view.known[s]) for s in range(n)]
        ws: list[tuple[float, ...] | None] = [None] * n
        if weights is not None:
            for s, w in enumerate(weights):
                if w is not None and s != seat:
                    ws[s] = tuple(float(x) for x in w)
        hands = []
        for s in range(n):
            if s == seat:
                v = bytearray(NUM_TYPES)
                for c in view.hand:
                    v[c] += 1
                hands.append(bytes(v))
            else:
                hands.append(bytes(view.known[s]))
        turn = view.turn if view.turn >= 0 else view.first
        ints = (
            turn, _PHASE_CODE[view.phase], int(view.picked), int(view.drew), view.lone, int(view.lone_gone), view.top,
            int(view.top_used), int(view.melded), int(view.opening), int(view.must_open), view.drawn,
            int(view.redrawn), int(view.last_turn), int(view.timeout_called), _END_CODE[view.end], view.closed_by,
            view.first, view.laid, view.stalemate_run, view.turns, view.timeout_left, 0, 0,
        )  # fmt: skip
        base = (
            tuple(hands),
            tuple(view.hand_sizes),
            (),
            tuple(view.pile),
            tuple(None for _ in view.pozzetti),
            tuple(view.poz_taken),
            tuple(view.poz_order),
            tuple(view.poz_by),
            (None,) * n,
            tuple(int(p) for p in view.poz_pending),
            tuple(tuple(_meld_fields(m) for m in side) for side in view.melds),
            tuple(bytes(k) for k in view.known),
            bytes(view.table),
            ints,
            (tuple(view.seat_side), view.solo),
        )
        fix_drawn = seat != turn and view.drew and view.end is None
        assert _mod is not None
        self._d = _mod.Determinizer(
            native_rules(r), base, view.unseen, seat, need, ws, view.hidden_pozzetto,
            [int(x) for x in view.hidden_seats], view.pile_size, view.stock_size,
            [int(p) for p in view.pozzetti], list(r.pozzetto_sizes), fix_drawn,
            [0 if avoid is None or s == seat else int(avoid[s]) for s in range(n)],
        )  # fmt: skip

    def sample(self, rng: random.Random) -> NativeHand:
        """One determinization, as ``determinize(view, rng, weights, avoid)`` makes it (``rng`` advanced the same
        way)."""
        h, state = self._d.sample(rng.getstate())
        rng.setstate(state)
        return NativeHand(self.rules, None, h)

    def sample_from(self, twister: Twister) -> NativeHand:
        """:meth:`sample` drawing from a :class:`Twister` (no conversion of the generator's state per sample)."""
        return NativeHand(self.rules, None, self._d.sample_from(twister._t))

    def draw(self, rng: random.Random) -> NativeHand:
        """:meth:`sample` drawing through ``rng``'s own ``random()`` and ``getrandbits()``, the calls
        ``determinize`` makes (no copy of the generator's state: for one sample at a time, and any
        ``random.Random``, subclasses included)."""
        return NativeHand(self.rules, None, self._d.draw(rng))


class Twister:
    """A copy of a ``random.Random``'s generator held by the core: a search draws from it (:meth:`getrandbits`,
    :meth:`Determinizer.sample_from`) and gives the state back to the ``random.Random`` at the end
    (:meth:`give_back`), so the Python generator ends where the Python search would leave it."""

    __slots__ = ("_t",)

    def __init__(self, rng: random.Random) -> None:
        assert _mod is not None
        self._t = _mod.Twister(rng.getstate())

    def getrandbits(self, k: int) -> int:
        """``random.Random.getrandbits(k)`` for ``1 <= k <= 32``."""
        got: int = self._t.getrandbits(k)
        return got

    def give_back(self, rng: random.Random) -> None:
        """Set ``rng`` to this generator's state."""
        rng.setstate(self._t.getstate())


#: the last view :func:`determinize` converted for the core, with the weights and avoid masks it was asked with and
#: its :class:`Determinizer` (a search determinizes one view many times)
_LAST_VIEW: tuple[Any, ...] | None = None


def determinize(
    view: View,
    rng: random.Random,
    weights: Sequence[Sequence[float] | None] | None = None,
    avoid: Sequence[int] | None = None,
    reference: Callable[..., Game] | None = None,
) -> Game | None:
    """:func:`burraco.determinize.determinize` served by the core: the same state, drawn with the same calls of ``rng``'s
    own ``random()`` and ``getrandbits()`` (:meth:`Determinizer.draw`), as a :class:`Game` whose state is the
    core's (its Python fields made when one is first read); None where the core does not determinize the view
    (not built, rules it refuses, sizes beyond its own). The view's conversion is kept for the next call with the
    same view, weights and avoid masks. ``reference``: the Python determinization, which ``BURRACO_CHECK_NATIVE``
    (the test suite) runs beside it on a copy of ``rng`` and compares."""
    global _LAST_VIEW
    if _mod is None or not served(view.rules):
        return None
    wkey = None if weights is None else tuple(None if w is None else tuple(w) for w in weights)
    akey = None if avoid is None else tuple(avoid)
    last = _LAST_VIEW
    if last is not None and last[0] is view and last[1] == wkey and last[2] == akey:
        dets: Determinizer = last[3]
    else:
        try:
            dets = Determinizer(view, weights, avoid)
        except ValueError:  # beyond the core's sizes: the Python engine
            return None
        _LAST_VIEW = (view, wkey, akey, dets)
    before = copy.deepcopy(rng) if check_native and reference is not None else None
    g = _core_game(view.rules, dets._d.draw(rng), None, [])
    if before is not None and reference is not None:
        shadow = reference(view, before, weights, avoid)
        if fields_of(shadow) != g._nh.fields() or before.getstate() != rng.getstate():
            raise AssertionError("the core's determinization differs from the Python engine's")
        g._shadow = shadow
    return g


def random_deals(rules: Rules, seeds: list[int], dealer: int | None = None) -> int:
    """Deal ``Game.new(rules, s)`` and play it out with uniform random actions (:meth:`NativeHand.random_playout`
    from ``s``) for every int seed ``s`` (the deal is ``Game.new``'s for every int, negative ones and ones beyond 64
    bits included; the playout's stream is seeded with ``s`` modulo 2**64), all in the core with the GIL released;
    returns the total number of decisions."""
    if dealer is None:
        dealer = rules.players - 1
    first = (dealer + rules.direction) % rules.players
    got: int = _core().random_deals(native_rules(rules), seeds, first)
    return got


def state_size(rules: Rules | None = None, melds: int = 0) -> int:
    """Bytes of a native hand's state under ``rules`` holding ``melds`` melds on the table (what a clone of such a
    state copies: :meth:`NativeHand.state_bytes`; ``-1``: as many melds as the rules' cards can make; None: the
    largest rules the core takes, 6 players and 170 cards); 0 without the native core."""
    if _mod is None:
        return 0
    got: int = _mod.state_size(None if rules is None else native_rules(rules), melds)
    return got

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

A :class:`Game` is made of parts, each in the module named for it, bottom up: the fields of the state and the
questions on them (:mod:`burraco.state`), the pozzetto and the pairs of 3 and 5 players (:mod:`burraco.pozzetto`),
what each action does (:mod:`burraco.turns`), legality and the legal actions (:mod:`burraco.legality`), and the
scores (:mod:`burraco.scoring`). This module joins them, serves the hand from the native core where it takes the
rules (and :class:`_CoreGame`, a game the core alone serves), and writes the hand out (records, views).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ._accel import check_native, native_rules, supported
from ._accel import core as _core
from .actions import ADD, DISCARD, DRAW, MELD, PICK, REDRAW, SWAP, TIMEOUT, Action, ActionError
from .cards import CARD_STR
from .cards import WILD_TYPES as WILD_TYPES
from .deal import Deal, deal_from_seed
from .gen import generator
from .legality import Legality
from .legality import refused as refused
from .melds import meld_json, meld_rules
from .rules import Rules
from .scoring import Scoring
from .scoring import player_shares as player_shares
from .scoring import split_share as split_share
from .seats import pairs_after as pairs_after
from .seats import seat_names
from .state import _PHASES, _set_state, _side_names
from .state import DRAW_PHASE as DRAW_PHASE
from .state import END_PHASE as END_PHASE
from .state import ENDS as ENDS
from .state import PLAY_PHASE as PLAY_PHASE
from .state import STATE_FIELDS as STATE_FIELDS
from .state import fields_of as fields_of
from .view import View, make_view

# the names imported as themselves above (WILD_TYPES, refused, split_share, player_shares, pairs_after, the phases,
# ENDS, STATE_FIELDS, fields_of) are re-exported: code written before game.py was split imports them from here

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


class Game(Legality, Scoring):
    """The state of one hand. Create with :meth:`new` (from a seed) or :meth:`from_deal`.

    Where the native core is built (:func:`served`), a copy of the state in the core follows every :meth:`apply`
    and makes :meth:`legal_actions` (the same list in the same order as the Python code, which stays the reference
    and gives every refusal its reason). Change a game only through :meth:`apply`; code that sets its fields
    directly (a test building a position) calls :meth:`state_changed` afterwards."""

    #: True for a game served by the core alone (:class:`_CoreGame`: a :meth:`clone`, a determinization)
    _deferred = False

    # ------------------------------------------------------------------------------------------------------------
    # construction and copies (the fields: :class:`~burraco.state.HandState`)
    # ------------------------------------------------------------------------------------------------------------
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
        """An independent copy. Where the native core holds the state (:func:`served`), the copy is the core's (a
        fraction of a microsecond; the copy's Python fields are made from it when one is first read); else
        :meth:`_copy`."""
        h = self._nh
        if not h:
            return self._copy()
        g = _core_game(self.rules, h.clone(), self.deal, self.actions[:], self)
        g._legal = self._legal
        if check_native:
            g._shadow = self._copy()
        return g

    def _copy(self) -> Game:
        """An independent copy of every field (melds are immutable values and are shared; the native core's copy of
        the state is cloned too), for the Python engine's own look-ahead, which changes the copy's fields directly.
        Every field is listed (faster than copying the instance dictionary); a test checks that none is
        forgotten."""
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
    # applying actions, served by the native core where it takes the rules
    # ------------------------------------------------------------------------------------------------------------
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
            self._legal = (len(self.actions), tuple(out))
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

    def legal_actions_str(self) -> list[str]:
        """The legal actions as strings."""
        return [str(a) for a in self.legal_actions()]

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
        return make_view(self, seat)


#: the keys of a side's score (:meth:`Game.side_score`), in the order of the core's ``Hand.scores()``
_SCORE_KEYS = ("melds", "bonuses", "closing", "hand", "pozzetto", "total")

#: the fields a deferred game makes when one is first read (:meth:`Game._materialize`): all but those it is made with
_DEFERRED_FIELDS = frozenset(STATE_FIELDS) - {"deal", "n", "seats", "actions"} | {"_meldkeys"}


class _CoreGame(Game):
    """A game served by the native core alone: a :meth:`Game.clone` of a game the core serves, or a
    :func:`burraco.determinize.determinize` where the core takes the rules. Its state is the core's copy (``_nh``); its
    Python fields are made from it when one is first read (:meth:`_materialize`), and from then on it is an ordinary
    :class:`Game` (its class becomes Game: a class of its own keeps ``__getattr__``, and the slower attribute
    lookups it brings, away from every other game); ``end``, ``turn`` and ``phase`` are the core's until then, and
    ``legal_actions``, ``apply``, ``is_legal`` and ``clone`` stay in the core. ``BURRACO_CHECK_NATIVE`` (the test
    suite): it carries the Python engine's copy of its state (``_shadow``), played alongside and compared with it at
    every step and when its fields are made."""

    _deferred = True
    _shadow: Game | None = None

    if not TYPE_CHECKING:  # mypy keeps its strict view of a game's attributes

        def __getattr__(self, name: str) -> Any:
            """A field not made yet (Python calls this only for attributes not set)."""
            if name in _DEFERRED_FIELDS:
                self._materialize()
                return self.__dict__[name]
            raise AttributeError(f"'Game' object has no attribute {name!r}")

        # the fields a player's loop reads at every step, from the core (setting one makes the fields first)
        @property
        def end(self) -> str | None:
            return ENDS[self._nh.end]

        @end.setter
        def end(self, value: str | None) -> None:
            self._materialize()
            self.end = value

        @property
        def turn(self) -> int:
            return int(self._nh.turn)

        @turn.setter
        def turn(self, value: int) -> None:
            self._materialize()
            self.turn = value

        @property
        def phase(self) -> str:
            return _PHASES[self._nh.phase]

        @phase.setter
        def phase(self, value: str) -> None:
            self._materialize()
            self.phase = value

        @property
        def current_seat(self) -> int:
            h = self._nh
            return -1 if h.end else int(h.turn)

    def _materialize(self) -> None:
        """The Python fields made from the core's state (those not set already): an ordinary :class:`Game` now,
        whose core copy follows every :meth:`apply`; with a Python copy (``BURRACO_CHECK_NATIVE``), every field it
        makes must be the copy's."""
        shadow = self._shadow
        self.__dict__.pop("_shadow", None)
        self.__class__ = Game  # type: ignore[assignment]
        made = [f for f in STATE_FIELDS if f not in self.__dict__]  # a field set directly before is the setter's
        _set_state(self, self._nh.fields(), keep=True)
        if shadow is not None:
            differ = [f for f in made if getattr(self, f) != getattr(shadow, f)]
            if differ:
                raise AssertionError(f"a deferred game's fields differ from the Python engine's: {differ}")

    def _check_shadow(self) -> None:
        """``BURRACO_CHECK_NATIVE``: the core's state must be the Python copy's."""
        if self._shadow is not None and fields_of(self._shadow) != self._nh.fields():
            raise AssertionError(
                f"a deferred game's state differs from the Python engine's after {len(self.actions)} actions"
            )

    # each method below may be called on a game whose fields were made since the method was looked up
    # (``g.apply(player.choose(g.view(s), ...))``): it is then a Game, and Game's method serves it

    def legal_actions(self) -> list[Action]:
        """The core's legal actions (:meth:`Game.legal_actions`)."""
        if not self._deferred:
            return Game.legal_actions(self)
        out: list[Action] = self._nh.legal_actions()
        if self._shadow is not None and out != self._shadow.legal_actions():
            raise AssertionError(f"a deferred game's legal actions differ from the Python engine's: {out}")
        self._legal = (len(self.actions), tuple(out))
        return out

    def apply(self, action: Action | str) -> None:
        """:meth:`Game.apply` in the core; an action it refuses (or a director's time-out) makes the Python fields
        first, and the Python engine says why, or plays it."""
        if not self._deferred:
            return Game.apply(self, action)
        a = self.parse(action) if isinstance(action, str) else action
        if self._nh.apply(a):
            self.actions.append(a)
            self._legal = None
            if self._shadow is not None:
                self._shadow.apply(a)
                self._check_shadow()
            return
        self._materialize()
        Game.apply(self, a)

    def is_legal(self, action: Action | str) -> bool:
        """:meth:`Game.is_legal`, from the core's legal actions (a director's time-out by the Python engine)."""
        if not self._deferred:
            return Game.is_legal(self, action)
        try:
            a = self.parse(action) if isinstance(action, str) else action
        except ActionError:
            return False
        if a.verb == TIMEOUT:
            return Game.is_legal(self, a)
        return a in self.legal_actions()

    def clone(self) -> Game:
        """Another game served by the core alone, a copy of this one (and of its Python copy, where it has one)."""
        if not self._deferred:
            return Game.clone(self)
        g = _core_game(self.rules, self._nh.clone(), self.deal, self.actions[:], self)
        g._legal = self._legal
        if self._shadow is not None:
            g._shadow = self._shadow._copy()
        return g

    # the end of a hand as a match and the environments read it: from the core, no fields made

    def side_of(self, seat: int) -> int:
        """:meth:`Game.side_of`, from the core."""
        if not self._deferred:
            return Game.side_of(self, seat)
        got: int = self._nh.side_of(seat)
        return got

    def scores(self) -> dict[str, dict[str, int]] | None:
        """:meth:`Game.scores`, from the core (the same breakdown, key for key)."""
        if not self._deferred:
            return Game.scores(self)
        h = self._nh
        if not h.end:
            return None
        names = _side_names(self.n, tuple(h.side_of(s) for s in range(self.n)))
        out = {names[k]: dict(zip(_SCORE_KEYS, v, strict=True)) for k, v in enumerate(h.scores())}
        if self._shadow is not None and out != self._shadow.scores():
            raise AssertionError(f"a deferred game's scores differ from the Python engine's: {out}")
        return out

    def player_points(self) -> list[int]:
        """:meth:`Game.player_points`, from the core."""
        if not self._deferred:
            return Game.player_points(self)
        h = self._nh
        if not h.end:
            return [0] * self.n
        totals = [v[5] for v in h.scores()]
        out = player_shares(totals, [h.side_of(s) for s in range(self.n)], self.rules.pair_split_rounding)
        if self._shadow is not None and out != self._shadow.player_points():
            raise AssertionError(f"a deferred game's player points differ from the Python engine's: {out}")
        return out

    def state_changed(self) -> None:
        """:meth:`Game.state_changed`, the fields not set made from the core's state first (the Python copy, which
        did not see the change, is left behind)."""
        if self._deferred:
            self._shadow = None
            self._materialize()
        Game.state_changed(self)


def _core_game(
    rules: Rules, hand: Any, deal: Deal | None, actions: list[Action], like: Game | None = None
) -> _CoreGame:
    """A game served by the core alone (:class:`_CoreGame`) whose state is the core's ``hand`` (a
    ``burraco._native.Hand``), the rules' caches taken from ``like`` where given."""
    g = _CoreGame(rules, None, 0)
    g.deal = deal
    g.n = rules.players
    g.seats = seat_names(g.n)
    g.actions = actions
    if like is not None:
        g._ctx, g._gen, g._values = like._ctx, like._gen, like._values
    else:
        g._ctx = meld_rules(rules)
        g._gen = generator(g._ctx)
        g._values = rules.card_values()
    g._legal = None
    g._nh = hand
    return g


def core_served(g: Game) -> Game:
    """``g`` as a game the native core alone serves (:class:`_CoreGame`: its Python fields made from the core's state
    when one is first read, an ordinary :class:`Game` from then on), where the core serves its rules and can hold it;
    else ``g`` itself. For a loop that only applies actions and reads what the core keeps (the seat in turn, the end,
    the legal actions): the research environments' tables."""
    if g._deferred or not served(g.rules):
        return g
    h = g._nh
    if h is None:
        try:
            h = g._nh = _core.Hand(native_rules(g.rules), fields_of(g))  # type: ignore[union-attr]
        except ValueError:  # beyond the core's fixed sizes
            g._nh = False
            return g
    if not h:
        return g
    out = _core_game(g.rules, h.clone(), g.deal, g.actions[:], g)
    out._legal = g._legal
    if check_native:
        out._shadow = g._copy()
    return out


def apply_legal_index(g: Game, i: int) -> Action:
    """Apply the ``i``-th action of ``g.legal_actions()`` and return it. A game the core alone serves applies it in the
    core without making the list of legal actions (the Action made is the one the list holds where it was made); any
    other game through :meth:`Game.apply`."""
    if isinstance(g, _CoreGame) and g._deferred:
        a: Action = g._nh.apply_index(i)
        g.actions.append(a)
        g._legal = None
        if g._shadow is not None:
            g._shadow.apply(a)
            g._check_shadow()
        return a
    a = g.legal_actions()[i]
    g.apply(a)
    return a


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

"""Burraco as an OpenSpiel Python game, registered as ``python_burraco`` on import.

One game is one hand. The deal is a chain of chance nodes, one card each: the shuffled deck from its top, cut as the
engine cuts it (:func:`burraco.deal.deal_from_order`) — the pozzetti first (``pozzetti[0]`` first), then the hands
seat by seat, the up-card, and the rest is the stock from the top — each outcome a card type with probability
proportional to the copies left, so every deal has its true probability. Player actions are the indices of
:mod:`burraco.envs.action_index` (the rules' :class:`~burraco.envs.layout.Layout`). Returns are the side's hand
total minus the other side's, times ``score_scale`` (zero-sum; partners get the same return); with 3, 5 and 6
players what the player's scorer adds to its match total minus the mean of the others
(``burraco.envs._core.hand_rewards``: with 3 and 5 the solo's whole score against each half of a pair's, the
pair formed when the first player went out, RULES.md §14.3).

Parameters: ``preset`` (a preset name), ``players`` (0 = the preset's; 2 to 6: ``{"preset": "italian",
"players": 3}`` plays the preset's 3-player rules, as ``italian-3p``), ``overrides`` (a JSON object of rule
overrides, as in a record: ``'{"target": 1005, "min_first_meld": 50}'``) and ``score_scale`` (default 0.001).

>>> import pyspiel
>>> import burraco.envs.openspiel_game
>>> game = pyspiel.load_game("python_burraco", {"preset": "italian-2p"})
>>> state = game.new_initial_state()
>>> while state.is_chance_node():
...     state.apply_action(state.chance_outcomes()[0][0])
>>> state.current_player(), [state.action_to_string(a) for a in state.legal_actions()]
(0, ['N draw', 'N pick'])

Observations (``observation_tensor``, ``observation_string``) come from the player's view only: the view and the
number of actions played. Observers follow the requested :class:`pyspiel.IIGObservationType`: the default (public and
the player's private information), public only (``private_info=NONE``: everything the table shows, not the own
hand, its drawn card nor what it knows of its pozzetto), private only (``public_info=False``: the own hand and
drawn card), and perfect recall (the information state below, a string only: the game provides no
information-state tensor, and asking for one raises). ``information_state_string`` is the perfect-recall information state: the player's
view when the deal was done, then every action played (all public) and, after each one that changed it, the
player's own visible hand (the card it drew, the pile it picked up, a pozzetto it may now look at): everything the
player could remember, nothing more. Search bots may key their nodes by either (``ISMCTSBot(...,
use_observation_string=True)`` for the shorter observation). ``resample_from_infostate`` deals a state consistent
with the player's view (:func:`burraco.determinize`); the resampled state keeps the player's own information
state, and the other players' start from their views of the resampled deal.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from ..actions import Action
from ..cards import NUM_TYPES, cards_str
from ..deal import deal_from_order
from ..determinize import determinize
from ..game import Game
from ..rules import Rules, preset
from ..view import View
from ._core import hand_rewards
from .action_index import decode_action, legal_indices
from .action_space import check_rules
from .layout import Layout, layout_for
from .observation import encode_game, encode_view

_MAX_UTILITY = 20_000.0  # no hand scores that many points
_DEFAULTS: dict[str, Any] = {"preset": "italian", "players": 0, "overrides": "", "score_scale": 0.001}

_GAME_TYPE = pyspiel.GameType(
    short_name="python_burraco",
    long_name="Python Burraco",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def _rules_of(params: dict[str, Any]) -> Any:
    over = params.get("overrides") or ""
    extra = json.loads(over) if over else {}
    if not isinstance(extra, dict):
        raise ValueError("overrides must be a JSON object")
    players = int(params.get("players") or 0)
    if players:
        extra["players"] = players
    r = preset(str(params.get("preset") or "italian"), **extra)
    check_rules(r)
    return r


class BurracoGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game (one hand)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = dict(_DEFAULTS)
        p.update(params or {})
        self._params = p
        self.rules = _rules_of(p)
        self.score_scale = float(p["score_scale"])
        r = self.rules
        #: the action space and observation layout of the rules
        self.layout = layout_for(r)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.layout.num_actions,
            max_chance_outcomes=NUM_TYPES,
            num_players=r.players,
            min_utility=-_MAX_UTILITY * self.score_scale,
            max_utility=_MAX_UTILITY * self.score_scale,
            utility_sum=0.0,
            max_game_length=r.turn_cap * (2 + r.deck_size),
        )
        super().__init__(_GAME_TYPE, info, p)

    def new_initial_state(self) -> BurracoState:
        return BurracoState(self)

    def __deepcopy__(self, memo: Any) -> BurracoGame:
        return self  # a game is immutable: OpenSpiel deep-copies a state's attributes to clone it

    def __reduce__(self) -> tuple[Any, tuple[dict[str, Any]]]:
        # a serialized state pickles its attributes, this game among them: rebuild it from its parameters
        return (BurracoGame, (dict(self._params),))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> BurracoObserver:
        if iig_obs_type is None:
            return BurracoObserver(layout=self.layout)
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise pyspiel.SpielError("python_burraco observes one player's view: no observer sees every hand")
        return BurracoObserver(
            perfect_recall=bool(iig_obs_type.perfect_recall),
            public=bool(iig_obs_type.public_info),
            private=private == pyspiel.PrivateInfoType.SINGLE_PLAYER,
            layout=self.layout,
        )


class BurracoState(pyspiel.State):  # type: ignore[misc]
    """A state: the deal so far (chance), then a :class:`~burraco.Game`."""

    def __init__(self, game: BurracoGame, g: Game | None = None) -> None:
        super().__init__(game)
        self._bgame = game
        self.dealt: list[int] = []
        self._left = bytearray(self.rules.deck_counts())
        self.g: Game | None = g
        self._legal_key = -1
        self._codes: dict[int, Action] = _Immutables()
        #: player actions applied (a resampled state has no action history of its own)
        self.moves = 0
        #: the player actions applied (public), the players' views when their recall starts (the end of the deal,
        #: or a resampling) and, per player, ``(number of actions, visible hand)`` each time its hand changed
        #: (not ``history``: that is OpenSpiel's own list of every action, chance outcomes included)
        self.played: list[Action] = _Immutable()
        self._start: list[str] = _Immutable()
        self._private: list[list[tuple[int, bytes]]] = _PerPlayer()

    @property
    def rules(self) -> Rules:
        return self._bgame.rules  # type: ignore[no-any-return]

    # ----- chance: the deal ---------------------------------------------------------------------------------------
    def current_player(self) -> int:
        g = self.g
        if g is None:
            return int(pyspiel.PlayerId.CHANCE)
        if g.end is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        return g.current_seat

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = self._left
        total = sum(left)
        return [(c, k / total) for c, k in enumerate(left) if k]

    def _deal_done(self) -> None:
        # the chance outcomes are a shuffled deck: cut it as the engine does (pozzetti, hands, up-card, stock)
        r = self.rules
        deal = deal_from_order(r, list(self.dealt))
        dealer = r.players - 1
        self.g = Game(r, deal, (dealer + r.direction) % r.players, check=False)
        self._recall_from(self.g, "")

    def _recall_from(self, g: Game, tag: str) -> None:
        self._start = _Immutable(tag + view_string(g.view(p), len(self.played)) for p in range(g.n))
        self._private = _PerPlayer(_Immutable([(len(self.played), _visible(g, p))]) for p in range(g.n))

    def information_state(self, player: int) -> str:
        """The perfect-recall information state of ``player`` (see the module's doc)."""
        if self.g is None:
            return f"p{player} dealing {len(self.dealt)}"
        own = self._private[player]
        hands = {i: h for i, h in own}
        parts = [self._start[player]]
        first = own[0][0]
        for i in range(first, len(self.played)):
            h = hands.get(i + 1)
            parts.append(str(self.played[i]) if h is None else f"{self.played[i]}={_hand_str(h)}")
        return "|".join(parts)

    # ----- players --------------------------------------------------------------------------------------------------
    def _legal(self) -> dict[int, Action]:
        g = self.g
        assert g is not None
        key = self.moves
        if key != self._legal_key:
            legal = g.legal_actions()
            melds = g.melds[g.side_of(g.current_seat)]
            codes = legal_indices(legal, melds, self._bgame.layout)
            self._codes = _Immutables(sorted(zip(codes, legal, strict=True)))
            self._legal_key = key
        return self._codes

    def _legal_actions(self, player: int) -> list[int]:
        return list(self._legal())

    def _apply_action(self, action: int) -> None:
        if self.g is None:
            self.dealt.append(action)
            self._left[action] -= 1
            if len(self.dealt) == self.rules.deck_size:
                self._deal_done()
            return
        a = self._legal().get(action)
        if a is None:
            raise pyspiel.SpielError(f"action {action} is not legal")
        g = self.g
        g.apply(a)
        self.moves += 1
        self.played.append(a)
        n = len(self.played)
        for p, own in enumerate(self._private):
            h = _visible(g, p)
            if h != own[-1][1]:
                own.append((n, h))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE or self.g is None:
            return f"deal {cards_str([action])}"
        g = self.g
        seat = player if player >= 0 else g.current_seat
        return str(decode_action(action, g.seats[seat], g.melds[g.side_of(seat)], self._bgame.layout))

    def is_terminal(self) -> bool:
        return self.g is not None and self.g.end is not None

    def returns(self) -> list[float]:
        g = self.g
        if g is None or g.end is None:
            return [0.0] * self.rules.players
        k = self._bgame.score_scale
        return [w * k for w in hand_rewards(g)]

    # ----- views ----------------------------------------------------------------------------------------------------
    def view(self, player: int) -> View:
        assert self.g is not None
        return self.g.view(player)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> BurracoState:
        """A state dealt consistently with ``player_id``'s view (the rest of the cards at random)."""
        if self.g is None:
            return self.clone()
        seed = int(float(probability_sampler()) * 2**53)
        d = determinize(self.g.view(player_id), random.Random(seed))
        s = BurracoState(self._bgame, d)
        s.moves = self.moves
        s.played = _Immutable(self.played)
        s._recall_from(d, "resampled ")
        s._start[player_id] = self._start[player_id]
        s._private[player_id] = _Immutable(self._private[player_id])
        return s

    def clone(self) -> BurracoState:
        s = BurracoState(self._bgame, None if self.g is None else self.g.clone())
        s.dealt = self.dealt[:]
        s._left = self._left[:]
        s.moves = self.moves
        s.played = _Immutable(self.played)
        s._start = self._start
        s._private = _PerPlayer(_Immutable(own) for own in self._private)
        return s

    def __deepcopy__(self, memo: Any) -> BurracoState:
        return self.clone()

    def __str__(self) -> str:
        if self.g is None:
            return f"dealing: {len(self.dealt)} of {self.rules.deck_size} cards"
        g = self.g
        hands = " | ".join(f"{g.seats[s]}: {cards_str(g.hand_cards(s))}" for s in range(g.n))
        return f"{g!r}\n{hands}\n" + "\n".join(
            f"{g.sides[i]}: " + "  ".join(cards_str(m.display_cards()) for m in g.melds[i])
            for i in range(len(g.sides))
        )


def view_string(view: View, actions: int, private: bool = True) -> str:
    """A compact text of everything in ``view`` (and the number of actions played): an observation string; with
    ``private=False`` without the seat's own hand, drawn card and unseen counts (the public part)."""
    melds = ";".join(",".join(f"{m.cards}{m.mask}/{m.wild}" for m in side) for side in view.melds)
    turn = (
        view.picked,
        view.drew,
        view.lone,
        view.lone_gone,
        view.top,
        view.top_used,
        view.melded,
        view.opening,
        view.laid,
        view.must_open,
        view.last_turn,
        view.stalemate_run,
        view.turns,
        view.timeout_left,
        view.redrawn,
        view.drawn if private else -1,
    )
    hand = f"h{cards_str(view.hand)} " if private else ""
    return (
        f"p{view.seat} t{view.turn} {view.phase} a{actions} {hand}x{view.hidden_pozzetto} "
        f"n{view.hand_sizes} m[{melds}] pile{view.pile}/{view.pile_size} s{view.stock_size} "
        f"z{view.pozzetti}{view.poz_taken}{view.poz_by}{view.poz_pending}{view.hidden_seats} "
        f"k{b'|'.join(view.known).hex()} {turn} {view.end}"
    )


class _Immutable(list):  # type: ignore[type-arg]
    """A list of immutable values: its deep copy is a shallow one (OpenSpiel clones a Python state by deep-copying
    its attributes; actions, strings and ``(int, bytes)`` pairs need no copying)."""

    def __deepcopy__(self, memo: Any) -> _Immutable:
        return _Immutable(self)


class _PerPlayer(list):  # type: ignore[type-arg]
    """Per player, an :class:`_Immutable` list: a deep copy copies each list (not their values)."""

    def __deepcopy__(self, memo: Any) -> _PerPlayer:
        return _PerPlayer(_Immutable(x) for x in self)


class _Immutables(dict):  # type: ignore[type-arg]
    """A dict of immutable keys and values (action indices and actions): its deep copy is a shallow one."""

    def __deepcopy__(self, memo: Any) -> _Immutables:
        return _Immutables(self)


def _visible(g: Game, p: int) -> bytes:
    """The counts of the cards ``p`` holds and may look at."""
    hid = g.hidden[p]
    h = g.hands[p]
    if hid is None:
        return bytes(h)
    return bytes(max(0, h[c] - hid[c]) for c in range(NUM_TYPES))


def _hand_str(counts: bytes) -> str:
    return cards_str([c for c in range(NUM_TYPES) for _ in range(counts[c])])


#: the observation blocks that hold the player's private information (its own hand, and what follows from it);
#: every other block is public (RULES.md §0.1 "Views")
PRIVATE_BLOCKS = ("hand", "unseen")  # the unseen counts are the deck minus the own hand and the public cards


class BurracoObserver:
    """The observer: the tensor of :func:`burraco.envs.observation.encode_view` and :func:`view_string`, both limited
    to what the observation type asks for (``public``, ``private``); with ``perfect_recall`` the information
    state string, and no tensor (the game provides none: asking for one raises). ``layout``: the game's
    (:attr:`BurracoGame.layout`; default the 2- and 4-player one)."""

    def __init__(
        self,
        perfect_recall: bool = False,
        public: bool = True,
        private: bool = True,
        layout: Layout | None = None,
    ) -> None:
        lay = layout_for(preset("italian")) if layout is None else layout
        self.perfect_recall = perfect_recall
        self.public = public
        self.private = private
        #: the tensor (None for the perfect-recall information state, which has none, as OpenSpiel's own games do)
        self.tensor: np.ndarray[Any, np.dtype[np.float32]] | None = (
            None if perfect_recall else np.zeros(lay.obs_size, np.float32)
        )
        self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = (
            {} if self.tensor is None else {"observation": self.tensor}
        )
        self._private_mask = np.zeros(lay.obs_size, bool)
        for name, off, size in lay.obs_layout:
            if name in PRIVATE_BLOCKS:
                self._private_mask[off : off + size] = True

    def set_from(self, state: BurracoState, player: int) -> None:
        t = self.tensor
        if t is None:
            raise pyspiel.SpielError(
                "python_burraco provides no information-state tensor (provides_information_state_tensor=False): "
                "use information_state_string, or observation_tensor"
            )
        if state.g is None:
            t.fill(0.0)
            return
        encode_game(state.g, player, out=t)
        if not self.private:
            t[self._private_mask] = 0.0
        if not self.public:
            t[~self._private_mask] = 0.0

    def string_from(self, state: BurracoState, player: int) -> str:
        if self.perfect_recall:
            return state.information_state(player)
        if state.g is None:
            return f"p{player} dealing {len(state.dealt)}"
        v = state.g.view(player)
        if not self.private:
            return "public " + view_string(v, state.moves, private=False)
        if not self.public:
            return f"private p{v.seat} h{cards_str(v.hand)} x{v.hidden_pozzetto} d{v.drawn}"
        return view_string(v, state.moves)


def observation_from_view(view: View) -> np.ndarray[Any, np.dtype[np.float32]]:
    """The observation tensor of a view (the same as the observer's)."""
    return encode_view(view)


pyspiel.register_game(_GAME_TYPE, BurracoGame)

__all__ = ["BurracoGame", "BurracoObserver", "BurracoState", "view_string"]

"""The table shared by the PettingZoo and Gymnasium environments: a match, its current hand, the legal actions of
the seat to act as indices, observations, masks and team rewards."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import numpy.typing as npt

from ..actions import Action
from ..cards import cards_str
from ..game import Game
from ..match import Match, hand_points
from ..rules import Rules, rules_from_json
from .encoding import Encoder, check_rules, encode_view, layout_for, legal_indices
from .features import ACTION_FEATURES, action_features
from .native_env import hand_of, native_encoding

#: episode kinds
EPISODES = ("hand", "match")
#: reward kinds: the side's score difference at the end of every hand, or +1/0/-1 for the match
REWARDS = ("score", "win")


def scorer_of(g: Game, seat: int) -> int:
    """The index of the match total ``seat`` plays for (:func:`burraco.match.scorer_names`): its own with 3 and 5
    players, its side's otherwise."""
    return seat if g.rules.players in (3, 5) else g.side_of(seat)


def hand_rewards(g: Game) -> list[float]:
    """Per seat, unscaled, what a finished hand is worth: what its scorer (:func:`scorer_of`) adds to its match
    total minus the mean of what the other scorers add (:func:`burraco.match.hand_points`). With 2 and 4 players
    the side's total minus the other side's; with 3 and 5 the solo's whole score and each half of a pair's (the
    split of RULES.md §14.3, so the partners of a pair formed during the hand get the same reward, and before it
    forms every player scores alone); with 6 the side's against the mean of the other two pairs. Zero-sum over
    the scorers."""
    pts = hand_points(g)
    k = len(pts) - 1
    total = sum(pts)
    out: list[float] = []
    for s in range(g.n):
        own = pts[scorer_of(g, s)]
        out.append(own - (total - own) / k if k > 1 else float(own - (total - own)))
    return out


def make_rules(rules: Any, players: int | None = None) -> Rules:
    """Rules from a preset name, a record's ``{"preset": …, override: …}`` object or a :class:`Rules`."""
    r = rules if isinstance(rules, Rules) else rules_from_json(rules)
    if players:
        r = r.replace(players=players)
    check_rules(r)
    return r


class Table:
    """One match (or one hand of it) between seats that all act through action indices. ``native``: the
    observations and the legal indices written by the native core (``burraco._native.Encoding``, the same vectors
    and indices as the Python encoder's); None (the default) where the core plays the rules, False never."""

    def __init__(
        self,
        rules: Rules,
        episode: str = "hand",
        reward: str = "score",
        reward_scale: float = 0.001,
        max_hands: int = 100,
        native: bool | None = None,
    ) -> None:
        if episode not in EPISODES:
            raise ValueError(f"episode must be one of {EPISODES}, not {episode!r}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, not {reward!r}")
        self.rules = rules
        self.episode = episode
        self.reward = reward
        self.reward_scale = reward_scale
        self.max_hands = max_hands
        self.n = rules.players
        #: the action space and observation layout (:func:`burraco.envs.encoding.layout_for`)
        self.layout = layout_for(rules)
        self.match = Match(rules, seed=0)
        self.game: Game = self.match.start_hand()
        self._legal_game: Game | None = None  # the game and number of actions the legal actions are for
        self._legal_n = -1
        self._legal: list[Action] = []
        self._codes: list[int] = []  # their indices, in the same order
        self._mask_game: Game | None = None  # the game and number of actions the cached mask is for
        self._mask_n = -1
        self._mask = np.zeros(0, dtype=np.int8)
        self._feat_game: Game | None = None  # the game and number of actions the action features are for
        self._feat_n = -1
        self._feat = np.zeros((0, ACTION_FEATURES), dtype=np.float32)
        self._encoder = Encoder(rules)
        #: the core's Encoding of the rules, or None: the Python encoder (the reference)
        self.native: Any = None if native is False else native_encoding(rules)
        if native and self.native is None:
            raise ValueError("native=True: the native core is not built or does not play these rules")
        self._native_rules = rules  # the rules of self._native_enc (a match's later hands may play others, §14.3)
        self._native_enc: Any = self.native
        self._totals_before: tuple[int, ...] = tuple(self.match.totals)
        self.over = False
        self.truncated = False

    def reset(self, seed: int) -> None:
        self.match = Match(self.rules, seed=seed)
        self.game = self.match.start_hand()
        self._totals_before = tuple(self.match.totals)
        self._legal_game = None
        self._feat_game = None
        self._mask_game = None
        self.over = False
        self.truncated = False

    # ----- the seat to act ----------------------------------------------------------------------------------------
    @property
    def to_act(self) -> int:
        """The seat to act, -1 when the episode is over."""
        return -1 if self.over else self.game.current_seat

    def legal(self) -> list[Action]:
        g = self.game
        if g is not self._legal_game or len(g.actions) != self._legal_n:
            self._legal = g.legal_actions()
            e = self._encoding(g)
            h = hand_of(g) if e is not None and g.end is None else None
            if h is not None:
                self._codes = e.legal_indices(h)
            else:
                melds = g.melds[g.side_of(g.current_seat)] if g.end is None else []
                self._codes = legal_indices(self._legal, melds, self.layout)
            self._legal_game = g
            self._legal_n = len(g.actions)
        return self._legal

    def legal_codes(self) -> list[int]:
        """The indices of the legal actions of the seat to act (empty once the episode is over)."""
        if self.over:
            return []
        self.legal()
        return self._codes[:]

    def mask(self, seat: int) -> npt.NDArray[np.int8]:
        # a zeroed bytearray set item by item is cheaper than numpy's fancy indexing with a short list
        size = self.layout.num_actions
        if self.over or seat != self.game.current_seat:
            return np.frombuffer(bytearray(size), dtype=np.int8)
        g = self.game
        if self._mask_game is g and self._mask_n == len(g.actions):  # once per step, however often it is asked
            return self._mask
        self._mask = m = self._new_mask(size)
        m.flags.writeable = False
        self._mask_game, self._mask_n = g, len(g.actions)
        return m

    def _new_mask(self, size: int) -> npt.NDArray[np.int8]:
        self.legal()
        ba = bytearray(size)
        for c in self._codes:
            ba[c] = 1
        return np.frombuffer(ba, dtype=np.int8)

    def action_features(self, seat: int) -> npt.NDArray[np.float32]:
        """The legal actions of ``seat`` as feature rows (:func:`burraco.envs.features.action_features`, from its
        view only), in the order of :meth:`legal_codes`; no rows when it is not to act."""
        if self.over or seat != self.game.current_seat:
            return np.zeros((0, ACTION_FEATURES), dtype=np.float32)
        g = self.game
        if self._feat_game is not g or self._feat_n != len(g.actions):
            self._feat = action_features(g.view(seat), self.legal())
            self._feat_game, self._feat_n = g, len(g.actions)
        return self._feat

    def observation(self, seat: int) -> npt.NDArray[np.float32]:
        """``encode_game(game, seat, match totals before this hand)``: written by the native core where it plays
        the rules, else incrementally (:class:`Encoder`)."""
        e = self._encoding(self.game)
        if e is not None:
            h = hand_of(self.game)
            if h is not None:
                out = np.empty(self.layout.obs_size, dtype=np.float32)
                e.encode(h, seat, out, self._totals_before)
                return out
        return self._encoder.encode(self.game, seat, self._totals_before)

    def _encoding(self, g: Game) -> Any:
        """The core's Encoding of ``g``'s rules (None: the Python encoder)."""
        if self.native is None:
            return None
        if g.rules is not self._native_rules:
            self._native_rules = g.rules
            self._native_enc = native_encoding(g.rules)
        return self._native_enc

    def observation_from_view(self, seat: int) -> npt.NDArray[np.float32]:
        """The same vector through :meth:`burraco.Match.view` (slower; for checks)."""
        return encode_view(self.match.view(seat))

    def action_of(self, index: int) -> Action | None:
        """The legal action with this index, or None when it is not legal now."""
        if self.over:
            return None
        legal = self.legal()
        try:
            return legal[self._codes.index(int(index))]
        except ValueError:
            return None

    # ----- playing ------------------------------------------------------------------------------------------------
    def play(self, a: Action) -> list[float] | None:
        """Apply a legal action; returns the rewards per seat when a reward is due (end of a hand or match)."""
        m = self.match
        g = self.game
        g.apply(a)  # the match's current hand, without Match.apply's check for a finished hand on every action
        if g.end is None:
            return None
        m.hands_finished  # the match scores the finished hand into its totals  # noqa: B018
        worth = hand_rewards(g)
        out: list[float] | None = None
        if self.reward == "score":
            out = [w * self.reward_scale for w in worth]
        if self.episode == "hand":
            self.over = True
            if self.reward == "win":
                out = [float(np.sign(w)) for w in worth]
            return out
        if m.is_over or len(m.games) >= self.max_hands:
            self.over = True
            self.truncated = not m.is_over
            if self.reward == "win":
                w = m.winner() if m.is_over else None
                out = [0.0 if w is None else (1.0 if scorer_of(g, s) == w else -1.0) for s in range(self.n)]
            return out
        self._totals_before = tuple(m.totals)
        self.game = m.start_hand()
        return out

    def penalize(self, seat: int, reward: float) -> list[float]:
        """End the episode after an illegal action of ``seat``: its side gets ``reward``, the other side 0."""
        self.over = True
        g = self.game
        return [reward if g.side_of(s) == g.side_of(seat) else 0.0 for s in range(self.n)]

    def render(self) -> str:
        g = self.game
        lines = [repr(g)]
        for side in range(len(g.sides)):
            melds = "  |  ".join(cards_str(m.display_cards()) for m in g.melds[side])
            lines.append(f"{g.sides[side]}: {melds}")
        lines.append("hands: " + " ".join(f"{g.seats[s]}={g.hand_n[s]}" for s in range(g.n)))
        lines.append(f"match totals: {self.match.totals}")
        return "\n".join(lines)


def new_seed(rng: random.Random) -> int:
    return rng.getrandbits(63)

"""The table shared by the PettingZoo and Gymnasium environments: a match, its current hand, the legal actions of
the seat to act as indices, observations, masks and team rewards."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from .._accel import core
from ..actions import Action
from ..cards import cards_str
from ..game import Game, apply_legal_index
from ..match import Match, hand_points
from ..rules import Rules, rules_from_json
from .action_index import legal_indices
from .action_space import check_rules
from .features import ACTION_FEATURES, action_features
from .layout import layout_for
from .native_env import hand_of, native_encoding
from .observation import Encoder, encode_view

_INT8 = np.dtype(np.int8)
_FLOAT32 = np.dtype(np.float32)

#: episode kinds
EPISODES = ("hand", "match")
#: reward kinds: the side's score difference at the end of every hand, +1/0/-1 for the match, or the score
#: difference with a potential-based term after every step (``progress``: :meth:`Table.potential`)
REWARDS = ("score", "win", "progress")


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
    and indices as the Python encoder's); None (the default) where the core plays the rules, False never.
    ``core_served``: every hand a game the native core alone serves where it serves the rules
    (:func:`burraco.game.core_served`): stepped by index in the core (:meth:`play_at`) without the Python engine's
    copy of the state, whose fields are made when something reads them (a view, a render, the scores at the end);
    for tables whose seats all act by index (the PettingZoo environment), not those that hand views out at every
    step."""

    def __init__(
        self,
        rules: Rules,
        episode: str = "hand",
        reward: str = "score",
        reward_scale: float = 0.001,
        max_hands: int = 100,
        native: bool | None = None,
        timeout_turns: int | None = None,
        core_served: bool = False,
    ) -> None:
        if episode not in EPISODES:
            raise ValueError(f"episode must be one of {EPISODES}, not {episode!r}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, not {reward!r}")
        if reward == "progress" and rules.players not in (2, 4):
            raise ValueError(
                "reward='progress' needs two sides (2 or 4 players): with 3, 5 and 6 players who scores with whom "
                "changes during the hand, so the score as it stands has no fixed owner"
            )
        if timeout_turns is not None and (timeout_turns < 1 or not rules.has_timeouts):
            raise ValueError(
                "timeout_turns needs rules with time-outs (a fixed number of hands and a timeout_policy, RULES.md "
                f"§9.4: italian-tournament) and at least 1 turn; {rules.name!r} has "
                + ("them" if rules.has_timeouts else "none")
            )
        self.rules = rules
        self.episode = episode
        self.reward = reward
        self.reward_scale = reward_scale
        self.max_hands = max_hands
        #: the director announces the time-out once the match has played this many turns (RULES.md §9.4; the
        #: match then ends with that hand, §0.1 "The time-out ends the match"); None: never
        self.timeout_turns = timeout_turns
        self._turns_done = 0  # the turns of the match's finished hands
        self.n = rules.players
        #: the action space and observation layout (:func:`burraco.envs.layout.layout_for`)
        self.layout = layout_for(rules)
        self.core_served = core_served
        self.match = Match(rules, seed=0)
        self.game: Game = self.match.start_hand(core_served=core_served)
        self._legal_game: Game | None = None  # the game and number of actions the legal actions are for
        self._legal_n = -1
        self._legal: list[Action] = []
        self._codes_game: Game | None = None  # the game and number of actions the legal indices are for
        self._codes_n = -1
        self._codes: list[int] = []  # the indices of the legal actions, in the order of legal()
        self._mask_game: Game | None = None  # the game and number of actions the cached mask is for
        self._mask_n = -1
        self._mask = np.zeros(0, dtype=np.int8)
        self._mask_sorted: list[int] | None = None  # the mask's indices in increasing order (TableActions.sample)
        self._obs_size = self.layout.obs_size
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
        self.game = self.match.start_hand(core_served=self.core_served)
        self._totals_before = tuple(self.match.totals)
        self._turns_done = 0
        self._forget()
        self.over = False
        self.truncated = False

    # ----- the seat to act ----------------------------------------------------------------------------------------
    @property
    def to_act(self) -> int:
        """The seat to act, -1 when the episode is over."""
        return -1 if self.over else self.game.current_seat

    def _forget(self) -> None:
        """Forget what was worked out for the state (the state changed other than through play/play_at)."""
        self._legal_game = None
        self._codes_game = None
        self._feat_game = None
        self._mask_game = None

    def legal(self) -> list[Action]:
        """The legal actions of the seat to act (the table's own list: do not change it)."""
        g = self.game
        if g is not self._legal_game or len(g.actions) != self._legal_n:
            self._legal = g.legal_actions()
            self._legal_game = g
            self._legal_n = len(g.actions)
        return self._legal

    def codes(self) -> list[int]:
        """The indices of the legal actions of the seat to act, in the order of :meth:`legal` (the table's own
        list: do not change it). Where the core encodes, from the core's copy of the state alone: no Action made."""
        g = self.game
        n = len(g.actions)
        if g is not self._codes_game or n != self._codes_n:
            h = g._nh
            if h and not h.end and g.rules is self._native_rules and self._native_enc is not None:
                self._codes = self._native_enc.legal_indices(h)  # the core's copy of the state (it follows apply)
                self._codes_game = g
                self._codes_n = n
                return self._codes
            e = self._encoding(g)
            h = hand_of(g) if e is not None and g.end is None else None
            if h is not None:
                self._codes = e.legal_indices(h)
            else:
                melds = g.melds[g.side_of(g.current_seat)] if g.end is None else []
                self._codes = legal_indices(self.legal(), melds, self.layout)
            self._codes_game = g
            self._codes_n = n
        return self._codes

    def legal_codes(self) -> list[int]:
        """The indices of the legal actions of the seat to act (empty once the episode is over)."""
        if self.over:
            return []
        return self.codes()[:]

    def mask(self, seat: int) -> npt.NDArray[np.int8]:
        # a zeroed bytearray set item by item is cheaper than numpy's fancy indexing with a short list
        g = self.game
        size = self.layout.num_actions
        if self.over or seat != g.current_seat:
            return np.frombuffer(bytearray(size), _INT8)
        n = len(g.actions)
        if self._mask_game is g and self._mask_n == n:  # once per step, however often it is asked
            return self._mask
        self._mask = m = self._new_mask(size)  # read-only for good: it is handed out again until the next step
        self._mask_game = g
        self._mask_n = n
        self._mask_sorted = None
        return m

    def _new_mask(self, size: int) -> npt.NDArray[np.int8]:
        codes = self.codes()
        if self.native is not None:  # the core writes the bytes: one allocation, no bytearray to copy
            return np.frombuffer(self.native.mask_of(codes), _INT8)
        ba = bytearray(size)
        for c in codes:
            ba[c] = 1
        return np.frombuffer(bytes(ba), _INT8)  # over bytes: nobody can make it writeable again

    def mask_indices(self, mask: Any) -> list[int] | None:
        """The legal indices, in increasing order, where ``mask`` is the very mask this table made for the current
        state (the read-only array :meth:`mask` hands out); else None."""
        g = self.game
        if mask is not self._mask or self._mask_game is not g or self._mask_n != len(g.actions):
            return None
        got = self._mask_sorted
        if got is None:
            got = self._mask_sorted = sorted(self.codes())  # the codes the mask was made from (the same state)
        return got

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
        g = self.game
        h = g._nh
        if h and g.rules is self._native_rules and self._native_enc is not None:  # the core's copy of the state
            out = np.empty(self._obs_size, _FLOAT32)
            self._native_enc.encode(h, seat, out, self._totals_before)
            return out
        e = self._encoding(g)
        if e is not None:
            h = hand_of(g)
            if h is not None:
                out = np.empty(self._obs_size, _FLOAT32)
                e.encode(h, seat, out, self._totals_before)
                return out
        return self._encoder.encode(g, seat, self._totals_before)

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
        i = self.position_of(index)
        return None if i < 0 else self.legal()[i]

    def position_of(self, index: int) -> int:
        """The place of the action with this index among the legal actions (:meth:`legal`, :meth:`codes`), -1 when
        it is not legal now."""
        if self.over:
            return -1
        try:
            return self.codes().index(int(index))
        except ValueError:
            return -1

    def potential(self, seat: int) -> float:
        """The score difference of ``seat``'s side as things stand (its side's total minus the other's if the hand
        ended now: melds, bonuses, cards held, the pozzetto, §10.1), times ``reward_scale``; 0 once the episode is
        over. The ``progress`` reward adds its change at every step (a potential-based reward: over an episode the
        rewards add up to the score rewards less the potential of its first state, so the best policies are the
        same). It reads the cards of every hand: it is a reward, never part of an observation."""
        if self.over:
            return 0.0
        g = self.game
        own = g.side_of(seat)
        return (g.side_score(own)["total"] - g.side_score(1 - own)["total"]) * self.reward_scale

    def announce_timeout(self) -> None:
        """The director announces the time-out now (RULES.md §9.4): the hand in progress plays its time-out round
        and the match ends with it (§0.1 "The time-out ends the match"). :class:`~burraco.actions.IllegalActionError`
        where the rules have no time-outs or one was announced in this hand; RuntimeError once the episode is
        over."""
        if self.over:
            raise RuntimeError("the episode is over: no time-out can be announced (call reset())")
        self.game.apply(Action.timeout())
        self._forget()

    # ----- playing ------------------------------------------------------------------------------------------------
    def play(self, a: Action) -> list[float] | None:
        """Apply a legal action; returns the rewards per seat when a reward is due (end of a hand or match)."""
        self.game.apply(a)  # the match's current hand, without Match.apply's check for a finished hand on every action
        return self._played()

    def play_at(self, i: int) -> list[float] | None:
        """:meth:`play` the ``i``-th legal action (:meth:`position_of`): in the core alone where it alone serves the
        hand (``core_served``), no list of Actions made."""
        apply_legal_index(self.game, i)
        return self._played()

    def _played(self) -> list[float] | None:
        """After an action: the time-out that ``timeout_turns`` calls, the end of the hand and of the episode; the
        rewards per seat when a reward is due."""
        m = self.match
        g = self.game
        if (
            self.timeout_turns is not None
            and g.end is None
            and not g.timeout_called
            and self._turns_done + g.turns >= self.timeout_turns
        ):
            g.apply(Action.timeout())  # the time limit: the director's announcement
        if g.end is None:
            return None
        m.hands_finished  # the match scores the finished hand into its totals  # noqa: B018
        worth = hand_rewards(g)
        out: list[float] | None = None
        if self.reward != "win":
            out = [w * self.reward_scale for w in worth]
        if self.episode == "hand":
            self.over = True
            if self.reward == "win":
                out = [float(np.sign(w)) for w in worth]
            return out
        if m.is_over or len(m.games) >= self.max_hands:  # is_over: also after a time-out hand (Match.timed_out)
            self.over = True
            self.truncated = not m.is_over
            if self.reward == "win":
                w = m.winner() if m.is_over else None
                out = [0.0 if w is None else (1.0 if scorer_of(g, s) == w else -1.0) for s in range(self.n)]
            return out
        self._totals_before = tuple(m.totals)
        self._turns_done += g.turns
        self.game = m.start_hand(core_served=self.core_served)
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


#: the actions TableActions.sample has drawn, as the numpy integers it returns (immutable: one object per index, at
#: most one per action of the largest space)
_SAMPLED: dict[int, np.int64] = {}


class TableActions(spaces.Discrete):
    """The flat action space of a :class:`Table` (``Discrete(num_actions)``) whose ``sample(mask)`` knows the
    table's own masks: given the mask the table made for the current state (the very array, read-only, that
    ``observe`` / ``last`` / ``infos`` hand out), it draws from the legal indices the mask was made from instead of
    scanning the 96,218 entries four times -- the same draw from the same generator as ``Discrete.sample`` (one
    uniform choice among the sorted legal indices). Any other mask goes to ``Discrete.sample``, checks and all."""

    def __init__(self, n: int, table: Table, seed: int | None = None) -> None:
        super().__init__(n, seed=seed)
        self._table = table
        self._start = int(self.start)
        self._draw = getattr(core, "draw_below", None)  # numpy's integers(0, n) in the core, draw for draw
        self._bits: Any = None  # the generator whose bit generator's lock and capsule are these
        self._lock: Any = None
        self._capsule: Any = None

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        codes = None if mask is None or probability is not None else self._table.mask_indices(mask)
        if codes is None:
            return super().sample(mask, probability)
        k = len(codes)
        if not k:
            return self.start
        # Generator.choice(a) draws integers(0, len(a)): the same draw, without its checks (and, with the core, in
        # the core from the generator's own bit generator, under its lock as numpy takes it)
        draw = self._draw
        gen = self.np_random
        if draw is None:
            i = int(gen.integers(0, k))
        else:
            if gen is not self._bits:
                self._bits = gen
                self._lock = gen.bit_generator.lock
                self._capsule = gen.bit_generator.capsule
            with self._lock:
                i = draw(self._capsule, k)
        c = self._start + codes[i]
        got = _SAMPLED.get(c)
        if got is None:
            got = _SAMPLED[c] = np.int64(c)
        return got

    def __eq__(self, other: object) -> bool:
        return isinstance(other, spaces.Discrete) and self.n == other.n and self.start == other.start

    def __hash__(self) -> int:
        return hash((spaces.Discrete, int(self.n), int(self.start)))


def new_seed(rng: random.Random) -> int:
    return rng.getrandbits(63)

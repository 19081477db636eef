"""A Gymnasium single-agent environment: the agent plays one seat, computer players the others.

Registered as ``burraco/Burraco-v0`` by ``import burraco.envs``::

    >>> import gymnasium, burraco.envs
    >>> env = gymnasium.make("burraco/Burraco-v0", rules="italian-2p", opponents="heuristic:easy")
    >>> obs, info = env.reset(seed=3)
    >>> obs["observation"].shape == (burraco.envs.layout.OBS_SIZE,), int(info["action_mask"].sum())
    (True, 2)
    >>> obs, reward, terminated, truncated, info = env.step(0)     # draw from the stock
    >>> terminated
    False

The other seats are *opponents* (:data:`Opponent`): a :func:`burraco.arena.parse_player` spec (``random``,
``heuristic:easy`` …), a :class:`~burraco.bots.base.Player`, any callable ``(view, legal) -> action`` or an
:class:`OpponentPool` that draws one of its members per episode from the environment's seeded random source (the
learner's past checkpoints added with :meth:`OpponentPool.add` make self-play). ``opponents`` is one opponent for
every other seat, or a list with one per other seat in seat order after the
agent's (the partner is one of them in a four- and six-player game; with 3 and 5 players who partners whom is
decided during the hand, and the agent's reward is its own share, as in the PettingZoo environment). Observations and the action space are those of the
PettingZoo environment; the mask is also in ``info["action_mask"]`` and :meth:`BurracoGymEnv.action_masks` (as
sb3-contrib's ``MaskablePPO`` asks for it); ``mask_in_obs=False`` gives the observation vector alone as the
observation (a ``Box``). :meth:`BurracoGymEnv.action_features` describes the legal actions as feature rows
(:mod:`burraco.envs.features`). An index that is not legal ends the episode
with ``illegal_reward`` (``illegal="raise"`` raises instead). ``native`` is the table's (the observations and
legal indices written by the native core where it plays the rules; ``False``: the Python encoder).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..actions import Action
from ..bots.base import Player
from ..view import View
from ._core import Table, TableActions, make_rules

ObsDict = dict[str, npt.NDArray[Any]]
#: a policy as a plain function of the seat's view and its legal actions
PolicyFn = Callable[[View, list[Action]], Action]


class _FnPlayer:
    """A :class:`~burraco.bots.base.Player` around a policy function."""

    def __init__(self, fn: PolicyFn, name: str = "callable") -> None:
        self.fn = fn
        self.name = name

    def choose(self, view: View, legal: list[Action]) -> Action:
        return self.fn(view, legal)


def _factory_of(o: Any) -> Callable[[int], Player]:
    """A player factory (seed → player) for one fixed opponent: a spec, a Player or a policy function."""
    from ..arena import parse_player

    if isinstance(o, str):
        return parse_player(o)
    if hasattr(o, "choose"):
        return lambda seed: o
    if callable(o):
        p = _FnPlayer(o, getattr(o, "__name__", "callable"))
        return lambda seed: p
    raise TypeError(f"an opponent is a player spec, a Player or a function (view, legal) -> action, not {o!r}")


class OpponentPool:
    """Opponents drawn per episode: one member (a spec, a :class:`~burraco.bots.base.Player` or a policy function) is chosen for a
    seat at every reset, with the environment's seeded random source, in proportion to ``weights``.

    Self-play: :meth:`add` the learner's checkpoints (a frozen copy of its policy) as it trains; with
    ``max_size`` the oldest checkpoint added is dropped first (the members given at construction stay).
    What it remembers of its draws is bounded: :attr:`drawn` holds the draws of the last reset only and
    :attr:`counts` how often each member was drawn since the pool was made."""

    def __init__(
        self, members: Sequence[Any] = (), weights: Sequence[float] | None = None, max_size: int | None = None
    ) -> None:
        self._fixed = [_factory_of(m) for m in members]
        self._fixed_w = list(weights) if weights is not None else [1.0] * len(self._fixed)
        if len(self._fixed_w) != len(self._fixed):
            raise ValueError("OpponentPool: one weight per member")
        if max_size is not None and max_size < 1:
            raise ValueError("OpponentPool: max_size is at least 1 (or None: no limit)")
        self._added: list[tuple[Callable[[int], Player], float, str]] = []
        self._n_added = 0  # checkpoints ever added (their default labels)
        self.max_size = max_size
        #: the indices (members first, then the checkpoints in the order added and still kept) drawn since the
        #: last :meth:`start_episode`: one per seat the pool serves
        self.drawn: list[int] = []
        #: per member, how often it was drawn (checkpoints by the labels given to :meth:`add`)
        self.counts: dict[str, int] = {}

    def add(self, member: Any, weight: float = 1.0, label: str | None = None) -> None:
        """Add a member (a checkpoint of the learner's policy, for self-play); ``label`` names it in
        :attr:`counts` (default ``checkpoint N``, N counting every checkpoint ever added)."""
        self._n_added += 1
        self._added.append((_factory_of(member), weight, label or f"checkpoint {self._n_added}"))
        if self.max_size is not None and len(self._added) > self.max_size:
            self._added.pop(0)

    def __len__(self) -> int:
        return len(self._fixed) + len(self._added)

    def labels(self) -> list[str]:
        """The members' labels in the order of :attr:`drawn`'s indices (``member N`` for those given at
        construction)."""
        return [f"member {i}" for i in range(len(self._fixed))] + [lab for _, _, lab in self._added]

    def start_episode(self) -> None:
        """Forget the last episode's draws (the environment calls it at every reset)."""
        self.drawn.clear()

    def draw(self, rng: np.random.Generator, seed: int) -> Player:
        """One member, made for this episode."""
        facs = self._fixed + [f for f, _, _ in self._added]
        w = np.array(self._fixed_w + [x for _, x, _ in self._added], dtype=np.float64)
        if not facs:
            raise ValueError("the opponent pool is empty")
        i = int(rng.choice(len(facs), p=w / w.sum()))
        self.drawn.append(i)
        label = self.labels()[i]
        self.counts[label] = self.counts.get(label, 0) + 1
        return facs[i](seed)


#: what an ``opponents`` entry may be
Opponent = str | Player | PolicyFn | OpponentPool


class BurracoGymEnv(gym.Env[ObsDict, int]):
    """One seat of Burraco against computer players (see the module's notes for the options)."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(
        self,
        rules: Any = "italian",
        opponents: Opponent | Sequence[Opponent] = "random",
        *,
        seat: int = 0,
        players: int | None = None,
        episode: str = "hand",
        reward: str = "score",
        reward_scale: float = 0.001,
        max_hands: int = 100,
        illegal: str = "penalize",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        mask_in_obs: bool = True,
        native: bool | None = None,
        timeout_turns: int | None = None,
    ) -> None:
        if illegal not in ("raise", "penalize"):
            raise ValueError("illegal must be 'raise' or 'penalize'")
        self.rules = make_rules(rules, players)
        n = self.rules.players
        if not 0 <= seat < n:
            raise ValueError(f"seat must be 0…{n - 1}")
        one = isinstance(opponents, (str, OpponentPool)) or hasattr(opponents, "choose") or callable(opponents)
        specs = [opponents] * (n - 1) if one else list(opponents)  # type: ignore[arg-type]
        if len(specs) != n - 1:
            raise ValueError(f"opponents: give one opponent, or one per other seat ({n - 1})")
        self.seat = seat
        self.specs = specs
        self._factories: list[OpponentPool | Callable[[int], Player]] = [
            o if isinstance(o, OpponentPool) else _factory_of(o) for o in specs
        ]
        self.mask_in_obs = mask_in_obs
        self.table = Table(
            self.rules, episode, reward, reward_scale, max_hands, native=native, timeout_turns=timeout_turns
        )
        self._progress = reward == "progress"
        self._phi = 0.0  # the potential of the state the agent acts from (reward="progress")
        self.illegal = illegal
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        lay = self.table.layout
        box = spaces.Box(-1e6, 1e6, (lay.obs_size,), np.float32)
        if mask_in_obs:
            self.observation_space = spaces.Dict(  # type: ignore[assignment]
                {"observation": box, "action_mask": spaces.Box(0, 1, (lay.num_actions,), np.int8)}
            )
        else:
            self.observation_space = box  # type: ignore[assignment]
        self.action_space = TableActions(lay.num_actions, self.table)  # type: ignore[assignment]
        self._players: dict[int, Player] = {}
        self._rng = random.Random()
        self._mask: npt.NDArray[np.int8] = np.zeros(lay.num_actions, dtype=np.int8)

    def _obs(self) -> tuple[Any, dict[str, Any]]:
        if self._progress:
            self._phi = self.table.potential(self.seat)
        mask = self.table.mask(self.seat)
        self._mask = mask
        vec = self.table.observation(self.seat)
        if not self.mask_in_obs:
            return vec, {"action_mask": mask}
        return {"observation": vec, "action_mask": mask}, {"action_mask": mask}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the agent as booleans over the action space (sb3-contrib's ``MaskablePPO``
        calls this before every step); computed once per step."""
        return self._mask.astype(np.bool_)

    def action_features(self) -> npt.NDArray[np.float32]:
        """The agent's legal actions as feature rows, in the order of :meth:`legal_indices`
        (:func:`burraco.envs.features.action_features`: from the agent's view only)."""
        return self.table.action_features(self.seat)

    def _others(self) -> float:
        """Let the computer players act until it is the agent's turn or the episode is over; their rewards for
        the agent's seat are summed."""
        t = self.table
        total = 0.0
        while not t.over and t.to_act != self.seat:
            seat = t.to_act
            legal = t.legal()
            p = self._players[seat]
            # every player gets its own copies: nothing it is handed is the table's (issue 37)
            if getattr(p, "needs_state", False):  # the cheating reference: measurement only
                a = p.choose_with_state(t.game.clone(), list(legal))  # type: ignore[attr-defined]
            else:
                a = p.choose(t.game.view(seat), list(legal))
            r = t.play(a)
            if r is not None:
                total += r[self.seat]
        return total

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        s = int(self.np_random.integers(0, 2**63 - 1))
        self.table.reset(s)
        others = [x for x in range(self.rules.players) if x != self.seat]
        order = sorted(others, key=lambda x: (x - self.seat) % self.rules.players)
        self._players = {}
        for f in self._factories:
            if isinstance(f, OpponentPool):
                f.start_episode()
        for i, x in enumerate(order):
            f = self._factories[i]
            pseed = s % 1_000_003 * 8 + x
            self._players[x] = f.draw(self.np_random, pseed) if isinstance(f, OpponentPool) else f(pseed)
        self._others()
        return self._obs()

    def act(self, action: int) -> tuple[float, bool]:
        """Play the agent's action index and let the computer players answer: the agent's reward and whether
        the index was illegal (the episode then ended with ``illegal_reward``). The step of :meth:`step` and of the
        vector environment's Python tables; ``illegal="raise"`` raises instead."""
        t = self.table
        a = t.action_of(int(action))
        if a is None:
            if self.illegal == "raise":
                raise ValueError(f"action {action!r} is not legal now")
            reward = t.penalize(self.seat, self.illegal_reward)[self.seat]
            return reward - self._phi, True
        r = t.play(a)
        reward = 0.0 if r is None else r[self.seat]
        reward += self._others()
        if self._progress:  # the potential's change (0 for the state after the episode)
            reward += t.potential(self.seat) - self._phi
        return reward, False

    def announce_timeout(self) -> None:
        """The director announces the time-out now (RULES.md §9.4; the match ends with this hand, §0.1), on the
        environment's table. ``timeout_turns=N`` announces it by itself once the match has played N turns."""
        self.table.announce_timeout()

    def step(self, action: int) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        t = self.table
        if t.over:
            raise RuntimeError("the episode is over: call reset()")
        reward, illegal = self.act(action)
        obs, info = self._obs()
        if illegal:
            info["illegal_action"] = True
            return obs, reward, True, False, info
        if self.render_mode == "human":
            self.render()
        return obs, float(reward), t.over and not t.truncated, t.truncated, info

    def legal_indices(self) -> list[int]:
        """The legal action indices of the agent (empty when it is not to act)."""
        return self.table.legal_codes()

    def render(self) -> str | None:
        text = self.table.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text


__all__ = ["BurracoGymEnv", "Opponent", "OpponentPool", "PolicyFn"]

"""A Gymnasium single-agent environment: the agent plays one seat, computer players the others.

Registered as ``burraco/Burraco-v0`` by ``import burraco.envs``::

    >>> import gymnasium, burraco.envs
    >>> env = gymnasium.make("burraco/Burraco-v0", rules="italian-2p", opponents="heuristic:easy")
    >>> obs, info = env.reset(seed=3)
    >>> obs["observation"].shape == (burraco.envs.encoding.OBS_SIZE,), int(info["action_mask"].sum())
    (True, 2)
    >>> obs, reward, terminated, truncated, info = env.step(0)     # draw from the stock
    >>> terminated
    False

The other seats are players from :func:`burraco.arena.parse_player` specs (``random``, ``heuristic:easy`` …):
``opponents`` is one spec for every other seat, or a list with one spec per other seat in seat order after the
agent's (the partner is one of them in a four- and six-player game; with 3 and 5 players who partners whom is
decided during the hand, and the agent's reward is its own share, as in the PettingZoo environment). Observations and the action space are those of the
PettingZoo environment; the mask is also in ``info["action_mask"]``. An index that is not legal ends the episode
with ``illegal_reward`` (``illegal="raise"`` raises instead).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..bots.base import Player
from ._core import Table, make_rules

ObsDict = dict[str, npt.NDArray[Any]]


class BurracoGymEnv(gym.Env[ObsDict, int]):
    """One seat of Burraco against computer players (see the module's notes for the options)."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(
        self,
        rules: Any = "italian",
        opponents: str | Sequence[str] = "random",
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
    ) -> None:
        from ..arena import parse_player

        if illegal not in ("raise", "penalize"):
            raise ValueError("illegal must be 'raise' or 'penalize'")
        self.rules = make_rules(rules, players)
        n = self.rules.players
        if not 0 <= seat < n:
            raise ValueError(f"seat must be 0…{n - 1}")
        specs = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != n - 1:
            raise ValueError(f"opponents: give one spec, or one per other seat ({n - 1})")
        self.seat = seat
        self.specs = specs
        self._factories = [parse_player(s) for s in specs]
        self.table = Table(self.rules, episode, reward, reward_scale, max_hands)
        self.illegal = illegal
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        lay = self.table.layout
        self.observation_space = spaces.Dict(  # type: ignore[assignment]
            {
                "observation": spaces.Box(-1e6, 1e6, (lay.obs_size,), np.float32),
                "action_mask": spaces.Box(0, 1, (lay.num_actions,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(lay.num_actions)  # type: ignore[assignment]
        self._players: dict[int, Player] = {}
        self._rng = random.Random()

    def _obs(self) -> tuple[ObsDict, dict[str, Any]]:
        mask = self.table.mask(self.seat)
        return {"observation": self.table.observation(self.seat), "action_mask": mask}, {"action_mask": mask}

    def _others(self) -> float:
        """Let the computer players act until it is the agent's turn or the episode is over; their rewards for
        the agent's seat are summed."""
        t = self.table
        total = 0.0
        while not t.over and t.to_act != self.seat:
            seat = t.to_act
            legal = t.legal()
            p = self._players[seat]
            if getattr(p, "needs_state", False):  # the cheating reference: measurement only
                a = p.choose_with_state(t.game, legal)  # type: ignore[attr-defined]
            else:
                a = p.choose(t.game.view(seat), legal)
            r = t.play(a)
            if r is not None:
                total += r[self.seat]
        return total

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsDict, dict[str, Any]]:
        super().reset(seed=seed)
        s = int(self.np_random.integers(0, 2**63 - 1))
        self.table.reset(s)
        others = [x for x in range(self.rules.players) if x != self.seat]
        order = sorted(others, key=lambda x: (x - self.seat) % self.rules.players)
        self._players = {x: self._factories[i](s % 1_000_003 * 8 + x) for i, x in enumerate(order)}
        self._others()
        return self._obs()

    def step(self, action: int) -> tuple[ObsDict, float, bool, bool, dict[str, Any]]:
        t = self.table
        if t.over:
            raise RuntimeError("the episode is over: call reset()")
        a = t.action_of(int(action))
        if a is None:
            if self.illegal == "raise":
                raise ValueError(f"action {action!r} is not legal now")
            reward = t.penalize(self.seat, self.illegal_reward)[self.seat]
            obs, info = self._obs()
            info["illegal_action"] = True
            return obs, reward, True, False, info
        r = t.play(a)
        reward = 0.0 if r is None else r[self.seat]
        reward += self._others()
        obs, info = self._obs()
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


__all__ = ["BurracoGymEnv"]

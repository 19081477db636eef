"""A PettingZoo AEC environment: every seat is an agent, named ``player_0`` … ``player_{n-1}`` in seat order (the
names PettingZoo's ``api_test`` asks for; ``agent_names="seats"`` names them by their seat letters instead: ``N E S
W``, ``N S`` with two players, ``A B C …`` with 3, 5 and 6; :attr:`BurracoAEC.seat_letters` maps one to the other).

Observations are dicts ``{"observation": float32[obs_size], "action_mask": int8[num_actions]}`` (the rules'
:class:`~burraco.envs.layout.Layout`: :data:`~burraco.envs.layout.OBS_SIZE` and
:data:`~burraco.envs.action_space.NUM_ACTIONS` with 2 and 4 players); only the agent to act has a non-zero mask. ``mask_in_obs=False`` makes the observation the vector alone (a
``Box``, what ``api_test`` expects without a warning) and puts the mask in ``infos[agent]["action_mask"]``. The mask
is computed once per step (the table caches it until the next action).
Rewards are team rewards: both partners get their side's score minus the other side's at the end of a hand
(``reward="score"``, scaled by ``reward_scale``), or +1 / 0 / -1 at the end of the match (``reward="win"``). With 3,
5 and 6 players a seat gets what its scorer adds to its match total minus the mean of the others
(``burraco.envs._core.hand_rewards``): the teams change with the phase — every player alone until the first
goes out, then the solo against the pair(s) whose partners share the pair's split score (RULES.md §14.3), every
player alone again in the individual hands after 1000. An episode is one hand (``episode="hand"``) or a whole match
(``episode="match"``; truncated after ``max_hands`` hands). A time-out (:meth:`BurracoAEC.announce_timeout`, or by
itself after ``timeout_turns`` turns of the match, with rules that have time-outs) ends the match with its hand
(RULES.md §0.1 "The time-out ends the match"): the episode terminates there with the match's result.
``raw_env(**kw)`` is the environment, ``env(**kw)`` the same in PettingZoo's usual wrappers.

>>> from burraco.envs import pettingzoo_env
>>> env = pettingzoo_env(rules="italian-2p")
>>> env.reset(seed=1)
>>> env.agent_selection, env.possible_agents, env.seat_letters
('player_0', ['player_0', 'player_1'], {'player_0': 'N', 'player_1': 'S'})
>>> obs, reward, term, trunc, info = env.last()
>>> int(obs["action_mask"].sum()), [str(a) for a in env.legal_actions()]
(2, ['N draw', 'N pick'])
>>> env.step(0)                                       # draw
>>> env.agent_selection
'player_0'

Burraco has no parallel form: a seat acts several times in a row (draw or pick, melds, attachments, a discard)
and the others wait, so the parallel API's "every live agent acts at every step" does not describe it. The
metadata says ``is_parallelizable: False`` and PettingZoo's ``aec_to_parallel`` refuses the environment
(docs/research.md "PettingZoo"); for batched training use :class:`burraco.envs.vector.BurracoVecEnv`.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from ..actions import Action
from ..view import View
from ._core import Table, TableActions, make_rules, new_seed
from .action_index import decode_action

ObsDict = dict[str, npt.NDArray[Any]]


class IllegalActionError(ValueError):
    """An action index that is not legal for the agent to act (with ``illegal="raise"``)."""


class BurracoAEC(AECEnv[str, ObsDict, int]):  # type: ignore[misc]
    """Burraco as a PettingZoo AEC environment.

    ``rules``: a preset name, a record's rules object (``{"preset": "italian", "target": 1005}``) or a
    :class:`~burraco.Rules`; ``players`` overrides the number of players. ``illegal``: ``"raise"`` (default) raises
    :class:`IllegalActionError` for an index that is not legal; ``"penalize"`` ends the episode with
    ``illegal_reward`` for the offender's side instead. ``agent_names``: ``"numbered"`` (``player_0`` …, default)
    or ``"seats"`` (the seat letters). ``mask_in_obs``: the mask in the observation dict (default) or, with False,
    the observation vector alone and the mask in ``infos[agent]["action_mask"]``."""

    metadata = {"name": "burraco_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(
        self,
        rules: Any = "italian",
        *,
        players: int | None = None,
        episode: str = "hand",
        reward: str = "score",
        reward_scale: float = 0.001,
        max_hands: int = 100,
        illegal: str = "raise",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        agent_names: str = "numbered",
        mask_in_obs: bool = True,
        timeout_turns: int | None = None,
    ) -> None:
        super().__init__()
        if agent_names not in ("numbered", "seats"):
            raise ValueError("agent_names must be 'numbered' or 'seats'")
        self.mask_in_obs = mask_in_obs
        if illegal not in ("raise", "penalize"):
            raise ValueError("illegal must be 'raise' or 'penalize'")
        self.rules = make_rules(rules, players)
        if reward == "progress":
            raise ValueError("reward='progress' is the single-agent environments' (Gymnasium, vector)")
        # every seat acts by index: the hands stepped in the native core alone (their Python fields made only for
        # what reads them: a view, a render, the scores at the end of a hand)
        self.table = Table(
            self.rules, episode, reward, reward_scale, max_hands, timeout_turns=timeout_turns, core_served=True
        )
        self.illegal = illegal
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        letters = self.table.game.seats
        seats = [f"player_{i}" for i in range(len(letters))] if agent_names == "numbered" else list(letters)
        self.possible_agents = list(seats)
        #: agent name → seat letter (RECORDS.md §2)
        self.seat_letters = dict(zip(seats, letters, strict=True))
        self._seat = {a: i for i, a in enumerate(seats)}
        lay = self.table.layout
        box = spaces.Box(-1e6, 1e6, (lay.obs_size,), np.float32)
        obs_space: spaces.Space[Any] = (
            spaces.Dict({"observation": box, "action_mask": spaces.Box(0, 1, (lay.num_actions,), np.int8)})
            if mask_in_obs
            else box
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: TableActions(lay.num_actions, self.table) for a in self.possible_agents}
        self._rng = random.Random()
        self._rewarded = False
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ----- the AEC protocol ---------------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand (match): from ``seed`` when given, else from the environment's own random source."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.table.reset(new_seed(self._rng))
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._rewarded = False
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.table.to_act]
        self._info_mask()

    def _info_mask(self) -> None:
        """With ``mask_in_obs=False``: the mask of the agent to act in its infos (the others' are dropped)."""
        if self.mask_in_obs:
            return
        for a, info in self.infos.items():
            if a == self.agent_selection and not self.table.over:
                info["action_mask"] = self.table.mask(self._seat[a])
            else:
                info.pop("action_mask", None)

    def observe(self, agent: str) -> Any:
        seat = self._seat[agent]
        if not self.mask_in_obs:
            return self.table.observation(seat)
        return {"observation": self.table.observation(seat), "action_mask": self.table.mask(seat)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        t = self.table
        self._cumulative_rewards[agent] = 0.0
        i = -1 if action is None else t.position_of(int(action))
        if i < 0:
            if self.illegal == "raise":
                raise IllegalActionError(f"action {action!r} is not legal for {agent} now")
            rewards: list[float] | None = t.penalize(self._seat[agent], self.illegal_reward)
        else:
            rewards = t.play_at(i)
        if rewards is not None:
            self.rewards = {x: 0.0 for x in self.agents}
            for i, x in enumerate(self.possible_agents):
                self.rewards[x] = rewards[i]
            self._rewarded = True
        elif self._rewarded:  # the rewards of the last step go back to zero
            self.rewards = {x: 0.0 for x in self.agents}
            self._rewarded = False
        if t.over:
            for x in self.agents:
                if t.truncated:
                    self.truncations[x] = True
                else:
                    self.terminations[x] = True
        else:
            self.agent_selection = self.possible_agents[t.to_act]
        if not self.mask_in_obs:
            self._info_mask()
        if rewards is not None:  # zero rewards change no cumulative reward
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # ----- extras ---------------------------------------------------------------------------------------------------
    def announce_timeout(self) -> None:
        """The director announces the time-out now (RULES.md §9.4): the hand plays its time-out round and the
        match -- the episode, with ``episode="match"`` -- ends with it (§0.1 "The time-out ends the match").
        ``timeout_turns=N`` announces it by itself once the match has played N turns."""
        self.table.announce_timeout()
        self._info_mask()

    def legal_actions(self) -> list[Action]:
        """The legal actions of the agent to act, as engine actions."""
        return [] if self.table.over else list(self.table.legal())

    def legal_indices(self) -> list[int]:
        """The legal action indices of the agent to act."""
        return self.table.legal_codes()

    def action_features(self) -> npt.NDArray[np.float32]:
        """The legal actions of the agent to act as feature rows, in the order of :meth:`legal_indices`
        (:func:`burraco.envs.features.action_features`: from its view only)."""
        if self.table.over:
            return self.table.action_features(-1)
        return self.table.action_features(self.table.to_act)

    def decode(self, agent: str, index: int) -> Action:
        """The engine action an index names for ``agent`` in the current state."""
        g = self.table.game
        seat = self._seat[agent]
        return decode_action(int(index), self.seat_letters[agent], g.melds[g.side_of(seat)], self.table.layout)

    def view(self, agent: str) -> View:
        """The agent's :class:`~burraco.View` (its information set; with the match totals)."""
        return self.table.match.view(self._seat[agent])

    def view_dict(self, agent: str) -> dict[str, Any]:
        """The agent's view as a JSON-ready dict (:meth:`burraco.View.to_json`)."""
        return self.view(agent).to_json()

    def render(self) -> str | None:
        text = self.table.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def raw_env(**kwargs: Any) -> BurracoAEC:
    """The environment itself, unwrapped (PettingZoo's ``raw_env`` convention); ``kwargs`` are
    :class:`BurracoAEC`'s."""
    return BurracoAEC(**kwargs)


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual wrappers, as its own games are made (``env()`` wraps
    ``raw_env()``): ``AssertOutOfBoundsWrapper`` (an index outside the action space is an error) and
    ``OrderEnforcingWrapper`` (``step`` or ``observe`` before ``reset`` is an error). Illegal indices inside the
    space are the environment's own business (``illegal``). ``env.unwrapped`` is the :class:`BurracoAEC`."""
    from pettingzoo.utils import wrappers

    e: AECEnv = raw_env(**kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


__all__ = ["BurracoAEC", "IllegalActionError", "env", "raw_env"]

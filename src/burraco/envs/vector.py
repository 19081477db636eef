"""A vectorised environment: N tables, one learner seat each, stepped in one call into numpy buffers.

>>> import numpy as np
>>> from burraco.envs.vector import BurracoVecEnv
>>> venv = BurracoVecEnv(4, rules="italian-2p", opponents="heuristic:easy")
>>> obs, masks = venv.reset(seed=0)
>>> obs.shape, masks.shape, masks.dtype
((4, 4250), (4, 96218), dtype('bool'))
>>> actions = np.array([venv.legal_indices(i)[0] for i in range(4)])
>>> obs, masks, rewards, terminated, truncated = venv.step(actions)
>>> rewards.shape, terminated.dtype
((4,), dtype('bool'))

Every table is a :class:`~burraco.envs.gymnasium_env.BurracoGymEnv` (the same options: ``opponents`` of every kind,
pools, episodes, rewards); :meth:`BurracoVecEnv.step` takes one action index per table and writes, for all N, the
observation (``obs``: float32 N × obs_size), the legal actions (``masks``: bool N × num_actions), the reward of the
step (``rewards``: float32 N) and ``terminated`` / ``truncated`` (bool N), and returns those buffers (the same
arrays at every call: copy what you keep). A table whose episode ended is reset in the same call (auto-reset, as
Gymnasium's ``SAME_STEP`` mode and Stable-Baselines3's ``VecEnv``): its row then holds the new episode's first
observation and mask, the last observation of the finished episode is in ``final_obs`` (and ``final_mask``), and
``rewards`` / ``terminated`` / ``truncated`` describe the step that ended it. Table *i* is seeded
``seed + i`` by :meth:`BurracoVecEnv.reset` and continues its own random stream at each auto-reset, so a run is repeatable.

An index that is not legal ends that table's episode with ``illegal_reward`` (the Gymnasium env's ``penalize``).
`BurracoVecEnv.action_features` gives table *i*'s legal actions as feature rows (:mod:`burraco.envs.features`).

The stepping of all tables is one function, :func:`step_tables` (the reference). Where the native core plays the
rules, every opponent is named ``random`` or ``heuristic:LEVEL`` (any spelling: ``easy``, ``medium``, ``hard``), the
episode is one hand and an illegal index penalized, the tables are stepped by the core instead
(``burraco._native.VecTables``, :mod:`burraco.envs.native_env`): every table's hand, its opponents' moves (the
core's heuristic chooses as :class:`~burraco.bots.heuristic.HeuristicPlayer` does, from the seat's view, with the
same generator), the observation, the mask, the reward and the auto-reset in one C call, with the same buffers,
the same seeds and the same results as :func:`step_tables` (``native=False`` asks for the Python tables; the
attribute ``native`` says which runs). The environments in ``envs`` then only hold the options (they are not
stepped): :meth:`BurracoVecEnv.game` gives table *i*'s hand as a :class:`~burraco.game.Game` either way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium.utils import seeding

from .._accel import core
from ..bots.heuristic import LEVELS
from ..bots.players import parse_spec
from ..game import Game
from ..native import game_from_fields
from .features import action_features
from .gymnasium_env import BurracoGymEnv, Opponent
from .native_env import native_encoding


def _write(
    env: BurracoGymEnv, i: int, obs: npt.NDArray[np.float32], masks: npt.NDArray[np.bool_], set_: list[list[int]]
) -> None:
    """Table ``i``'s observation and mask into row ``i`` of the buffers; ``set_[i]``: the mask entries set now
    (only those are cleared at the next write, not the whole row)."""
    t = env.table
    obs[i] = t.observation(env.seat)
    row = masks[i]
    if set_[i]:
        row[set_[i]] = False
    codes = t.legal_codes() if t.to_act == env.seat else []
    if codes:
        row[codes] = True
    set_[i] = codes


def step_tables(
    envs: Sequence[BurracoGymEnv],
    actions: npt.NDArray[np.int64],
    obs: npt.NDArray[np.float32],
    masks: npt.NDArray[np.bool_],
    rewards: npt.NDArray[np.float32],
    terminated: npt.NDArray[np.bool_],
    truncated: npt.NDArray[np.bool_],
    final_obs: npt.NDArray[np.float32],
    final_mask: npt.NDArray[np.bool_],
    mask_set: list[list[int]],
    final_set: list[list[int]],
) -> None:
    """Apply ``actions[i]`` to table ``i`` for every table, let its computer players answer, write the buffers and
    reset the tables whose episode ended (the inner loop of :class:`BurracoVecEnv`; ``mask_set`` / ``final_set``:
    per table, the entries set in ``masks`` / ``final_mask``)."""
    for i, env in enumerate(envs):
        t = env.table
        a = t.action_of(int(actions[i]))
        if a is None:
            reward = t.penalize(env.seat, env.illegal_reward)[env.seat]
        else:
            r = t.play(a)
            reward = 0.0 if r is None else r[env.seat]
            reward += env._others()
        rewards[i] = reward
        terminated[i] = t.over and not t.truncated
        truncated[i] = t.truncated
        if t.over:
            _write(env, i, final_obs, final_mask, final_set)
            env.reset()
        _write(env, i, obs, masks, mask_set)


def _native_opponents(env: BurracoGymEnv) -> list[int] | None:
    """The opponents of ``env`` as the core's ``VecTables`` seats them (one entry per seat: -1 random, 0, 1, 2
    the heuristic of that level; the learner's entry unused), or None where one is not a spec the core plays
    (a Player object, a function, a pool, a search or a policy: those are stepped by the Python tables)."""
    n = env.rules.players
    order = sorted((x for x in range(n) if x != env.seat), key=lambda x: (x - env.seat) % n)
    kinds = [-1] * n
    for x, o in zip(order, env.specs, strict=True):
        if not isinstance(o, str):
            return None
        spec = parse_spec(o)
        if spec.kind == "heuristic":
            kinds[x] = LEVELS.index(spec.level or "hard")
        elif spec.kind != "random":
            return None
    return kinds


class BurracoVecEnv:
    """N tables of the Gymnasium environment stepped in one call (the module's notes); ``kwargs`` are
    :class:`~burraco.envs.gymnasium_env.BurracoGymEnv`'s options."""

    def __init__(
        self,
        num_envs: int,
        rules: Any = "italian",
        opponents: Opponent | Sequence[Opponent] = "random",
        native: bool | None = None,
        **kwargs: Any,
    ) -> None:
        if num_envs < 1:
            raise ValueError("num_envs must be at least 1")
        kwargs.setdefault("illegal", "penalize")
        self.num_envs = num_envs
        nkw = dict(kwargs)
        if native is False:
            nkw["native"] = False
        self.envs = [BurracoGymEnv(rules, opponents, mask_in_obs=False, **nkw) for _ in range(num_envs)]
        e0 = self.envs[0]
        lay = e0.table.layout
        enc = None if native is False else native_encoding(e0.rules)
        kinds = _native_opponents(e0)
        plain = (
            kinds is not None
            and e0.table.episode == "hand"
            and e0.illegal == "penalize"
            and e0.render_mode is None
        )
        #: the core's tables (``burraco._native.VecTables``) where it steps them, else None (the Python tables)
        self.native: Any = None
        if enc is not None and plain and core is not None:
            t = e0.table
            self.native = core.VecTables(
                enc, num_envs, e0.seat, t.reward == "win", t.reward_scale, e0.illegal_reward, kinds
            )
        elif native:
            raise ValueError(
                "native=True: the core steps tables of rules it plays, opponents named random or heuristic:LEVEL, "
                "one-hand episodes and penalized illegal indices"
            )
        self._rngs: list[np.random.Generator | None] = [None] * num_envs
        self._next = np.zeros(num_envs, dtype=np.int64)
        self.obs_size = lay.obs_size
        self.num_actions = lay.num_actions
        n = num_envs
        self.obs = np.zeros((n, lay.obs_size), dtype=np.float32)
        self.masks = np.zeros((n, lay.num_actions), dtype=np.bool_)
        self.rewards = np.zeros(n, dtype=np.float32)
        self.terminated = np.zeros(n, dtype=np.bool_)
        self.truncated = np.zeros(n, dtype=np.bool_)
        self.final_obs = np.zeros((n, lay.obs_size), dtype=np.float32)
        self.final_mask = np.zeros((n, lay.num_actions), dtype=np.bool_)
        self._set: list[list[int]] = [[] for _ in range(n)]
        self._final_set: list[list[int]] = [[] for _ in range(n)]
        self.observation_space = self.envs[0].observation_space
        self.action_space = self.envs[0].action_space

    def reset(self, seed: int | None = None) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Deal every table anew (table ``i`` from ``seed + i`` when a seed is given); the observations and masks."""
        if self.native is not None:
            seeds = np.zeros(self.num_envs, dtype=np.int64)
            for i in range(self.num_envs):
                if seed is not None or self._rngs[i] is None:
                    self._rngs[i] = seeding.np_random(None if seed is None else seed + i)[0]
                seeds[i] = self._draw(i)
                self._next[i] = self._draw(i)
            self.native.reset(seeds, self.obs, self.masks)
            self.rewards.fill(0.0)
            self.terminated.fill(False)
            self.truncated.fill(False)
            return self.obs, self.masks
        for i, env in enumerate(self.envs):
            env.reset(seed=None if seed is None else seed + i)
            _write(env, i, self.obs, self.masks, self._set)
        self.rewards.fill(0.0)
        self.terminated.fill(False)
        self.truncated.fill(False)
        return self.obs, self.masks

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
    ]:
        """One action index per table; the buffers ``obs, masks, rewards, terminated, truncated``."""
        acts = np.ascontiguousarray(actions, dtype=np.int64).reshape(-1)
        if acts.shape[0] != self.num_envs:
            raise ValueError(f"step: {self.num_envs} actions expected, not {acts.shape[0]}")
        if self.native is not None:
            if self.native.step(acts, self._next, self.obs, self.masks, self.rewards, self.terminated, self.final_obs):
                for i in np.flatnonzero(self.terminated):
                    self._next[i] = self._draw(int(i))
            return self.obs, self.masks, self.rewards, self.terminated, self.truncated
        step_tables(
            self.envs, acts, self.obs, self.masks, self.rewards, self.terminated, self.truncated, self.final_obs,
            self.final_mask, self._set, self._final_set,
        )
        return self.obs, self.masks, self.rewards, self.terminated, self.truncated

    def _draw(self, i: int) -> int:
        """The seed of table ``i``'s next hand, as ``BurracoGymEnv.reset`` draws it from its generator."""
        rng = self._rngs[i]
        assert rng is not None
        return int(rng.integers(0, 2**63 - 1))

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The masks of all tables (the ``masks`` buffer)."""
        return self.masks

    def legal_indices(self, i: int) -> list[int]:
        """Table ``i``'s legal action indices, in the order of :meth:`action_features`."""
        if self.native is not None:
            got: list[int] = self.native.legal_indices(i)
            return got
        return self.envs[i].legal_indices()

    def action_features(self, i: int) -> npt.NDArray[np.float32]:
        """Table ``i``'s legal actions as feature rows (from its learner seat's view only)."""
        if self.native is not None:
            return action_features(self.game(i).view(self.envs[i].seat), self.game(i).legal_actions())
        return self.envs[i].action_features()

    def game(self, i: int) -> Game:
        """Table ``i``'s hand as a :class:`~burraco.game.Game` (a copy where the core steps the tables)."""
        if self.native is not None:
            env = self.envs[i]
            return game_from_fields(env.rules, None, self.native.hand(i).fields(), [])
        return self.envs[i].table.game

    def close(self) -> None:
        pass


__all__ = ["BurracoVecEnv", "step_tables"]

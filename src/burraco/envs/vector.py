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

import gymnasium as gym
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
        rewards[i] = env.act(int(actions[i]))[0]
        terminated[i] = t.over and not t.truncated
        truncated[i] = t.truncated
        if t.over:
            _write(env, i, final_obs, final_mask, final_set)
            env.reset()
        elif env._progress:
            env._phi = t.potential(env.seat)
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
            and e0.table.reward in ("score", "win")
            and e0.table.timeout_turns is None
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

    def legal_into(self, out: npt.NDArray[np.int32], counts: npt.NDArray[np.int32]) -> npt.NDArray[np.int32]:
        """Every table's legal indices, compactly: row ``i`` of ``out`` (N × K, int32) gets table ``i``'s legal
        indices, in the order of :meth:`legal_indices`, then -1; ``counts[i]`` their number (0 when the learner is
        not to act). Pass the same buffers at every call, ``out`` first filled with -1 and ``counts`` with 0: only
        what changed is rewritten. Returns ``out``, or a wider copy of it where a table has more than K legal
        actions (pass that one next time)."""
        if self.native is not None:
            most = self.native.legal_into(out, counts)  # the core writes them (nothing where one is too wide)
            if most <= out.shape[1]:
                return out
            wider = np.full((out.shape[0], max(most, 2 * out.shape[1])), -1, dtype=np.int32)
            wider[:, : out.shape[1]] = out
            self.native.legal_into(wider, counts)
            return wider
        for i in range(self.num_envs):
            li = self.envs[i].legal_indices()
            n = len(li)
            if n > out.shape[1]:
                wider = np.full((out.shape[0], max(n, 2 * out.shape[1])), -1, dtype=np.int32)
                wider[:, : out.shape[1]] = out
                out = wider
            c = int(counts[i])
            out[i, :n] = li
            if c > n:
                out[i, n:c] = -1
            counts[i] = n
        return out

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


#: the columns of the compact masks by default (above every legal-action count seen in the presets' random games
#: but stbl's, docs/research.md "How the scheme was chosen")
MAX_LEGAL = 256


class BurracoVectorEnv(gym.vector.VectorEnv):
    """:class:`BurracoVecEnv` as a ``gymnasium.vector.VectorEnv`` (``SAME_STEP`` auto-reset).

    ``observation_space`` is N × obs_size, ``action_space`` a ``MultiDiscrete`` of one flat index per table.
    ``masks="full"`` (default) puts the tables' masks in ``infos["action_mask"]`` (bool N × num_actions);
    ``masks="indices"`` gives them compactly instead: ``infos["legal"]`` (int32 N × ``max_legal``, each row the
    table's legal indices then -1; widened when a table has more) and ``infos["legal_count"]`` (int32 N), so an agent never scans 96,218 entries
    per table (:meth:`sample_legal` picks one uniformly from them). A finished table's last observation is in
    ``infos["final_obs"]`` (an object array, None for the others, with the boolean ``infos["_final_obs"]``), as
    Gymnasium's own vector environments put it. The arrays returned are the environment's buffers, rewritten at
    every call (``copy=True``: copies). ``kwargs`` are :class:`BurracoVecEnv`'s."""

    metadata = {"autoreset_mode": gym.vector.AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int,
        rules: Any = "italian",
        opponents: Opponent | Sequence[Opponent] = "random",
        *,
        masks: str = "full",
        max_legal: int = MAX_LEGAL,
        copy: bool = False,
        **kwargs: Any,
    ) -> None:
        if masks not in ("full", "indices"):
            raise ValueError("masks must be 'full' or 'indices'")
        self.venv = BurracoVecEnv(num_envs, rules, opponents, **kwargs)
        self.num_envs = num_envs
        self.masks = masks
        self.copy = copy
        lay = self.venv.envs[0].table.layout
        self.single_observation_space = gym.spaces.Box(-1e6, 1e6, (lay.obs_size,), np.float32)
        self.single_action_space = gym.spaces.Discrete(lay.num_actions)
        self.observation_space = gym.vector.utils.batch_space(self.single_observation_space, num_envs)
        self.action_space = gym.vector.utils.batch_space(self.single_action_space, num_envs)
        self.legal = np.full((num_envs, max_legal), -1, dtype=np.int32)
        self.legal_count = np.zeros(num_envs, dtype=np.int32)
        self._rng = np.random.default_rng()

    def _infos(self, ended: npt.NDArray[np.bool_] | None) -> dict[str, Any]:
        infos: dict[str, Any] = {}
        if self.masks == "full":
            infos["action_mask"] = self.venv.masks.copy() if self.copy else self.venv.masks
        else:
            self.legal = self.venv.legal_into(self.legal, self.legal_count)
            infos["legal"] = self.legal.copy() if self.copy else self.legal
            infos["legal_count"] = self.legal_count.copy() if self.copy else self.legal_count
        if ended is not None and ended.any():
            final = np.full(self.num_envs, None, dtype=object)
            for i in np.flatnonzero(ended):
                final[i] = self.venv.final_obs[i].copy()
            infos["final_obs"] = final
            infos["_final_obs"] = ended.copy()
        return infos

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Deal every table (table ``i`` from ``seed + i``; a list gives its first seed)."""
        first = seed[0] if isinstance(seed, list) else seed
        if first is not None:
            self._rng = np.random.default_rng(first)
        obs, _ = self.venv.reset(seed=first)
        return (obs.copy() if self.copy else obs), self._infos(None)

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]
    ]:
        obs, _, rewards, terminated, truncated = self.venv.step(actions)
        infos = self._infos(terminated | truncated)
        if self.copy:
            return obs.copy(), rewards.copy(), terminated.copy(), truncated.copy(), infos
        return obs, rewards, terminated, truncated, infos

    def sample_legal(self, rng: np.random.Generator | None = None) -> npt.NDArray[np.int64]:
        """One legal index per table, uniformly (from the compact masks of the last call; ``masks="indices"``)."""
        if self.masks != "indices":
            raise ValueError("sample_legal reads the compact masks: make the environment with masks='indices'")
        u = (rng or self._rng).random(self.num_envs)
        k = (u * self.legal_count).astype(np.int64)
        return self.legal[np.arange(self.num_envs), k].astype(np.int64)

    def close_extras(self, **kwargs: Any) -> None:
        self.venv.close()


__all__ = ["MAX_LEGAL", "BurracoVecEnv", "BurracoVectorEnv", "step_tables"]

"""Stable-Baselines3 and sb3-contrib (the ``train`` extra): a ``MaskablePPO`` policy over the legal actions' feature
rows and an SB3 ``VecEnv`` over the vector environment.

:class:`MaskableRowsPolicy` trains on :class:`burraco.envs.rows.RowsEnv` (the padded rows as the observation, the
action a row number, the mask the filled rows); its model's ``.zip`` plays as ``policy:PATH``::

    from sb3_contrib import MaskablePPO
    from burraco.envs.rows import RowsEnv
    from burraco.envs.sb3 import MaskableRowsPolicy
    model = MaskablePPO(MaskableRowsPolicy, RowsEnv(rules="italian-2p", opponents="easy", max_rows=128),
                        n_steps=256, batch_size=64)
    model.learn(10_000)
    model.save("ppo-rows.zip")          # burraco arena --rules italian-2p --a policy:ppo-rows.zip --b easy

:class:`BurracoSB3VecEnv` is :class:`burraco.envs.vector.BurracoVecEnv` (N tables in one call, on the native core
where it plays them) as an SB3 ``VecEnv`` over the flat action space: observations N × obs_size, one action
index per table, the auto-reset's last observation in ``infos[i]["terminal_observation"]``, and
``env_method("action_masks")`` (what ``MaskablePPO`` calls) the tables' masks.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices, VecEnvStepReturn
from torch import nn

from .features import ACTION_FEATURES
from .torch_policy import RowScorer, ValueHead
from .vector import BurracoVecEnv


class RowsExtractor(BaseFeaturesExtractor):
    """SB3 features of a :class:`~burraco.envs.rows.RowsEnv` observation: the observation vector and the rows,
    flattened side by side (the heads of :class:`MaskableRowsPolicy` take them apart again)."""

    def __init__(self, observation_space: spaces.Dict) -> None:
        obs = observation_space["observation"]
        rows = observation_space["rows"]
        assert obs.shape is not None and rows.shape is not None
        super().__init__(observation_space, int(obs.shape[0]) + int(np.prod(rows.shape)))

    def forward(self, observations: dict[str, torch.Tensor]) -> torch.Tensor:
        o = observations["observation"].float()
        r = observations["rows"].float()
        return torch.cat([o, r.reshape(r.shape[0], -1)], dim=1)


class _RowHead(nn.Module):
    """SB3's ``action_net``: the flat features back to observation and rows, the rows' scores as logits."""

    def __init__(self, scorer: RowScorer, rows: int) -> None:
        super().__init__()
        self.scorer = scorer
        self.rows = rows
        self.register_buffer("log_obs", torch.tensor([int(scorer.log_obs)], dtype=torch.int32))

    def forward(self, latent: torch.Tensor) -> torch.Tensor:
        o = self.scorer.obs_size
        out: torch.Tensor = self.scorer(latent[:, :o], latent[:, o:].reshape(latent.shape[0], self.rows, ACTION_FEATURES))
        return out


class _ValueFromFeatures(nn.Module):
    """SB3's ``value_net``: :class:`ValueHead` on the observation part of the features."""

    def __init__(self, head: ValueHead, obs_size: int) -> None:
        super().__init__()
        self.head = head
        self.obs_size = obs_size

    def forward(self, latent: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.head(latent[:, : self.obs_size]).unsqueeze(-1)
        return out


class MaskableRowsPolicy(MaskableActorCriticPolicy):
    """An sb3-contrib ``MaskablePPO`` policy for :class:`~burraco.envs.rows.RowsEnv`: the logits are the
    :class:`RowScorer`'s scores of the padded rows (MaskablePPO masks the empty ones with ``action_masks()``), the
    value :class:`ValueHead`'s. ``policy_kwargs``: ``sizes`` (E, H1, H2; default (64, 96, 48)) and
    ``value_hidden`` (64). The model's ``.zip`` plays as ``policy:PATH``."""

    def __init__(
        self,
        observation_space: spaces.Dict,
        action_space: spaces.Discrete,
        lr_schedule: Any,
        sizes: tuple[int, int, int] = (64, 96, 48),
        value_hidden: int = 64,
        **kwargs: Any,
    ) -> None:
        self._sizes: tuple[int, int, int] = (int(sizes[0]), int(sizes[1]), int(sizes[2]))
        self._value_hidden = value_hidden
        kwargs.setdefault("ortho_init", False)
        kwargs["net_arch"] = []
        kwargs["features_extractor_class"] = RowsExtractor
        super().__init__(observation_space, action_space, lr_schedule, **kwargs)

    def _build(self, lr_schedule: Any) -> None:
        super()._build(lr_schedule)
        space = self.observation_space
        assert isinstance(space, spaces.Dict)
        obs_shape, rows_shape = space["observation"].shape, space["rows"].shape
        assert obs_shape is not None and rows_shape is not None
        o = int(obs_shape[0])
        e, h1, h2 = self._sizes
        self.action_net = _RowHead(RowScorer(o, e, h1, h2), int(rows_shape[0]))
        self.value_net = _ValueFromFeatures(ValueHead(o, self._value_hidden), o)  # type: ignore[assignment]
        self.optimizer = self.optimizer_class(  # type: ignore[call-arg]
            self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs
        )

    def _get_constructor_parameters(self) -> dict[str, Any]:
        data: dict[str, Any] = super()._get_constructor_parameters()
        data.update(sizes=self._sizes, value_hidden=self._value_hidden)
        data.pop("net_arch", None)
        data.pop("features_extractor_class", None)
        return data

    @property
    def scorer(self) -> RowScorer:
        """The trained scorer (``scorer.to_policy()``: the numpy player)."""
        head = self.action_net
        assert isinstance(head, _RowHead)
        return head.scorer


class BurracoSB3VecEnv(VecEnv):
    """:class:`~burraco.envs.vector.BurracoVecEnv` as a Stable-Baselines3 ``VecEnv`` (the module's notes);
    ``kwargs`` are BurracoVecEnv's (``rules``, ``opponents``, ``native`` and the environment's options)."""

    def __init__(self, num_envs: int, rules: Any = "italian", opponents: Any = "random", **kwargs: Any) -> None:
        self.venv = BurracoVecEnv(num_envs, rules, opponents, **kwargs)
        lay = self.venv.envs[0].table.layout
        super().__init__(
            num_envs,
            spaces.Box(-1e6, 1e6, (lay.obs_size,), np.float32),
            spaces.Discrete(lay.num_actions),
        )
        self._actions = np.zeros(num_envs, dtype=np.int64)

    def reset(self) -> npt.NDArray[np.float32]:
        seed = self._seeds[0]
        obs, _ = self.venv.reset(seed=seed)
        self._reset_seeds()
        return obs.copy()

    def step_async(self, actions: npt.NDArray[Any]) -> None:
        self._actions = np.asarray(actions, dtype=np.int64).reshape(-1)

    def step_wait(self) -> VecEnvStepReturn:
        obs, _, rewards, terminated, truncated = self.venv.step(self._actions)
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            infos[i]["terminal_observation"] = self.venv.final_obs[i].copy()
            infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        return obs.copy(), rewards.copy(), dones.copy(), infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The masks of all tables, N × num_actions."""
        return self.venv.masks

    def close(self) -> None:
        self.venv.close()

    def _indices(self, indices: VecEnvIndices) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        return [getattr(self.venv.envs[i], attr_name) for i in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        for i in self._indices(indices):
            setattr(self.venv.envs[i], attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: VecEnvIndices = None, **method_kwargs: Any
    ) -> list[Any]:
        """``action_masks`` answers from the vector environment's masks (the tables' rows); any other method is
        called on the tables' Gymnasium environments (which hold the options; the core steps the tables)."""
        idx = self._indices(indices)
        if method_name == "action_masks":
            return [self.venv.masks[i] for i in idx]
        return [getattr(self.venv.envs[i], method_name)(*method_args, **method_kwargs) for i in idx]

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._indices(indices)]


__all__ = ["BurracoSB3VecEnv", "MaskableRowsPolicy", "RowsExtractor"]

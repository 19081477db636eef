"""The legal actions as a padded set of feature rows: a Gymnasium environment whose action is a row number.

The flat action space (:mod:`burraco.envs.action_space`, 96,218 indices) names every action exactly, but a policy
head over it is large and learns slowly. :class:`RowsEnv` shows the agent its legal actions as feature rows
instead (:mod:`burraco.envs.features`, ``ACTION_FEATURES`` = 242 values each, from its seat's view only), padded
with zero rows to ``max_rows``; the action is the number of a row, and :meth:`RowsEnv.action_masks` tells which
rows are filled (sb3-contrib's ``MaskablePPO`` asks for it)::

    >>> from burraco.envs.rows import RowsEnv
    >>> env = RowsEnv(rules="italian-2p", opponents="easy", max_rows=64)
    >>> obs, info = env.reset(seed=3)
    >>> obs["observation"].shape, obs["rows"].shape, int(env.action_masks().sum())
    ((4250,), (64, 242), 2)
    >>> obs, reward, terminated, truncated, info = env.step(0)    # row 0: draw from the stock
    >>> info["index"]                                              # the flat index the row stood for
    0

Row *i* is the action of ``env.legal_indices()[i]`` (the flat space stays for exactness: ``info["index"]`` is
the index played, ``info["legal_indices"]`` the legal ones). A number off the filled rows is an illegal action:
the episode ends with ``illegal_reward`` (``illegal="raise"`` raises). A decision with more legal actions than
``max_rows`` raises :class:`TooManyActionsError` rather than hide actions; 256 (the default) is above every count
seen in the presets' random games but ``stbl``'s (761, docs/research.md "How the scheme was chosen"). The other
options are :class:`~burraco.envs.gymnasium_env.BurracoGymEnv`'s (``rules``, ``opponents`` of every kind,
``reward``, ``episode`` …). :class:`burraco.envs.sb3.MaskableRowsPolicy` is a policy for it, and
``examples/train_policy.py`` trains one without a library.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from .features import ACTION_FEATURES
from .gymnasium_env import BurracoGymEnv

#: the rows of a decision by default
MAX_ROWS = 256


class TooManyActionsError(ValueError):
    """A decision with more legal actions than the environment's ``max_rows``."""


class RowsEnv(gym.Env[dict[str, npt.NDArray[np.float32]], int]):
    """One seat against computer players, the legal actions as padded feature rows (the module's notes)."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, rules: Any = "italian", opponents: Any = "random", *, max_rows: int = MAX_ROWS,
                 **kwargs: Any) -> None:
        if max_rows < 1:
            raise ValueError("max_rows must be at least 1")
        kwargs["mask_in_obs"] = False
        kwargs.setdefault("illegal", "penalize")
        self.env = BurracoGymEnv(rules, opponents, **kwargs)
        self.max_rows = max_rows
        self.render_mode = self.env.render_mode
        lay = self.env.table.layout
        self.observation_space = spaces.Dict(  # type: ignore[assignment]
            {
                "observation": spaces.Box(-1e6, 1e6, (lay.obs_size,), np.float32),
                "rows": spaces.Box(-1e6, 1e6, (max_rows, ACTION_FEATURES), np.float32),
            }
        )
        self.action_space = spaces.Discrete(max_rows)  # type: ignore[assignment]
        self._rows = np.zeros((max_rows, ACTION_FEATURES), dtype=np.float32)
        self._n = 0
        self._legal: list[int] = []

    @property
    def rules(self) -> Any:
        """The rules played."""
        return self.env.rules

    def _obs(self, vec: npt.NDArray[np.float32]) -> tuple[dict[str, npt.NDArray[np.float32]], dict[str, Any]]:
        self._legal = self.env.legal_indices()
        feats = self.env.action_features()
        n = feats.shape[0]
        if n > self.max_rows:
            raise TooManyActionsError(
                f"{n} legal actions, more than max_rows={self.max_rows}: make the environment with a larger max_rows"
            )
        rows = np.zeros((self.max_rows, ACTION_FEATURES), dtype=np.float32)
        rows[:n] = feats
        self._rows = rows
        self._n = n
        return {"observation": vec, "rows": rows}, {"legal_indices": self._legal}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The rows that hold a legal action (sb3-contrib's ``MaskablePPO`` calls this before every step)."""
        m = np.zeros(self.max_rows, dtype=np.bool_)
        m[: self._n] = True
        return m

    def legal_indices(self) -> list[int]:
        """The flat indices of the rows, in row order."""
        return list(self._legal)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, npt.NDArray[np.float32]], dict[str, Any]]:
        super().reset(seed=seed)
        vec, _ = self.env.reset(seed=seed, options=options)
        return self._obs(vec)

    def step(self, action: int) -> tuple[dict[str, npt.NDArray[np.float32]], float, bool, bool, dict[str, Any]]:
        row = int(action)
        index = self._legal[row] if 0 <= row < self._n else -1  # -1: no action (illegal)
        vec, reward, terminated, truncated, info = self.env.step(index)
        obs, more = self._obs(vec)
        info.pop("action_mask", None)
        info.update(more)
        info["index"] = index
        return obs, reward, terminated, truncated, info

    def render(self) -> str | None:
        return self.env.render()


__all__ = ["MAX_ROWS", "RowsEnv", "TooManyActionsError"]

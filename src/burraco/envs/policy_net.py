"""The policy network of ``policy:PATH`` players, in numpy: the weights file (``.npz``) and the scores it gives the
legal actions. What it computes, and the player that plays it, are described in :mod:`burraco.envs.policy`; the
PyTorch networks that train it (:mod:`burraco.envs.torch_policy`) export to it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt

from .features import ACTION_FEATURES
from .weights import checked_arrays, read_npz

#: the arrays a weights file holds (beside ``format``)
WEIGHT_NAMES = ("W_e", "b_e", "W1", "b1", "W2", "b2", "w3", "b3")
#: the version of the weights file (2: the observation embedding and the 242 action features)
FORMAT = 2


class PolicyFileError(ValueError):
    """A weights file that cannot serve as a policy (missing, unreadable, made for another layout)."""


class PolicyNet:
    """The scoring network of a policy file (numpy inference)."""

    def __init__(self, weights: dict[str, npt.NDArray[np.float32]]) -> None:
        if "format" not in weights:
            old = " (an earlier version's file, W_obs/W_act)" if "W_obs" in weights else ""
            raise PolicyFileError(
                f"policy weights have no format{old}; this version reads format {FORMAT}: train again with "
                "examples/train_bc.py"
            )
        self.w = checked_arrays(weights, FORMAT, WEIGHT_NAMES, PolicyFileError, "policy weights")
        w = self.w
        emb = int(w["W_e"].shape[0])
        feats = int(w["W1"].shape[1]) - emb
        if feats != ACTION_FEATURES:
            raise PolicyFileError(
                f"policy weights expect {feats} action features, this version has {ACTION_FEATURES}"
            )
        if (w["b_e"].shape != (emb,) or w["b1"].shape != (w["W1"].shape[0],) or w["W2"].shape[1] != w["W1"].shape[0]
                or w["b2"].shape != (w["W2"].shape[0],) or w["w3"].shape != (w["W2"].shape[0],) or w["b3"].shape != (1,)):
            raise PolicyFileError("policy weights have inconsistent shapes")
        #: the observation goes in as ``sign(x)·log(1 + |x|)`` (the optional ``log_obs`` array; PPO's scorer
        #: writes it, behaviour cloning's files have none: the raw observation)
        self.log_obs = "log_obs" in weights and bool(int(np.asarray(weights["log_obs"]).reshape(-1)[0]))
        self.obs_size = int(w["W_e"].shape[1])
        self.embedding = emb
        self._W1e = np.ascontiguousarray(w["W1"][:, :emb])
        self._W1a_t = np.ascontiguousarray(w["W1"][:, emb:].T)

    @property
    def hidden(self) -> tuple[int, int, int]:
        """The sizes (E, H1, H2)."""
        return self.embedding, int(self.w["W1"].shape[0]), int(self.w["W2"].shape[0])

    @classmethod
    def load(cls, path: str | Path) -> PolicyNet:
        """Read a ``.npz`` weights file."""
        return cls(read_npz(path, PolicyFileError, "policy weights"))

    def save(self, path: str | Path, half: bool = False) -> None:
        """Write the weights as ``.npz`` (``half``: as float16, half the size; read back as float32)."""
        dt = np.float16 if half else np.float32
        arrays = {k: v.astype(dt) for k, v in self.w.items()}
        if self.log_obs:
            arrays["log_obs"] = np.array([1], dtype=np.int32)
        np.savez_compressed(Path(path), format=np.array([FORMAT], dtype=np.int32), **arrays)  # type: ignore[arg-type]

    def scores(self, obs: npt.NDArray[np.float32], feats: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """The score of each action row of ``feats`` in the state ``obs``."""
        w = self.w
        if obs.shape[0] != self.obs_size:
            raise PolicyFileError(
                f"policy weights are for observations of {self.obs_size} values, this table gives {obs.shape[0]} "
                "(another number of players or packs)"
            )
        if self.log_obs:
            obs = np.sign(obs) * np.log1p(np.abs(obs))
        e = np.maximum(w["W_e"] @ obs + w["b_e"], 0.0)
        h = np.maximum(feats @ self._W1a_t + (self._W1e @ e + w["b1"]), 0.0)
        h = np.maximum(h @ w["W2"].T + w["b2"], 0.0)
        out: npt.NDArray[np.float32] = h @ w["w3"] + w["b3"][0]
        return out


__all__ = ["FORMAT", "PolicyFileError", "PolicyNet", "WEIGHT_NAMES"]

"""A learned policy as a computer player: ``policy:PATH`` in every player spec (``burraco arena --a policy:PATH``).

The policy scores each legal action it is shown: the seat's observation vector
(:func:`burraco.envs.encoding.encode_view`) and one action-feature row (:mod:`burraco.envs.features`) go through
a small network, and the player takes the action with the highest score (``temperature`` > 0: samples from the
softmax of the scores). Everything comes from the seat's :class:`~burraco.View`; nothing of the hidden state.

The network (weights in a numpy ``.npz`` file, written by ``examples/train_bc.py``, so playing needs no PyTorch): an
embedding of the observation, then a small MLP over the embedding and each action row::

    e = relu(W_e · obs + b_e)                       # E values, once per decision
    h1 = relu(W1 · [e, features] + b1)              # H1
    h2 = relu(W2 · h1 + b2)                         # H2
    score = w3 · h2 + b3

The file holds ``format`` (:data:`FORMAT`), ``W_e`` (E × obs_size), ``b_e``, ``W1`` (H1 × (E +
ACTION_FEATURES)), ``b1``, ``W2`` (H2 × H1), ``b2``, ``w3`` (H2), ``b3`` (1): the sizes are read from the arrays,
and a file of another format or made for another feature layout (an earlier version's ``W_obs``/``W_act`` files:
222 action features) is refused with a message that says which.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ..actions import Action
from ..view import View
from .encoding import encode_view, layout_for
from .features import ACTION_FEATURES, action_features
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
        np.savez_compressed(Path(path), format=np.array([FORMAT], dtype=np.int32), **arrays)  # type: ignore[arg-type]

    def scores(self, obs: npt.NDArray[np.float32], feats: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """The score of each action row of ``feats`` in the state ``obs``."""
        w = self.w
        if obs.shape[0] != self.obs_size:
            raise PolicyFileError(
                f"policy weights are for observations of {self.obs_size} values, this table gives {obs.shape[0]} "
                "(another number of players or packs)"
            )
        e = np.maximum(w["W_e"] @ obs + w["b_e"], 0.0)
        h = np.maximum(feats @ self._W1a_t + (self._W1e @ e + w["b1"]), 0.0)
        h = np.maximum(h @ w["W2"].T + w["b2"], 0.0)
        out: npt.NDArray[np.float32] = h @ w["w3"] + w["b3"][0]
        return out


class PolicyPlayer:
    """A computer player that plays a policy file (the module's notes); greedy unless ``temperature`` > 0."""

    def __init__(self, net: PolicyNet, seed: int = 0, temperature: float = 0.0, name: str = "policy") -> None:
        self.net = net
        self.temperature = temperature
        self.rng = random.Random(seed)
        self.name = name

    @classmethod
    def load(cls, path: str | Path, seed: int = 0, temperature: float = 0.0) -> PolicyPlayer:
        return cls(PolicyNet.load(path), seed, temperature, name=f"policy:{path}")

    def choose(self, view: View, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        lay = layout_for(view.rules)
        if lay.obs_size != self.net.obs_size:
            raise PolicyFileError(
                f"policy weights are for observations of {self.net.obs_size} values; {view.rules.players} players "
                f"give {lay.obs_size}"
            )
        s = self.net.scores(encode_view(view), action_features(view, legal))
        if self.temperature <= 0:
            return legal[int(np.argmax(s))]
        p = np.exp((s - s.max()) / self.temperature)
        return self.rng.choices(legal, weights=p.tolist())[0]


__all__ = ["FORMAT", "PolicyFileError", "PolicyNet", "PolicyPlayer", "WEIGHT_NAMES"]

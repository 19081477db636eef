"""A learned value of a hand from one seat's view: what the search's rollouts would score, estimated at a cut-off.

The flat search (:class:`~burraco.bots.ismcts.ISMCTSPlayer`) plays every root candidate out to the end of the hand
with the heuristic at every seat. ``ISMCTSPlayer(value=ValueNet.load(PATH), rollout_depth=D)`` stops a rollout
after ``D`` decisions instead and takes this network's estimate of the hand's result for the searching seat (its
side's total against the best other side's, in units of :data:`~burraco.bots.ismcts.REWARD_SCALE`, as a finished
rollout is judged), from the seat's observation (:func:`burraco.envs.observation.encode_view`; on the native core its
encoder, the same vector) — nothing of the hidden state but what the determinization put in the seat's view.

The network: ``relu(W1 · obs + b1) → relu(W2 · h + b2) → w3 · h + b3``, weights in a numpy ``.npz`` file written by
``examples/train_value.py`` (self-play of heuristic:hard on the CPU with PyTorch; playing needs numpy only). It is
an option, not the default: docs/strength.md ("A value estimate at a cut-off") has what it was measured to be worth.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..game import Game
from ..native import NativeHand
from .layout import layout_for
from .native_env import native_encoding
from .observation import encode_view
from .weights import checked_arrays, read_npz

#: the arrays a value file holds (beside ``format`` and ``obs_size``)
WEIGHT_NAMES = ("W1", "b1", "W2", "b2", "w3", "b3")
#: the version of the value file
FORMAT = 1


class ValueFileError(ValueError):
    """A value file that cannot be read, or made for other observations."""


class ValueNet:
    """The value network of a weights file (the module's notes)."""

    def __init__(self, weights: dict[str, Any]) -> None:
        self.w = checked_arrays(weights, FORMAT, WEIGHT_NAMES, ValueFileError, "value weights")
        w = self.w
        h1, h2 = w["W1"].shape[0], w["W2"].shape[0]
        if (w["b1"].shape != (h1,) or w["W2"].shape[1] != h1 or w["b2"].shape != (h2,) or w["w3"].shape != (h2,)
                or w["b3"].shape != (1,)):
            raise ValueFileError("value weights have inconsistent shapes")
        #: the observation size the network reads (its rules' number of players and packs)
        self.obs_size = int(w["W1"].shape[1])

    @classmethod
    def load(cls, path: str | Path) -> ValueNet:
        """Read a ``.npz`` value file."""
        return cls(read_npz(path, ValueFileError, "value weights"))

    def save(self, path: str | Path) -> None:
        """Write the weights as ``.npz``."""
        np.savez_compressed(Path(path), format=np.array([FORMAT], dtype=np.int32), **self.w)  # type: ignore[arg-type]

    def of_obs(self, obs: npt.NDArray[np.float32]) -> float:
        """The estimate for the observation ``obs``."""
        if obs.shape[0] != self.obs_size:
            raise ValueFileError(
                f"value weights are for observations of {self.obs_size} values, not {obs.shape[0]} "
                "(another number of players or packs)"
            )
        w = self.w
        h = np.maximum(w["W1"] @ obs + w["b1"], 0.0)
        h = np.maximum(w["W2"] @ h + w["b2"], 0.0)
        return float(w["w3"] @ h + w["b3"][0])

    def of_game(self, g: Game, seat: int) -> float:
        """The estimate for ``seat`` in ``g`` (from its view)."""
        return self.of_obs(encode_view(g.view(seat)))

    def of_hand(self, h: NativeHand, seat: int) -> float:
        """The estimate for ``seat`` in a hand on the native core (the core's encoder, the same vector as
        :meth:`of_game`'s). Safe from several threads at once (the search's)."""
        enc = native_encoding(h.rules)
        if enc is None:
            return self.of_game(h.to_game(), seat)
        obs = np.empty(self.obs_size, dtype=np.float32)  # the encoder writes all of it
        enc.encode(h._h, seat, obs)
        return self.of_obs(obs)

    def fits(self, rules: Any) -> bool:
        """Whether the network reads the observations of these rules."""
        return layout_for(rules).obs_size == self.obs_size


__all__ = ["FORMAT", "ValueFileError", "ValueNet", "WEIGHT_NAMES"]

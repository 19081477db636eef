"""A learned policy as a computer player: ``policy:PATH`` in every player spec (``burraco arena --a policy:PATH``).

The policy scores each legal action it is shown: the seat's observation vector
(:func:`burraco.envs.observation.encode_view`) and one action-feature row (:mod:`burraco.envs.features`) go through
a small network, and the player takes the action with the highest score (``temperature`` > 0: samples from the
softmax of the scores). Everything comes from the seat's :class:`~burraco.View`; nothing of the hidden state.

The network (weights in a numpy ``.npz`` file, written by ``examples/train_bc.py``, so playing needs no PyTorch): an
embedding of the observation, then a small MLP over the embedding and each action row::

    e = relu(W_e · obs + b_e)                       # E values, once per decision
    h1 = relu(W1 · [e, features] + b1)              # H1
    h2 = relu(W2 · h1 + b2)                         # H2
    score = w3 · h2 + b3

The file holds ``format`` (:data:`~burraco.envs.policy_net.FORMAT`), ``W_e`` (E × obs_size), ``b_e``, ``W1`` (H1 × (E +
ACTION_FEATURES)), ``b1``, ``W2`` (H2 × H1), ``b2``, ``w3`` (H2), ``b3`` (1) and optionally ``log_obs`` ([1]: the
observation enters as ``sign(obs)·log(1 + |obs|)``, as the PPO-trained scorers of
:mod:`burraco.envs.torch_policy` have it): the sizes are read from the arrays,
and a file of another format or made for another feature layout (an earlier version's ``W_obs``/``W_act`` files:
222 action features) is refused with a message that says which.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np

from ..actions import Action
from ..view import View
from .features import action_features
from .layout import layout_for
from .observation import encode_view
from .policy_net import FORMAT, WEIGHT_NAMES, PolicyFileError, PolicyNet


def load_policy_net(path: str | Path) -> PolicyNet:
    """The policy of a file, by its suffix: numpy weights (``.npz``, :meth:`PolicyNet.load`), a PPO checkpoint
    (``.pt``, ``examples/train_policy.py``) or an sb3-contrib model (``.zip`` of
    :class:`burraco.envs.sb3.MaskableRowsPolicy`); the last two are read with PyTorch (the ``train`` extra) and
    played with numpy (:func:`burraco.envs.torch_policy.policy_net_from_file`)."""
    p = Path(path)
    if p.suffix.lower() not in (".pt", ".pth", ".zip"):
        return PolicyNet.load(p)
    if not p.is_file():
        raise PolicyFileError(f"cannot read policy weights {str(path)!r}: no such file")
    try:
        from .torch_policy import policy_net_from_file
    except ImportError as e:
        raise PolicyFileError(
            f'{str(path)!r} is a PyTorch file: reading it needs PyTorch (pip install "burraco[train]"), or export '
            "its .npz"
        ) from e
    return policy_net_from_file(p)


class PolicyPlayer:
    """A computer player that plays a policy file (the module's notes); greedy unless ``temperature`` > 0."""

    def __init__(self, net: PolicyNet, seed: int = 0, temperature: float = 0.0, name: str = "policy") -> None:
        self.net = net
        self.temperature = temperature
        self.rng = random.Random(seed)
        self.name = name

    @classmethod
    def load(cls, path: str | Path, seed: int = 0, temperature: float = 0.0) -> PolicyPlayer:
        """A player of the file at ``path`` (:func:`load_policy_net`: ``.npz``, ``.pt`` or ``.zip``)."""
        return cls(load_policy_net(path), seed, temperature, name=f"policy:{path}")

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


#: the network's names are those of :mod:`burraco.envs.policy_net`, re-exported here where users import them
__all__ = ["FORMAT", "PolicyFileError", "PolicyNet", "PolicyPlayer", "WEIGHT_NAMES", "load_policy_net"]

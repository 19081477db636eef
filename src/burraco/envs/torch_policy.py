"""Policies over the legal actions' feature rows in PyTorch (the ``train`` extra): the scorer, an actor-critic for
PPO, a policy class for sb3-contrib's ``MaskablePPO`` and the checkpoint files ``policy:PATH`` plays.

A policy sees its seat's observation vector (:mod:`burraco.envs.observation`) and the legal actions as feature rows
(:mod:`burraco.envs.features`) and gives each row a score; the softmax of the scores over the legal rows is the
policy. :class:`RowScorer` is the network of :class:`burraco.envs.policy.PolicyNet` in PyTorch (the same arithmetic,
so a trained scorer is written as the numpy weights file that ``policy:PATH`` plays without PyTorch)::

    x = sign(obs) · log(1 + |obs|)  (log_obs=True; counts and points to a small range) or obs
    e = relu(W_e · x + b_e)                               # E values, once per decision
    h1 = relu(W1 · [e, row] + b1)  →  h2 = relu(W2 · h1 + b2)  →  score = w3 · h2 + b3

:class:`RowActorCritic` adds a value head (its own small network on the observation) for actor-critic methods;
``examples/train_policy.py`` trains it with PPO. :class:`burraco.envs.sb3.MaskableRowsPolicy` is the same scorer and
value head as an sb3-contrib policy class.

Checkpoints: :func:`save_checkpoint` writes a ``.pt`` file (the scorer's sizes and weights; ``torch.load`` with
``weights_only=True`` reads it), and :func:`policy_net_from_file` reads a ``.pt`` checkpoint or an SB3 ``.zip``
of :class:`burraco.envs.sb3.MaskableRowsPolicy` (its ``policy.pth``) into the numpy :class:`~burraco.envs.policy.PolicyNet`.
"""

from __future__ import annotations

import io
import pickle
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from .features import ACTION_FEATURES
from .policy_net import FORMAT, PolicyFileError, PolicyNet

#: the ``kind`` of a ``.pt`` checkpoint of :func:`save_checkpoint`
CHECKPOINT_KIND = "burraco-row-scorer/1"


def signed_log(x: torch.Tensor) -> torch.Tensor:
    """``sign(x) · log(1 + |x|)``: counts, sizes and points in a small range, zero kept at zero."""
    return torch.sign(x) * torch.log1p(torch.abs(x))


class RowScorer(nn.Module):
    """Scores the legal actions' feature rows of a decision (the module's notes; the network of
    :class:`~burraco.envs.policy.PolicyNet`). ``forward(obs B×O, rows B×L×F)`` gives B×L scores."""

    def __init__(
        self, obs_size: int, emb: int = 64, h1: int = 96, h2: int = 48, log_obs: bool = True
    ) -> None:
        super().__init__()
        self.obs_size = obs_size
        self.emb_size = emb
        self.log_obs = log_obs
        self.emb = nn.Linear(obs_size, emb)
        self.l1 = nn.Linear(emb + ACTION_FEATURES, h1)
        self.l2 = nn.Linear(h1, h2)
        self.l3 = nn.Linear(h2, 1)

    @property
    def sizes(self) -> tuple[int, int, int]:
        """``(E, H1, H2)``."""
        return self.emb_size, self.l1.out_features, self.l2.out_features

    def forward(self, obs: torch.Tensor, rows: torch.Tensor) -> torch.Tensor:
        x = signed_log(obs) if self.log_obs else obs
        e = torch.relu(self.emb(x))
        w1 = self.l1.weight  # W1·[e, row] as W1e·e (once per decision) + W1a·row
        pe = e @ w1[:, : self.emb_size].T + self.l1.bias
        h = torch.relu(rows @ w1[:, self.emb_size :].T + pe.unsqueeze(1))
        out: torch.Tensor = self.l3(torch.relu(self.l2(h))).squeeze(-1)
        return out

    def load_policy(self, net: PolicyNet) -> None:
        """Take the weights of a numpy policy (a warm start from a weights file, e.g. behaviour cloning's)."""
        if net.obs_size != self.obs_size or net.hidden != self.sizes:
            raise PolicyFileError(
                f"the weights are for observations of {net.obs_size} values and sizes {net.hidden}; this scorer "
                f"has {self.obs_size} and {self.sizes}"
            )
        w = {k: torch.from_numpy(v.copy()) for k, v in net.w.items()}
        self.log_obs = net.log_obs
        self.load_state_dict(
            {
                "emb.weight": w["W_e"], "emb.bias": w["b_e"], "l1.weight": w["W1"], "l1.bias": w["b1"],
                "l2.weight": w["W2"], "l2.bias": w["b2"], "l3.weight": w["w3"].unsqueeze(0), "l3.bias": w["b3"],
            }
        )

    def to_policy(self) -> PolicyNet:
        """The same scorer as a numpy :class:`~burraco.envs.policy.PolicyNet` (``policy:PATH`` plays its file)."""
        t = {k: v.detach().cpu().numpy().astype(np.float32) for k, v in self.state_dict().items()}
        return PolicyNet(
            {
                "format": np.array([FORMAT], dtype=np.int32),
                "W_e": t["emb.weight"], "b_e": t["emb.bias"], "W1": t["l1.weight"], "b1": t["l1.bias"],
                "W2": t["l2.weight"], "b2": t["l2.bias"], "w3": t["l3.weight"][0], "b3": t["l3.bias"],
                "log_obs": np.array([int(self.log_obs)], dtype=np.int32),
            }
        )


class ValueHead(nn.Module):
    """A state value from the observation alone: ``sign·log`` scaling, then ``O → H → H → 1``."""

    def __init__(self, obs_size: int, hidden: int = 64) -> None:
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(obs_size, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1)
        )

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.net(signed_log(obs)).squeeze(-1)
        return out


class RowActorCritic(nn.Module):
    """:class:`RowScorer` (the actor) and :class:`ValueHead` (the critic)."""

    def __init__(self, obs_size: int, emb: int = 64, h1: int = 96, h2: int = 48, value_hidden: int = 64) -> None:
        super().__init__()
        self.scorer = RowScorer(obs_size, emb, h1, h2)
        self.value = ValueHead(obs_size, value_hidden)

    def logits(self, obs: torch.Tensor, rows: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """B×L scores with the rows off ``mask`` (B×L bool) at -1e9."""
        out: torch.Tensor = self.scorer(obs, rows).masked_fill(~mask, -1e9)
        return out


# ----- checkpoints ---------------------------------------------------------------------------------------------
def save_checkpoint(scorer: RowScorer, path: str | Path, extra: dict[str, Any] | None = None) -> None:
    """Write the scorer as a ``.pt`` checkpoint (its kind, sizes, ``log_obs`` and weights; ``extra``: plain
    values such as the training's settings, kept beside them)."""
    torch.save(
        {
            "kind": CHECKPOINT_KIND,
            "obs_size": scorer.obs_size,
            "sizes": list(scorer.sizes),
            "log_obs": scorer.log_obs,
            "state_dict": scorer.state_dict(),
            "extra": extra or {},
        },
        Path(path),
    )


def _scorer_from_state(state: dict[str, torch.Tensor], log_obs: bool, where: str) -> RowScorer:
    try:
        obs_size = int(state["emb.weight"].shape[1])
        emb = int(state["emb.weight"].shape[0])
        h1 = int(state["l1.weight"].shape[0])
        h2 = int(state["l2.weight"].shape[0])
        s = RowScorer(obs_size, emb, h1, h2, log_obs)
        s.load_state_dict(state)
    except (KeyError, RuntimeError) as e:
        raise PolicyFileError(f"{where} holds no row scorer of this version ({e})") from e
    return s


def load_checkpoint(path: str | Path) -> RowScorer:
    """The scorer of a ``.pt`` checkpoint (:func:`save_checkpoint`); :class:`~burraco.envs.policy_net.PolicyFileError` otherwise."""
    try:
        ck = torch.load(Path(path), map_location="cpu", weights_only=True)
    except (OSError, RuntimeError, ValueError, EOFError, zipfile.BadZipFile, pickle.UnpicklingError) as e:
        raise PolicyFileError(f"cannot read the checkpoint {str(path)!r}: {str(e).splitlines()[0]}") from e
    if not isinstance(ck, dict) or ck.get("kind") != CHECKPOINT_KIND:
        raise PolicyFileError(
            f"{str(path)!r} is not a row-scorer checkpoint ({CHECKPOINT_KIND}, written by examples/train_policy.py)"
        )
    return _scorer_from_state(ck["state_dict"], bool(ck.get("log_obs", True)), repr(str(path)))


def load_sb3_zip(path: str | Path) -> RowScorer:
    """The scorer of an SB3 ``.zip`` saved from a :class:`burraco.envs.sb3.MaskableRowsPolicy` model (``model.save(path)``); read
    from its ``policy.pth`` with PyTorch alone (SB3 itself is not needed to play it)."""
    try:
        with zipfile.ZipFile(Path(path)) as z, z.open("policy.pth") as f:
            state = torch.load(io.BytesIO(f.read()), map_location="cpu", weights_only=True)
    except (OSError, KeyError, RuntimeError, EOFError, zipfile.BadZipFile, pickle.UnpicklingError) as e:
        raise PolicyFileError(f"cannot read the SB3 model {str(path)!r}: {str(e).splitlines()[0]}") from e
    prefix = "action_net.scorer."
    sub = {k[len(prefix) :]: v for k, v in state.items() if k.startswith(prefix)}
    if not sub:
        raise PolicyFileError(
            f"{str(path)!r} is an SB3 model without a row scorer: train it with "
            "burraco.envs.sb3.MaskableRowsPolicy"
        )
    log_obs = bool(int(state.get("action_net.log_obs", torch.ones(1)).reshape(-1)[0]))
    return _scorer_from_state(sub, log_obs, repr(str(path)))


def policy_net_from_file(path: str | Path) -> PolicyNet:
    """The numpy policy of a ``.pt`` checkpoint or an SB3 ``.zip`` (``policy:PATH`` reads ``.npz`` itself)."""
    p = Path(path)
    if p.suffix == ".zip":
        return load_sb3_zip(p).to_policy()
    return load_checkpoint(p).to_policy()


__all__ = [
    "CHECKPOINT_KIND",
    "RowActorCritic",
    "RowScorer",
    "ValueHead",
    "load_checkpoint",
    "load_sb3_zip",
    "policy_net_from_file",
    "save_checkpoint",
    "signed_log",
]

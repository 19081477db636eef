"""Research environments: a fixed action space (:mod:`.action_space`) with indices and masks (:mod:`.action_index`),
observation tensors (:mod:`.observation`) in the layouts of :mod:`.layout` (:mod:`.encoding` imports them all), a
PettingZoo AEC environment, a Gymnasium single-agent environment and an OpenSpiel game.

They need the ``rl`` extra (``pip install "burraco[rl]"``: numpy, gymnasium, pettingzoo, open-spiel); the engine
itself does not. Everything here is imported lazily::

    from burraco.envs import pettingzoo_env
    env = pettingzoo_env(rules="italian")

``import burraco.envs`` registers the Gymnasium id ``burraco/Burraco-v0`` when gymnasium is installed. The
OpenSpiel game ``python_burraco`` is registered by ``import burraco.envs.openspiel_game``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .pettingzoo_aec import BurracoAEC

GYM_ID = "burraco/Burraco-v0"


def pettingzoo_env(rules: Any = "italian", **kwargs: Any) -> BurracoAEC:
    """A PettingZoo AEC environment (see :class:`burraco.envs.pettingzoo_aec.BurracoAEC` for the options)."""
    from .pettingzoo_aec import BurracoAEC

    return BurracoAEC(rules=rules, **kwargs)


def register_gym() -> None:
    """Register ``burraco/Burraco-v0`` with Gymnasium (done on import when gymnasium is installed)."""
    import gymnasium

    if GYM_ID not in gymnasium.registry:
        gymnasium.register(id=GYM_ID, entry_point="burraco.envs.gymnasium_env:BurracoGymEnv")


try:  # pragma: no branch
    import gymnasium as _gym  # noqa: F401
except ImportError:  # the rl extra is not installed: pettingzoo_env() will say so
    pass
else:
    register_gym()

__all__ = ["GYM_ID", "pettingzoo_env", "register_gym"]

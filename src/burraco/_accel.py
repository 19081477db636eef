"""The optional C speed-ups (``burraco._speedups``, built by setup.py where a C compiler is present) of the engine's
move generation and of the research environments' encoding. :data:`fast` is the module, configured, or None where
it was not built or ``BURRACO_PURE=1`` asks for the pure-Python code (the reference: the tests compare both)."""

from __future__ import annotations

import os
from types import ModuleType

from .actions import ADD, MELD, Action
from .melds import SET


def pure() -> bool:
    """Whether ``BURRACO_PURE`` asks for the pure-Python engine (no C speed-ups, no native core)."""
    return os.environ.get("BURRACO_PURE", "") not in ("", "0")


def _load() -> ModuleType | None:
    if pure():
        return None
    try:
        from . import _speedups
    except ImportError:
        return None
    _speedups.configure_engine({"Action": Action, "MELD": MELD, "ADD": ADD, "SET": SET})
    return _speedups


fast: ModuleType | None = _load()

"""The weights files of the learned players and estimates (numpy ``.npz``: :mod:`burraco.envs.policy`,
:mod:`burraco.envs.value`): reading one, and checking its format and arrays, with errors that say what is wrong."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt


def read_npz(path: str | Path, error: type[ValueError], what: str) -> dict[str, Any]:
    """The arrays of the ``.npz`` file at ``path``; ``error`` (naming ``what`` and the file) where it cannot be
    read."""
    try:
        with np.load(Path(path)) as z:
            return {k: z[k] for k in z.files}
    except (OSError, ValueError) as e:
        raise error(f"cannot read {what} {str(path)!r}: {e}") from e


def checked_arrays(
    weights: dict[str, Any], fmt: int, names: tuple[str, ...], error: type[ValueError], what: str
) -> dict[str, npt.NDArray[np.float32]]:
    """The arrays ``names`` of ``weights`` as float32, after checking its ``format`` is ``fmt`` and none is missing
    (``error``, naming ``what``, where not)."""
    got = int(np.asarray(weights["format"]).reshape(-1)[0]) if "format" in weights else None
    if got != fmt:
        raise error(f"{what} are of format {got}, this version reads format {fmt}")
    missing = [k for k in names if k not in weights]
    if missing:
        raise error(f"{what} lack {', '.join(missing)}")
    return {k: np.asarray(weights[k], dtype=np.float32) for k in names}


__all__ = ["checked_arrays", "read_npz"]

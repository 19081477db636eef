#!/usr/bin/env python3
"""Ablation of examples/train_bc.py: the named feature blocks zeroed in training and in play, evaluated in the same
process (``--workers 1``, so the arena's policy player sees the same zeroed rows).

    python examples/ablate_bc.py fit,context --deals 300 ... (train_bc.py's arguments)
"""

import importlib.util
import sys
from pathlib import Path

import burraco.envs.features as ft
import burraco.envs.policy as pol


def main(argv: list[str]) -> int:
    zero = argv[0].split(",")
    cols = [(off, w) for name, off, w in ft.FEATURE_LAYOUT if name in zero]
    orig = ft.action_features

    def masked(view, legal):  # type: ignore[no-untyped-def]
        f = orig(view, legal)
        for off, w in cols:
            f[:, off : off + w] = 0.0
        return f

    pol.action_features = masked  # type: ignore[assignment]
    spec = importlib.util.spec_from_file_location("train_bc", Path(__file__).resolve().parent / "train_bc.py")
    assert spec is not None and spec.loader is not None
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    m.action_features = masked
    return int(m.main(argv[1:]))


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

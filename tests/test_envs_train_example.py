"""The training example runs end to end (only where PyTorch is installed: the `train` extra)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("gymnasium")

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "train_policy.py"


def test_train_policy_example_smoke(tmp_path: Path) -> None:
    out = tmp_path / "curve.json"
    res = subprocess.run(
        [
            sys.executable,
            str(EXAMPLE),
            "--minutes",
            "0.05",
            "--batch",
            "2",
            "--eval-every",
            "1",
            "--eval-deals",
            "1",
            "--final-deals",
            "2",
            "--json",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert res.returncode == 0, res.stderr[-2000:]
    assert "the policy beats random in" in res.stdout
    import json

    data = json.loads(out.read_text())
    assert data["hands"] >= 2 and len(data["curve_win_rate"]) >= 2 and 0.0 <= data["final_win_rate"] <= 1.0

"""The value estimate at a cut-off (burraco.envs.value, issue 22 item 2): its file, both encoders alike, the search
using it where a rollout stops early, and the training script end to end (where PyTorch is installed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from burraco import Game, native, preset
from burraco.bots import HeuristicPlayer, ISMCTSPlayer
from burraco.envs.layout import layout_for
from burraco.envs.value import FORMAT, ValueFileError, ValueNet

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "train_value.py"


def _weights(obs: int, seed: int = 0, h1: int = 16, h2: int = 8) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {
        "format": np.array([FORMAT]),
        "W1": (rng.standard_normal((h1, obs)) * 0.1).astype(np.float32),
        "b1": rng.standard_normal(h1).astype(np.float32),
        "W2": rng.standard_normal((h2, h1)).astype(np.float32),
        "b2": np.zeros(h2, np.float32),
        "w3": rng.standard_normal(h2).astype(np.float32),
        "b3": np.array([0.25], np.float32),
    }


def _constant(obs: int, value: float) -> ValueNet:
    w = _weights(obs)
    w["w3"] = np.zeros_like(w["w3"])
    w["b3"] = np.array([value], np.float32)
    return ValueNet(w)


def _midhand(seed: int = 3, steps: int = 40) -> Game:
    g = Game.new(preset("italian"), seed=seed)
    players = [HeuristicPlayer("hard", seed=s) for s in range(g.n)]
    for _ in range(steps):
        s = g.current_seat
        g.apply(players[s].choose(g.view(s), g.legal_actions()))
    return g


def test_a_value_file_round_trips_and_says_what_is_wrong(tmp_path: Path) -> None:
    obs = layout_for(preset("italian")).obs_size
    net = ValueNet(_weights(obs))
    net.save(tmp_path / "v.npz")
    back = ValueNet.load(tmp_path / "v.npz")
    g = _midhand()
    assert back.of_game(g, 1) == pytest.approx(net.of_game(g, 1), abs=1e-5)
    assert back.fits(preset("italian")) and not back.fits(preset("italian-3p"))
    with pytest.raises(ValueFileError, match="format"):
        ValueNet({**_weights(obs), "format": np.array([FORMAT + 1])})
    with pytest.raises(ValueFileError, match="lack W2"):
        ValueNet({k: v for k, v in _weights(obs).items() if k != "W2"})
    with pytest.raises(ValueFileError, match="inconsistent"):
        ValueNet({**_weights(obs), "b1": np.zeros(3, np.float32)})
    with pytest.raises(ValueFileError, match="observations of"):
        net.of_obs(np.zeros(obs + 1, np.float32))
    with pytest.raises(ValueFileError, match="cannot read"):
        ValueNet.load(tmp_path / "none.npz")


@pytest.mark.skipif(not native.available(), reason="burraco._native not built or BURRACO_PURE")
def test_the_core_and_the_python_encoder_give_the_same_estimate() -> None:
    net = ValueNet(_weights(layout_for(preset("italian")).obs_size, seed=2))
    g = _midhand(seed=5, steps=55)
    h = native.NativeHand.from_game(g)
    for seat in range(g.n):
        assert net.of_hand(h, seat) == pytest.approx(net.of_game(g, seat), rel=1e-5, abs=1e-5)


@pytest.mark.parametrize("threads", [1, 2])
def test_the_search_judges_a_rollout_stopped_early_by_the_value(threads: int) -> None:
    """With rollout_depth, an unfinished rollout is worth the network's estimate (here a constant), a finished one
    its exact result; on either engine, on threads too."""
    g = _midhand(seed=7, steps=30)
    seat = g.current_seat
    v = g.view(seat)
    net = _constant(layout_for(g.rules).obs_size, 0.375)
    p = ISMCTSPlayer(seed=1, iterations=6, rollout_depth=3, value=net, threads=threads)
    values = p.candidate_values(v, p.root_candidates(v, g.legal_actions()))
    flat = [x for row in values for x in row]
    assert flat and all(x == pytest.approx(0.375) for x in flat)
    deep = ISMCTSPlayer(seed=1, iterations=6, value=net, threads=threads)  # to the end: the value is never used
    rows = deep.candidate_values(v, deep.root_candidates(v, g.legal_actions()))
    assert all(x != pytest.approx(0.375) for row in rows for x in row)


def test_the_training_script_runs_end_to_end(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    if not native.available():
        pytest.skip("the training script plays on the native core")
    out = tmp_path / "v.npz"
    res = subprocess.run(
        [sys.executable, str(EXAMPLE), "--hands", "40", "--every", "6", "--epochs", "2", "--hidden", "8", "4",
         "--out", str(out), "--json", str(tmp_path / "v.json")],
        capture_output=True, text=True, timeout=300,
    )
    assert res.returncode == 0, res.stderr[-2000:]
    net = ValueNet.load(out)
    assert net.fits(preset("italian"))
    assert "mse_network" in (tmp_path / "v.json").read_text()

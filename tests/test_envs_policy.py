"""A learned policy as a player (burraco.envs.policy, ``policy:PATH``) and the behaviour-cloning example."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

from burraco import Game, preset  # noqa: E402
from burraco.arena import run_arena  # noqa: E402
from burraco.bots.players import PlayerSpecError, canonical_player, parse_player  # noqa: E402
from burraco.envs.encoding import layout_for  # noqa: E402
from burraco.envs.features import ACTION_FEATURES  # noqa: E402
from burraco.envs.policy import PolicyFileError, PolicyNet, PolicyPlayer  # noqa: E402
from burraco.view import determinize  # noqa: E402

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "train_bc.py"


def _net(obs_size: int, seed: int = 0) -> PolicyNet:
    rng = np.random.default_rng(seed)
    h1, h2 = 8, 4
    return PolicyNet(
        {
            "W_obs": rng.normal(0, 0.1, (h1, obs_size)).astype(np.float32),
            "W_act": rng.normal(0, 0.3, (h1, ACTION_FEATURES)).astype(np.float32),
            "b1": np.zeros(h1, np.float32),
            "W2": rng.normal(0, 0.3, (h2, h1)).astype(np.float32),
            "b2": np.zeros(h2, np.float32),
            "w3": rng.normal(0, 0.3, h2).astype(np.float32),
            "b3": np.zeros(1, np.float32),
        }
    )


def test_policy_spec_seats_a_weights_file_in_the_arena(tmp_path: Path) -> None:
    path = tmp_path / "Net.npz"  # the path keeps its case
    _net(layout_for(preset("italian")).obs_size).save(path, half=True)
    spec = f"Policy:{path}"
    assert canonical_player(spec) == f"policy:{path}"
    p = parse_player(spec)(3)
    assert p.name == f"policy:{path}"
    res = run_arena(preset("italian"), spec, "random", 2, seed=1)
    assert res["deals"] == 2 and res["a_moves"] > 0
    with pytest.raises(PlayerSpecError, match="policy:PATH"):
        canonical_player("policy:")
    with pytest.raises(PolicyFileError, match="cannot read"):
        parse_player(f"policy:{tmp_path / 'missing.npz'}")


def test_a_file_for_another_layout_or_version_is_refused_with_the_reason(tmp_path: Path) -> None:
    net = _net(10)
    g = Game.new(preset("italian"), seed=2)
    with pytest.raises(PolicyFileError, match="observations of 10 values"):
        PolicyPlayer(net).choose(g.view(g.current_seat), g.legal_actions())
    w = dict(_net(10).w)
    w["W_act"] = w["W_act"][:, :5]
    with pytest.raises(PolicyFileError, match="action features"):
        PolicyNet(w)
    del w["b3"]
    with pytest.raises(PolicyFileError, match="lack b3"):
        PolicyNet(w)


def test_the_policy_decides_from_the_view_only() -> None:
    """Its choice is the same on every determinization of the seat's view (it is never given more)."""
    r = preset("italian")
    player = PolicyPlayer(_net(layout_for(r).obs_size, 4))
    g = Game.new(r, seed=7)
    rng = random.Random(0)
    checked = 0
    while g.end is None and len(g.actions) < 200:
        s = g.current_seat
        legal = g.legal_actions()
        a = player.choose(g.view(s), legal)
        assert a in legal
        if len(legal) > 1 and len(g.actions) % 5 == 0:
            d = determinize(g.view(s), random.Random(checked))
            assert player.choose(d.view(s), d.legal_actions()) == a
            checked += 1
        g.apply(a if rng.random() < 0.5 else rng.choice(legal))
    assert checked > 5


def test_behaviour_cloning_example_trains_and_its_weights_play(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    out = tmp_path / "bc.npz"
    res = subprocess.run(
        [sys.executable, str(EXAMPLE), "--deals", "3", "--epochs", "2", "--hidden", "16", "8", "--out", str(out),
         "--eval-deals", "2", "--eval", "random", "--json", str(tmp_path / "bc.json"), "--threads", "1"],
        capture_output=True, text=True, timeout=300,
    )
    assert res.returncode == 0, res.stderr[-2000:]
    data = json.loads((tmp_path / "bc.json").read_text())
    assert data["decisions"] > 100 and len(data["agreement"]) == 2
    assert data["agreement"][-1] > 0.2  # it learns something of the heuristic's choices
    assert data["eval"]["random"]["deals"] == 2
    assert out.stat().st_size < 1_000_000
    PolicyNet.load(out)

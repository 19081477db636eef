"""A learned policy as a player (burraco.envs.policy, ``policy:PATH``) and the behaviour-cloning example."""

from __future__ import annotations

import importlib.util
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from burraco import Game, preset  # noqa: E402
from burraco.arena import run_arena  # noqa: E402
from burraco.bots.players import PlayerSpecError, canonical_player, parse_player  # noqa: E402
from burraco.determinize import determinize  # noqa: E402
from burraco.envs.features import ACTION_FEATURES, action_features  # noqa: E402
from burraco.envs.layout import layout_for  # noqa: E402
from burraco.envs.observation import encode_view  # noqa: E402
from burraco.envs.policy import FORMAT, PolicyFileError, PolicyNet, PolicyPlayer  # noqa: E402

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "train_bc.py"


def _weights(obs_size: int, seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    e, h1, h2 = 6, 8, 4
    return {
        "format": np.array([FORMAT], dtype=np.int32),
        "W_e": rng.normal(0, 0.1, (e, obs_size)).astype(np.float32),
        "b_e": rng.normal(0, 0.1, e).astype(np.float32),
        "W1": rng.normal(0, 0.3, (h1, e + ACTION_FEATURES)).astype(np.float32),
        "b1": np.zeros(h1, np.float32),
        "W2": rng.normal(0, 0.3, (h2, h1)).astype(np.float32),
        "b2": np.zeros(h2, np.float32),
        "w3": rng.normal(0, 0.3, h2).astype(np.float32),
        "b3": np.zeros(1, np.float32),
    }


def _net(obs_size: int, seed: int = 0) -> PolicyNet:
    return PolicyNet(_weights(obs_size, seed))


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
    w = _weights(10)
    w["W1"] = w["W1"][:, :-5]
    with pytest.raises(PolicyFileError, match="action features"):
        PolicyNet(w)
    del w["b3"]
    with pytest.raises(PolicyFileError, match="lack b3"):
        PolicyNet(w)
    w = _weights(10)
    w["format"] = np.array([1], dtype=np.int32)
    with pytest.raises(PolicyFileError, match="format 1"):
        PolicyNet(w)
    # a file of the earlier layout (one hidden layer over obs and 222 features, no format): refused, and said so
    old = {"W_obs": np.zeros((8, 10), np.float32), "W_act": np.zeros((8, 222), np.float32), "b1": np.zeros(8),
           "W2": np.zeros((4, 8)), "b2": np.zeros(4), "w3": np.zeros(4), "b3": np.zeros(1)}
    np.savez(tmp_path / "old.npz", **old)
    with pytest.raises(PolicyFileError, match="earlier version"):
        PolicyNet.load(tmp_path / "old.npz")


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


def _example() -> Any:
    spec = importlib.util.spec_from_file_location("train_bc", EXAMPLE)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_numpy_scores_equal_the_torch_model_and_survive_the_file(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    bc = _example()
    r = preset("italian")
    torch.manual_seed(3)
    model = bc.Scorer(layout_for(r).obs_size, 16, 12, 8)
    g = Game.new(r, seed=11)
    rng = random.Random(1)
    checked = 0
    while g.end is None and checked < 12:
        s = g.current_seat
        legal = g.legal_actions()
        if len(legal) > 2:
            v = g.view(s)
            obs, feats = encode_view(v), action_features(v, legal)
            with torch.no_grad():
                want = model(torch.from_numpy(obs)[None], torch.from_numpy(feats)[None])[0].numpy()
            net = model.to_policy()
            assert np.allclose(net.scores(obs, feats), want, atol=1e-4)
            net.save(tmp_path / "n.npz")
            assert np.allclose(PolicyNet.load(tmp_path / "n.npz").scores(obs, feats), want, atol=1e-4)
            back = bc.Scorer(layout_for(r).obs_size, *net.hidden)
            back.load_policy(net)
            with torch.no_grad():
                again = back(torch.from_numpy(obs)[None], torch.from_numpy(feats)[None])[0].numpy()
            assert np.allclose(again, want, atol=1e-5)
            checked += 1
        g.apply(rng.choice(legal))
    assert checked == 12


def test_the_listwise_loss_follows_the_teacher_scores() -> None:
    torch = pytest.importorskip("torch")
    bc = _example()
    mask = torch.tensor([[True, True, True, False]])
    teach = torch.tensor([[10.0, 0.0, -10.0, -float("inf")]])
    k = torch.tensor([0])
    agree = torch.tensor([[3.0, 1.0, -1.0, -1e9]])
    disagree = torch.tensor([[-1.0, 1.0, 3.0, -1e9]])
    for rank in ("listwise", "pairwise", "ce"):
        good = bc.loss_of(agree, mask, k, teach, rank, 10.0, 0.2)
        bad = bc.loss_of(disagree, mask, k, teach, rank, 10.0, 0.2)
        assert torch.isfinite(good) and float(good) < float(bad), rank
    # listwise at the teacher's own distribution (scores / temperature) is its entropy plus the CE term, the minimum
    t = teach[:, :3] / 10.0
    best = bc.loss_of(torch.cat([t, torch.tensor([[-1e9]])], 1), mask, k, teach, "listwise", 10.0, 0.0)
    p = torch.softmax(t, 1)
    assert float(best) == pytest.approx(float(-(p * p.log()).sum()), abs=1e-5)


def test_the_heuristic_scores_come_with_the_same_choice() -> None:
    from burraco.bots.heuristic import HeuristicPlayer

    g = Game.new(preset("italian"), seed=5)
    a, b = HeuristicPlayer("hard", seed=9), HeuristicPlayer("hard", seed=9)
    while g.end is None:
        v, legal = g.view(g.current_seat), g.legal_actions()
        got, values = b.choose_scored(v, legal)
        assert a.choose(v, legal) == got and len(values) == len(legal)
        if len(legal) > 1:
            assert values[legal.index(got)] == max(values)
            assert sorted(values, reverse=True) == [s for s, _ in a.scores(v, legal)]
        g.apply(got)


def test_behaviour_cloning_example_trains_and_its_weights_play(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    out = tmp_path / "bc.npz"
    res = subprocess.run(
        [sys.executable, str(EXAMPLE), "--deals", "3", "--epochs", "2", "--hidden", "16", "16", "8", "--out",
         str(out), "--rank", "listwise", "--temperature", "10", "--ce-weight", "0.2", "--dagger", "1",
         "--dagger-deals", "1", "--holdout", "1", "--eval-deals", "2", "--eval", "random", "--json",
         str(tmp_path / "bc.json"), "--threads", "1"],
        capture_output=True, text=True, timeout=300,
    )
    assert res.returncode == 0, res.stderr[-2000:]
    data = json.loads((tmp_path / "bc.json").read_text())
    assert data["decisions"] > 100 and len(data["agreement"]) == 4 and data["rank"] == "listwise"
    assert data["agreement"][-1] > 0.2  # it learns something of the heuristic's choices
    assert data["holdout"]["decisions"] > 20 and 0.0 <= data["holdout"]["agreement"] <= 1.0
    assert data["holdout"]["regret"] >= 0.0
    assert data["eval"]["random"]["deals"] == 2
    assert out.stat().st_size < 1_000_000
    assert PolicyNet.load(out).hidden == (16, 16, 8)
    res = subprocess.run(
        [sys.executable, str(EXAMPLE), "--deals", "2", "--epochs", "1", "--hidden", "8", "8", "4", "--out",
         str(tmp_path / "p.npz"), "--rank", "pairwise", "--threads", "1"],
        capture_output=True, text=True, timeout=300,
    )
    assert res.returncode == 0, res.stderr[-2000:]


def test_the_checked_in_baseline_loads_and_plays() -> None:
    path = EXAMPLE.parent / "bc-baseline.npz"
    if not path.exists():
        pytest.skip("no examples/bc-baseline.npz")
    res = run_arena(preset("italian"), f"policy:{path}", "random", 1, seed=3)
    assert res["deals"] == 1


def test_the_checked_in_ppo_weights_load_and_play_two_player_games() -> None:
    """examples/ppo-easy.npz: the PPO recipe's policy (docs/research.md "PPO recipes"), written by the PyTorch scorer
    as numpy weights that take the observation as ``sign·log`` and play without PyTorch."""
    path = EXAMPLE.parent / "ppo-easy.npz"
    net = PolicyNet.load(path)
    assert net.log_obs and net.hidden == (64, 96, 48)
    res = run_arena(preset("italian-2p"), f"policy:{path}", "easy", 1, seed=3)
    assert res["deals"] == 1

"""The PPO example runs end to end in seconds (only where PyTorch is installed: the `train` extra): its three
recipes' options, the printouts naming the actual opponent, the JSON, and weights that play as ``policy:PATH``."""

from __future__ import annotations

import importlib.util
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("torch")
pytest.importorskip("gymnasium")

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "train_policy.py"
SMOKE = ["--max-updates", "2", "--envs", "2", "--steps", "8", "--epochs", "1", "--minibatch", "8",
         "--eval-deals", "1", "--final-deals", "1", "--hidden", "8", "8", "8"]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(EXAMPLE), *SMOKE, *args], capture_output=True, text=True,
                          timeout=300)


def test_ppo_example_smoke(tmp_path: Path) -> None:
    out = tmp_path / "ppo"
    res = _run("--rules", "italian-2p", "--opponents", "random", "--json", str(tmp_path / "c.json"),
               "--out", str(out))
    assert res.returncode == 0, res.stderr[-2000:]
    assert "recipe ppo:" in res.stdout and "against random" in res.stdout and "vs random" in res.stdout
    data = json.loads((tmp_path / "c.json").read_text())
    assert data["recipe"] == "ppo" and data["updates"] == 2 and data["decisions"] == 32
    assert data["versus"] == "random" and data["rules"] == "italian-2p" and data["final"]["deals"] == 1
    from burraco import preset
    from burraco.arena import play_duplicate
    from burraco.bots.players import parse_player

    for suffix in (".pt", ".npz"):
        r = play_duplicate(preset("italian-2p"), parse_player(f"policy:{out}{suffix}"), parse_player("easy"), 1, 0)
        assert r["deals"] == 1


def test_self_play_and_warm_start_recipes_are_labelled(tmp_path: Path) -> None:
    res = _run("--rules", "italian", "--opponents", "easy", "random", "--self-play", "1", "--critic", "full",
               "--json", str(tmp_path / "s.json"))
    assert res.returncode == 0, res.stderr[-2000:]
    data = json.loads((tmp_path / "s.json").read_text())
    assert data["recipe"] == "self-play" and data["rules"] == "italian" and data["versus"] == "heuristic:easy"
    assert data["settings"]["critic"] == "full"  # the value head saw the four seats' views, the policy its own
    draws = data["pool_draws"]
    assert sum(draws.values()) >= 2 and set(draws) <= {"member 0", "member 1", "update 1", "update 2"}
    assert "recipe self-play:" in res.stdout and "heuristic:easy / random + its own checkpoints" in res.stdout
    # the training hands are against the whole pool, and the printouts say so (the evaluations against easy alone)
    assert "training hands vs heuristic:easy / random + its own checkpoints lately" in res.stdout
    assert "greedy policy vs heuristic:easy " in res.stdout
    bc = Path(__file__).resolve().parent.parent / "examples" / "bc-baseline.npz"
    res = _run("--rules", "italian", "--opponents", "easy", "--init", str(bc), "--hidden", "64", "96", "48",
               "--hand-weight", "0", "--json", str(tmp_path / "b.json"))
    assert res.returncode == 0, res.stderr[-2000:]
    assert "recipe bc+ppo:" in res.stdout and "reward score shaped (hand weight 0)" in res.stdout
    assert json.loads((tmp_path / "b.json").read_text())["reward"] == "score shaped (hand weight 0)"


def _example() -> Any:
    spec = importlib.util.spec_from_file_location("train_policy_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("hand_weight", [1.0, 0.0])
def test_shaped_rewards_add_up_to_the_hand_score(hand_weight: float) -> None:
    """``--hand-weight``: the score reward plus the potential's change; with weight 1 the environment's ``progress``
    reward step for step, and with any weight the rewards of a hand add up to its score difference less the
    potential of the deal (0 for weight 0: no melds, both pozzetti still to take)."""
    import gymnasium

    ex = _example()
    make = lambda reward: gymnasium.make(  # noqa: E731
        "burraco/Burraco-v0", rules="italian-2p", opponents="easy", reward=reward, mask_in_obs=False, illegal="raise"
    )
    phi = ex.hand_potential(hand_weight)
    progress, shaped = ex.Table(make("progress"), 5), ex.Table(make("score"), 5, phi)
    start = phi(shaped.env.unwrapped)
    rng = random.Random(0)
    got = total = 0.0
    for _ in range(2000):
        _, _, legal = progress.decision()
        assert shaped.decision()[2] == legal
        k = legal[rng.randrange(len(legal))]
        rp, done, final = progress.step(k)
        rs, done_s, final_s = shaped.step(k)
        assert done == done_s and (final is None) == (final_s is None)
        assert final is None or final == pytest.approx(final_s, abs=1e-9)
        if hand_weight == 1.0:
            assert rs == pytest.approx(rp, abs=1e-9)
        total += rs
        if done:
            got += 1
            assert final is not None and total == pytest.approx(final - start, abs=1e-9)
            if got == 3:
                break
            total, start = 0.0, phi(shaped.env.unwrapped)
    assert got == 3


def test_full_critic_sees_every_seat_and_the_policy_its_own() -> None:
    """``--critic full``: the value head's input is the learner's observation, then each other seat's as that seat
    sees the table (its hand: what the learner's own vector cannot hold)."""
    import gymnasium

    ex = _example()
    env = gymnasium.make("burraco/Burraco-v0", rules="italian", opponents="easy", mask_in_obs=False, illegal="raise")
    tb = ex.Table(env, 3)
    u = env.unwrapped
    size = u.table.layout.obs_size
    full = tb.critic_obs()
    assert full.shape == (4 * size,)
    assert (full[:size] == tb.decision()[0]).all()
    others = [s for s in range(4) if s != u.seat]
    for k, s in enumerate(others, start=1):
        assert (full[k * size : (k + 1) * size] == u.table.observation(s)).all()
    assert not (full[size : 2 * size] == full[:size]).all()


def test_self_play_checkpoints_play_in_the_pool() -> None:
    """A checkpoint the self-play recipe adds to the pool is drawn and plays the opponent's moves (it was once added as
    a seed -> player factory, which the pool took for a policy function and called with the view: a TypeError at the
    checkpoint's first move)."""
    import gymnasium

    import burraco.envs  # noqa: F401
    from burraco.envs.gymnasium_env import OpponentPool
    from burraco.envs.torch_policy import RowActorCritic

    mod = _example()
    obs_size = gymnasium.make("burraco/Burraco-v0", rules="italian-2p").unwrapped.table.layout.obs_size
    player = mod.checkpoint(RowActorCritic(obs_size, 8, 8, 8).scorer, 1)
    moves: list[object] = []
    choose = player.choose
    player.choose = lambda view, legal: moves.append(view) or choose(view, legal)
    pool = OpponentPool(["easy"], weights=[0.0], max_size=2)  # the checkpoint alone is drawn
    pool.add(player, label="update 1")
    env = gymnasium.make("burraco/Burraco-v0", rules="italian-2p", opponents=pool)
    env.reset(seed=3)
    rng = random.Random(0)
    for _ in range(30):
        _, _, done, trunc, _ = env.step(rng.choice(env.unwrapped.legal_indices()))
        if done or trunc:
            break
    assert pool.counts == {"update 1": 1}
    assert len(moves) >= 5  # the checkpoint chose the opponent's moves

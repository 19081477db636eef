"""The Gymnasium environment burraco/Burraco-v0."""

from __future__ import annotations

import warnings

import pytest

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import burraco.envs  # noqa: E402,F401
from burraco.envs import encoding  # noqa: E402

warnings.filterwarnings("ignore", message=".*render fps.*")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"rules": "italian"},
        {"rules": "brazilian-2p", "opponents": "heuristic:easy"},
        {"rules": "international", "seat": 1, "opponents": ["random", "heuristic:easy", "random"]},
        {"rules": "italian-2p", "episode": "match", "reward": "win", "max_hands": 2},
    ],
)
def test_check_env(kwargs: dict) -> None:  # type: ignore[type-arg]
    env = gymnasium.make("burraco/Burraco-v0", **kwargs)
    check_env(env.unwrapped, skip_render_check=True)


def _episode(env, seed: int) -> tuple[float, int, bool]:  # type: ignore[no-untyped-def]
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = 0.0
    n = 0
    while True:
        assert int(info["action_mask"].sum()) > 0
        assert np.array_equal(info["action_mask"], obs["action_mask"])
        a = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, r, term, trunc, info = env.step(a)
        total += r
        n += 1
        if term or trunc:
            return total, n, term


def test_opponents_play_and_the_reward_is_the_team_score() -> None:
    env = gymnasium.make(
        "burraco/Burraco-v0", rules="italian", opponents="heuristic:medium", reward_scale=1.0
    )
    total, n, term = _episode(env, 3)
    g = env.unwrapped.table.game
    assert term and g.end is not None
    sc = g.scores()
    assert total == sc["NS"]["total"] - sc["EW"]["total"]
    assert n < len(g.actions)  # the others played too
    assert _episode(env, 3) == (total, n, term)  # deterministic per seed


def test_illegal_action_ends_the_episode() -> None:
    env = gymnasium.make("burraco/Burraco-v0", rules="italian-2p")
    env.reset(seed=0)
    _, r, term, _, info = env.step(encoding.NUM_ACTIONS - 1)
    assert term and r == -1.0 and info["illegal_action"]
    env = gymnasium.make("burraco/Burraco-v0", rules="italian-2p", illegal="raise")
    env.reset(seed=0)
    with pytest.raises(ValueError):
        env.step(encoding.NUM_ACTIONS - 1)


def test_bad_options() -> None:
    with pytest.raises(ValueError):
        gymnasium.make("burraco/Burraco-v0", rules="italian", opponents=["random"])
    with pytest.raises(ValueError):
        gymnasium.make("burraco/Burraco-v0", rules="italian", opponents="grandmaster")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"rules": "italian-3p", "opponents": "heuristic:easy"},
        {"rules": "italian-5p", "seat": 2},
        {"rules": "italian-6p", "opponents": ["random", "heuristic:easy", "random", "heuristic:easy", "random"]},
        {"rules": "italian", "players": 3, "episode": "match", "reward": "win", "max_hands": 2},
    ],
)
def test_check_env_three_to_six_players(kwargs: dict) -> None:  # type: ignore[type-arg]
    env = gymnasium.make("burraco/Burraco-v0", **kwargs)
    check_env(env.unwrapped, skip_render_check=True)
    lay = encoding.layout_for(env.unwrapped.rules)
    assert env.unwrapped.observation_space["observation"].shape == (lay.obs_size,)
    assert env.unwrapped.action_space.n == lay.num_actions


def test_three_player_agent_reward_is_its_share() -> None:
    """The agent plays seat A of italian-3p against heuristic players; at the end of the hand its reward is what
    its own total gains minus the mean of the other two players' (the split of a pair's score, §14.3)."""
    env = gymnasium.make("burraco/Burraco-v0", rules="italian-3p", opponents="heuristic:easy", reward_scale=1.0)
    u = env.unwrapped
    for seed in range(3):
        total, n, term = _episode(env, seed)
        g = u.table.game
        assert term and g.end is not None and n > 0
        pts = g.player_points()
        assert total == pytest.approx(pts[0] - (pts[1] + pts[2]) / 2)

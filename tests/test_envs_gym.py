"""The Gymnasium environment burraco/Burraco-v0."""

from __future__ import annotations

import warnings

import pytest

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import burraco.envs  # noqa: E402,F401
from burraco.envs import action_space, layout  # noqa: E402

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
    _, r, term, _, info = env.step(action_space.NUM_ACTIONS - 1)
    assert term and r == -1.0 and info["illegal_action"]
    env = gymnasium.make("burraco/Burraco-v0", rules="italian-2p", illegal="raise")
    env.reset(seed=0)
    with pytest.raises(ValueError):
        env.step(action_space.NUM_ACTIONS - 1)


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
    lay = layout.layout_for(env.unwrapped.rules)
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


# ----- item 2: masks as sb3-contrib asks, opponents of every kind, pools and self-play ------------------------------
from burraco.bots.heuristic import HeuristicPlayer  # noqa: E402
from burraco.envs.gymnasium_env import BurracoGymEnv, OpponentPool  # noqa: E402


def test_action_masks_is_the_mask_and_features_follow_the_legal_indices() -> None:
    env = BurracoGymEnv("italian", opponents="heuristic:easy")
    obs, info = env.reset(seed=4)
    for _ in range(30):
        m = env.action_masks()
        assert m.dtype == np.bool_ and m.shape == (env.action_space.n,)
        assert np.array_equal(np.flatnonzero(m), sorted(env.legal_indices()))
        assert np.array_equal(m, obs["action_mask"].astype(bool))
        f = env.action_features()
        assert f.shape[0] == len(env.legal_indices())
        obs, r, term, trunc, info = env.step(env.legal_indices()[-1])
        if term or trunc:
            obs, info = env.reset()


def test_maskable_ppo_contract() -> None:
    """What sb3-contrib's MaskablePPO checks: ``get_action_masks`` finds ``action_masks`` on the env (through
    the Gymnasium wrappers), and sampling under the mask gives only legal actions; with sb3-contrib installed,
    one short learning run on the real MaskablePPO."""
    env = gymnasium.make("burraco/Burraco-v0", rules="italian-2p", mask_in_obs=False)
    obs, _ = env.reset(seed=0)
    assert isinstance(obs, np.ndarray) and env.observation_space.contains(obs)
    m = env.unwrapped.action_masks()
    assert m.any()
    try:
        from sb3_contrib import MaskablePPO
        from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
    except ImportError:
        return
    assert is_masking_supported(env)
    assert np.array_equal(get_action_masks(env), m)
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=16, n_epochs=1, seed=0, device="cpu")
    model.learn(total_timesteps=16)  # an illegal action would end the episode with illegal_reward: none is taken
    obs, _ = env.reset(seed=5)
    for _ in range(20):
        a, _ = model.predict(obs, action_masks=env.unwrapped.action_masks(), deterministic=False)
        assert int(a) in env.unwrapped.legal_indices()
        obs, r, term, trunc, info = env.step(int(a))
        assert "illegal_action" not in info
        if term or trunc:
            obs, _ = env.reset()


def test_opponents_may_be_players_functions_and_pools() -> None:
    seen: list[str] = []

    def first_legal(view, legal):  # type: ignore[no-untyped-def]
        seen.append(view.phase)
        assert view.seat != 0 and not hasattr(view, "hands")  # a view, never the full state
        return legal[0]

    for opp in (first_legal, HeuristicPlayer("easy", 1), ["heuristic:easy", first_legal, "random"]):
        env = BurracoGymEnv("italian", opponents=opp)  # type: ignore[arg-type]
        check_env(env, skip_render_check=True)
        env.reset(seed=1)
        for _ in range(6):
            obs, r, term, trunc, info = env.step(env.legal_indices()[0])
            if term or trunc:
                break
    assert seen
    with pytest.raises(TypeError, match="an opponent is"):
        BurracoGymEnv("italian", opponents=[1, 2, 3])  # type: ignore[list-item]


def test_a_pool_is_drawn_per_episode_from_the_seed_and_grows_with_checkpoints() -> None:
    pool = OpponentPool(["random", "heuristic:easy"], weights=[1, 1])
    env = BurracoGymEnv("italian-2p", opponents=pool)
    first: list[int] = []
    for ep in range(12):
        env.reset(seed=ep)
        first += pool.drawn  # this episode's draw (the pool keeps the last episode's only)
    assert set(first) == {0, 1} and len(first) == 12
    again: list[int] = []
    for ep in range(12):
        env.reset(seed=ep)
        again += pool.drawn
    assert again == first  # repeatable from the seeds
    # self-play: the learner's checkpoints join the pool; the oldest goes first with max_size
    sp = OpponentPool(["random"], weights=[1e-9], max_size=2)
    marks: list[int] = []
    for k in range(3):
        sp.add(lambda view, legal, k=k: marks.append(k) or legal[0])  # type: ignore[misc]
    assert len(sp) == 3
    env = BurracoGymEnv("italian-2p", opponents=sp)
    for ep in range(4):
        env.reset(seed=ep)
        env.step(env.legal_indices()[0])
        while True:
            obs, r, term, trunc, info = env.step(env.legal_indices()[0])
            if term or trunc or marks:
                break
    assert marks and set(marks) <= {1, 2}  # checkpoint 0 was dropped


def test_observation_only_space() -> None:
    env = BurracoGymEnv("italian", mask_in_obs=False)
    check_env(env, skip_render_check=True)
    obs, info = env.reset(seed=2)
    assert obs.shape == (env.table.layout.obs_size,) and info["action_mask"].sum() > 0

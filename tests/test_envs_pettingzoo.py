"""The PettingZoo AEC environment (burraco.envs.pettingzoo_env)."""

from __future__ import annotations

import warnings

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from burraco import PRESETS, preset, to_str  # noqa: E402
from burraco.envs import encoding, pettingzoo_env  # noqa: E402
from burraco.envs.pettingzoo_aec import IllegalActionError  # noqa: E402

warnings.filterwarnings("ignore", message=".*agents to be named.*")
warnings.filterwarnings("ignore", message=".*Observation space for each agent.*")
warnings.filterwarnings("ignore", message=".*Observation is not a NumPy array.*")


@pytest.mark.parametrize("name", [k for k, r in PRESETS.items() if r.players in (2, 4)])
def test_api_test_every_preset(name: str) -> None:
    api_test(pettingzoo_env(rules=name), num_cycles=200)


def test_api_and_seed_test_two_and_four_players_and_matches() -> None:
    api_test(pettingzoo_env(rules="italian", players=2), num_cycles=200)
    api_test(pettingzoo_env(rules="brazilian", episode="match", reward="win", max_hands=2), num_cycles=400)
    seed_test(lambda: pettingzoo_env(rules="italian"), num_cycles=300)
    seed_test(lambda: pettingzoo_env(rules="brazilian-2p", episode="match", max_hands=2), num_cycles=300)


def _play(env, seed: int) -> tuple[dict[str, float], int, list[str]]:  # type: ignore[no-untyped-def]
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = {a: 0.0 for a in env.possible_agents}
    steps = 0
    seen: list[str] = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, _info = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        mask = obs["action_mask"]
        legal = env.legal_actions()
        assert int(mask.sum()) == len(legal)
        # the observation is the one of the agent's own view, nothing else
        assert np.array_equal(obs["observation"], encoding.encode_view(env.view(agent)))
        idx = int(rng.choice(np.flatnonzero(mask)))
        seen.append(str(env.decode(agent, idx)))
        env.step(idx)
        steps += 1
    return totals, steps, seen


def test_team_rewards_are_the_hand_score_difference() -> None:
    env = pettingzoo_env(rules="italian", reward_scale=1.0)
    totals, steps, _ = _play(env, 5)
    g = env.table.game
    assert g.end is not None and steps == len(g.actions)
    sc = g.scores()
    diff = sc["NS"]["total"] - sc["EW"]["total"]
    assert totals == {"N": diff, "S": diff, "E": -diff, "W": -diff}
    # the match behind the environment has scored the hand (render shows its totals) and knows it ended
    m = env.table.match
    assert m.totals == [sc["NS"]["total"], sc["EW"]["total"]]
    assert f"match totals: {m.totals}" in env.render()


def test_match_episode_rewards_win_and_same_seed_same_game() -> None:
    env = pettingzoo_env(rules="italian-2p", episode="match", reward="win", max_hands=3)
    t1, s1, seen1 = _play(env, 9)
    m = env.table.match
    assert 1 <= len(m.games) <= 3
    assert sorted(t1.values()) in ([-1.0, 1.0], [0.0, 0.0])
    if m.is_over and m.winner() is not None:
        assert t1[env.possible_agents[m.winner()]] == 1.0
    t2, s2, seen2 = _play(env, 9)
    assert (t1, s1, seen1) == (t2, s2, seen2)
    _, _, seen3 = _play(env, 10)
    assert seen3 != seen1


def test_illegal_actions_raise_or_end_the_episode() -> None:
    env = pettingzoo_env(rules="italian")
    env.reset(seed=1)
    with pytest.raises(IllegalActionError):
        env.step(encoding.DISCARD_OFFSET)  # a discard in the draw phase
    env = pettingzoo_env(rules="italian", illegal="penalize", illegal_reward=-5.0)
    env.reset(seed=1)
    env.step(encoding.DISCARD_OFFSET)
    assert all(env.terminations.values())
    assert env._cumulative_rewards["N"] == -5.0 and env.rewards["S"] == -5.0 and env.rewards["E"] == 0.0


def test_rules_objects_and_overrides() -> None:
    env = pettingzoo_env(rules={"preset": "italian", "min_first_meld": 50})
    assert env.rules.min_first_meld == 50
    env = pettingzoo_env(rules=preset("brazilian-stbl"), players=2)
    assert env.possible_agents == ["N", "S"]
    with pytest.raises(encoding.EncodingError):
        pettingzoo_env(rules={"preset": "italian", "max_wilds": 2})


def test_dict_view_is_json_and_holds_only_the_seats_information() -> None:
    import json

    env = pettingzoo_env(rules="brazilian-stbl")
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(60):
        agent = env.agent_selection
        if env.terminations[agent]:
            break
        d = env.view_dict(agent)
        json.dumps(d)
        seat = env.possible_agents.index(agent)
        g = env.table.game
        assert d["hand"] == [to_str(c) for c in env.view(agent).hand]
        assert len(d["hand"]) == g.hand_n[seat] - d["hidden_pozzetto"]
        assert set(d["known"]) == set(env.possible_agents) and d["known"][agent] == []
        v = env.view(agent)
        assert d == v.to_json() and d["stock"] == v.stock_size
        assert sum(d["unseen"].values()) == sum(v.unseen)
        assert len(d["pile"]) <= 1  # a closed pile shows only its top card
        env.step(int(rng.choice(env.legal_indices())))

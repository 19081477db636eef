"""The PettingZoo AEC environment (burraco.envs.pettingzoo_env)."""

from __future__ import annotations

import warnings

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from burraco import PRESETS, preset, to_str  # noqa: E402
from burraco.envs import action_space, layout, observation, pettingzoo_env  # noqa: E402
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
        assert np.array_equal(obs["observation"], observation.encode_view(env.view(agent)))
        idx = int(rng.choice(np.flatnonzero(mask)))
        seen.append(str(env.decode(agent, idx)))
        env.step(idx)
        steps += 1
    return totals, steps, seen


def test_team_rewards_are_the_hand_score_difference() -> None:
    env = pettingzoo_env(rules="italian", reward_scale=1.0, agent_names="seats")
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
        env.step(action_space.DISCARD_OFFSET)  # a discard in the draw phase
    env = pettingzoo_env(rules="italian", illegal="penalize", illegal_reward=-5.0, agent_names="seats")
    env.reset(seed=1)
    env.step(action_space.DISCARD_OFFSET)
    assert all(env.terminations.values())
    assert env._cumulative_rewards["N"] == -5.0 and env.rewards["S"] == -5.0 and env.rewards["E"] == 0.0


def test_rules_objects_and_overrides() -> None:
    env = pettingzoo_env(rules={"preset": "italian", "min_first_meld": 50})
    assert env.rules.min_first_meld == 50
    env = pettingzoo_env(rules=preset("brazilian-stbl"), players=2)
    assert env.possible_agents == ["player_0", "player_1"]
    assert pettingzoo_env(rules="italian-2p", agent_names="seats").possible_agents == ["N", "S"]
    with pytest.raises(action_space.EncodingError):
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
        assert set(d["known"]) == set(env.seat_letters.values()) and d["known"][env.seat_letters[agent]] == []
        v = env.view(agent)
        assert d == v.to_json() and d["stock"] == v.stock_size
        assert sum(d["unseen"].values()) == sum(v.unseen)
        assert len(d["pile"]) <= 1  # a closed pile shows only its top card
        env.step(int(rng.choice(env.legal_indices())))


# ----- 3, 5 and 6 players (RULES.md §14.3–§14.4) -----------------------------------------------------------------


@pytest.mark.parametrize("name", ["italian-3p", "italian-5p", "italian-6p"])
def test_api_test_three_to_six_agents(name: str) -> None:
    env = pettingzoo_env(rules=name, agent_names="seats")
    n = env.rules.players
    assert env.possible_agents == list("ABCDEF"[:n])
    lay = layout.layout_for(env.rules)
    assert env.observation_space("A")["observation"].shape == (lay.obs_size,)
    assert env.action_space("A").n == lay.num_actions
    api_test(env, num_cycles=200)


def test_api_and_seed_test_three_players_as_an_override_and_a_match() -> None:
    api_test(pettingzoo_env(rules="italian", players=3), num_cycles=200)
    api_test(pettingzoo_env(rules="italian-5p", episode="match", reward="win", max_hands=2), num_cycles=300)
    seed_test(lambda: pettingzoo_env(rules="italian-3p"), num_cycles=200)


def _play_melding(env, seed: int) -> tuple[dict[str, float], list[tuple[int, ...]]]:  # type: ignore[no-untyped-def]
    """A hand where the agents meld whenever they can (so the first player goes out and the pairs form); the
    summed rewards, and the sides of every state seen."""
    import random

    env.reset(seed=seed)
    rng = random.Random(seed)
    totals = {a: 0.0 for a in env.possible_agents}
    sides: list[tuple[int, ...]] = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, _info = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        sides.append(env.table.game.side_of_seat)
        legal = env.legal_actions()
        pref = [a for a in legal if a.verb in ("meld", "add")] or legal
        a = pref[rng.randrange(len(pref))] if rng.random() < 0.9 else legal[rng.randrange(len(legal))]
        idx = env.legal_indices()[legal.index(a)]
        assert obs["action_mask"][idx] == 1 and env.decode(agent, idx) == a
        env.step(idx)
    return totals, sides


@pytest.mark.parametrize("name", ["italian-3p", "italian-5p", "italian-6p"])
def test_team_rewards_follow_the_sides_of_the_phase(name: str) -> None:
    """With 3 and 5 players everybody plays alone until the first goes out; then a pair's partners share its split
    score (RULES.md §14.3) and get the same reward; a seat's reward is what it adds to its match total minus the
    mean of the others', so the rewards sum to zero. With 6 the fixed pairs share theirs."""
    env = pettingzoo_env(rules=name, reward_scale=1.0)
    paired = 0
    for seed in range(6):
        totals, sides = _play_melding(env, seed)
        g = env.table.game
        assert g.end is not None
        pts = g.player_points() if g.rules.players in (3, 5) else [g.side_score(g.side_of(s))["total"] for s in range(g.n)]
        # a scorer's points: each player's with 3 and 5, each pair's with 6
        for s, agent in enumerate(env.possible_agents):
            if g.rules.players in (3, 5):
                others = [pts[x] for x in range(g.n) if x != s]
            else:
                others = [g.side_score(k)["total"] for k in range(g.num_sides) if k != g.side_of(s)]
            assert totals[agent] == pytest.approx(pts[s] - sum(others) / len(others))
        assert sum(totals.values()) == pytest.approx(0.0, abs=1e-6)
        for s in range(g.n):
            for x in g.side_seats[g.side_of(s)]:
                assert totals[env.possible_agents[x]] == totals[env.possible_agents[s]]
        if g.solo >= 0:
            paired += 1
            assert sides[0] == tuple(range(g.n))  # alone at the start of the hand
            assert len(set(sides[-1])) < g.n  # pairs at its end
            assert env.table.match.totals == pts  # what each player adds to his total
    if env.rules.solo_pair:
        assert paired > 0


def test_three_player_match_through_the_switch_to_individual_play() -> None:
    """italian-3p with ``individual_from`` low: a match episode goes on past the switch to individual play (every
    player alone with his own 11-card pozzetto, §14.3); every observation is the agent's match view, the rewards
    of each hand are zero-sum, and the match totals are per player."""
    import random

    env = pettingzoo_env(rules={"preset": "italian-3p", "individual_from": 60, "target": 5000}, episode="match",
                         max_hands=4, reward_scale=1.0)
    env.reset(seed=2)
    rng = random.Random(2)
    hand_sums: list[float] = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, _info = env.last()
        if term or trunc:
            env.step(None)
            continue
        assert np.array_equal(obs["observation"], observation.encode_view(env.view(agent)))
        legal = env.legal_actions()
        pref = [a for a in legal if a.verb in ("meld", "add")] or legal
        a = pref[rng.randrange(len(pref))] if rng.random() < 0.9 else legal[rng.randrange(len(legal))]
        env.step(env.legal_indices()[legal.index(a)])
        if any(env.rewards.values()):
            hand_sums.append(sum(env.rewards.values()))
    m = env.table.match
    assert len(m.totals) == 3 and m.individual_since is not None and len(m.games) > m.individual_since
    assert not m.games[-1].rules.solo_pair
    assert hand_sums and all(abs(x) < 1e-6 for x in hand_sums)


def test_api_test_passes_without_a_warning_with_numbered_agents_and_a_box_observation() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning of api_test fails the test
        api_test(pettingzoo_env(rules="italian", mask_in_obs=False), num_cycles=100)
        api_test(pettingzoo_env(rules="italian-3p", mask_in_obs=False), num_cycles=100)
    env = pettingzoo_env(rules="italian", mask_in_obs=False)
    env.reset(seed=3)
    for agent in env.agent_iter(60):
        obs, r, term, trunc, info = env.last()
        assert isinstance(obs, np.ndarray) and env.observation_space(agent).contains(obs)
        if term or trunc:
            env.step(None)
            continue
        mask = info["action_mask"]
        assert np.array_equal(np.flatnonzero(mask), sorted(env.legal_indices()))
        assert all("action_mask" not in env.infos[a] for a in env.agents if a != agent)
        assert env.action_features().shape[0] == int(mask.sum())
        env.step(env.legal_indices()[0])


def test_the_mask_is_computed_once_per_step() -> None:
    # the same array object however often a step's mask is asked for, a new one after each step
    env = pettingzoo_env(rules="italian")
    env.reset(seed=4)
    seen: set[int] = set()
    kept = []
    for _ in range(20):
        agent = env.agent_selection
        masks = [env.observe(agent)["action_mask"] for _k in range(3)]
        masks.append(env.last()[0]["action_mask"])
        assert all(m is masks[0] for m in masks)
        assert id(masks[0]) not in seen
        seen.add(id(masks[0]))
        kept.append(masks[0])  # kept alive so that no id is reused
        env.step(env.legal_indices()[0])
    m = env.observe(env.agent_selection)["action_mask"]
    with pytest.raises(ValueError):
        m[0] = 1  # read-only: the cached mask cannot be spoilt by a caller


def test_the_parallel_api_is_refused_clearly() -> None:
    """Burraco is turn-based with several actions per turn: no parallel form (docs/research.md "PettingZoo")."""
    from pettingzoo.utils.conversions import aec_to_parallel

    env = pettingzoo_env(rules="italian")
    assert env.metadata["is_parallelizable"] is False
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(env)

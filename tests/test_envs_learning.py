"""The learning interfaces of the research environments (issue 43): the action rows as a Gymnasium environment,
the vector environment as Gymnasium's and SB3's vector environments, the progress reward, the players a
researcher seats (``policy:`` files of every kind, ``python:MODULE:NAME``), the opponent pool's memory, the
PettingZoo ``raw_env``/``env`` pair, the space's fast ``sample(mask)``, and the match episodes that end with a
time-out (RULES.md §0.1 "The time-out ends the match", issue 36)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import gymnasium  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

from burraco import preset  # noqa: E402
from burraco.arena import play_duplicate  # noqa: E402
from burraco.bots.players import PlayerSpecError, parse_player, parse_spec  # noqa: E402
from burraco.envs import pettingzoo_env  # noqa: E402
from burraco.envs.features import ACTION_FEATURES  # noqa: E402
from burraco.envs.gymnasium_env import BurracoGymEnv, OpponentPool  # noqa: E402
from burraco.envs.rows import RowsEnv, TooManyActionsError  # noqa: E402
from burraco.envs.vector import BurracoVecEnv, BurracoVectorEnv  # noqa: E402


def _play_out(env: BurracoGymEnv, rng: random.Random) -> tuple[float, bool, bool]:
    total, term, trunc = 0.0, False, False
    while not (term or trunc):
        idx = env.legal_indices()
        _, r, term, trunc, _ = env.step(idx[rng.randrange(len(idx))])
        total += r
    return total, term, trunc


# ----- RULES.md §0.1 "The time-out ends the match": the environments' match episodes -----------------------------
def test_rules_0_1_the_timeout_ends_the_match_episode_pettingzoo() -> None:
    """§0.1 "The time-out ends the match", §9.4: announced after N turns of a 3-hand match, the time-out round is
    played, the episode terminates after that hand (no second hand is dealt), and the win reward is the match's
    result from the VP table (Match.vp, Match.winner) on the one hand played."""
    seen_vp = 0
    for seed in range(4):
        env = pettingzoo_env(rules="italian-tournament", players=2, episode="match", reward="win", timeout_turns=6)
        env.reset(seed=seed)
        rng = random.Random(seed)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            totals[agent] += reward
            if term or trunc:
                assert term and not trunc, "the match ended: a termination, not a truncation"
                env.step(None)
                continue
            legal = env.legal_indices()
            env.step(legal[rng.randrange(len(legal))])
        m = env.table.match
        assert m.rules.hands_per_match == 3 and len(m.games) == 1 and m.timed_out and m.is_over
        assert m.games[0].timeout_called and m.games[0].end in ("timeout", "closed", "stock", "stalemate")
        vp = m.vp()
        assert vp is not None
        seen_vp += 1
        w = m.winner()
        want = 0.0 if w is None else 1.0
        assert totals["player_0"] == (want if w == 0 else -want)
        assert totals["player_1"] == -totals["player_0"]
    assert seen_vp == 4


def test_rules_0_1_the_timeout_ends_the_match_episode_gymnasium_and_vector() -> None:
    """The same in the single-agent environment (the director's announcement by hand) and in the vector
    environment's Python tables (the auto-reset deals a new match, never a second hand of the timed-out one)."""
    env = BurracoGymEnv("italian-tournament", "easy", players=2, episode="match", reward="score")
    env.reset(seed=1)
    env.announce_timeout()
    with pytest.raises(Exception, match="time-out"):
        env.announce_timeout()  # one time-out a hand (RULES.md §0.1 C-29)
    _, term, trunc = _play_out(env, random.Random(1))
    m = env.table.match
    assert term and not trunc and len(m.games) == 1 and m.timed_out and m.vp() is not None
    with pytest.raises(RuntimeError):
        env.announce_timeout()
    with pytest.raises(ValueError, match="time-outs"):
        BurracoGymEnv("italian", "easy", episode="match", timeout_turns=5)  # free game: no time-outs (§0.1)

    venv = BurracoVecEnv(3, rules="italian-tournament", opponents="random", players=2, episode="match",
                         timeout_turns=4)
    assert venv.native is None  # the core's tables play one-hand episodes only
    venv.reset(seed=5)
    ended = timed_out = 0
    rng = random.Random(5)
    for _ in range(400):
        acts = [venv.legal_indices(i)[rng.randrange(len(venv.legal_indices(i)))] for i in range(3)]
        _, _, _, term, trunc = venv.step(np.array(acts))
        assert not trunc.any()
        ended += int(term.sum())
        for e in venv.envs:
            games = e.table.match.games
            assert not any(g.timeout_called for g in games[:-1])  # no hand is dealt after a time-out hand
            timed_out += any(g.timeout_called for g in games)
    assert ended > 0 and timed_out > 0


# ----- the progress reward ----------------------------------------------------------------------------------------
def test_progress_reward_adds_up_to_the_score_reward_less_the_first_potential() -> None:
    for seed in range(3):
        a = BurracoGymEnv("italian-2p", "easy", reward="progress")
        b = BurracoGymEnv("italian-2p", "easy", reward="score")
        a.reset(seed=seed)
        b.reset(seed=seed)
        phi0 = a.table.potential(0)
        ra, _, _ = _play_out(a, random.Random(seed))
        rb, _, _ = _play_out(b, random.Random(seed))
        assert ra == pytest.approx(rb - phi0, abs=1e-9)
        assert rb == pytest.approx(a.table.game.side_score(0)["total"] / 1000 - a.table.game.side_score(1)["total"] / 1000)
    with pytest.raises(ValueError, match="two sides"):
        BurracoGymEnv("italian-3p", "easy", reward="progress")


# ----- the action rows --------------------------------------------------------------------------------------------
def test_rows_env_passes_check_env_and_plays_the_rows_it_shows() -> None:
    env = RowsEnv(rules="italian-2p", opponents="easy", max_rows=64)
    check_env(env, skip_render_check=True)
    obs, info = env.reset(seed=2)
    assert obs["rows"].shape == (64, ACTION_FEATURES)
    rng = random.Random(0)
    done = False
    while not done:
        m = env.action_masks()
        n = int(m.sum())
        assert n == len(info["legal_indices"]) and m[:n].all() and not m[n:].any()
        assert np.array_equal(obs["rows"][:n], env.env.action_features())
        assert not obs["rows"][n:].any()
        row = rng.randrange(n)
        want = info["legal_indices"][row]
        obs, _, term, trunc, info = env.step(row)
        assert info["index"] == want
        done = term or trunc
    env.reset(seed=3)
    _, r, term, _, info = env.step(63)  # an empty row: an illegal action
    assert term and r == -1.0 and info["illegal_action"]
    with pytest.raises(TooManyActionsError):
        small = RowsEnv(rules="italian-2p", opponents="easy", max_rows=1)
        small.reset(seed=2)


def test_maskable_ppo_learns_on_the_rows_and_its_zip_plays_as_a_policy(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    from burraco.envs.sb3 import MaskableRowsPolicy

    env = RowsEnv(rules="italian-2p", opponents="random", max_rows=96)
    model = MaskablePPO(MaskableRowsPolicy, env, n_steps=32, batch_size=16, n_epochs=1, seed=0,
                        policy_kwargs={"sizes": (8, 8, 8), "value_hidden": 8})
    model.learn(32)
    path = tmp_path / "rows.zip"
    model.save(path)
    player = parse_player(f"policy:{path}")(1)
    res = play_duplicate(preset("italian-2p"), parse_player(f"policy:{path}"), parse_player("random"), 1, 0)
    assert res["deals"] == 1 and player.name == f"policy:{path}"
    # the numpy player scores as the SB3 policy does
    import torch

    obs, _ = env.reset(seed=4)
    net = model.policy.scorer.to_policy()
    n = int(env.action_masks().sum())
    with torch.no_grad():
        t_obs = {k: torch.as_tensor(v)[None] for k, v in obs.items()}
        logits = model.policy.action_net(model.policy.extract_features(t_obs))[0, :n].numpy()
    assert np.allclose(net.scores(obs["observation"], obs["rows"][:n]), logits, atol=1e-4)


# ----- the PPO example's checkpoint and the python: players ----------------------------------------------------
def test_policy_spec_reads_a_pt_checkpoint_and_refuses_what_is_not_one(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from burraco.envs.policy import PolicyFileError
    from burraco.envs.torch_policy import RowScorer, load_checkpoint, save_checkpoint

    s = RowScorer(4250, 8, 8, 8)
    save_checkpoint(s, tmp_path / "p.pt")
    back = load_checkpoint(tmp_path / "p.pt")
    obs = np.abs(np.random.default_rng(0).normal(size=4250)).astype(np.float32) * 3
    rows = np.random.default_rng(1).random((5, ACTION_FEATURES)).astype(np.float32)
    import torch

    with torch.no_grad():
        want = s(torch.from_numpy(obs)[None], torch.from_numpy(rows)[None])[0].numpy()
    assert np.allclose(back.to_policy().scores(obs, rows), want, atol=1e-5)
    npz = tmp_path / "p.npz"
    back.to_policy().save(npz)
    assert np.allclose(parse_player(f"policy:{npz}")(0).net.scores(obs, rows), want, atol=1e-5)  # type: ignore[attr-defined]
    assert parse_player(f"policy:{tmp_path / 'p.pt'}")(0).name == f"policy:{tmp_path / 'p.pt'}"
    (tmp_path / "bad.pt").write_bytes(b"not a checkpoint")
    with pytest.raises(PolicyFileError):
        parse_player(f"policy:{tmp_path / 'bad.pt'}")
    with pytest.raises(PolicyFileError, match="no such file"):
        parse_player(f"policy:{tmp_path / 'none.zip'}")


def test_python_players_are_seated_by_module_and_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bot = tmp_path / "my_bots.py"
    bot.write_text(
        "class Last:\n"
        "    def __init__(self, seed):\n"
        "        self.seed = seed\n"
        "    def choose(self, view, legal):\n"
        "        return legal[-1]\n"
        "class Plain:\n"
        "    name = 'plain'\n"
        "    def choose(self, view, legal):\n"
        "        return legal[0]\n"
        "def first(view, legal):\n"
        "    return legal[0]\n"
        "NOT_A_PLAYER = 3\n"
    )
    assert str(parse_spec("Python:my_bots:Last")) == "python:my_bots:Last"
    monkeypatch.syspath_prepend(str(tmp_path))
    last = parse_player("python:my_bots:Last")(7)
    assert last.seed == 7 and last.name == "python:my_bots:Last"  # type: ignore[attr-defined]
    assert parse_player("python:my_bots:Plain")(7).name == "plain"
    assert parse_player(f"python:{bot}:first")(0).name == f"python:{bot}:first"
    res = play_duplicate(preset("italian-2p"), parse_player("python:my_bots:Last"), parse_player(f"python:{bot}:first"),
                         1, 0)
    assert res["deals"] == 1
    for bad, why in (("python:my_bots", "MODULE:NAME"), ("python:my_bots:Nope", "no 'Nope'"),
                     ("python:no_such_module_43:X", "cannot import"), ("python:my_bots:NOT_A_PLAYER", "neither"),
                     (f"python:{tmp_path / 'none.py'}:X", "no file")):
        with pytest.raises(PlayerSpecError, match=why):
            parse_player(bad)


# ----- the opponent pool -------------------------------------------------------------------------------------------
def test_opponent_pool_memory_is_bounded() -> None:
    pool = OpponentPool(["random", "easy"], max_size=2)
    for k in range(5):
        pool.add(lambda v, legal: legal[0], label=f"ck{k}")
    assert len(pool) == 4 and pool.labels() == ["member 0", "member 1", "ck3", "ck4"]
    env = BurracoGymEnv("italian", [pool, "random", pool])
    for s in range(30):
        env.reset(seed=s)
        assert len(pool.drawn) == 2  # this episode's draws only: one per seat the pool serves
    assert sum(pool.counts.values()) == 60 and set(pool.counts) <= {"member 0", "member 1", "ck3", "ck4"}
    with pytest.raises(ValueError):
        OpponentPool(["random"], max_size=0)


# ----- vector environments ---------------------------------------------------------------------------------------
def test_gymnasium_vector_env_with_full_and_compact_masks() -> None:
    full = BurracoVectorEnv(4, rules="italian", opponents="easy")
    compact = BurracoVectorEnv(4, rules="italian", opponents="easy", masks="indices", max_legal=4)
    assert isinstance(full, gymnasium.vector.VectorEnv)
    assert full.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    o1, i1 = full.reset(seed=3)
    o2, i2 = compact.reset(seed=3)
    assert full.observation_space.shape == (4, 4250) and o1.shape == (4, 4250)
    assert full.observation_space.contains(o1)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(300):
        assert np.array_equal(o1, o2)
        mask = i1["action_mask"]
        for t in range(4):
            k = int(i2["legal_count"][t])
            assert sorted(i2["legal"][t, :k].tolist()) == np.flatnonzero(mask[t]).tolist()
            assert (i2["legal"][t, k:] == -1).all()
        acts = compact.sample_legal(rng)
        assert all(mask[t, acts[t]] for t in range(4))
        o1, r1, t1, u1, i1 = full.step(acts)
        o2, r2, t2, u2, i2 = compact.step(acts)
        assert np.array_equal(r1, r2) and np.array_equal(t1, t2)
        if t1.any():
            ended += int(t1.sum())
            for t in np.flatnonzero(t1):
                assert i1["_final_obs"][t] and i1["final_obs"][t].shape == (4250,)
    assert ended > 0 and compact.legal.shape[1] > 4  # widened for a table with more legal actions
    with pytest.raises(ValueError):
        full.sample_legal()


def test_sb3_vec_env_checks_and_steps() -> None:
    pytest.importorskip("stable_baselines3")
    from burraco.envs.sb3 import BurracoSB3VecEnv

    v = BurracoSB3VecEnv(3, rules="italian-2p", opponents="easy")
    v.seed(11)
    obs = v.reset()
    assert obs.shape == (3, 4250)
    masks = np.stack(v.env_method("action_masks"))
    assert masks.shape == (3, 96218) and masks.any(axis=1).all()
    rng = np.random.default_rng(1)
    done_seen = False
    for _ in range(200):
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in np.stack(v.env_method("action_masks"))])
        obs, rew, dones, infos = v.step(acts)
        for i in np.flatnonzero(dones):
            done_seen = True
            assert infos[i]["terminal_observation"].shape == (4250,)
    assert done_seen and v.get_attr("seat") == [0, 0, 0]


# ----- PettingZoo -------------------------------------------------------------------------------------------------
def test_raw_env_and_env_pair_pass_the_api_test() -> None:
    from pettingzoo.test import api_test

    from burraco.envs import pettingzoo_aec

    raw = pettingzoo_aec.raw_env(rules="italian-2p", mask_in_obs=False)
    assert isinstance(raw, pettingzoo_aec.BurracoAEC)
    wrapped = pettingzoo_aec.env(rules="italian-2p", mask_in_obs=False)
    assert wrapped.unwrapped.__class__ is pettingzoo_aec.BurracoAEC
    api_test(wrapped, num_cycles=300)
    with pytest.raises(AssertionError, match="reset"):
        pettingzoo_aec.env(rules="italian-2p").step(0)  # before reset: the order-enforcing wrapper refuses


def test_the_space_samples_its_own_masks_as_discrete_does() -> None:
    """``env.action_space(agent).sample(obs["action_mask"])`` draws from the legal indices without scanning the
    mask, and draws what gymnasium's Discrete.sample draws from the same generator."""
    env = pettingzoo_env(rules="italian")
    ref = gymnasium.spaces.Discrete(env.table.layout.num_actions)
    env.reset(seed=9)
    for i, agent in enumerate(env.agent_iter(max_iter=400)):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        space = env.action_space(agent)
        space.seed(i)
        ref.seed(i)
        mine = space.sample(obs["action_mask"])
        assert mine == ref.sample(obs["action_mask"])
        space.seed(i)
        ref.seed(i)
        other = obs["action_mask"].copy()  # not the table's array: Discrete's own path, checks and all
        assert space.sample(other) == ref.sample(other) == mine
        env.step(int(mine))

"""The vectorised environment (burraco.envs.vector.BurracoVecEnv): N tables in one call, numpy buffers."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

from burraco.determinize import determinize  # noqa: E402
from burraco.envs import features as ft  # noqa: E402
from burraco.envs.vector import BurracoVecEnv  # noqa: E402


def _run(venv: BurracoVecEnv, steps: int, seed: int) -> tuple[list[float], int]:
    obs, masks = venv.reset(seed=seed)
    rng = random.Random(seed)
    rewards: list[float] = []
    ends = 0
    for _ in range(steps):
        acts = [rng.choice(venv.legal_indices(i)) for i in range(venv.num_envs)]
        obs, masks, r, term, trunc = venv.step(acts)
        rewards.extend(r.tolist())
        ends += int((term | trunc).sum())
    return rewards, ends


@pytest.mark.parametrize("opponents", ["heuristic:easy", "random"])  # random: on the native core where it is built
def test_buffers_masks_observations_and_auto_reset(opponents: str) -> None:
    from burraco.envs.observation import encode_view

    venv = BurracoVecEnv(3, rules="italian-2p", opponents=opponents)
    obs, masks = venv.reset(seed=10)
    assert obs.shape == (3, venv.obs_size) and masks.shape == (3, venv.num_actions)
    rng = random.Random(0)
    ends = 0
    for _ in range(400):
        for i, env in enumerate(venv.envs):
            # every row is the learner's own: its view's vector (no hidden card) and exactly its legal actions
            assert np.array_equal(obs[i], encode_view(venv.game(i).view(env.seat)))
            assert np.array_equal(np.flatnonzero(masks[i]), sorted(venv.legal_indices(i)))
            assert venv.action_features(i).shape == (len(venv.legal_indices(i)), ft.ACTION_FEATURES)
        acts = np.array([rng.choice(venv.legal_indices(i)) for i in range(3)])
        obs, masks, r, term, trunc = venv.step(acts)
        done = term | trunc
        for i in np.flatnonzero(done):
            ends += 1
            assert r[i] != 0.0  # the hand's reward arrives with the step that ends it
            assert masks[i].any() and not venv.final_mask[i].any()  # reset: the new hand's first state
    assert ends >= 2


def test_the_same_seed_gives_the_same_run_and_tables_differ() -> None:
    a = _run(BurracoVecEnv(2, rules="italian-2p"), 150, 3)
    b = _run(BurracoVecEnv(2, rules="italian-2p"), 150, 3)
    assert a == b
    venv = BurracoVecEnv(2, rules="italian")
    obs, _ = venv.reset(seed=1)
    assert not np.array_equal(obs[0], obs[1])


def test_illegal_indices_end_that_table_only_and_bad_shapes_are_refused() -> None:
    venv = BurracoVecEnv(2, rules="italian", illegal_reward=-2.0)
    venv.reset(seed=0)
    good = venv.legal_indices(1)[0]
    obs, masks, r, term, trunc = venv.step([venv.num_actions - 1, good])
    assert term.tolist() == [True, False] and r[0] == -2.0
    with pytest.raises(ValueError, match="2 actions expected"):
        venv.step([0])


@pytest.mark.parametrize("native", [False, None])  # None: the core's tables where it is built
def test_vector_rows_hold_no_hidden_card(native: bool | None) -> None:
    """The leak test: the observation and the action features of table i are the same when the hidden cards
    of its learner seat's view are dealt again (burraco.determinize)."""
    from burraco.envs.observation import encode_game

    venv = BurracoVecEnv(2, rules="italian", native=native)
    venv.reset(seed=5)
    rng = random.Random(1)
    checked = 0
    for step in range(120):
        for i, env in enumerate(venv.envs):
            g = venv.game(i)
            if step % 4 == 0 and g.current_seat == env.seat:
                d = determinize(g.view(env.seat), random.Random(checked))
                assert np.array_equal(encode_game(d, env.seat, env.table._totals_before), venv.obs[i])
                assert np.array_equal(ft.action_features(d.view(env.seat), d.legal_actions()),
                                      venv.action_features(i))
                checked += 1
        venv.step([rng.choice(venv.legal_indices(i)) for i in range(2)])
    assert checked > 20

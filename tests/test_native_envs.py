"""The research environments on the native core (burraco._native Encoding and VecTables, burraco.envs.native_env):
observations, masks and legal indices equal to the Python encoder's on every state of random hands of every preset
the core plays, the vector environment equal to the Python tables stepped one by one, and no hidden card in an
observation."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

from burraco import Game, preset  # noqa: E402
from burraco.bots.heuristic import HeuristicPlayer  # noqa: E402
from burraco.determinize import determinize  # noqa: E402
from burraco.envs import action_index, layout, observation  # noqa: E402
from burraco.envs._core import Table  # noqa: E402
from burraco.envs.native_env import hand_of, native_encoding  # noqa: E402
from burraco.envs.vector import BurracoVecEnv  # noqa: E402
from burraco.native import available, supported  # noqa: E402
from burraco.rules import PRESETS  # noqa: E402
from helpers import greedy_move, match_states  # noqa: E402

pytestmark = pytest.mark.skipif(not available(), reason="the native core is not built (or BURRACO_PURE is set)")

NATIVE = [name for name in PRESETS if supported(preset(name)) is None]


def test_every_preset_and_player_count_is_played_natively() -> None:
    assert {preset(n).players for n in NATIVE} == {2, 3, 4, 5, 6}
    assert all(native_encoding(preset(n)) is not None for n in NATIVE)


@pytest.mark.parametrize("name", NATIVE)
def test_native_observation_mask_and_indices_equal_the_python_encoders(name: str) -> None:
    """Every state of random hands, every seat: the core's observation equals encode_game's (and the Python
    Encoder's), its legal indices legal_indices' (the same order), its mask action_mask's."""
    r = preset(name)
    lay = layout.layout_for(r)
    E = native_encoding(r)
    py = observation.Encoder(r)
    out = np.zeros(lay.obs_size, dtype=np.float32)
    mask = np.zeros(lay.num_actions, dtype=np.int8)
    states = 0
    for i in range(3):
        g = Game.new(r, seed=900 + i)
        rng = random.Random(i)
        while True:
            h = hand_of(g)
            for s in range(r.players):
                E.encode(h, s, out)
                want = observation.encode_game(g, s)
                assert np.array_equal(out, want), (name, i, s, len(g.actions))
                assert np.array_equal(py.encode(g, s), want)
            states += 1
            if g.end is not None:
                assert E.legal_indices(h) == []
                break
            legal = g.legal_actions()
            melds = g.melds[g.side_of(g.current_seat)]
            codes = E.legal_indices(h)
            assert codes == action_index.legal_indices(legal, melds, lay), (name, i, len(g.actions))
            mask[:] = 0
            E.mask(h, mask)
            assert np.array_equal(mask, action_index.action_mask(legal, melds, lay))
            g.apply(greedy_move(g, rng))
    assert states > 50


def test_native_observation_with_match_totals() -> None:
    """Through matches (the totals before each hand: per side, per player with 3 and 5): the core's observation
    with the totals equals encode_game's."""
    for name in ("italian", "italian-2p", "italian-3p", "italian-5p", "italian-6p"):
        r = preset(name)
        lay = layout.layout_for(r)
        E = native_encoding(r)
        out = np.zeros(lay.obs_size, dtype=np.float32)
        nonzero = False
        for g, totals in match_states(r, 17, random.Random(3), hands=2, move=greedy_move):
            nonzero = nonzero or any(totals)
            if g.end is None and len(g.actions) % 9 == 0:
                for s in range(r.players):
                    E.encode(hand_of(g), s, out, totals)
                    assert np.array_equal(out, observation.encode_game(g, s, totals)), (name, s, len(g.actions))
        assert nonzero


@pytest.mark.parametrize("name", ["italian", "italian-3p", "italian-6p"])
def test_native_observations_hold_no_hidden_card(name: str) -> None:
    """The leak test on the native encoder: a game dealt again consistently with a seat's view (the other hands,
    the stock and the pozzetti reshuffled, burraco.determinize) gives that seat the same vector."""
    r = preset(name)
    lay = layout.layout_for(r)
    E = native_encoding(r)
    a = np.zeros(lay.obs_size, dtype=np.float32)
    b = np.zeros(lay.obs_size, dtype=np.float32)
    checked = 0
    for i in range(2):
        g = Game.new(r, seed=700 + i)
        rng = random.Random(i)
        while g.end is None:
            if len(g.actions) % 7 == 0:
                for s in range(r.players):
                    d = determinize(g.view(s), random.Random(checked))
                    E.encode(hand_of(g), s, a)
                    E.encode(hand_of(d), s, b)
                    assert np.array_equal(a, b), (name, s, len(g.actions))
                    # counted where the deal really changed (late in a hand every card may be known)
                    checked += any(d.hands[x] != g.hands[x] for x in range(r.players) if x != s) or g.stock != d.stock
            g.apply(greedy_move(g, rng))
    assert checked > 20


def test_table_native_equals_table_python() -> None:
    for name in ("italian", "italian-5p"):
        r = preset(name)
        a, b = Table(r, native=True), Table(r, native=False)
        assert a.native is not None and b.native is None
        a.reset(5)
        b.reset(5)
        rng = random.Random(2)
        while not a.over:
            for s in range(r.players):
                assert np.array_equal(a.observation(s), b.observation(s))
                assert np.array_equal(a.mask(s), b.mask(s))
            assert a.legal_codes() == b.legal_codes()
            i = rng.randrange(len(a.legal_codes()))
            assert a.play(a.legal()[i]) == b.play(b.legal()[i])
        assert b.over


@pytest.mark.parametrize("name", ["italian-2p", "italian", "italian-3p", "italian-5p", "italian-6p"])
def test_core_served_table_equals_the_python_table_over_a_match(name: str) -> None:
    """The PettingZoo environment's table (``core_served``: hands stepped by index in the core, the Python fields made
    only when read) gives the Python table's observations, masks, indices and rewards over three hands of a match
    (the scores and the match totals from the core: with 3 and 5 players, the pairs' split too); the hands'
    records are the same."""
    r = preset(name)
    a = Table(r, episode="match", max_hands=3, core_served=True)
    b = Table(r, episode="match", max_hands=3, native=False)
    a.reset(11)
    b.reset(11)
    rng = random.Random(4)
    while not b.over:
        assert a.to_act == b.to_act
        s = a.to_act
        assert a.game._deferred  # nothing in the loop makes the Python fields of the hand in play
        assert np.array_equal(a.observation(s), b.observation(s))
        assert np.array_equal(a.mask(s), b.mask(s))
        codes = a.legal_codes()
        assert codes == b.legal_codes()
        i = rng.randrange(len(codes))
        assert a.position_of(codes[i]) == i
        assert a.play_at(i) == b.play(b.legal()[i])
    assert a.over and a.truncated == b.truncated and a.match.totals == b.match.totals
    assert [g.actions for g in a.match.games] == [g.actions for g in b.match.games]
    assert [g.scores() for g in a.match.games] == [g.scores() for g in b.match.games]


@pytest.mark.parametrize("name", ["italian-2p", "italian", "italian-3p", "italian-5p", "italian-6p"])
def test_a_core_served_game_scores_as_the_python_engine(name: str) -> None:
    """At the end of random hands a game the core alone serves (no Python field made) gives the scores, the
    players' points and the sides of the Python engine's copy of it."""
    from burraco.game import apply_legal_index, core_served

    r = preset(name)
    rng = random.Random(9)
    for seed in range(4):
        g = core_served(Game.new(r, seed=seed))
        ref = Game.new(r, seed=seed)
        assert g._deferred
        while g.end is None:
            a = apply_legal_index(g, rng.randrange(len(g.legal_actions())))
            ref.apply(a)
        assert g._deferred  # nothing above made the Python fields
        assert g.scores() == ref.scores() and g.player_points() == ref.player_points()
        assert [g.side_of(s) for s in range(r.players)] == [ref.side_of(s) for s in range(r.players)]
        assert list(g.scores() or {}) == list(ref.scores() or {})  # the sides' names in the same order


def test_draw_below_is_numpys_integers_draw_for_draw() -> None:
    """``_native.draw_below(capsule, n)`` (the PettingZoo action space's draw) is ``Generator.integers(0, n)`` of the
    same generator, draw for draw, on every bit generator numpy has, with other draws between (numpy's buffered
    32-bit half-words) and n from 1 to 2**32."""
    from burraco._accel import core

    rng = random.Random(5)
    for kind in (np.random.PCG64, np.random.MT19937, np.random.Philox, np.random.SFC64, np.random.PCG64DXSM):
        a = np.random.Generator(kind(7))
        b = np.random.Generator(kind(7))
        for _ in range(3000):
            n = rng.choice((1, 2, 3, 7, 96218, 2**31 + 11, 2**32 - 1, 2**32, rng.randrange(1, 300)))
            if rng.random() < 0.1:
                assert a.integers(0, 1000, dtype=np.uint32) == b.integers(0, 1000, dtype=np.uint32)
            with b.bit_generator.lock:
                got = core.draw_below(b.bit_generator.capsule, n)
            assert got == int(a.integers(0, n)), (kind, n)
        assert a.integers(0, 2**62, size=4).tolist() == b.integers(0, 2**62, size=4).tolist()


@pytest.mark.parametrize("name", ["italian-2p", "italian", "italian-3p", "italian-5p", "italian-6p", "brazilian"])
@pytest.mark.parametrize("reward", ["score", "win"])
def test_native_vector_env_equals_the_python_tables_stepped_one_by_one(name: str, reward: str) -> None:
    """The same seeds, the same actions (now and then an illegal one): the core's tables give the buffers of the
    Python tables -- observations, masks, rewards, terminations, the finished episodes' last observations, the
    auto-reset hands -- at every step."""
    a = BurracoVecEnv(3, rules=name, reward=reward, illegal_reward=-2.0)
    b = BurracoVecEnv(3, rules=name, reward=reward, illegal_reward=-2.0, native=False)
    assert _step_side_by_side(a, b, seed=7, steps=250, illegal=0.005) >= 3
    i = 0
    assert a.game(i).legal_actions() == b.game(i).legal_actions()
    assert np.array_equal(a.action_features(i), b.action_features(i))


def _step_side_by_side(a: BurracoVecEnv, b: BurracoVecEnv, seed: int, steps: int, illegal: float = 0.0) -> int:
    """Reset the core's tables ``a`` and the Python tables ``b`` from one seed and step both with the same random
    legal indices (an illegal one with probability ``illegal``), comparing every buffer at every step; the number
    of episodes ended."""
    assert a.native is not None and b.native is None
    for x, y in zip(a.reset(seed=seed), b.reset(seed=seed), strict=True):
        assert np.array_equal(x, y)
    rng = random.Random(seed)
    ends = 0
    for step in range(steps):
        acts = []
        for i in range(a.num_envs):
            li = a.legal_indices(i)
            assert li == b.legal_indices(i), (step, i)
            acts.append(rng.choice(li) if rng.random() >= illegal else a.num_actions - 1)
        for x, y, what in zip(a.step(acts), b.step(acts), ("obs", "masks", "rewards", "term", "trunc"), strict=True):
            assert np.array_equal(x, y), (step, what)
        assert np.array_equal(a.final_obs, b.final_obs) and not a.final_mask.any()
        ends += int(a.terminated.sum())
    return ends


@pytest.mark.parametrize(
    ("name", "opponents", "seat"),
    [
        ("italian-2p", "heuristic:easy", 0),
        ("italian", ["hard", "random", "heuristic:medium"], 0),
        ("italian", "medium", 2),
        ("italian-3p", ["heuristic:hard", "easy"], 1),
        ("brazilian", "hard", 3),
    ],
)
def test_native_vector_env_with_heuristic_opponents_equals_the_python_tables(
    name: str, opponents: object, seat: int
) -> None:
    """Opponents named ``heuristic:LEVEL`` are played by the core's heuristic: the same choices as
    :class:`HeuristicPlayer` seeded as the Gymnasium environment seeds it, so the same buffers at every step."""
    a = BurracoVecEnv(2, rules=name, opponents=opponents, seat=seat)  # type: ignore[arg-type]
    b = BurracoVecEnv(2, rules=name, opponents=opponents, seat=seat, native=False)  # type: ignore[arg-type]
    assert _step_side_by_side(a, b, seed=11, steps=160) >= 1
    assert a.game(1).legal_actions() == b.game(1).legal_actions()


def test_the_python_tables_serve_what_the_core_does_not_step() -> None:
    assert BurracoVecEnv(2, rules="italian", opponents="ismcts:5").native is None
    assert BurracoVecEnv(2, rules="italian", opponents=HeuristicPlayer("easy", 1)).native is None
    assert BurracoVecEnv(2, rules="italian", episode="match").native is None
    with pytest.raises(ValueError, match="native=True"):
        BurracoVecEnv(2, rules="italian", opponents="ismcts:5", native=True)


def test_bad_buffers_are_refused() -> None:
    venv = BurracoVecEnv(2, rules="italian-2p")
    venv.reset(seed=0)
    E = native_encoding(preset("italian-2p"))
    h = hand_of(Game.new(preset("italian-2p"), seed=1))
    with pytest.raises(ValueError, match="buffer"):
        E.encode(h, 0, np.zeros(10, dtype=np.float32))
    with pytest.raises(ValueError, match="buffer"):
        venv.native.step(np.zeros(2, np.int64), venv._next, venv.obs[:1], venv.masks, venv.rewards,
                         venv.terminated, venv.final_obs)
    with pytest.raises(ValueError, match="other rules"):
        E.encode(hand_of(Game.new(preset("italian"), seed=1)), 0, np.zeros(venv.obs_size, dtype=np.float32))

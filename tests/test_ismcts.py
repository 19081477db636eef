"""The ISMCTS player: legal actions in every tested preset, decisions from the view only, the cheating reference."""

from __future__ import annotations

import random

import pytest

from burraco import Game, determinize, preset
from burraco.bots import CheatingISMCTSPlayer, HeuristicPlayer, ISMCTSPlayer
from burraco.bots.ismcts import evaluate


def _mid_game(name: str, seed: int, steps: int) -> Game:
    """A hand of ``name`` after ``steps`` actions of heuristic play."""
    g = Game.new(preset(name), seed=seed)
    players = [HeuristicPlayer("medium", seed=s) for s in range(g.n)]
    for _ in range(steps):
        if g.end is not None:
            break
        seat = g.current_seat
        g.apply(players[seat].choose(g.view(seat), g.legal_actions()))
    return g


@pytest.mark.parametrize("name", ["italian", "brazilian", "italian-2p"])
def test_ismcts_actions_are_legal(name: str) -> None:
    g = Game.new(preset(name), seed=11)
    bot = ISMCTSPlayer(seed=1, iterations=30, rollout_depth=6)
    others = [HeuristicPlayer("hard", seed=s) for s in range(g.n)]
    searched = 0
    while g.end is None:
        seat = g.current_seat
        legal = g.legal_actions()
        if seat == 0 and searched < 12:
            a = bot.choose(g.view(seat), legal)
            assert a in legal
            if len(legal) > 1:
                searched += 1
        else:
            a = others[seat].choose(g.view(seat), legal)
        g.apply(a)
    assert searched > 0
    assert g.scores() is not None


def test_ismcts_depends_only_on_the_view() -> None:
    checked = 0
    for name, seed, steps in (
        ("italian", 3, 9),
        ("italian", 4, 22),
        ("brazilian", 5, 14),
        ("italian-2p", 6, 17),
    ):
        g = _mid_game(name, seed, steps)
        if g.end is not None:
            continue
        seat = g.current_seat
        view = g.view(seat)
        legal = g.legal_actions()
        if len(legal) < 2:
            continue
        choices = set()
        states = [g] + [determinize(view, random.Random(100 + k)) for k in range(2)]
        assert any(d.hands != g.hands for d in states[1:])
        for d in states:
            assert d.view(seat) == view
            assert d.legal_actions() == legal
            choices.add(ISMCTSPlayer(seed=9, iterations=40, rollout_depth=6).choose(d.view(seat), legal))
        assert len(choices) == 1
        checked += 1
    assert checked >= 3


def test_ismcts_single_legal_action_needs_no_search() -> None:
    g = Game.new(preset("italian"), seed=2)
    bot = ISMCTSPlayer(seed=0, iterations=1000)
    legal = g.legal_actions()[:1]
    assert bot.choose(g.view(g.current_seat), legal) == legal[0]
    assert bot.last_iterations == 0


def test_cheating_player_is_legal() -> None:
    bot = CheatingISMCTSPlayer(seed=2, iterations=30, rollout_depth=6)
    assert bot.needs_state and bot.name == "cheating"
    for name, seed, steps in (("italian", 7, 10), ("brazilian", 8, 21)):
        g = _mid_game(name, seed, steps)
        for _ in range(4):
            if g.end is not None:
                break
            legal = g.legal_actions()
            a = bot.choose_with_state(g, legal)
            assert a in legal
            g.apply(a)


def test_evaluate_is_bounded_and_antisymmetric() -> None:
    g = _mid_game("italian", 12, 40)
    for side in (0, 1):
        assert -1.0 <= evaluate(g, side) <= 1.0
    assert evaluate(g, 0) == pytest.approx(-evaluate(g, 1))


def test_pick_best_keeps_the_heuristic_choice_unless_clearly_beaten() -> None:
    from burraco.bots.ismcts import pick_best

    # candidate 1 is better on every determinization: a clear paired difference
    assert pick_best([[0.0, 0.1, -0.2, 0.3], [0.2, 0.3, 0.0, 0.5]], z=1.0) == 1
    # a better mean from one lucky determinization is noise: the heuristic's choice stays
    assert pick_best([[0.0, 0.0, 0.0, 0.0], [-0.5, -0.5, -0.5, 2.0]], z=1.0) == 0
    # one sample proves nothing
    assert pick_best([[0.0], [1.0]], z=1.0) == 0
    # among candidates that beat the first one clearly, the best mean wins
    assert pick_best([[0.0, 0.0, 0.0], [0.2, 0.3, 0.25], [0.5, 0.6, 0.55]], z=1.0) == 2
    # with a floor, only an advantage above it counts, however sure
    assert pick_best([[0.0, 0.0, 0.0], [0.2, 0.3, 0.25]], z=1.0, floor=0.3) == 0
    assert pick_best([[0.0, 0.0, 0.0], [0.2, 0.3, 0.25]], z=1.0, floor=0.1) == 1
    assert pick_best([[0.0, 0.0, 0.0], [0.2, 0.3, 0.25], [0.5, 0.6, 0.55]], z=1.0, floor=0.3) == 2




def test_paired_differences() -> None:
    from burraco.bots.ismcts import paired

    m, se, n = paired([[0.0, 0.2, 0.4], [-0.5, -0.3, -0.1]], 1)
    assert n == 3 and m == pytest.approx(-0.5) and se == pytest.approx(0.0)
    m, se, n = paired([[0.0, 0.0, 0.0, 0.0], [1.0, -1.0, 1.0, -1.0]], 1)
    assert m == pytest.approx(0.0) and se == pytest.approx(0.57735, rel=1e-4) and n == 4


def test_flat_search_plays_every_candidate_on_every_determinization() -> None:
    g = _mid_game("italian", 6, 12)
    while g.end is None and len(g.legal_actions()) < 4:
        g.apply(g.legal_actions()[0])
    legal = g.legal_actions()
    view = g.view(g.current_seat)
    bot = ISMCTSPlayer(seed=2, iterations=5, rollout_depth=30)
    assert bot.choose(view, legal) in legal
    assert bot.last_iterations == 5
    assert bot.last_rollouts == 5 * len(bot.root_candidates(view, legal)) > 5


@pytest.mark.parametrize("name", ["italian-3p", "italian-5p", "italian"])
def test_per_player_outcome_is_the_match_totals_and_the_same_on_both_engines(name: str) -> None:
    """RULES.md §14.3: with 3 and 5 players every player keeps his own total (the solo his side's whole score, each
    of a pair half of it), so a finished rollout is judged by what it adds to the seat's total against the mean of
    the others'; the native core's result is the Python engine's, and with 4 players (sides) nothing changes."""
    from burraco import native
    from burraco.bots.ismcts import REWARD_SCALE, _native_outcome, _outcome_for, outcome

    if not native.available():
        pytest.skip("the native core is not built")
    rules = preset(name)
    checked = 0
    for seed in range(4):
        g = Game.new(rules, seed=seed)
        players = [HeuristicPlayer("hard", seed=s) for s in range(g.n)]
        while g.end is None:
            s = g.current_seat
            g.apply(players[s].choose(g.view(s), g.legal_actions()))
        h = native.NativeHand.from_game(g)
        pts = g.player_points()
        for seat in range(g.n):
            per_player = g.n in (3, 5)
            got = _outcome_for(g, seat, per_player)
            assert _native_outcome(h, seat, per_player) == pytest.approx(got)
            if per_player:
                others = [p for o, p in enumerate(pts) if o != seat]
                assert got == pytest.approx((pts[seat] - sum(others) / len(others)) / REWARD_SCALE)
            else:
                assert got == outcome(g, g.side_of(seat))
            checked += 1
    assert checked
    view = Game.new(rules, seed=0).view(0)
    assert ISMCTSPlayer()._per_player(view) == (rules.players in (3, 5))  # by default where totals are per player
    assert not ISMCTSPlayer(per_player=False)._per_player(view)


@pytest.mark.parametrize("threads", [1, 2])
def test_a_timed_search_runs_its_floor_of_determinizations_however_short_its_time(threads: int) -> None:
    """issue 38 item 8: a timed search keeps a floor of determinizations (``min_iterations``): with a budget far too
    short for them (a loaded machine) it runs them all, late rather than weak; without a floor it stops at its
    budget."""
    g = _mid_game("italian", 6, 12)
    while g.end is None and len(g.legal_actions()) < 4:
        g.apply(g.legal_actions()[0])
    view, legal = g.view(g.current_seat), g.legal_actions()
    floored = ISMCTSPlayer(seed=2, time_budget=1e-6, min_iterations=40, threads=threads)
    assert floored.choose(view, legal) in legal
    assert floored.last_iterations >= 40
    bare = ISMCTSPlayer(seed=2, time_budget=1e-6, threads=threads)
    assert bare.choose(view, legal) in legal
    assert 1 <= bare.last_iterations < 40
    with pytest.raises(ValueError, match="min_iterations"):
        ISMCTSPlayer(min_iterations=-1)


def test_expert_and_every_timed_spec_keep_the_floor() -> None:
    from burraco.arena import parse_player
    from burraco.bots.players import EXPERT_SECONDS, dets_floor

    expert = parse_player("expert")(1)
    assert isinstance(expert, ISMCTSPlayer) and expert.time_budget == EXPERT_SECONDS
    assert expert.min_iterations == dets_floor(EXPERT_SECONDS) == 400
    assert parse_player("cheat:0.25s")(1).min_iterations == 200  # type: ignore[attr-defined]
    assert parse_player("ismcts:300")(1).min_iterations == 0  # type: ignore[attr-defined]  # a fixed budget: none

"""Levels for people (issue 22, item 3): ``medium`` errs like a club player -- it does not tell apart the moves
scored within ``CLUB_MARGIN`` points of its best and plays one of them at random, from its own generator -- while
``hard`` and ``easy`` play exactly as before (the search's rollouts use ``hard``). The native core's ``medium``
draws the same (tests/test_native.py compares every level on every state); its danger model and the cost of
dirtying a clean run are kept (tests/test_heuristic_partner.py)."""

from __future__ import annotations

import hashlib
import random

import pytest

from burraco import Game, native, preset
from burraco.arena import play_duplicate
from burraco.bots.heuristic import CLUB_MARGIN, TIE, HeuristicPlayer, _Ctx


def _states(name: str, seeds: range) -> list[Game]:
    """Every decision of hands played by medium and hard (two seats each), as games to decide from."""
    out: list[Game] = []
    for seed in seeds:
        g = Game.new(preset(name), seed=seed)
        players = [HeuristicPlayer(("medium", "hard")[(seed + k) % 2], seed=seed * 10 + k) for k in range(g.n)]
        while g.end is None:
            legal = g.legal_actions()
            if len(legal) > 1:
                out.append(g.clone())
            g.apply(players[g.turn].choose(g.view(g.turn), legal))
    return out


def test_the_levels_margins() -> None:
    assert HeuristicPlayer("medium").margin == CLUB_MARGIN == 14.0
    assert HeuristicPlayer("hard").margin == HeuristicPlayer("easy").margin == TIE == 1e-9
    assert HeuristicPlayer("medium", safety=False).margin == TIE  # the play before the partner's safety
    assert HeuristicPlayer("medium", margin=5).name == "heuristic:medium:margin=5"


@pytest.mark.parametrize("name", ["italian", "italian-2p"])
def test_issue22_medium_errs_only_among_the_moves_within_the_club_margin(name: str) -> None:
    """On every state of heuristic hands medium plays a move scored within CLUB_MARGIN of its best (by its own
    scores); where that move is alone it is the best one, as without the margin; where there are several, the
    draw falls on each of them for some seed, and every one of them is within the margin."""
    several = 0
    seen_other = 0
    for g in _states(name, range(2)):
        view, legal = g.view(g.turn), g.legal_actions()
        ctx = _Ctx(view, "medium")
        scores = {a: HeuristicPlayer("medium").evaluate(ctx, a) for a in legal}
        best = max(scores.values())
        near = sorted(a for a in legal if scores[a] >= best - CLUB_MARGIN)
        assert HeuristicPlayer("medium").near_best(list(scores.values()), list(scores)) == near
        exact = HeuristicPlayer("medium", seed=0, margin=TIE).choose(view, legal)
        chosen = {HeuristicPlayer("medium", seed=s).choose(view, legal) for s in range(12)}
        assert all(scores[a] >= best - CLUB_MARGIN for a in chosen)
        if len(near) == 1:
            assert chosen == {exact}
        else:
            several += 1
            assert len(chosen) > 1 or len(near) > 3  # 12 uniform draws among 2 or 3 all fall on one: < 0.1 %
            seen_other += any(scores[a] < best - TIE for a in chosen)
    assert several > 10 and seen_other > 5


def test_issue22_hard_and_easy_choose_the_best_move_only() -> None:
    """hard and easy keep the best-scored moves (ties drawn at random), as before the levels for people."""
    for g in _states("italian", range(1)):
        view, legal = g.view(g.turn), g.legal_actions()
        for level in ("hard", "easy"):
            p = HeuristicPlayer(level, seed=3)
            a, values = p.choose_scored(view, legal)
            assert values[legal.index(a)] >= max(values) - TIE


def test_issue22_hard_and_easy_play_the_same_games_as_before() -> None:
    """The duplicate arena of hard against easy, recorded before medium's margin: the same deals, the same
    differences, the same number of moves (the search's rollouts and running benchmarks use hard)."""
    hard = lambda s: HeuristicPlayer("hard", s)  # noqa: E731
    easy = lambda s: HeuristicPlayer("easy", s)  # noqa: E731
    d = play_duplicate(preset("italian"), hard, easy, 12, seed=2022)
    assert d["diffs"] == [95, -470, -305, 660, 825, 325, -935, 1200, 705, -30, 615, 775]
    assert (d["a_moves"], d["b_moves"]) == (1155, 1087)
    d = play_duplicate(preset("italian-2p"), hard, easy, 12, seed=2022)
    assert d["diffs"] == [1220, 550, 1355, 1780, 585, 265, 660, 1245, 940, 410, -205, 150]
    assert (d["a_moves"], d["b_moves"]) == (1725, 1514)


@pytest.mark.skipif(not native.available(), reason="burraco._native not built or BURRACO_PURE")
def test_issue22_the_native_hard_and_easy_play_the_same_hands_as_before() -> None:
    """The core's hard and easy playouts (the search's rollouts) end every hand as before medium's margin: a digest
    of their end states recorded on the commit before it."""
    h = hashlib.sha256()
    for name in ("italian", "italian-2p", "brazilian"):
        for seed in range(20):
            for level in ("easy", "hard"):
                x = native.NativeHand.from_game(Game.new(preset(name), seed=seed))
                x.seeded_heuristic_playout(level, seed * 7 + 1)
                h.update(repr(x.fields()).encode())
    assert h.hexdigest()[:32] == "0ff15fe596567a37539f4c8d75c32753"


@pytest.mark.skipif(not native.available(), reason="burraco._native not built or BURRACO_PURE")
@pytest.mark.parametrize("name", ["italian", "italian-2p", "italian-3p"])
def test_issue22_the_native_medium_draws_the_same_move_within_the_margin(name: str) -> None:
    """The core's medium chooses what HeuristicPlayer("medium") chooses on states where several moves are within
    the margin, and advances the generator the same way."""
    several = 0
    for i, g in enumerate(_states(name, range(1))):
        view, legal = g.view(g.turn), g.legal_actions()
        h = native.NativeHand.from_game(g)
        for s in range(3):
            p = HeuristicPlayer("medium", seed=i * 10 + s)
            mine = random.Random()
            mine.setstate(p.rng.getstate())
            values = p.choose_scored(view, legal)[1]
            several += len(p.near_best(values, legal)) > 1
            p.rng.setstate(mine.getstate())
            assert h.heuristic_choice("medium", mine) == p.choose(view, legal)
            assert mine.getstate() == p.rng.getstate()
    assert several > 10

"""Computer players: legality over every preset, decisions from the view only, strength, and the arena."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

import burraco
from burraco import PRESETS, Game, determinize, preset
from burraco.arena import parse_player, play_duplicate
from burraco.bots import HeuristicPlayer, Player, RandomPlayer
from burraco.cli import app

LEVELS = ("easy", "medium", "hard")


def _play(g: Game, players: list[Player], check: bool = True, cap: int = 3000) -> None:
    n = 0
    while g.end is None and n < cap:
        seat = g.current_seat
        legal = g.legal_actions()
        a = players[seat].choose(g.view(seat), legal)
        if check:
            assert a in legal, f"{players[seat].name} chose {a} not in the legal list"
        g.apply(a)
        n += 1
    assert g.end is not None, "the hand did not end"


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("players", [2, 4])
def test_heuristic_actions_are_legal(name: str, players: int) -> None:
    r = preset(name, players=players)
    for i, level in enumerate(LEVELS):
        g = Game.new(r, seed=100 * players + i)
        seats: list[Player] = [
            HeuristicPlayer(level, seed=s) if s % 2 == 0 else HeuristicPlayer(LEVELS[(i + 1) % 3], seed=s)
            for s in range(players)
        ]
        if i == 2:
            seats[1] = RandomPlayer(seed=7)  # the heuristic must also cope with odd tables
        _play(g, seats)
        assert g.scores() is not None


def _states(n: int) -> list[tuple[Game, int]]:
    """Mid-game states of several presets (the seat to act and the game), reached by mixed players."""
    out: list[tuple[Game, int]] = []
    rng = random.Random(5)
    for k, name in enumerate(("italian", "italian-2p", "international", "brazilian", "brazilian-fechado")):
        r = preset(name)
        g = Game.new(r, seed=k)
        players = [HeuristicPlayer("medium", seed=s) for s in range(r.players)]
        steps = 0
        while g.end is None and len(out) < n * (k + 1):
            seat = g.current_seat
            legal = g.legal_actions()
            if steps % 5 == 3 and len(legal) > 1:
                out.append((g.clone(), seat))
            a = players[seat].choose(g.view(seat), legal) if rng.random() < 0.8 else rng.choice(legal)
            g.apply(a)
            steps += 1
    return out


def test_decision_depends_only_on_the_view() -> None:
    states = _states(12)
    assert len(states) >= 30
    differing = 0
    for g, seat in states:
        view = g.view(seat)
        for level in LEVELS:
            choices = set()
            for k in range(3):
                # a full state consistent with the view, with the hidden cards shuffled differently
                d = determinize(view, random.Random(1000 + k))
                assert d.view(seat) == view
                if k == 1 and d.hands != g.hands:
                    differing += 1
                legal = d.legal_actions()
                assert legal == g.legal_actions()
                choices.add(HeuristicPlayer(level, seed=42).choose(d.view(seat), legal))
            choices.add(HeuristicPlayer(level, seed=42).choose(view, g.legal_actions()))
            assert len(choices) == 1, (level, str(view.hand), choices)
    assert differing > 0


def test_hard_beats_random_duplicate() -> None:
    res = play_duplicate(
        preset("italian"), parse_player("heuristic:hard"), parse_player("random"), deals=6, seed=3
    )
    assert res["deals"] == 6
    assert res["mean_diff"] > 0
    assert res["ci95"][0] > 0
    assert res["a_win_rate"] >= 5 / 6


def test_arena_json_keys_and_determinism() -> None:
    r = preset("italian-2p")
    a, b = parse_player("heuristic:medium"), parse_player("heuristic:easy")
    one = play_duplicate(r, a, b, deals=3, seed=11)
    two = play_duplicate(r, a, b, deals=3, seed=11)
    for key in ("deals", "a_win_rate", "mean_diff", "ci95", "a_ms_per_move", "b_ms_per_move", "diffs"):
        assert key in one
    json.dumps(one)
    for key in ("deals", "a_win_rate", "mean_diff", "ci95", "diffs", "ends", "a_moves", "b_moves"):
        assert one[key] == two[key], key
    lo, hi = one["ci95"]
    assert lo <= one["mean_diff"] <= hi
    assert len(one["diffs"]) == 3
    assert one["a_win_rate"] == sum(1.0 if d > 0 else 0.5 if d == 0 else 0.0 for d in one["diffs"]) / 3
    other = play_duplicate(r, a, b, deals=3, seed=12)
    assert other["diffs"] != one["diffs"]


def test_parse_player() -> None:
    assert parse_player("random")(1).name == "random"
    assert parse_player("heuristic")(1).name == "heuristic:hard"
    assert parse_player("heuristic:easy")(1).name == "heuristic:easy"
    for bad in ("nobody", "heuristic:genius", "random:x"):
        with pytest.raises(ValueError):
            parse_player(bad)
    with pytest.raises(ValueError):
        HeuristicPlayer("expert")


def test_arena_cli_json() -> None:
    res = CliRunner().invoke(
        app,
        [
            "arena",
            "--a",
            "heuristic:hard",
            "--b",
            "random",
            "--rules",
            "italian-2p",
            "--deals",
            "2",
            "--json",
        ],
    )
    assert res.exit_code == 0, res.output
    data = json.loads(res.output.strip().splitlines()[-1])
    assert data["deals"] == 2 and data["a"] == "heuristic:hard"
    bad = CliRunner().invoke(app, ["arena", "--a", "wizard", "--deals", "1"])
    assert bad.exit_code != 0


def test_exports() -> None:
    assert burraco.bots.HeuristicPlayer is HeuristicPlayer

"""The arena says who saw what (issue 37 item 7): a player that receives the true game is marked in every result
(the table, the JSON, the plot, the ladder), and a player that changes the game during its decision stops the run
with an error that says who and what."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from burraco import Action, Game, View, preset
from burraco.arena import (
    ArenaError,
    parse_player,
    play_duplicate,
    plot_available,
    plot_diffs,
    run_arena,
    state_changes,
    state_key,
)
from burraco.cli import app
from burraco.ladder import SEES_MARK, ladder, plot_ladder
from burraco.state import STATE_FIELDS

CHEAT = "cheat:2"  # the search that sees the true game, at two determinizations: quick


def test_a_player_that_sees_the_state_is_marked_in_the_json() -> None:
    r = preset("italian-2p")
    got = run_arena(r, CHEAT, "random", 1, seed=1)
    assert got["a_sees_state"] is True and got["b_sees_state"] is False
    fair = play_duplicate(r, parse_player("heuristic:easy"), parse_player("random"), 1, seed=1)
    assert fair["a_sees_state"] is False and fair["b_sees_state"] is False
    swapped = run_arena(r, "random", CHEAT, 1, seed=1)
    assert swapped["a_sees_state"] is False and swapped["b_sees_state"] is True


def test_the_arena_table_and_json_mark_the_player_that_saw_everything() -> None:
    runner = CliRunner()
    args = ["arena", "--a", "random", "--b", CHEAT, "--rules", "italian-2p", "--deals", "1"]
    table = runner.invoke(app, args)
    assert table.exit_code == 0, table.output
    assert "saw every hidden card" in table.output and "B sees every hidden card" in table.output
    data = json.loads(runner.invoke(app, [*args, "--json"]).output)
    assert data["b_sees_state"] is True and data["a_sees_state"] is False
    fair = runner.invoke(app, ["arena", "--a", "random", "--b", "random", "--rules", "italian-2p", "--deals", "1"])
    assert "hidden card" not in fair.output


@pytest.mark.skipif(not plot_available(), reason="matplotlib is not installed")
def test_the_plots_mark_the_player_that_saw_everything(tmp_path: Path) -> None:
    """The SVG writer keeps every text as a comment beside its glyphs: the note is on the image."""
    data = run_arena(preset("italian-2p"), CHEAT, "random", 2, seed=1) | {"a": CHEAT, "b": "random"}
    plot_diffs(data, tmp_path / "run.svg", title="a title of one's own")
    assert "A sees every hidden card" in (tmp_path / "run.svg").read_text()
    lad = ladder(preset("italian-2p"), [CHEAT, "random"], deals=1, seed=1).to_json()
    plot_ladder(lad, tmp_path / "ladder.svg")
    svg = (tmp_path / "ladder.svg").read_text()
    assert f"{CHEAT} {SEES_MARK}" in svg and "saw every hidden card" in svg


def test_the_ladder_marks_the_player_that_saw_everything() -> None:
    lad = ladder(preset("italian-2p"), ["random", CHEAT], deals=1, seed=2)
    by = {r.player: r for r in lad.ratings}
    assert by[CHEAT].sees_state and not by["random"].sees_state
    assert lad.to_json()["ratings"][0]["sees_state"] in (True, False)
    (pair,) = lad.pairings
    assert pair["a"] == "random" and pair["a_sees_state"] is False and pair["b_sees_state"] is True
    out = CliRunner().invoke(app, ["ladder", "--players", f"random,{CHEAT}", "--rules", "italian-2p", "--deals", "1"])
    assert out.exit_code == 0, out.output
    assert f"{CHEAT} {SEES_MARK}" in out.output and "saw every hidden card" in out.output


class _Tamperer:
    """A player that changes the real game while it decides, in one of two ways nothing in Python can forbid:
    ``object.__setattr__`` on a meld its view holds (melds are values shared with the game), or the arena's own
    frame (where the game is a local variable)."""

    name = "tamperer"

    #: the melds changed, with their true class: melds are values the engine shares and caches across games, so
    #: the test puts them back (else the next games of this process would play with a forged meld)
    touched: list[tuple[Any, Any]] = []

    def __init__(self, how: str) -> None:
        self.how = how
        self.rng = random.Random(0)

    def choose(self, view: View, legal: list[Action]) -> Action:
        if self.how == "meld":
            for side in view.melds:
                for m in side:
                    _Tamperer.touched.append((m, m.burraco))
                    object.__setattr__(m, "burraco", "clean")  # the exploit, past the frozen meld
                    return self.rng.choice(legal)
        elif self.how == "frame" and view.stock_size > 20:
            game = sys._getframe(1).f_locals["game"]
            game.stock.reverse()
        return self.rng.choice(legal)


@pytest.mark.parametrize(("how", "what"), [("meld", "melds"), ("frame", "stock")])
def test_a_player_that_changes_the_game_stops_the_run(how: str, what: str) -> None:
    try:
        with pytest.raises(ArenaError) as err:
            play_duplicate(
                preset("italian-2p"), lambda seed: _Tamperer(how), parse_player("heuristic:easy"), 2, seed=4
            )
    finally:
        while _Tamperer.touched:
            m, cls = _Tamperer.touched.pop()
            object.__setattr__(m, "burraco", cls)
    text = str(err.value)
    assert "deal 0" in text and "player A (tamperer)" in text and "changed the game" in text and what in text


def test_state_key_sees_every_field_of_the_state() -> None:
    """Changing any field of :data:`STATE_FIELDS` changes the key, and :func:`state_changes` names a part."""
    g = Game.new(preset("italian"), seed=5)
    rng = random.Random(5)
    for _ in range(40):
        g.apply(rng.choice(g.legal_actions()))
    key = state_key(g)
    changes: dict[str, Any] = {
        "deal": None, "n": 5, "seats": ("N",), "sides": ("X", "Y"), "side_seats": ((0,), (1, 2, 3)),
        "side_of_seat": (1, 1, 1, 1), "solo": 2, "hands": [bytearray(53)] * 4, "hand_n": [0, 0, 0, 0],
        "stock": [], "pile": [1], "pozzetti": [None, None], "poz_taken": [1, 1], "poz_order": [1],
        "poz_by": [3, 3], "hidden": [[0] * 53, None, None, None], "poz_pending": [True] * 4, "melds": [[], []],
        "known": [bytearray(53)] * 3 + [bytearray([1] * 53)], "table": bytearray([1] * 53), "turn": 3,
        "phase": "end", "actions": [], "picked": 2, "drew": 2, "lone": 7, "lone_gone": 2, "top": 9,
        "top_used": 2, "melded": 2, "opening": 2, "laid": 999, "must_open": 2, "drawn": 12, "redrawn": 2,
        "last_turn": 2, "stalemate_run": 77, "turns": 999, "timeout_called": 2, "timeout_left": 9, "end": "closed",
        "closed_by": 2, "first": 3,
    }  # fmt: skip
    assert set(changes) == set(STATE_FIELDS)
    for name, value in changes.items():
        assert getattr(g, name) != value, name
        c = g.clone()
        setattr(c, name, value)
        other = state_key(c)
        assert other != key, name
        assert state_changes(key, other), name

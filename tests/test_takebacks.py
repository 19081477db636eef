"""Take-backs that reveal nothing (issue 37 item 6, docs/play.md "Taking a move back"): in ``burraco play`` a player
may take back a meld, an attachment or a swap of his turn in progress, never a draw from the stock, the discard pile
or a pozzetto taken, a discard or anything of another seat's turn, nor anything once the hand has ended; the
record lists the take-backs used (``takebacks``) and ``burraco replay`` ignores them.

The full-screen table's keys are tested with Textual's pilot in tests/test_play_tui.py."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from burraco import preset, replay
from burraco.actions import ADD, DISCARD, DRAW, MELD, PICK, SWAP, IllegalActionError
from burraco.cli import app
from burraco.i18n import Translator
from burraco.messages import Message
from burraco.tui.plain import PlainUI
from burraco.tui.session import TAKEBACKS_KEY, Session, SessionError, takebacks_of
from helpers import heuristic_move


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("BURRACO_DATA_DIR", str(tmp_path))
    return tmp_path


def code(m: Message | None) -> str | None:
    return None if m is None else m.code


def drawn(seed: int = 2, rules: str = "italian-2p") -> Session:
    """A session at the human's first turn, after his draw from the stock (seed 2: he can meld then)."""
    s = Session.new(preset(rules), partner="heuristic:easy", opponents="heuristic:easy", seed=seed)
    s.play_computers()
    assert code(s.takeback_refusal()) == "tui_takeback_nothing"  # nothing of his own in this turn yet
    s.play_human(next(a for a in s.game.legal_actions() if a.verb == DRAW))
    return s


def test_a_draw_from_the_stock_cannot_be_taken_back() -> None:
    s = drawn()
    before = list(s.game.actions)
    assert code(s.takeback_refusal()) == "tui_takeback_draw" and not s.can_undo()
    with pytest.raises(IllegalActionError, match="you have seen it"):
        s.undo()
    assert s.game.actions == before and s.takebacks == []


def test_melds_of_the_turn_are_taken_back_one_by_one_down_to_the_draw() -> None:
    s = drawn()
    after_draw = list(s.game.actions)
    hand = s.view.hand
    first = next(a for a in s.game.legal_actions() if a.verb == MELD)
    s.play_human(first)
    second = next((a for a in s.game.legal_actions() if a.verb in (MELD, ADD)), None)
    if second is not None:
        s.play_human(second)
        assert s.can_undo()
        s.undo()
        assert s.game.actions == [*after_draw, first]
    assert s.takeback_refusal() is None
    s.undo()
    assert s.game.actions == after_draw and s.view.hand == hand and s.human_to_act
    assert code(s.takeback_refusal()) == "tui_takeback_draw"  # and no further: the draw stays
    j = len(after_draw)
    want = [{"hand": 0, "at": j, "seat": "S"}] * (2 if second is not None else 1)
    assert s.takebacks == want
    saved = json.loads(s.path.read_text() if s.path else "")
    assert saved[TAKEBACKS_KEY] == want and saved["play"]["undos"] == len(want)
    assert saved["hands"][0]["actions"] == [str(a) for a in after_draw]
    again = Session.resume()  # the take-backs stay in the record of the game continued
    assert again.takebacks == want and again.game.actions == s.game.actions


def test_a_discard_ends_the_turn_and_cannot_be_taken_back() -> None:
    s = drawn()
    s.play_human(next(a for a in s.game.legal_actions() if a.verb == DISCARD))
    assert s.computer_to_act and code(s.takeback_refusal()) == "tui_takeback_not_your_turn"
    s.play_computers()  # the other seat's turn is over too: the human is to draw again, with nothing to take back
    assert s.human_to_act and code(s.takeback_refusal()) == "tui_takeback_nothing"


def test_taking_the_pile_cannot_be_taken_back() -> None:
    for seed in range(2, 40):
        s = Session.new(preset("italian-2p"), opponents="heuristic:easy", seed=seed, save=False)
        s.play_computers()
        pick = next((a for a in s.game.legal_actions() if a.verb == PICK), None)
        if pick is not None:
            break
    assert pick is not None
    s.play_human(pick)
    assert code(s.takeback_refusal()) == "tui_takeback_pile"
    move = next((a for a in s.game.legal_actions() if a.verb in (MELD, ADD, SWAP)), None)
    if move is not None:  # a meld after the pick-up can be taken back, down to the pick-up
        s.play_human(move)
        s.undo()
        assert code(s.takeback_refusal()) == "tui_takeback_pile"


def test_a_meld_that_took_the_pozzetto_cannot_be_taken_back() -> None:
    """italian-2p seed 25: following the hard heuristic, South melds his last cards at his first turn and takes his
    pozzetto (the 11 cards he sees then are why the meld stays)."""
    s = Session.new(preset("italian-2p"), opponents="heuristic:easy", seed=25, save=False)
    s.play_computers()
    while True:
        assert s.human_to_act
        taken = sum(s.game.poz_taken)
        a = heuristic_move(s, "hard")
        s.play_human(a)
        if a.verb in (MELD, ADD) and sum(s.game.poz_taken) > taken:
            break
        assert s.human_to_act or a.verb == DISCARD
        if a.verb == DISCARD:
            s.play_computers()
    assert s.human_to_act and code(s.takeback_refusal()) == "tui_takeback_pozzetto"
    with pytest.raises(IllegalActionError):
        s.undo()


def test_nothing_of_an_ended_hand_can_be_taken_back() -> None:
    s = Session.new(preset("italian-2p"), opponents="heuristic:easy", seed=4, save=False)
    while not s.hand_over:
        s.play_computers()
        while s.human_to_act:
            s.play_human(heuristic_move(s, "easy"))
    assert code(s.takeback_refusal()) == "tui_takeback_hand_over"
    s.next_hand()
    s.play_computers()
    assert code(s.takeback_refusal()) == "tui_takeback_nothing"  # the hand before is out of reach


def test_the_record_of_take_backs_leaves_the_replay_unchanged(tmp_path: Path) -> None:
    s = drawn()
    s.play_human(next(a for a in s.game.legal_actions() if a.verb == MELD))
    s.undo()
    rec = s.record()
    assert rec[TAKEBACKS_KEY] == [{"hand": 0, "at": len(s.game.actions), "seat": "S"}]
    plain: dict[str, Any] = {k: v for k, v in rec.items() if k != TAKEBACKS_KEY}
    assert replay(rec) == replay(plain)
    runner = CliRunner()
    outs = []
    for i, r in enumerate((rec, plain)):
        f = tmp_path / f"{i}.json"
        f.write_text(json.dumps(r))
        res = runner.invoke(app, ["replay", str(f)])
        assert res.exit_code == 0
        outs.append(res.output)
    assert outs[0] == outs[1]
    assert TAKEBACKS_KEY not in Session.new(preset("italian-2p"), seed=1, save=False).record()  # none used: absent


def test_a_malformed_list_of_take_backs_is_refused() -> None:
    seats = ("N", "S")
    assert takebacks_of({}, seats) == []
    assert takebacks_of({"takebacks": [{"hand": 0, "at": 3, "seat": "S"}]}, seats) == [
        {"hand": 0, "at": 3, "seat": "S"}
    ]
    for bad in ({"hand": -1, "at": 3, "seat": "S"}, {"hand": 0, "at": 3, "seat": "E"}, {"at": 3, "seat": "S"}, 7):
        with pytest.raises(SessionError, match="takebacks"):
            takebacks_of({"takebacks": [bad]}, seats)
    with pytest.raises(SessionError):
        takebacks_of({"takebacks": {"hand": 0}}, seats)


class _Typed(io.TextIOBase):
    def __init__(self, lines: list[str]) -> None:
        self.lines = lines

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        return (self.lines.pop(0) if self.lines else "q") + "\n"


def test_plain_mode_says_why_a_move_cannot_be_taken_back() -> None:
    s = Session.new(preset("italian-2p"), opponents="heuristic:easy", seed=2)
    out = io.StringIO()
    PlainUI(s, Translator("de"), _Typed(["u", "d", "u"]), out).run()
    text = out.getvalue()
    assert "Nichts zurückzunehmen: du hast in diesem Zug weder gemeldet noch angelegt" in text
    assert "Eine vom Stapel gezogene Karte lässt sich nicht zurücknehmen: du hast sie gesehen" in text
    assert s.game.actions[-1].verb == DRAW and s.takebacks == []


def test_plain_mode_takes_back_a_meld() -> None:
    s = Session.new(preset("italian-2p"), opponents="heuristic:easy", seed=2)
    out = io.StringIO()
    PlainUI(s, Translator("en"), _Typed(["d", "m 6d 6c 6s", "u"]), out).run()
    text = out.getvalue()
    assert "Undone: back to your previous decision" in text
    assert s.game.actions[-1].verb == DRAW and len(s.takebacks) == 1

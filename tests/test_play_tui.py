"""``burraco play``: Textual's pilot plays a whole hand through the full-screen table, with keys and clicks, against
seeded computer players, and checks what the screen shows."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Button

from burraco import preset
from burraco.actions import ADD, DISCARD, DRAW, MELD, PICK, Action
from burraco.cards import JOKER, is_wild_card
from burraco.tui.app import CardHand, Line, PlayApp, TextScreen, WatchApp, watch_positions
from burraco.tui.i18n import Translator
from burraco.tui.render import CARD_CELL, advice_text, card_face
from burraco.tui.session import Session

SIZE = (120, 45)


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("BURRACO_DATA_DIR", str(tmp_path))
    return tmp_path


async def settle(app: PlayApp, pilot: Any) -> None:
    """Wait until the computer players have moved: the human is to act or the scores are up."""
    for _ in range(2000):
        await pilot.pause()
        if isinstance(app.screen, TextScreen) or (app.session.human_to_act and not app._busy):
            return
    raise AssertionError("the computer players never stopped")


async def click_card(app: PlayApp, pilot: Any, card: int, taken: set[int]) -> None:
    """Click one copy of ``card`` in the hand that is not selected yet."""
    hand = app.query_one(CardHand)
    i = next(i for i, c in enumerate(hand.cards) if c == card and i not in taken)
    taken.add(i)
    per = hand.per_row()
    await pilot.click("#hand", offset=((i % per) * CARD_CELL + 1, i // per))
    assert i in hand.selected


async def play_by_ui(app: PlayApp, pilot: Any, a: Action) -> None:
    """Carry out ``a`` the way a player would: clicks on the stock, pile, cards and melds, and keys."""
    if a.verb == DRAW:
        await pilot.click("#stock")
    elif a.verb == PICK:
        await pilot.press("p")
    elif a.verb in (MELD, ADD):
        taken: set[int] = set()
        for c in a.cards:
            await click_card(app, pilot, c, taken)
        if a.verb == MELD:
            await pilot.press("m")
        elif a.meld <= 9 and a.meld % 2:
            await pilot.press(str(a.meld))
        else:
            await pilot.click(f"#meld-0-{a.meld}")
    elif a.verb == DISCARD:
        await click_card(app, pilot, a.cards[0], set())
        await pilot.press("x")
    else:  # pragma: no cover - no house rules in these presets
        raise AssertionError(a)


def check_table(app: PlayApp) -> None:
    """What the screen shows agrees with the human's view."""
    v = app.session.view
    hand = app.query_one(CardHand)
    # the hand: every card, sorted by suit then rank, the wilds apart at the end
    assert Counter(hand.cards) == Counter(v.hand)
    nat = [c for c in hand.cards if not is_wild_card(c)]
    wild = [c for c in hand.cards if is_wild_card(c)]
    assert hand.cards == nat + wild
    key = [(-1, 0) if c == JOKER else (c // 13, c % 13) for c in nat]
    assert key == sorted(key)
    assert hand.plain == " ".join(card_face(c) for c in hand.cards)
    # the melds, numbered, the human's side on the left
    own = v.side_of(v.seat)
    for col, side in enumerate((own, 1 - own)):
        for k, m in enumerate(v.melds[side], 1):
            text = app.query_one(f"#meld-{col}-{k}", Line).plain
            assert text.startswith(f"{k}.")
            faces = [card_face(c) for c in m.display_cards()]
            shown = text.split("(")[0].split()[1:]
            marks = {"clean": "★", "semiclean": "☆", "dirty": "◆"}
            if m.burraco:
                assert shown.pop() == marks[m.burraco] and m.burraco + " burraco" in text
            assert shown == faces
    # the pile: open in Italian rules, every card shown
    pile = app.query_one("#pile", Line).plain
    if v.pile_size:
        assert pile.split(":", 1)[1].split() == [card_face(c) for c in v.pile]
    assert app.query_one("#stock", Line).plain.endswith(str(v.stock_size))


async def play_hand(rules_name: str, seed: int) -> dict[str, Any]:
    s = Session.new(preset(rules_name), partner="heuristic:easy", opponents="heuristic:easy", seed=seed)
    app = PlayApp(s, Translator("en"))
    seen: dict[str, Any] = {"refused": "", "sorted_rank": False}
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        first = True
        while not isinstance(app.screen, TextScreen):
            check_table(app)
            if first:
                first = False
                # an illegal choice is refused with the engine's words, and nothing changes
                before = list(s.game.actions)
                if s.view.phase == "draw":
                    await pilot.press("x")
                else:  # pragma: no cover - N plays first, S is never in the play phase here
                    raise AssertionError
                seen["refused"] = app.query_one("#message", Line).plain
                assert s.game.actions == before
                # sort by rank and back
                await pilot.press("o")
                hand = app.query_one(CardHand).cards
                nat = [c for c in hand if not is_wild_card(c)]
                seen["sorted_rank"] = [(c % 13) or 13 for c in nat] == sorted((c % 13) or 13 for c in nat)
                await pilot.press("o")
            a = s.hint("easy").action
            n = len(s.game.actions)
            await play_by_ui(app, pilot, a)
            await pilot.pause()
            assert len(s.game.actions) > n and s.game.actions[n] == a, app.query_one("#message", Line).plain
            await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, TextScreen) and screen.id == "scores"
        seen["score_text"] = screen.plain
        seen["scores"] = s.game.scores()
        seen["totals"] = list(s.match.totals)
        seen["record"] = json.loads(s.path.read_text()) if s.path else None
        seen["end"] = s.game.end
        # Enter deals the next hand
        await pilot.press("enter")
        await settle(app, pilot)
        seen["next_hand"] = s.hand_index()
    return seen


def test_pilot_plays_a_whole_hand_to_the_scores() -> None:
    seen = asyncio.run(play_hand("italian", 5))
    assert seen["refused"].startswith("Not allowed: S discard")
    assert seen["sorted_rank"]
    sc = seen["scores"]
    text = seen["score_text"]
    # the RECORDS.md §5 breakdown of both sides, as the engine scored it
    for label, key in (
        ("cards on the table", "melds"),
        ("burraco bonuses", "bonuses"),
        ("closing", "closing"),
        ("cards in hand", "hand"),
        ("pozzetto not taken", "pozzetto"),
        ("hand total", "total"),
    ):
        assert f"{label} {sc['NS'][key]} {sc['EW'][key]}" in text
    assert f"match total {seen['totals'][0]} {seen['totals'][1]}" in text
    assert seen["totals"] == [sc["NS"]["total"], sc["EW"]["total"]]
    # the game was saved as a record as it was played
    rec = seen["record"]
    assert rec["format"] == "burraco-record/1" and len(rec["hands"]) == 1
    assert rec["play"]["human"] == "S" and rec["play"]["finished"] is False
    assert seen["next_hand"] == 1


def test_pilot_two_player_hand() -> None:
    seen = asyncio.run(play_hand("italian-2p", 1))
    sc = seen["scores"]
    assert f"hand total {sc['N']['total']} {sc['S']['total']}" in seen["score_text"]


def test_hint_undo_and_rules_screen() -> None:
    async def run() -> None:
        s = Session.new(preset("italian"), partner="heuristic:easy", opponents="heuristic:easy", seed=2)
        app = PlayApp(s, Translator("it"))
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            await pilot.click("#btn-hint")  # the button, as a mouse player would
            assert app.query_one("#message", Line).plain.startswith("Suggerimento: raccogli gli scarti (")
            await pilot.press("u")  # nothing to undo yet
            assert app.query_one("#message", Line).plain == "Niente da annullare: non hai ancora giocato"
            start = list(s.game.actions)
            hand_before = list(app.query_one(CardHand).cards)
            await pilot.click("#stock")
            await pilot.pause()
            assert len(s.game.actions) == len(start) + 1
            await pilot.press("u")
            await pilot.pause()
            assert s.game.actions == start and app.query_one(CardHand).cards == hand_before
            assert app.query_one("#message", Line).plain.startswith("Annullato")
            await pilot.press("r")
            assert isinstance(app.screen, TextScreen) and app.screen.id == "rules"
            assert "Regole: italian" in app.screen.plain and "2005" in app.screen.plain
            await pilot.press("escape")
            assert not isinstance(app.screen, TextScreen)
            assert app.query_one("#status", Line).plain.startswith("Tocca a te")

    asyncio.run(run())


def test_watch_steps_through_a_record(tmp_path: Path) -> None:
    s = Session.new(preset("italian-2p"), opponents="heuristic:easy", seed=4, save=False)
    s.play_computers()
    for _ in range(3):
        s.play_human(s.hint("easy").action)
        s.play_computers()
    rec = s.record()
    positions, err = watch_positions(rec)
    assert err == "" and len(positions) == len(s.game.actions) + 1

    async def run() -> None:
        app = WatchApp(positions, Translator("en"), seat=1)
        async with app.run_test(size=SIZE) as pilot:
            assert app.query_one("#help", Line).plain.startswith(f"Replay: action 0 of {len(s.game.actions)}")
            await pilot.press("end")
            assert app.query_one(CardHand).cards and Counter(app.query_one(CardHand).cards) == Counter(
                s.view.hand
            )
            await pilot.press("left")
            assert app.query_one("#help", Line).plain.startswith(f"Replay: action {len(s.game.actions) - 1} ")
            await pilot.press("1")  # seen from N
            assert "seen from N" in app.query_one("#hand-title", Line).plain

    asyncio.run(run())


def test_quit_and_resume_in_the_table() -> None:
    """Quit the table in the middle of a hand, resume it, finish: the record equals one without a break."""
    straight = Session.new(
        preset("italian"), partner="heuristic:easy", opponents="heuristic:easy", seed=8, save=False
    )
    straight.play_computers()
    while not straight.hand_over:
        straight.play_human(straight.hint("easy").action)
        straight.play_computers()

    async def run(session: Session, moves: int | None) -> None:
        app = PlayApp(session, Translator("en"))
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            while not isinstance(app.screen, TextScreen) and moves != 0:
                await play_by_ui(app, pilot, session.hint("easy").action)
                await settle(app, pilot)
                moves = None if moves is None else moves - 1
            await pilot.press("q")
            await pilot.pause()
        assert app.return_value is None or app.return_value == 0

    first = Session.new(preset("italian"), partner="heuristic:easy", opponents="heuristic:easy", seed=8)
    asyncio.run(run(first, 4))
    assert not first.hand_over
    again = Session.resume()
    assert again.path == first.path and again.game.actions == first.game.actions
    asyncio.run(run(again, 1))  # one more move in the table, quit again, finish without the screen
    again = Session.resume()
    again.play_computers()
    while not again.hand_over:
        again.play_human(again.hint("easy").action)
        again.play_computers()
    assert again.record()["hands"] == straight.record()["hands"]


def test_match_end_screen() -> None:
    s = Session.new(preset("italian-2p", target=100), opponents="heuristic:easy", seed=0)
    s.play_computers()
    while True:  # play up to the last move of the human without the screen
        probe = Session.from_record(s.record(), None)
        probe.play_human(probe.hint("easy").action)
        probe.play_computers()
        if probe.hand_over:
            break
        s.play_human(s.hint("easy").action)
        s.play_computers()

    async def run() -> None:
        app = PlayApp(s, Translator("de"))
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            await play_by_ui(app, pilot, s.hint("easy").action)
            await settle(app, pilot)
            assert isinstance(app.screen, TextScreen)
            assert "Partie beendet: N gewinnt" in app.screen.plain
            assert f"N {s.match.totals[0]} – S {s.match.totals[1]}" in app.screen.plain
            await pilot.press("enter")
            await pilot.pause()
        assert app.return_value == 0

    asyncio.run(run())
    assert s.match_over


def test_undo_while_the_computers_move() -> None:
    """Undo stops the computer players' moves shown at a slow pace and goes back to the human's last decision."""

    async def run() -> None:
        s = Session.new(preset("italian"), partner="heuristic:easy", opponents="heuristic:easy", seed=2)
        app = PlayApp(s, Translator("en"), delay=0.2)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            await pilot.press("d")
            before_discard = list(s.game.actions)
            discard = next(a for a in s.game.legal_actions() if a.verb == DISCARD)
            await play_by_ui(app, pilot, discard)
            assert len(s.game.actions) == len(before_discard) + 1 and app._busy
            for _ in range(100):  # the first computer move is shown, the next one is 0.2 s away
                await pilot.pause(0.02)
                if len(s.game.actions) == len(before_discard) + 2:
                    break
            assert len(s.game.actions) == len(before_discard) + 2 and app._busy
            await pilot.press("u")
            await pilot.pause(0.5)
            assert s.game.actions == before_discard and s.human_to_act and not app._busy
            assert app.query_one("#message", Line).plain == "Undone: back to your previous decision"

    asyncio.run(run())


def test_undo_across_the_end_of_a_hand() -> None:
    """u on the scores goes back into the hand that ended; u before the human's first move of the next hand goes
    back into the hand before, too."""
    s = Session.new(preset("italian-2p"), opponents="heuristic:easy", seed=4)
    whole = Session.from_record(s.record(), None)  # the hand played to its end, to know the human's last move
    whole.play_computers()
    while not whole.hand_over:
        whole.play_human(whole.hint("easy").action)
        whole.play_computers()
    ended = list(whole.game.actions)
    last = max(i for i, a in enumerate(ended) if a.seat == "S")
    for a in ended[:last]:  # up to the human's last decision, without the screen
        s.apply(a)

    async def run() -> None:
        app = PlayApp(s, Translator("en"))
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            await play_by_ui(app, pilot, ended[last])
            await settle(app, pilot)
            assert isinstance(app.screen, TextScreen) and app.screen.id == "scores"
            assert "u undo your last move" in str(app.screen.query_one(Button).label)
            await pilot.press("u")
            await settle(app, pilot)
            assert not isinstance(app.screen, TextScreen) and s.hand_index() == 0 and not s.hand_over
            assert s.game.actions == ended[:last] and s.human_to_act and s.match.totals == [0, 0]
            assert app.query_one("#message", Line).plain == "Undone: back to your previous decision"
            await play_by_ui(app, pilot, ended[last])  # the same move again: the same end, the same scores
            await settle(app, pilot)
            assert isinstance(app.screen, TextScreen) and s.game.actions == ended
            await pilot.press("enter")
            await settle(app, pilot)
            assert s.hand_index() == 1 and s.human_to_act
            assert not any(a.seat == "S" for a in s.game.actions)
            await pilot.press("u")
            await settle(app, pilot)
            assert s.hand_index() == 0 and s.game.actions == ended[:last] and s.human_to_act

    asyncio.run(run())


def test_pace_key_changes_the_computers_pace_mid_game() -> None:
    async def run() -> None:
        s = Session.new(preset("italian"), partner="heuristic:easy", opponents="heuristic:easy", seed=2)
        app = PlayApp(s, Translator("nl"), delay=0.0)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            help_line = app.query_one("#help", Line).plain
            assert "s tempo van de computer" in help_line and help_line.endswith(
                "Tempo van de computer: direct"
            )
            assert str(app.query_one("#btn-speed", Button).label) == "s tempo: direct"
            for name, delay in (("snel", 0.3), ("normaal", 0.8), ("langzaam", 1.6), ("direct", 0.0)):
                await pilot.press("s")
                assert app.delay == delay
                assert app.query_one("#message", Line).plain == f"Tempo van de computer: {name}"
                assert app.query_one("#help", Line).plain.endswith(f"Tempo van de computer: {name}")
                assert str(app.query_one("#btn-speed", Button).label) == f"s tempo: {name}"
            await pilot.click("#btn-speed")  # the button, too
            assert app.delay == 0.3
            await pilot.press("question_mark")
            assert isinstance(app.screen, TextScreen) and app.screen.id == "help"
            assert "s tempo van de computer" in app.screen.plain
            assert "Tempo van de computer: snel" in app.screen.plain
            await pilot.press("escape")
            # the new pace holds for the computers' next moves: a discard lets them play, 0.3 s apart
            await pilot.press("d")
            await pilot.pause()
            await play_by_ui(app, pilot, next(a for a in s.game.legal_actions() if a.verb == DISCARD))
            n = len(s.game.actions)
            await pilot.pause(0.1)
            assert len(s.game.actions) == n and app._busy  # the first computer move waits for its 0.3 s
            await pilot.press("s", "s", "s")  # slow, instant
            assert app.delay == 0.0
            await settle(app, pilot)
            assert s.human_to_act

    asyncio.run(run())


def not_a_meld(s: Session) -> Action:
    """Three cards of the human's hand that are no meld (the engine refuses them in the play phase)."""
    from itertools import combinations

    g = s.game
    for cards in combinations(sorted(set(s.view.hand)), 3):
        a = Action.meld_cards(s.seat_names[s.human], cards)
        err = g.check(a)
        if err is not None and err.msg.code == "not_a_meld":
            return a
    raise AssertionError("every three cards make a meld")


@pytest.mark.parametrize(
    ("lang", "refused", "hint"),
    [("it", "Non consentito: ", "Suggerimento: "), ("de", "Nicht erlaubt: ", "Tipp: ")],
)
def test_engine_refusal_and_hint_in_the_players_language(lang: str, refused: str, hint: str) -> None:
    from burraco.messages import render

    async def run() -> None:
        s = Session.new(preset("italian"), partner="heuristic:easy", opponents="heuristic:easy", seed=2)
        app = PlayApp(s, Translator(lang))
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            await pilot.press("h")  # the hint's reason, in the player's language
            h = s.hint()
            shown = app.query_one("#message", Line).plain
            assert shown == f"{hint}{advice_text(Translator(lang), h.action)} ({render(h.why, lang)})"
            assert h.reason not in shown and render(h.why, lang) != h.reason and str(h.action) not in shown
            await pilot.press("d")
            await pilot.pause()
            bad = not_a_meld(s)
            err = s.game.check(bad)
            assert err is not None
            before = list(s.game.actions)
            taken: set[int] = set()
            for c in bad.cards:
                await click_card(app, pilot, c, taken)
            await pilot.press("m")
            await pilot.pause()
            shown = app.query_one("#message", Line).plain
            assert s.game.actions == before  # refused: nothing changed
            assert shown == refused + render(err.msg, lang)
            assert err.message not in shown and "is not a meld" not in shown
            assert {"it": "non è un gioco", "de": "ist keine Meldung"}[lang] in shown

    asyncio.run(run())

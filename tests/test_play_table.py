"""The terminal table (``burraco play``) as a club player meets it, issue 44 and issue 36: the time-out ends the
match with its hand (RULES.md §0.1, §9.4), ``r`` opens the rule a refusal or a hint names in the rule book, the
pair of a game of three is told when it forms and earlier lines keep their names, the moves log is numbered as the
coach numbers moves, the table fits 80×24 in every language, says when the terminal is too small, redraws after a
resize, and the page of the keys does not move the table."""

from __future__ import annotations

import asyncio
import io
import json
import re
from pathlib import Path

import pytest
from textual.widgets import Input

from burraco import preset
from burraco.analysis import Decision
from burraco.cards import CARD_STR
from burraco.coach import coach_lines
from burraco.i18n import Translator
from burraco.lang import it as it_catalogue
from burraco.messages import LANGS
from burraco.tui.app import MIN_SIZE, PlayApp
from burraco.tui.commands import command_text
from burraco.tui.movelog import turn_numbers
from burraco.tui.plain import PlainUI
from burraco.tui.render import Names, log_lines
from burraco.tui.screens import RulebookScreen, TextScreen
from burraco.tui.session import Session
from burraco.tui.widgets import FlowLine, Line, MeldBox, phrases
from helpers import heuristic_move
from test_play_tui import LARGE, SMALL, check_whole, play_by_ui, screen_text, settle


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("BURRACO_DATA_DIR", str(tmp_path))
    return tmp_path


class Player(io.StringIO):
    """The player at ``--plain``: ``first`` lines, then the easy hint's move whenever it is his turn, and Enter
    at the end of a hand."""

    def __init__(self, session: Session, tr: Translator, first: list[str]) -> None:
        super().__init__()
        self.s, self.tr, self.queue, self.reads = session, tr, list(first), 0

    def readline(self, size: int | None = -1) -> str:
        self.reads += 1
        assert self.reads < 3000, "the game never ended"
        if self.queue:
            return self.queue.pop(0) + "\n"
        if self.s.hand_over:
            return "\n"
        return command_text(heuristic_move(self.s, "easy"), self.tr) + "\n"


# ----- issue 36: the time-out ends the match ------------------------------------------------------------------------


def test_0_1_9_4_plain_the_time_out_ends_the_match_after_its_hand() -> None:
    """RULES.md §0.1 "The time-out ends the match": called in hand 1 of a 3-hand match, the hand is played out,
    the match ends at once with its VP from the 3-hand table, and no second hand is dealt."""
    s = Session.new(preset("italian-tournament"), partner="heuristic:easy", opponents="heuristic:easy", seed=4)
    tr = Translator("en")
    out = io.StringIO()
    status = PlainUI(s, tr, Player(s, tr, ["timeout"]), out).run()
    text = out.getvalue()
    assert status == 0
    assert s.match.is_over and s.match.timed_out and len(s.match.games) == 1
    vp = s.match.vp()
    assert vp is not None and sum(vp) == 20
    assert "Time-out: the last round is played, then the match ends with this hand (rule 9.4)" in text
    assert "Time-out: one more round, then the hand ends, and the match with it (rule 9.4)" in text
    assert "The time-out ended the match with hand 1 (rule 9.4)" in text
    assert f"victory points: NS {vp[0]}, EW {vp[1]}" in text.lower() or f"NS {vp[0]}, EW {vp[1]}" in text
    assert "Hand 2" not in text and "hand 2" not in text
    rec = json.loads(s.path.read_text()) if s.path else {}
    assert rec["play"]["finished"] is True and len(rec["hands"]) == 1
    # the record replays to the same result
    from burraco import replay

    res = replay({k: v for k, v in rec.items() if k != "play"})
    assert res["ok"] and res["vp"] == {"NS": vp[0], "EW": vp[1]}


def test_9_4_a_free_game_has_no_time_out() -> None:
    s = Session.new(preset("italian"), partner="heuristic:easy", opponents="heuristic:easy", seed=4, save=False)
    s.play_computers()
    out = io.StringIO()
    ui = PlainUI(s, Translator("it"), io.StringIO(), out)
    assert ui.command("timeout\n")
    assert out.getvalue().startswith("Non consentito: timeout: ") and not s.game.timeout_called


def test_0_1_9_4_full_screen_the_time_out_ends_the_match() -> None:
    async def run() -> None:
        s = Session.new(preset("italian-tournament"), partner="heuristic:easy", opponents="heuristic:easy", seed=4)
        app = PlayApp(s, Translator("it"))
        async with app.run_test(size=SMALL) as pilot:
            await settle(app, pilot)
            await pilot.press("slash")
            app.query_one("#entry", Input).value = "timeout"
            await pilot.press("enter")
            await pilot.pause()
            assert s.game.timeout_called
            assert app.query_one("#message", Line).plain == (
                "Time-out: si gioca l'ultimo giro, poi la partita finisce con questa smazzata (regola 9.4)"
            )
            k = 0
            while not isinstance(app.screen, TextScreen):
                await play_by_ui(app, pilot, heuristic_move(s, "easy"), k)
                k += 1
                await pilot.pause()
                await settle(app, pilot)
            page = app.screen.plain
            vp = s.match.vp()
            assert vp is not None and s.match.is_over and len(s.match.games) == 1
            assert "Il time-out ha chiuso la partita con la smazzata 1 (regola 9.4)" in page
            assert f"{vp[0]} {vp[1]}" in page
            await pilot.press("enter")  # the match is over: Enter leaves, no second hand
            await pilot.pause()
        assert app.return_value == 0 and len(s.match.games) == 1

    asyncio.run(run())


# ----- the rule book behind r ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "refused", "heading", "next_heading", "summary"),
    [
        ("en", "Not allowed: you must first draw from the stock or pick up the pile (rule 3.2)",
         "## 3.2 The three parts of a turn", "## 3.3 Melds belong to the side", "Rules: italian"),
        ("it", "Non consentito: devi prima pescare dal tallone o raccogliere gli scarti (regola 3.2)",
         "## 3.2 Le tre fasi del turno", "## 3.3 I giochi sono della coppia", "Regole: italian"),
    ],
)  # fmt: skip
def test_r_opens_the_rule_a_refusal_names(lang: str, refused: str, heading: str, next_heading: str, summary: str) -> None:
    async def run() -> None:
        s = Session.new(preset("italian"), partner="heuristic:easy", opponents="heuristic:easy", seed=2, save=False)
        app = PlayApp(s, Translator(lang))
        async with app.run_test(size=LARGE) as pilot:
            await settle(app, pilot)
            await pilot.press("x")  # a discard before taking a card
            assert app.query_one("#message", Line).plain == refused
            await pilot.press("r")
            page = app.screen
            assert isinstance(page, RulebookScreen) and page.plain.startswith("#" + heading)
            assert heading.split(" ", 2)[2] in screen_text(app)  # drawn, not only kept
            await pilot.press("right")
            assert page.plain.startswith("#" + next_heading)
            await pilot.press("left", "left")
            assert page.plain.startswith("### 3.1 ")
            await pilot.press("home")
            assert page.plain.startswith(summary)
            await pilot.press("r")
            assert not isinstance(app.screen, TextScreen)
            # any rule, typed; an unknown one is said
            await pilot.press("slash")
            app.query_one("#entry", Input).value = "r 6.4"
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, RulebookScreen) and app.screen.plain.startswith("### 6.4 ")
            await pilot.press("escape")
            await pilot.press("slash")
            app.query_one("#entry", Input).value = "r 99"
            await pilot.press("enter")
            await pilot.pause()
            assert not isinstance(app.screen, TextScreen) and "99" in app.query_one("#message", Line).plain

    asyncio.run(run())


def test_plain_r_shows_the_rule_of_the_refusal_and_any_rule() -> None:
    s = Session.new(preset("italian"), partner="heuristic:easy", opponents="heuristic:easy", seed=2, save=False)
    s.play_computers()
    out = io.StringIO()
    ui = PlainUI(s, Translator("en"), io.StringIO(), out)
    ui.command("r\n")  # nothing named yet: the rules of the table, and how to read the book
    assert "Rules: italian" in out.getvalue() and "r 6.4" in out.getvalue()
    ui.command(f"x {CARD_STR[s.view.hand[0]]}\n")  # a discard before taking a card
    assert "(rule 3.2)" in out.getvalue()
    start = len(out.getvalue())
    ui.command("r\n")
    shown = out.getvalue()[start:]
    assert "3.2 The three parts of a turn" in shown and "Discard" in shown
    assert "**" not in shown and "\x1b" not in shown and max(len(x) for x in shown.splitlines()) <= 80
    ui.command("r 8.1.3\n")
    shown = " ".join(out.getvalue()[start:].split())
    assert "8.1.3" in shown and "may not be a wild" in shown
    ui.command("r 42\n")
    assert out.getvalue().rstrip().endswith("The rule book has no rule 42")


# ----- three players: the pair forms --------------------------------------------------------------------------------


def test_14_3_the_pair_forming_is_told_and_earlier_lines_keep_their_names() -> None:
    """Seed 3: C goes out first and plays solo; the human (B) and A become a pair. The log says so at that
    turn, A's earlier turns still read "Opponent A" and his later ones "Partner (A)"."""
    s = Session.new(preset("italian-3p"), partner="heuristic:easy", opponents="heuristic:easy", seed=3, save=False)
    while not s.hand_over and len(s.view.side_seats) == 3:
        s.play_human(heuristic_move(s, "easy")) if s.human_to_act else s.apply(s.choose_computer())
    assert s.view.side_seats == ((0, 1), (2,))
    formed = len(s.log.turns())
    while not s.hand_over and len(s.log.turns()) < formed + 4:
        s.play_human(heuristic_move(s, "easy")) if s.human_to_act else s.apply(s.choose_computer())
    for lang, told in (("en", "C plays alone from now on; you and A play as a pair (rule 14.3)"),
                       ("it", "Da ora C gioca da solo; tu e A giocate in coppia (regola 14.3)")):  # fmt: skip
        tr = Translator(lang)
        lines = log_lines(tr, Names(tr, s.seat_names, s.human), s.log)
        assert told.lower() in lines[formed - 1].lower(), lines[formed - 1]
        a_before = [x for x in lines[: formed - 1] if x.split(". ", 1)[1].startswith(tr("tui_seat_opponent", seat="A"))]
        a_after = [x for x in lines[formed:] if x.split(". ", 1)[1].startswith(tr("tui_seat_partner", seat="A"))]
        assert a_before and a_after, lines
        assert not any(tr("tui_seat_partner", seat="A") in x for x in lines[: formed - 1])


# ----- the coach's moves are the log's lines ------------------------------------------------------------------------


def test_the_coachs_move_numbers_are_the_numbered_lines_of_the_log() -> None:
    s = Session.new(preset("italian"), partner="heuristic:easy", opponents="heuristic:easy", seed=2, save=False)
    for _ in range(12):
        s.play_computers()
        if s.hand_over:
            break
        s.play_human(heuristic_move(s, "easy"))
    acts = s.game.actions
    mine = [j for j, a in enumerate(acts) if a.seat == "S" and a.verb == "discard"]
    assert len(mine) >= 2
    ds = [Decision(0, j, "S", "discard", str(acts[j]), str(acts[j]), 0.0, 50.0, 50.0, 1.0, "mistake") for j in mine]
    tr = Translator("it")
    lines = log_lines(tr, Names(tr, s.seat_names, s.human), s.log)
    page = coach_lines(tr, ds, 0, 4, 16, turn_numbers(acts))
    for d, line in zip(ds, page[1:], strict=False):
        k = int(line.split()[1].rstrip(","))  # "Mossa 12, errore: …"
        assert lines[k - 1].startswith(f"{k}. ") and "scarti " + tr.cards_text(acts[d.index].cards) in lines[k - 1]


# ----- the layout -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_80x24_the_typing_line_and_the_seat_lines_fit_in_every_language(lang: str) -> None:
    async def run() -> None:
        s = Session.new(preset("italian"), partner="heuristic:easy", opponents="heuristic:easy", seed=2, save=False)
        app = PlayApp(s, Translator(lang))
        async with app.run_test(size=SMALL) as pilot:
            for k in range(6):  # some turns: the seats' last actions ("takes the pile (5 cards, top A♥)")
                await settle(app, pilot)
                if isinstance(app.screen, TextScreen):
                    break
                check_whole(app)
                seats = app.query_one("#seats", FlowLine)
                whole = {p.plain.removesuffix(" ·").strip() for t in seats.items for p in phrases(t, 10**6)}
                for line in seats._lines(seats.size.width):
                    parts = re.split(r" · | {4,}", line.plain.strip().removesuffix(" ·"))
                    assert all(p.strip() in whole for p in parts), (line.plain, whole)  # never cut mid-phrase
                if k == 0:
                    await pilot.press("slash")
                    entry = app.query_one("#entry", Input)
                    assert len(entry.placeholder) <= entry.content_region.width, entry.placeholder
                    await pilot.press("escape")
                await play_by_ui(app, pilot, heuristic_move(s, "easy"), k)
                await pilot.pause()

    asyncio.run(run())


def test_below_80x24_the_table_says_the_terminal_is_too_small_and_comes_back() -> None:
    async def run() -> None:
        s = Session.new(preset("italian"), partner="heuristic:easy", opponents="heuristic:easy", seed=2, save=False)
        app = PlayApp(s, Translator("en"))
        async with app.run_test(size=(70, 20)) as pilot:
            await settle(app, pilot)
            assert app.has_class("-small")
            text = screen_text(app)
            assert "at least 80×24; this one is 70×20" in " ".join(text.split())
            assert "Your hand" not in text
            await pilot.resize_terminal(*MIN_SIZE)
            await pilot.pause()
            assert not app.has_class("-small") and "Your hand" in screen_text(app)

    asyncio.run(run())


def test_a_resize_redraws_the_melds() -> None:
    """The melds of a hand's end close up at 80×24 (their cards without spaces, to keep the last round of moves on
    the screen), open up when the terminal grows, and close up again when it shrinks: never squashed ("3♥Joker5♥")
    on a large screen after a resize."""

    async def run() -> None:
        s = Session.new(preset("italian"), partner="heuristic:easy", opponents="heuristic:easy", seed=2, save=False)
        app = PlayApp(s, Translator("en"))
        async with app.run_test(size=LARGE) as pilot:
            k = 0
            await settle(app, pilot)
            while not isinstance(app.screen, TextScreen):
                await play_by_ui(app, pilot, heuristic_move(s, "easy"), k)
                k += 1
                await pilot.pause()
                await settle(app, pilot)
            for size, tight in ((SMALL, True), (LARGE, False), (SMALL, True), (LARGE, False)):
                await pilot.resize_terminal(*size)
                for _ in range(3):
                    await pilot.pause()
                assert [b.tight for b in app.query(MeldBox) if b.display] == [tight, tight], size

    asyncio.run(run())


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "120x40"])
def test_the_page_of_the_keys_does_not_move_the_table(size: tuple[int, int]) -> None:
    async def run() -> None:
        s = Session.new(preset("italian"), partner="heuristic:easy", opponents="heuristic:easy", seed=2, save=False)
        app = PlayApp(s, Translator("en"))
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            before = screen_text(app).splitlines()
            await pilot.press("question_mark")
            await pilot.pause()
            page = app.screen
            assert isinstance(page, TextScreen) and page.id == "help" and page.size.width == size[0]
            after = screen_text(app).splitlines()
            box = page.query_one("Vertical").region
            for y, (a, b) in enumerate(zip(before, after, strict=True)):
                if box.y <= y < box.bottom:  # beside the page: the table as it was
                    a, b = a[: box.x], b[: box.x]
                assert a == b, (y, a, b)

    asyncio.run(run())


def test_italian_has_one_word_for_a_meld() -> None:
    """A meld is a "gioco" everywhere in Italian (a set, "combinazione" in the rule book, is a "tris" on the
    tables): the coach said "combinazione" where the table said "gioco"."""
    table_texts = {k: v for k, v in it_catalogue.TEMPLATES.items() if k.startswith(("tui_", "coach_", "hint_", "web_"))}
    assert not [k for k, v in table_texts.items() if "combinazion" in v.lower()]
    assert "gioco" in it_catalogue.TEMPLATES["coach_add"] and "giochi" in it_catalogue.TEMPLATES["tui_coach_lost"]

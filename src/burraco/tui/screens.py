"""The pages over the table: the scores of a hand (and the match result), the rules and the rule book, the keys."""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

from rich.markdown import Markdown
from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.screen import ModalScreen
from textual.widgets import Button, ProgressBar, Static

from ..coach import coach_lines
from ..i18n import Translator
from ..rulebook import section, sections
from ..rules import Rules
from .movelog import turn_numbers
from .render import Names, rules_lines, score_lines, status_text, totals_text
from .session import Session

__all__ = [
    "CoachScreen",
    "PageScreen",
    "RulebookScreen",
    "ScoreScreen",
    "TextScreen",
    "check_rule",
    "rule_pages",
    "score_page",
]


class TextScreen(ModalScreen[str]):
    """A modal page of text (scores, rules, help): Enter (``ok``) or Escape (``cancel``) closes it; q quits the
    app."""

    DEFAULT_CSS = """
    TextScreen { align: center middle; }
    TextScreen > Vertical { width: 90; max-width: 100%; height: auto; max-height: 100%;
                            border: thick $accent; background: $surface; padding: 0 1; }
    TextScreen #body { height: auto; }
    TextScreen #note { height: auto; color: $text-muted; }
    TextScreen Button { height: 1; border: none !important; min-width: 8; padding: 0; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "close('ok')", show=False),
        Binding("escape", "close('cancel')", show=False),
        Binding("q", "app.quit", show=False),
    ]

    def __init__(self, body: Any, plain: str, footer: str, screen_id: str, note: str = "") -> None:
        """``note``: a line under the body, above the button (another key the page takes)."""
        super().__init__(id=screen_id)
        self.body = body
        self.plain = plain
        self.footer = footer
        self.note = note

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.body, id="body")
            if self.note:
                yield Static(self.note, id="note")
            yield Button(self.footer, id="close", variant="primary")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss("ok")

    def action_close(self, how: str) -> None:
        self.dismiss(how)


class PageScreen(TextScreen):
    """The rules and help pages: the key that opened them closes them too."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "close('cancel')", show=False),
        Binding("question_mark", "close('cancel')", show=False),
    ]


def rule_pages(lang: str) -> list[str]:
    """The rule book's pages as the ``r`` screen leafs through them: every section with text of its own, in the
    book's order (:attr:`burraco.rulebook.Section.page`)."""
    return [n for n, s in sections(lang).items() if "\n" in s.own.strip()]


class RulebookScreen(TextScreen):
    """``r``: the rules of the table and the rule book, in the player's language (its Italian or English book,
    :mod:`burraco.rulebook`). It opens on the rule that the last refusal or hint named (``start``), else on the
    rules of the table; ←/→ go to the rule before or after, Home to the rules of the table; r, Escape or Enter go
    back to the table."""

    DEFAULT_CSS = """
    RulebookScreen { align: center middle; }
    RulebookScreen > Vertical { width: 90; max-width: 100%; height: 100%; border: thick $accent;
                                background: $surface; padding: 0 1; }
    RulebookScreen VerticalScroll { height: 1fr; }
    RulebookScreen #nav { height: auto; color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "leaf(-1)", show=False),
        Binding("right", "leaf(1)", show=False),
        Binding("home", "first", show=False),
        Binding("r", "close('cancel')", show=False),
    ]

    def __init__(self, tr: Translator, rules: Rules, start: str | None = None) -> None:
        super().__init__("", "", "", "rules")
        self.tr = tr
        self.rules = rules
        #: the pages: the rules of the table (None), then the book's rules
        self.pages: list[str | None] = [None, *rule_pages(tr.lang)]
        self.index = 0
        if start is not None:
            found = section(start, tr.lang).number  # a rule inside a section: its section
            self.index = self.pages.index(found) if found in self.pages else 0
            if found not in self.pages:  # a chapter without text of its own: shown whole
                self.pages.insert(1, found)
                self.index = 1

    def compose(self) -> ComposeResult:
        with Vertical():
            with VerticalScroll(id="page"):
                yield Static(id="body")
            yield Static(self.tr("tui_rule_nav"), id="nav")

    def on_mount(self) -> None:
        self.show()
        self.query_one(VerticalScroll).focus()

    def show(self) -> None:
        number = self.pages[self.index]
        if number is None:
            lines = [self.tr("tui_rules_title", name=self.rules.name), "", *rules_lines(self.tr, self.rules), ""]
            self.plain = "\n".join([*lines, self.tr("tui_rule_book")])
            self.query_one("#body", Static).update(self.plain)
        else:
            self.plain = section(number, self.tr.lang).page
            self.query_one("#body", Static).update(Markdown(self.plain))
        self.query_one(VerticalScroll).scroll_home(animate=False)

    def action_leaf(self, step: int) -> None:
        self.index = (self.index + step) % len(self.pages)
        self.show()

    def action_first(self) -> None:
        self.index = 0
        self.show()


def check_rule(number: str) -> str:
    """A rule number as typed (``6.4``, ``§6.4``), checked against the book; raises :class:`RulebookError`."""
    n = number.strip().lstrip("§").strip()
    section(n)
    return n


class ScoreScreen(TextScreen):
    """The scores of a hand just ended: Enter deals the next hand (or ends the match), a asks the coach about the
    hand. Nothing of an ended hand can be taken back: every hand has been shown (docs/play.md)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "close('coach')", show=False),
    ]


class CoachScreen(TextScreen):
    """The coach's page on the hand just ended: a progress bar while the analysis runs (in a thread: the table
    stays responsive, q still quits), then the marked decisions and the points lost. Enter or Escape goes back to
    the scores."""

    DEFAULT_CSS = """
    CoachScreen ProgressBar { height: 1; margin: 1 0; }
    """

    def __init__(self, tr: Translator, session: Session, hand: int) -> None:
        super().__init__(tr("tui_coach_running", h=hand + 1, i=0, n="…"), "", tr("tui_coach_close"), "coach")
        self.tr = tr
        self.session = session
        self.hand = hand
        self.done = False

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.body, id="body")
            yield ProgressBar(id="progress", show_eta=False)
            yield Button(self.footer, id="close", variant="primary")

    def on_mount(self) -> None:
        self.run_worker(self._analyse(), exclusive=True, group="coach")

    def _progress(self, done: int, total: int) -> None:
        """Called from the analysis' thread."""
        self.app.call_from_thread(self._show_progress, done, total)

    def _show_progress(self, done: int, total: int) -> None:
        self.query_one(ProgressBar).update(total=total, progress=done)
        self.query_one("#body", Static).update(self.tr("tui_coach_running", h=self.hand + 1, i=done, n=total))

    async def _analyse(self) -> None:
        decisions = await asyncio.to_thread(self.session.coach, self.hand, self._progress)
        turns = turn_numbers(self.session.match.games[self.hand].actions)  # the numbers of the moves log's lines
        lines = coach_lines(
            self.tr, decisions, self.hand, self.session.rules.players, self.session.coach_iterations, turns
        )
        self.plain = "\n".join(lines)
        self.done = True
        try:
            self.query_one(ProgressBar).display = False
            self.query_one("#body", Static).update(self.plain)
        except NoMatches:  # closed meanwhile
            return


def score_page(tr: Translator, names: Names, session: Session) -> tuple[Table, str]:
    """The score breakdown of the hand just ended (and the match result at its end): a table and its plain text."""
    g = session.game
    sc = g.scores()
    assert sc is not None
    m = session.match
    names.follow(g)
    sides = list(g.sides)
    title = tr("tui_score_title", i=session.hand_index() + 1) + " · " + status_text(tr, names, session.view)
    t = Table(title=title, expand=True)
    t.add_column("")
    for s in sides:
        t.add_column(s, justify="right")
    lines = [title]
    for row in score_lines(tr, g.sides, sc):
        t.add_row(*row)
        lines.append(" ".join(row))
    match_row = tr.word("tui_score_row", "match")
    if tuple(m.sides) == g.sides:  # the match totals are the hand's sides': one more row
        t.add_row(match_row, *(str(x) for x in m.totals), style="bold")
        lines.append(f"{match_row} {' '.join(str(x) for x in m.totals)}")
    else:  # three and five players: a total per player (his half of a pair's hand, RULES.md §14.3)
        line = f"{match_row}: {totals_text(m.sides, m.totals)}"
        t.add_section()
        t.add_row(line, *([""] * len(sides)), style="bold")
        lines.append(line)
    if m.is_over:
        vp = m.vp()
        if vp is not None:
            vp_row = tr.word("tui_score_row", "vp")
            t.add_row(vp_row, str(vp[0]), str(vp[1]), style="bold")
            lines.append(f"{vp_row} {vp[0]} {vp[1]}")
        w = m.winner()
        result = tr("tui_match_drawn") if w is None else tr("tui_match_won", side=m.sides[w])
        summary = tr("tui_match_summary", hands=len(m.games), totals=totals_text(m.sides, m.totals))
        t.caption = f"{result}. {summary}"
        if m.timed_out:  # the time-out ended it (RULES.md §0.1): say so, with the hands played
            ended = tr("tui_timeout_ended", i=len(m.games))
            t.caption = f"{ended}. {t.caption}"
            lines.append(ended)
        lines += [result, summary]
    return t, "\n".join(lines)

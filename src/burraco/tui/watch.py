"""``burraco replay FILE --watch``: step through a record on the table of ``burraco play``, seen from one seat.

→/space one move on, ← one back, PageUp/PageDown ten, Home/End the start and the end, ``1``–``4`` another seat,
``q`` quit. The moves log shows the hand up to the position, told from the watched seat (as a spectator: no move
is "yours", and a draw names no card).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, ClassVar

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType

from ..actions import ActionError
from ..analysis import Decision
from ..coach import mark_line
from ..game import Game
from ..i18n import Translator
from .movelog import HandLog
from .render import Names
from .session import engine_message
from .table import TABLE_CSS, TALL, TableState, TableView
from .widgets import Line

__all__ = ["WatchApp", "watch_positions"]

#: a position of a record: the hand's index, the game after some of its actions, the match totals before the hand
Position = tuple[int, Game, tuple[int, ...]]


class WatchApp(App[int]):
    """``burraco replay FILE --watch``: step through a record on the table, seen from one seat."""

    TITLE = "burraco replay"
    CSS = TABLE_CSS + "Line#help { color: $text-muted; padding: 0 1; height: auto; }"
    VERTICAL_BREAKPOINTS = [(0, "-short"), (TALL, "-tall")]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right", "step(1)", show=False, priority=True),
        Binding("left", "step(-1)", show=False, priority=True),
        Binding("space", "step(1)", show=False, priority=True),
        Binding("pagedown", "step(10)", show=False),
        Binding("pageup", "step(-10)", show=False),
        Binding("home", "jump(0)", show=False),
        Binding("end", "jump(-1)", show=False),
        *[Binding(str(k), f"seat({k - 1})", show=False) for k in range(1, 7)],
        Binding("q", "quit", show=False),
    ]

    def __init__(
        self,
        positions: list[Position],
        tr: Translator,
        seat: int,
        error: str = "",
        marks: Sequence[Decision] = (),
    ) -> None:
        """``marks``: the coach's judgements of an annotated record (docs/analysis.md); a marked move shows the
        coach's word once it is played."""
        super().__init__()
        self.positions = positions
        self.marks = {(d.hand, d.index): d for d in marks if d.mark is not None}
        self.tr = tr
        self.seat = seat
        self.index = 0
        self.error = error
        self._table_ready = False
        self._logs: dict[tuple[int, int], HandLog] = {}  # (seat, position) -> the log up to it

    def compose(self) -> ComposeResult:
        yield TableView(self.tr, id="table")
        yield Line(id="help")

    def on_mount(self) -> None:
        self.show()
        self._table_ready = True

    def on_resize(self, _event: events.Resize) -> None:
        if self._table_ready:
            self.show()

    def log_at(self, index: int) -> HandLog:
        """The moves of the hand of position ``index`` up to it, seen from the watched seat."""
        key = (self.seat, index)
        if key not in self._logs:
            hand_i, g, _ = self.positions[index]
            start = index
            while start > 0 and self.positions[start - 1][0] == hand_i:
                start -= 1
            log = HandLog(self.seat, viewer=-1, seats=g.seats)
            for j in range(start + 1, index + 1):
                after = self.positions[j][1]
                log.add(self.positions[j - 1][1].view(self.seat), after.actions[-1], after.view(self.seat))
            self._logs = {key: log}  # one at a time: a step rebuilds the hand's log (a few ms)
        return self._logs[key]

    def show(self) -> None:
        hand_i, g, totals = self.positions[self.index]
        names = Names(self.tr, g.seats, None)
        v = dataclasses.replace(g.view(self.seat), match_totals=totals)
        hands = sorted({h for h, _, _ in self.positions})
        message = self.error if self.index == len(self.positions) - 1 else ""
        mark = self.marks.get((hand_i, len(g.actions) - 1))
        if mark is not None and not message:
            message = mark_line(self.tr, mark, g.rules.players)
        st = TableState(
            view=v,
            names=names,
            rules=g.rules,
            hand_i=hand_i + 1,
            log=self.log_at(self.index),
            message=message,
            extra=[self.tr("tui_seen_from", seat=g.seats[self.seat])],
        )
        self.query_one(TableView).show(st)
        n_acts = len(g.actions)
        total = sum(1 for h, _, _ in self.positions if h == hand_i) - 1
        self.query_one("#help", Line).show(
            self.tr("tui_watch_status", i=n_acts, n=total, h=hand_i + 1, hn=len(hands))
        )

    def action_step(self, k: int) -> None:
        self.index = max(0, min(len(self.positions) - 1, self.index + k))
        self.show()

    def action_jump(self, i: int) -> None:
        self.index = i % len(self.positions)
        self.show()

    def action_seat(self, s: int) -> None:
        if s < self.positions[0][1].n:
            self.seat = s
            self.show()


def watch_positions(record: Any, tr: Translator | None = None) -> tuple[list[Position], str]:
    """Every position of a record (hand index, the game after each action, match totals before the hand), and the
    engine's message where an action was refused, in ``tr``'s language (the positions stop there). Raises
    RecordError for a bad record."""
    tr = tr or Translator("en")
    from ..match import Match
    from ..record import parse_record

    rules, dealer, hands = parse_record(record)
    m = Match(rules, dealer)
    out: list[Position] = []
    for i, (deal, actions) in enumerate(hands):
        if m.is_over or (m.games and not m.game.is_over):
            break
        before = tuple(m.totals)
        g = m.start_hand(deal)
        out.append((i, g.clone(), before))
        for j, text in enumerate(actions):
            try:
                m.apply(text)
            except ActionError as e:
                return out, tr("tui_watch_refused", h=i + 1, i=j + 1, action=text, why=engine_message(e))
            out.append((i, g.clone(), before))
    return out, ""

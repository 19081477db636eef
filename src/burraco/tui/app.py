"""The full-screen table of ``burraco play`` (Textual), and the record viewer of ``burraco replay FILE --watch``.

The table shows one seat's :class:`~burraco.view.View`: the other seats' card counts, both sides' melds (numbered,
with burraco marks and point values), the stock, the discard pile (all of it where the rules keep it open, else its
top card), the pozzetti and who took them, whose turn it is, the recent moves, the match score and the seat's own
hand, sorted by suit then rank (or rank then suit) with the wilds apart.

Playing: keys or the mouse. ``d`` or a click on the stock draws, ``p`` or a click on the pile takes it; cards are
selected with a click, or with ←/→ and space; ``m`` melds the selected cards, ``1``–``9`` or a click on one of your
side's melds adds them to it; ``x`` discards the selected card (or the one under the cursor). ``h`` hint, ``u``
undo, ``o`` sort order, ``r`` rules, ``?`` help, ``q`` quit (the game is saved after every move).
"""

from __future__ import annotations

import asyncio
import dataclasses
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Static

from ..actions import Action, ActionError
from ..game import Game
from ..melds import Meld
from ..rules import Rules
from ..view import View
from .i18n import Translator
from .render import (
    CARD_CELL,
    Names,
    advice_text,
    card_face,
    card_rich,
    describe_action,
    match_line,
    meld_rich,
    pace_text,
    pozzetti_lines,
    rules_lines,
    score_lines,
    sort_hand,
    status_text,
)
from .session import Session, next_speed

#: melds shown per side (no side can open more under any preset)
MAX_MELDS = 24
#: moves shown in the log: in a tall terminal, a middling one, a short one (fewer than 30 and 36 rows)
LOG_LINES = (6, 3, 1)


#: the style sheet of both apps
TABLE_CSS = """
TableView { height: 1fr; }
#title { background: $primary; color: $text; text-style: bold; padding: 0 1; height: auto; }
#seats { padding: 0 1; height: auto; }
#melds { height: 1fr; min-height: 5; }
.side { width: 1fr; height: 1fr; border: round $secondary; padding: 0 1; }
.meld { height: auto; }
#middle { height: auto; border: round $secondary; padding: 0 1; }
#piles { height: auto; }
#stock { width: auto; margin-right: 3; }
#pile { width: 1fr; }
#pozzetti { height: auto; }
#log { height: auto; color: $text-muted; padding: 0 1; }
#status { height: auto; text-style: bold; padding: 0 1; }
#message { height: auto; color: $warning; padding: 0 1; }
#handbox { height: auto; border: round $accent; padding: 0 1; }
#buttons { height: auto; }
#buttons Button { height: 1; min-width: 8; border: none; margin: 0 1 0 0; padding: 0 1; }
#help { color: $text-muted; padding: 0 1; height: auto; }
.-short #help { display: none; }
.-short #handbox { border: none; padding: 0 1; }
.-short #middle { border: none; }
"""


class Line(Static):
    """A line of text that remembers its plain text (what tests and screen readers read)."""

    plain: str = ""

    def show(self, text: Text | str) -> None:
        self.plain = text.plain if isinstance(text, Text) else text
        self.update(text)


class Clickable(Line):
    """A line that reports clicks."""

    class Clicked(Message):
        def __init__(self, widget_id: str) -> None:
            super().__init__()
            self.widget_id = widget_id

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Clicked(self.id or ""))


class MeldLine(Line):
    """One meld of one side; a click on a meld of the human's side adds the selected cards to it."""

    class Clicked(Message):
        def __init__(self, side: int, k: int) -> None:
            super().__init__()
            self.side = side
            self.k = k

    def __init__(self, side: int, k: int) -> None:
        super().__init__(id=f"meld-{side}-{k}", classes="meld")
        self.side = side
        self.k = k

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Clicked(self.side, self.k))


class CardHand(Widget):
    """The human's hand: a row (or rows) of cards of :data:`CARD_CELL` cells; a click selects or unselects."""

    DEFAULT_CSS = """
    CardHand { height: auto; min-height: 1; }
    """
    can_focus = True

    class Clicked(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.cards: list[int] = []
        self.selected: set[int] = set()
        self.cursor = 0

    @property
    def plain(self) -> str:
        return " ".join(card_face(c) for c in self.cards)

    def per_row(self) -> int:
        return max(1, (self.size.width or 80) // CARD_CELL)

    def set_cards(self, cards: list[int]) -> None:
        if cards != self.cards:
            self.selected = set()
        self.cards = cards
        self.cursor = min(self.cursor, max(0, len(cards) - 1))
        self.refresh(layout=True)

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        return max(1, -(-len(self.cards) // max(1, width // CARD_CELL)))

    def render(self) -> Text:
        t = Text()
        per = self.per_row()
        for i, c in enumerate(self.cards):
            if i and i % per == 0:
                t.append("\n")
            t.append_text(
                card_rich(c, selected=i in self.selected, cursor=i == self.cursor and self.has_focus)
            )
        return t

    def on_focus(self, _event: events.Focus) -> None:
        self.refresh()

    def on_blur(self, _event: events.Blur) -> None:
        self.refresh()

    def on_click(self, event: events.Click) -> None:
        event.stop()
        i = event.y * self.per_row() + event.x // CARD_CELL
        if event.x // CARD_CELL < self.per_row() and 0 <= i < len(self.cards):
            self.post_message(self.Clicked(i))


@dataclass
class TableState:
    """Everything the table widget draws: one seat's view and public facts."""

    view: View
    names: Names
    rules: Rules
    hand_i: int
    actions: list[Action]
    message: str = ""
    by_rank: bool = False
    extra: list[str] = field(default_factory=list)


class TableView(Vertical):
    """The table (shared by play and replay)."""

    def __init__(self, tr: Translator, **kw: Any) -> None:
        super().__init__(**kw)
        self.tr = tr

    def compose(self) -> ComposeResult:
        yield Line(id="title")
        yield Line(id="seats")
        with Horizontal(id="melds"):
            for side in (0, 1):
                with VerticalScroll(id=f"side-{side}", classes="side"):
                    yield Line(id=f"melds-title-{side}")
                    for k in range(1, MAX_MELDS + 1):
                        yield MeldLine(side, k)
        with Vertical(id="middle"):
            with Horizontal(id="piles"):
                yield Clickable(id="stock")
                yield Clickable(id="pile")
            yield Line(id="pozzetti")
        yield Line(id="log")
        yield Line(id="status")
        yield Line(id="message")
        with Vertical(id="handbox"):
            yield Line(id="hand-title")
            yield CardHand(id="hand")

    def line(self, wid: str) -> Line:
        return self.query_one(f"#{wid}", Line)

    def show(self, st: TableState) -> None:
        tr, v, names = self.tr, st.view, st.names
        totals = v.match_totals or (0, 0)
        self.line("title").show(
            f"{tr('title')} · {st.rules.name} · {match_line(tr, names, st.rules, totals, st.hand_i)}"
        )
        seats = []
        for s in range(st.rules.players):
            if s == v.seat:
                continue
            mark = "▶ " if v.turn == s else ""
            seats.append(f"{mark}{names.seat(s)}: {tr.cards(v.hand_sizes[s])}")
        self.line("seats").show("   ".join(seats))
        own = v.side_of(v.seat)
        order = (own, 1 - own)
        for col, side in enumerate(order):
            title = tr("melds_of", side=names.side(side))
            if side == own:
                title += f" ({tr('your_side')})"
            melds: tuple[Meld, ...] = v.melds[side]
            head = Text(title, style="bold")
            if not melds:
                head.append(f"  {tr('no_melds')}", style="dim")
            # the left column holds the human's side: ids follow the column, so #meld-0-k is always "your meld k"
            self.line(f"melds-title-{col}").show(head)
            for k in range(1, MAX_MELDS + 1):
                w = self.query_one(f"#meld-{col}-{k}", MeldLine)
                if k <= len(melds):
                    w.display = True
                    w.show(meld_rich(tr, st.rules, k, melds[k - 1]))
                else:
                    w.display = False
                    w.plain = ""
        self.line("stock").show(Text(f"▤ {tr('stock', n=v.stock_size)}", style="bold"))
        pile = Text()
        if not v.pile_size:
            pile.append(tr("pile_empty"))
        else:
            pile.append(
                tr("pile", n=v.pile_size) if v.rules.discard_pile_open else tr("pile_closed", n=v.pile_size)
            )
            for c in v.pile:
                pile.append(" ")
                pile.append_text(card_rich(c))
        self.line("pile").show(pile)
        self.line("pozzetti").show(" · ".join(pozzetti_lines(tr, names, v)))
        rows = self.app.size.height
        k = LOG_LINES[0] if rows >= 36 else LOG_LINES[1] if rows >= 30 else LOG_LINES[2]
        self.line("log").show("\n".join(describe_action(tr, names, a) for a in st.actions[-k:]))
        self.line("status").show(status_text(tr, names, v))
        self.line("message").show(st.message)
        how = tr("sorted_rank" if st.by_rank else "sorted_suit")
        hand_head = f"{tr('your_hand', n=len(v.hand))} · {how}"
        if v.hidden_pozzetto:
            hand_head += " · " + tr("hidden_poz", n=v.hidden_pozzetto)
        if st.extra:
            hand_head += " · " + " · ".join(st.extra)
        self.line("hand-title").show(hand_head)
        self.query_one(CardHand).set_cards(sort_hand(v.hand, st.by_rank))


class TextScreen(ModalScreen[str]):
    """A modal page of text (scores, rules, help): Enter (``ok``) or Escape (``cancel``) closes it; q quits the
    app."""

    DEFAULT_CSS = """
    TextScreen { align: center middle; }
    TextScreen > Vertical { width: 90; max-width: 100%; height: auto; max-height: 90%;
                            border: thick $accent; background: $surface; padding: 1 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "close('ok')", show=False),
        Binding("escape", "close('cancel')", show=False),
        Binding("q", "app.quit", show=False),
    ]

    def __init__(self, body: Any, plain: str, footer: str, screen_id: str) -> None:
        super().__init__(id=screen_id)
        self.body = body
        self.plain = plain
        self.footer = footer

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.body, id="body")
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


class ScoreScreen(TextScreen):
    """The scores of a hand just ended: Enter deals the next hand (or ends the match), u undoes the human's last
    decision (back into the hand that ended)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("u", "close('undo')", show=False)]


def score_page(tr: Translator, names: Names, session: Session) -> tuple[Table, str]:
    """The score breakdown of the hand just ended (and the match result at its end): a table and its plain text."""
    g = session.game
    sc = g.scores()
    assert sc is not None
    m = session.match
    sides = [names.side(0), names.side(1)]
    title = tr("score_title", i=session.hand_index() + 1) + " · " + status_text(tr, names, session.view)
    t = Table(title=title, expand=True)
    t.add_column("")
    for s in sides:
        t.add_column(s, justify="right")
    lines = [title]
    for row in score_lines(tr, m.sides, sc):
        t.add_row(*row)
        lines.append(" ".join(row))
    t.add_row(tr("row_match"), *(str(x) for x in m.totals), style="bold")
    lines.append(f"{tr('row_match')} {m.totals[0]} {m.totals[1]}")
    if m.is_over:
        vp = m.vp()
        if vp is not None:
            t.add_row(tr("row_vp"), str(vp[0]), str(vp[1]), style="bold")
            lines.append(f"{tr('row_vp')} {vp[0]} {vp[1]}")
        w = m.winner()
        result = tr("match_drawn") if w is None else tr("match_won", side=names.side(w))
        summary = tr(
            "match_summary",
            hands=len(m.games),
            a_side=sides[0],
            a=m.totals[0],
            b_side=sides[1],
            b=m.totals[1],
        )
        t.caption = f"{result}. {summary}"
        lines += [result, summary]
    return t, "\n".join(lines)


class PlayApp(App[int]):
    """``burraco play``: the human against (or with) the computer players."""

    TITLE = "burraco"
    CSS = TABLE_CSS
    VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-tall")]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "draw", show=False),
        Binding("p", "pick", show=False),
        Binding("m", "meld", show=False),
        Binding("x", "discard", show=False),
        *[Binding(str(k), f"add({k})", show=False) for k in range(1, 10)],
        Binding("left", "cursor(-1)", show=False, priority=True),
        Binding("right", "cursor(1)", show=False, priority=True),
        Binding("space", "select_card", show=False, priority=True),
        Binding("escape", "clear", show=False),
        Binding("h", "hint", show=False),
        Binding("u", "undo", show=False),
        Binding("o", "sort", show=False),
        Binding("s", "speed", show=False),
        Binding("r", "rules", show=False),
        Binding("question_mark", "help", show=False),
        Binding("q", "quit", show=False),
    ]

    def __init__(self, session: Session, tr: Translator, *, delay: float = 0.0, message: str = "") -> None:
        super().__init__()
        self.session = session
        self.tr = tr
        self.delay = delay
        self.names = Names(tr, session.seat_names, session.human)
        self.by_rank = False
        self.message = message
        self._busy = False  # the computer players are moving
        self._gen = 0  # the current run of computer moves (an undo starts a new one)
        self._table_ready = False

    # ----- layout -----------------------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield TableView(self.tr, id="table")
        with Horizontal(id="buttons"):
            for bid, key in (
                ("draw", "d"),
                ("pick", "p"),
                ("meld", "m"),
                ("discard", "x"),
                ("hint", "h"),
                ("undo", "u"),
                ("sort", "o"),
                ("speed", "s"),
                ("rules", "r"),
            ):
                button = Button(f"{key} {self.tr('btn_' + bid)}", id=f"btn-{bid}")
                button.can_focus = False  # the keys keep working on the hand
                yield button
        yield Line(id="help")

    def show_pace(self) -> None:
        """The pace on its button and at the end of the help line."""
        pace = pace_text(self.tr, self.delay)
        self.query_one("#btn-speed", Button).label = f"s {self.tr('btn_speed_now', pace=pace)}"
        self.query_one("#help", Line).show(f"{self.tr('help_lines')} · {self.tr('pace_now', pace=pace)}")

    def on_mount(self) -> None:
        self.show_pace()
        self.query_one(CardHand).focus()
        self.refresh_table()
        self._table_ready = True
        self.after_change()

    def on_resize(self, _event: events.Resize) -> None:
        if self._table_ready:
            self.refresh_table()

    @property
    def table(self) -> TableView:
        return self.query_one(TableView)

    @property
    def hand(self) -> CardHand:
        return self.query_one(CardHand)

    def refresh_table(self) -> None:
        s = self.session
        self.table.show(
            TableState(
                view=s.view,
                names=self.names,
                rules=s.rules,
                hand_i=s.hand_index() + 1,
                actions=list(s.game.actions),
                message=self.message,
                by_rank=self.by_rank,
            )
        )

    def say(self, text: str) -> None:
        self.message = text
        self.table.line("message").show(text)

    # ----- the flow of the game -------------------------------------------------------------------------------------
    def after_change(self) -> None:
        """After any move: let the computers play, or show the scores when the hand has ended."""
        s = self.session
        if s.hand_over:
            self.show_scores()
        elif s.computer_to_act and not self._busy:
            self._busy = True
            self._gen += 1
            self.run_worker(self.computer_moves(self._gen), exclusive=True, group="computer")

    async def computer_moves(self, gen: int) -> None:
        """The computer players move one at a time, ``delay`` seconds apart (``gen``: this run's number)."""
        s = self.session
        try:
            while s.computer_to_act:
                if self.delay:
                    await asyncio.sleep(self.delay)
                match = s.match
                a = await asyncio.to_thread(s.choose_computer)
                if s.match is not match:  # undone meanwhile
                    return
                s.apply(a)
                self.refresh_table()
        finally:
            if gen == self._gen:
                self._busy = False
        self.after_change()

    def show_scores(self) -> None:
        if any(isinstance(sc, TextScreen) and sc.id == "scores" for sc in self.screen_stack):
            return
        table, plain = score_page(self.tr, self.names, self.session)
        footer = self.tr("press_quit") if self.session.match_over else self.tr("next_hand")
        if self.session.can_undo():
            footer += " · " + self.tr("score_undo")
        self.push_screen(ScoreScreen(table, plain, footer, "scores"), self.scores_closed)

    def scores_closed(self, how: str | None) -> None:
        s = self.session
        if how == "undo":
            self.action_undo()
            return
        if s.match_over:
            self.exit(0)
            return
        s.next_hand()
        self.message = ""
        self.refresh_table()
        self.after_change()

    def play(self, action: Action) -> None:
        """Play a move of the human; the engine's refusal is shown, never raised."""
        s = self.session
        if not s.human_to_act:
            self.say(self.tr("not_your_turn"))
            return
        try:
            s.play_human(action)
        except ActionError as e:  # the engine's refusal, in the player's language
            self.say(self.tr("refused", msg=e.msg))
            return
        self.message = ""
        self.refresh_table()
        self.after_change()

    def me(self) -> str:
        return self.session.seat_names[self.session.human]

    def selected_cards(self) -> list[int]:
        h = self.hand
        return [h.cards[i] for i in sorted(h.selected)]

    # ----- actions (keys and buttons) -------------------------------------------------------------------------------
    def action_draw(self) -> None:
        self.play(Action.draw(self.me()))

    def action_pick(self) -> None:
        self.play(Action.pick(self.me()))

    def action_meld(self) -> None:
        cards = self.selected_cards()
        if not cards:
            self.say(self.tr("select_first"))
            return
        self.play(Action.meld_cards(self.me(), cards))

    def action_add(self, k: int) -> None:
        cards = self.selected_cards()
        if not cards:
            self.say(self.tr("select_first"))
            return
        v = self.session.view
        if k > len(v.melds[v.side_of(v.seat)]):
            self.say(self.tr("no_meld", k=k))
            return
        self.play(Action.add(self.me(), k, cards))

    def action_discard(self) -> None:
        cards = self.selected_cards()
        h = self.hand
        if not cards and h.cards:
            cards = [h.cards[h.cursor]]
        if len(cards) != 1:
            self.say(self.tr("discard_one"))
            return
        self.play(Action.discard(self.me(), cards[0]))

    def action_cursor(self, step: int) -> None:
        h = self.hand
        if h.cards:
            h.cursor = (h.cursor + step) % len(h.cards)
            h.refresh()

    def action_select_card(self) -> None:
        h = self.hand
        if h.cards:
            h.selected ^= {h.cursor}
            h.refresh()
            self.show_selection()

    def action_clear(self) -> None:
        self.hand.selected = set()
        self.hand.refresh()
        self.show_selection()

    def show_selection(self) -> None:
        cards = self.selected_cards()
        self.say(self.tr("selected", cards=" ".join(card_face(c) for c in cards)) if cards else "")

    def action_hint(self) -> None:
        if not self.session.human_to_act:
            self.say(self.tr("not_your_turn"))
            return
        h = self.session.hint()
        self.say(self.tr("hint", action=advice_text(self.tr, h.action), reason=h.why))

    def action_undo(self) -> None:
        """Back to the human's previous decision, in this hand or the one before (from the scores, too)."""
        if not self.session.can_undo():
            self.say(self.tr("nothing_to_undo"))
            return
        self.session.undo()
        self.workers.cancel_group(self, "computer")
        self._gen += 1
        self._busy = False
        self.message = self.tr("undone")
        self.refresh_table()
        self.after_change()

    def action_sort(self) -> None:
        self.by_rank = not self.by_rank
        self.message = self.tr("sorted_now", how=self.tr("sorted_rank" if self.by_rank else "sorted_suit"))
        self.refresh_table()

    def action_speed(self) -> None:
        """The next pace of the computer's moves (instant, fast, normal, slow); it holds from the next move on."""
        self.delay = next_speed(self.delay)
        self.show_pace()
        self.say(self.tr("pace_now", pace=pace_text(self.tr, self.delay)))

    def action_rules(self) -> None:
        lines = rules_lines(self.tr, self.session.rules)
        text = "\n".join([self.tr("rules_title", name=self.session.rules.name), "", *lines])
        self.push_screen(PageScreen(text, text, self.tr("close_screen"), "rules"))

    def action_help(self) -> None:
        pace = self.tr("pace_now", pace=pace_text(self.tr, self.delay))
        text = "\n".join([self.tr("help_title"), "", *self.tr("help_lines").split(" · "), "", pace])
        self.push_screen(PageScreen(text, text, self.tr("close_screen"), "help"))

    # ----- mouse ----------------------------------------------------------------------------------------------------
    def on_card_hand_clicked(self, msg: CardHand.Clicked) -> None:
        h = self.hand
        h.cursor = msg.index
        h.selected ^= {msg.index}
        h.refresh()
        self.show_selection()

    def on_meld_line_clicked(self, msg: MeldLine.Clicked) -> None:
        if msg.side == 0:  # the left column: the human's side
            self.action_add(msg.k)

    def on_clickable_clicked(self, msg: Clickable.Clicked) -> None:
        if msg.widget_id == "stock":
            self.action_draw()
        elif msg.widget_id == "pile":
            self.action_pick()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        bid = (event.button.id or "").removeprefix("btn-")
        event.stop()
        getattr(self, f"action_{bid}")()


class WatchApp(App[int]):
    """``burraco replay FILE --watch``: step through a record on the table, seen from one seat."""

    TITLE = "burraco replay"
    CSS = TABLE_CSS
    VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-tall")]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right", "step(1)", show=False, priority=True),
        Binding("left", "step(-1)", show=False, priority=True),
        Binding("space", "step(1)", show=False, priority=True),
        Binding("pagedown", "step(10)", show=False),
        Binding("pageup", "step(-10)", show=False),
        Binding("home", "jump(0)", show=False),
        Binding("end", "jump(-1)", show=False),
        *[Binding(str(k), f"seat({k - 1})", show=False) for k in range(1, 5)],
        Binding("q", "quit", show=False),
    ]

    def __init__(
        self, positions: list[tuple[int, Game, tuple[int, int]]], tr: Translator, seat: int, error: str = ""
    ) -> None:
        super().__init__()
        self.positions = positions
        self.tr = tr
        self.seat = seat
        self.index = 0
        self.error = error
        self._table_ready = False

    def compose(self) -> ComposeResult:
        yield TableView(self.tr, id="table")
        yield Line(id="help")

    def on_mount(self) -> None:
        self.show()
        self._table_ready = True

    def on_resize(self, _event: events.Resize) -> None:
        if self._table_ready:
            self.show()

    def show(self) -> None:
        hand_i, g, totals = self.positions[self.index]
        names = Names(self.tr, g.seats, None)
        v = dataclasses.replace(g.view(self.seat), match_totals=totals)
        hands = sorted({h for h, _, _ in self.positions})
        st = TableState(
            view=v,
            names=names,
            rules=g.rules,
            hand_i=hand_i + 1,
            actions=list(g.actions),
            message=self.error if self.index == len(self.positions) - 1 else "",
            extra=[self.tr("seen_from", seat=g.seats[self.seat])],
        )
        self.query_one(TableView).show(st)
        n_acts = len(g.actions)
        total = sum(1 for h, _, _ in self.positions if h == hand_i) - 1
        self.query_one("#help", Line).show(
            self.tr("watch_status", i=n_acts, n=total, h=hand_i + 1, hn=len(hands))
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


def watch_positions(
    record: Any, tr: Translator | None = None
) -> tuple[list[tuple[int, Game, tuple[int, int]]], str]:
    """Every position of a record (hand index, the game after each action, match totals before the hand), and the
    engine's message where an action was refused, in ``tr``'s language (the positions stop there). Raises
    RecordError for a bad record."""
    tr = tr or Translator("en")
    from ..match import Match
    from ..record import parse_record

    rules, dealer, hands = parse_record(record)
    m = Match(rules, dealer)
    out: list[tuple[int, Game, tuple[int, int]]] = []
    for i, (deal, actions) in enumerate(hands):
        if m.is_over or (m.games and not m.game.is_over):
            break
        before = (m.totals[0], m.totals[1])
        g = m.start_hand(deal)
        out.append((i, g.clone(), before))
        for j, text in enumerate(actions):
            try:
                m.apply(text)
            except ActionError as e:
                return out, tr("watch_refused", h=i + 1, i=j + 1, action=text, msg=e.msg)
            out.append((i, g.clone(), before))
    return out, ""


__all__ = [
    "CardHand",
    "PageScreen",
    "PlayApp",
    "ScoreScreen",
    "TableView",
    "TextScreen",
    "WatchApp",
    "score_page",
    "watch_positions",
]

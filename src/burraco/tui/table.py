"""The table of the full-screen apps (``burraco play`` and ``burraco replay FILE --watch``), seen from one seat.

From top to bottom: the match line; the other seats, each with its number of cards and its last action (▶ marks
the seat to play); the melds of both sides, the human's side on the left, each side headed by its running points
on the table and its pozzetto; the stock, the pozzetti left and the discard pile with its top end marked; the
moves of the hand, one line per turn, as much of it as the screen holds and scrollable back to its start; whose
turn it is; a line for messages (refusals, hints) or for typing cards; the seat's own hand.

The layout is made for 80×24 upwards: on a short screen (fewer than :data:`TALL` rows) nothing has a border, the
melds stand side by side without captions and the log takes every row left; on a taller one the boxes have
borders and each meld its own line with its caption while they fit. Two sides' melds stand one above the other on
a short screen; three or more (three, five and six players) stand in columns on every screen.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Input

from ..cards import cards_str
from ..i18n import Translator
from ..rules import Rules
from ..view import View
from .movelog import HandLog
from .render import (
    Names,
    log_lines,
    match_line,
    meld_caption,
    pile_text,
    pozzetti_text,
    seat_line,
    side_header,
    sort_hand,
    status_text,
)
from .widgets import CardHand, Clickable, FlowLine, Line, MeldBox, MoveLog

__all__ = ["MAX_SIDES", "TABLE_CSS", "TALL", "TableState", "TableView"]

#: the most sides a hand has (five players, each alone until a pair forms: RULES.md §14.4)
MAX_SIDES = 5

#: rows from which the table is drawn with borders and captions (below: the compact layout of 80×24)
TALL = 32

#: the style sheet of both apps (``-tall``: the app has at least TALL rows)
TABLE_CSS = """
TableView { height: 1fr; }
#title { background: $primary; color: $text; text-style: bold; padding: 0 1; height: auto; }
#seats { padding: 0 1; height: auto; }
#melds { height: auto; layout: vertical; }
MeldBox { width: 1fr; padding: 0 1; }
.-tall #melds { layout: horizontal; }
#melds.-many { layout: horizontal; }
#piles { height: auto; padding: 0 1; }
#stock { width: auto; margin-right: 2; }
#pozzetti { width: auto; margin-right: 2; color: $text-muted; }
#pile { width: 1fr; }
MoveLog { padding: 0 1; }
#status { height: auto; text-style: bold; padding: 0 1; }
#message { height: auto; color: $warning; padding: 0 1; }
#message.-empty { display: none; }
#entry { height: 1; border: none; padding: 0 1; display: none; }
#handbox { height: auto; padding: 0 1; }
.-tall MeldBox { border: round $secondary; }
.-tall #piles { border: round $secondary; }
.-tall MoveLog { border: round $secondary; }
.-tall #handbox { border: round $accent; }
.-entry #message { display: none; }
.-entry #entry { display: block; }
"""


@dataclass
class TableState:
    """Everything the table draws: one seat's view, the moves log from that seat, public facts."""

    view: View
    names: Names
    rules: Rules
    hand_i: int
    log: HandLog
    message: str = ""
    by_rank: bool = False
    extra: list[str] = field(default_factory=list)


class TableView(Vertical):
    """The table (shared by play and replay)."""

    def __init__(self, tr: Translator, *, entry: bool = False, **kw: Any) -> None:
        """``entry``: with the line where the player types cards (``burraco play``; hidden until asked for)."""
        super().__init__(**kw)
        self.tr = tr
        self.entry = entry
        self.round: list[str] = []  # the log's lines of the last round (what must stay on the screen)

    def compose(self) -> ComposeResult:
        yield Line(id="title")
        yield FlowLine(id="seats")
        with Horizontal(id="melds"):
            for col in range(MAX_SIDES):  # as many as the hand has sides (the others hidden)
                yield MeldBox(col, id=f"melds-{col}")
        with Horizontal(id="piles"):
            yield Clickable(id="stock")
            yield Line(id="pozzetti")
            yield Clickable(id="pile")
        yield MoveLog(id="log")
        yield Line(id="status")
        yield Line(id="message")
        if self.entry:
            entry = Input(id="entry")
            entry.can_focus = False  # until it is asked for: the keys go to the hand
            yield entry
        with Vertical(id="handbox"):
            yield Line(id="hand-title")
            yield CardHand(id="hand")

    def on_resize(self, _event: events.Resize) -> None:
        """A new size (the terminal's, or the short and tall layouts swapped): decide again whether the melds
        close up, once the new layout is drawn (before it, the sizes are the old ones)."""
        self.call_after_refresh(self.fit)

    def fit(self) -> None:
        """Keep the last round of moves on the screen: where the log has fewer rows than that round takes, the
        melds close up (their cards without spaces); where it has room again, they open up."""
        log = self.query_one(MoveLog)
        boxes = [b for b in self.query(MeldBox) if b.display]
        if not boxes or not log.scrollable_content_region.height:
            return
        need = log.rows_for(self.round)
        have = log.scrollable_content_region.height
        if self.screen.has_class("-tall") or len(boxes) > 2:  # side by side: the taller side counts
            gain = max(b.rows(b.tight) for b in boxes) - max(b.rows(False) for b in boxes)
        else:  # one above the other: the rows add up
            gain = sum(b.rows(b.tight) - b.rows(False) for b in boxes)
        # columns of five sides are too narrow for a meld's cards written without spaces: they wrap inside a card
        tight = have + gain < need and len(boxes) <= 3
        for b in boxes:
            b.set_tight(tight)

    def line(self, wid: str) -> Line:
        return self.query_one(f"#{wid}", Line)

    def meld_room(self) -> int:
        """How many lines a side's melds may take one per line (0 on a short screen: side by side)."""
        rows = self.app.size.height
        return 0 if rows < TALL else max(0, rows - 28)

    def show(self, st: TableState) -> None:
        tr, v, names = self.tr, st.view, st.names
        names.follow(v)
        title = tr("tui_title")
        self.line("title").show(f"{title} · {st.rules.name} · {match_line(tr, st.rules, v.match_totals, st.hand_i)}")
        others = [s for s in range(st.rules.players) if s != v.seat]
        self.query_one("#seats", FlowLine).show([seat_line(tr, names, v, st.log, s) for s in others])
        room = self.meld_room()
        order = names.own_first()
        # more than two sides (three, five and six players): side by side on every screen, else they would take
        # a short screen's every row
        self.query_one("#melds").set_class(len(order) > 2, "-many")
        for col, box in enumerate(self.query(MeldBox)):
            box.display = col < len(order)
            if col >= len(order):
                continue
            side = order[col]
            melds = [(m.display_cards(), m.burraco or "", meld_caption(tr, st.rules, m)) for m in v.melds[side]]
            # the left column holds the human's side: #melds-0 is always "your melds"
            head = side_header(tr, names, v, side, short=len(order) > 3)
            box.set_melds(head, tr("tui_no_melds"), melds, tr.joker, room)
        self.line("stock").show(Text("▤ " + tr("tui_stock", n=v.stock_size), style="bold"))
        self.line("pozzetti").show(pozzetti_text(tr, v))
        self.line("pile").show(pile_text(tr, v))
        lines = log_lines(tr, names, st.log)
        mine = [t[0].seat == v.seat and names.human is not None for t in st.log.turns()]
        self.query_one(MoveLog).set_lines(lines, mine)
        self.round = lines[-st.rules.players :]
        self.call_after_refresh(self.fit)
        self.line("status").show(status_text(tr, names, v))
        self.line("message").show(st.message)
        how = tr.word("tui_sort", "rank" if st.by_rank else "suit")
        hand_head = tr("tui_your_hand", n=len(v.hand)) + " · " + how
        fresh = st.log.fresh(v.hand) if names.human is not None else Counter[int]()
        if fresh:
            hand_head += " · " + tr("tui_fresh", cards=cards_str(sorted(fresh.elements())))
        if v.hidden_pozzetto:
            hand_head += " · " + tr("tui_hidden_poz", n=v.hidden_pozzetto)
        if st.extra:
            hand_head += " · " + " · ".join(st.extra)
        self.line("hand-title").show(hand_head)
        self.query_one(CardHand).set_cards(sort_hand(v.hand, st.by_rank), fresh, tr.joker)

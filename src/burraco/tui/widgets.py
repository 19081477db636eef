"""The widgets of the full-screen table: lines of text, the hand, a side's melds and the moves log.

Each widget keeps the plain text of what it shows (``.plain``), which is what the tests (and a screen reader) read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from ..cards import rank_of
from .render import BURRACO_MARKS, card_face, card_rich, card_style

__all__ = [
    "RANK_KEYS",
    "CardHand",
    "Clickable",
    "FlowLine",
    "Line",
    "MeldBox",
    "MoveLog",
    "flow",
    "phrases",
]

#: the keys that move the hand's cursor to a rank (0 for the joker): 2-9, 0 or t for the 10, j, Q, k, 1 or A
RANK_KEYS: dict[str, int] = {
    **{str(r): r for r in range(2, 10)},
    "0": 10,
    "t": 10,
    "T": 10,
    "j": 11,
    "J": 11,
    "Q": 12,
    "k": 13,
    "K": 13,
    "1": 1,
    "A": 1,
    "*": 0,
}


class Line(Static):
    """A line (or lines) of text that remembers its plain text."""

    plain: str = ""

    def show(self, text: Text | str) -> None:
        self.plain = text.plain if isinstance(text, Text) else text
        self.set_class(not self.plain, "-empty")
        self.update(text)


class FlowLine(Widget):
    """Short items (the other seats) side by side while they fit in the width, else on more lines; ``plain`` has
    one item per line."""

    DEFAULT_CSS = """
    FlowLine { height: auto; }
    """

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.items: list[Text] = []

    @property
    def plain(self) -> str:
        return "\n".join(t.plain for t in self.items)

    def show(self, items: Sequence[Text | str]) -> None:
        self.items = [t if isinstance(t, Text) else Text(t) for t in items]
        self.refresh(layout=True)

    def _lines(self, width: int) -> list[Text]:
        return flow([phrases(t, width - 3) for t in self.items], width, one_per_line=False, gap=4)[0]

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        return len(self._lines(width)) if self.items else 1

    def render(self) -> Text:
        return Text("\n").join(self._lines(self.size.width or 80))


class Clickable(Line):
    """A line that reports clicks."""

    class Clicked(Message):
        def __init__(self, widget_id: str) -> None:
            super().__init__()
            self.widget_id = widget_id

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Clicked(self.id or ""))


def phrases(item: Text, width: int) -> list[Text]:
    """An item of a :class:`FlowLine` (``▶ Partner (N) · 9 cards · discards 5♠``) cut into its phrases, the
    pieces between `` · ``, so that a line breaks between phrases, never inside one (a phrase keeps its `` ·``);
    only a phrase longer than ``width`` is cut into words."""
    parts = item.split(" · ") if " · " in item.plain else [item]
    out: list[Text] = []
    for i, part in enumerate(parts):
        piece = part.copy()
        if i < len(parts) - 1:
            piece.append(" ·")
        if piece.cell_len > width:
            out += [w for w in piece.split(" ") if w.plain]
        elif piece.plain:
            out.append(piece)
    return out


def flow(
    items: Sequence[Sequence[Text]], width: int, *, one_per_line: bool, gap: int = 2, indent: int = 3
) -> tuple[list[Text], list[tuple[int, int, int, int]]]:
    """Lay out ``items`` (each a sequence of words, joined by one space) in lines of ``width`` cells: one item per
    line, or as many as fit side by side ``gap`` cells apart; an item too long for the room left goes to the next
    line, and one too long for a line breaks between its words (the rest ``indent`` cells in). Returns the lines
    and the hit boxes ``(line, x0, x1, item)`` of every piece of every item."""
    width = max(8, width)
    lines: list[Text] = [Text()]
    boxes: list[tuple[int, int, int, int]] = []

    def newline() -> None:
        lines.append(Text())

    for i, words in enumerate(items):
        if not words:
            continue
        size = sum(w.cell_len for w in words) + len(words) - 1
        cur = lines[-1]
        if cur.cell_len and (one_per_line or cur.cell_len + gap + size > width):
            newline()
        elif cur.cell_len:
            cur.append(" " * gap)
        start = lines[-1].cell_len
        for j, w in enumerate(words):
            cur = lines[-1]
            if j and cur.cell_len + 1 + w.cell_len > width:
                boxes.append((len(lines) - 1, start, cur.cell_len, i))
                newline()
                cur = lines[-1]
                cur.append(" " * indent)
                start = 0
            elif j:
                cur.append(" ")
            cur.append_text(w)
        boxes.append((len(lines) - 1, start, lines[-1].cell_len, i))
    if not lines[-1].cell_len and len(lines) > 1:
        lines.pop()
    return lines, boxes


class CardHand(Widget):
    """The human's hand: rows of cards; a click selects or unselects one. The cursor card is shown in reverse, a
    selected card on a yellow face with a ✓ after it, a card new this turn (drawn, picked up) with a + after it."""

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
        self.fresh: set[int] = set()
        self.cursor = 0
        self.joker = "JK"

    @property
    def plain(self) -> str:
        """The cards as the player reads them, in order."""
        return " ".join(card_face(c, self.joker) for c in self.cards)

    def cell(self, i: int) -> int:
        """Width of card ``i`` with the mark after it."""
        return max(3, cell_len(card_face(self.cards[i], self.joker))) + 1

    def rows(self, width: int) -> list[list[tuple[int, int]]]:
        """The cards laid out in rows of ``width`` cells: per row, (index, x) of each card."""
        out: list[list[tuple[int, int]]] = [[]]
        x = 0
        for i in range(len(self.cards)):
            w = self.cell(i)
            if x and x + w > width:
                out.append([])
                x = 0
            out[-1].append((i, x))
            x += w
        return out

    def set_cards(self, cards: list[int], fresh: Counter[int], joker: str) -> None:
        """Show ``cards`` (the selection is kept while the hand is the same), marking ``fresh`` ones as new."""
        if cards != self.cards:
            self.selected = set()
        self.cards = cards
        self.joker = joker
        left = Counter(fresh)
        self.fresh = set()
        for i, c in enumerate(cards):
            if left[c] > 0:
                left[c] -= 1
                self.fresh.add(i)
        self.cursor = min(self.cursor, max(0, len(cards) - 1))
        self.refresh(layout=True)

    def select_cards(self, cards: Sequence[int]) -> list[int]:
        """Select exactly ``cards`` (a multiset) and put the cursor on the first; returns the cards not held."""
        chosen: set[int] = set()
        missing: list[int] = []
        for c in cards:
            i = next((i for i, x in enumerate(self.cards) if x == c and i not in chosen), None)
            if i is None:
                missing.append(c)
            else:
                chosen.add(i)
        self.selected = chosen
        if chosen:
            self.cursor = min(chosen)
        self.refresh()
        return missing

    def move(self, step: int) -> None:
        if self.cards:
            self.cursor = (self.cursor + step) % len(self.cards)
            self.refresh()

    def home(self, end: bool = False) -> None:
        if self.cards:
            self.cursor = len(self.cards) - 1 if end else 0
            self.refresh()

    def jump(self, rank: int) -> bool:
        """Move the cursor to the next card of ``rank`` (1 ace … 13 king, 0 the joker) after it, round the hand;
        False when the hand holds none."""
        n = len(self.cards)
        for k in range(1, n + 1):
            i = (self.cursor + k) % n
            if rank_of(self.cards[i]) == rank:
                self.cursor = i
                self.refresh()
                return True
        return False

    def toggle(self, i: int | None = None) -> None:
        if self.cards:
            self.selected ^= {self.cursor if i is None else i}
            self.refresh()

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        return max(1, len(self.rows(width)))

    def render(self) -> Text:
        t = Text()
        for r, row in enumerate(self.rows(self.size.width or 80)):
            if r:
                t.append("\n")
            for i, _x in row:
                c = self.cards[i]
                face = card_face(c, self.joker).rjust(3)
                style = card_style(c)
                style += " on gold1" if i in self.selected else " on grey93"
                if i == self.cursor:
                    style += " reverse"
                t.append(face, style=style)
                mark = "✓" if i in self.selected else "+" if i in self.fresh else " "
                t.append(mark, style="bold")
        return t

    def on_click(self, event: events.Click) -> None:
        event.stop()
        rows = self.rows(self.size.width or 80)
        if not 0 <= event.y < len(rows):
            return
        for i, x in rows[event.y]:
            if x <= event.x < x + self.cell(i):
                self.post_message(self.Clicked(i))
                return


class MeldBox(Widget):
    """The melds of one side, after a head with the side's running points and its pozzetto. On a tall screen the
    head has a line of its own and each meld too, with its caption, while they fit (``room``: the lines they may
    take); on a short one (``room`` 0), or when they do not fit, the melds stand side by side without captions
    (the side's points are in the head). A click on a meld of the human's side (``column`` 0) adds the selected
    cards to it."""

    DEFAULT_CSS = """
    MeldBox { height: auto; }
    """

    class Clicked(Message):
        def __init__(self, column: int, k: int) -> None:
            super().__init__()
            self.column = column
            self.k = k

    def __init__(self, column: int, **kw: Any) -> None:
        super().__init__(**kw)
        self.column = column
        self.head = ""
        self.empty = ""
        self.melds: list[tuple[list[int], str, str]] = []  # cards, burraco kind, caption
        self.joker = "JK"
        self._boxes: list[tuple[int, int, int, int]] = []
        #: lines a meld-per-line layout may take (set by the table from the screen's size); 0: always side by side
        self.room = 0
        #: the melds' cards without spaces: where the moves log would otherwise lose its last round
        self.tight = False

    def set_melds(
        self, head: str, empty: str, melds: list[tuple[list[int], str, str]], joker: str, room: int
    ) -> None:
        self.head, self.empty, self.melds, self.joker, self.room = head, empty, melds, joker, room
        self.refresh(layout=True)

    @property
    def plain(self) -> str:
        """The head, then one line per meld: ``1. 7♥ 8♥ 9♥ (3 cards, 24 pts)``."""
        lines = [self.head]
        for k, (cards, kind, caption) in enumerate(self.melds, 1):
            mark = f" {BURRACO_MARKS[kind]}" if kind else ""
            lines.append(f"{k}. {' '.join(card_face(c, self.joker) for c in cards)}{mark} ({caption})")
        if not self.melds:
            lines.append(self.empty)
        return "\n".join(lines)

    def _items(self, captions: bool, tight: bool = False) -> list[list[Text]]:
        """The melds as items of words; ``tight``: a meld's cards without spaces between them (each card ends
        with its suit's symbol, or is the joker's word, so they still read one by one)."""
        items: list[list[Text]] = []
        for k, (cards, kind, caption) in enumerate(self.melds, 1):
            words = [Text(f"{k}.", style="bold")]
            faces = [card_rich(c, self.joker, width=1) for c in cards]
            words += [Text("").join(faces)] if tight else faces
            if kind:
                words.append(Text(BURRACO_MARKS[kind], style="bold green"))
            if captions:
                words += [Text(w, style="dim") for w in f"({caption})".split()]
            items.append(words)
        return items

    def _layout(
        self, width: int, tight: bool | None = None
    ) -> tuple[list[Text], list[tuple[int, int, int, int]]]:
        tight = self.tight if tight is None else tight
        head = [Text(w, style="bold") for w in self.head.split()]
        if not self.room:  # a short screen: the head and the melds flow together, side by side
            empty = [[Text(w, style="dim") for w in self.empty.split()]] if not self.melds else []
            lines, boxes = flow([head, *empty, *self._items(False, tight)], width, one_per_line=False)
            return lines, [(y, x0, x1, k - 1) for y, x0, x1, k in boxes if k > 0 and self.melds]
        top, _ = flow([head], width, one_per_line=True, indent=0)
        if not self.melds:
            return [*top, Text(self.empty, style="dim")], []
        lines, boxes = flow(self._items(True), width, one_per_line=True)
        if len(lines) > self.room:
            lines, boxes = flow(self._items(False, tight), width, one_per_line=False)
        off = len(top)
        return [*top, *lines], [(y + off, x0, x1, k) for y, x0, x1, k in boxes]

    def rows(self, tight: bool) -> int:
        """The lines the melds take at the widget's width, tight or not."""
        return len(self._layout(self.content_region.width or 40, tight)[0])

    def set_tight(self, tight: bool) -> None:
        if tight != self.tight:
            self.tight = tight
            self.refresh(layout=True)

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        return len(self._layout(width)[0])

    def render(self) -> Text:
        lines, self._boxes = self._layout(self.size.width or 40)
        return Text("\n").join(lines)

    def meld_at(self, x: int, y: int) -> int | None:
        """The meld (1-based) drawn at ``(x, y)``, None where there is none."""
        for ly, x0, x1, i in self._boxes:
            if ly == y and x0 <= x < x1:
                return i + 1
        return None

    def offset_of(self, k: int) -> tuple[int, int]:
        """Where meld ``k`` starts on the widget (for the tests' clicks)."""
        self._boxes = self._layout(self.size.width or 40)[1]
        ly, x0, _, _ = next(b for b in self._boxes if b[3] == k - 1)
        return x0, ly

    def on_click(self, event: events.Click) -> None:
        event.stop()
        k = self.meld_at(event.x, event.y)
        if k is not None:
            self.post_message(self.Clicked(self.column, k))


class MoveLog(VerticalScroll, can_focus=False):
    """The moves of the hand, one line per turn, scrolled to the newest; the mouse wheel and PageUp/PageDown go
    back through the whole hand."""

    DEFAULT_CSS = """
    MoveLog { height: 1fr; min-height: 3; scrollbar-size-vertical: 1; }
    MoveLog > Line { height: auto; }
    """

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.lines: list[str] = []

    def compose(self) -> ComposeResult:
        yield Line(id="log-text")

    @property
    def plain(self) -> str:
        return "\n".join(self.lines)

    def rows_for(self, lines: Sequence[str]) -> int:
        """The rows ``lines`` take at the log's width (wrapped)."""
        width = max(8, self.scrollable_content_region.width)
        return sum(len(Text(line).wrap(self.app.console, width)) for line in lines)

    def set_lines(self, lines: list[str], you: Sequence[bool]) -> None:
        """Show ``lines`` (the human's own turns in bold: ``you``) and scroll to the newest."""
        changed = lines != self.lines
        self.lines = list(lines)
        t = Text()
        for i, (line, mine) in enumerate(zip(lines, you, strict=True)):
            if i:
                t.append("\n")
            t.append(line, style="bold" if mine else "")
        self.query_one("#log-text", Line).show(t)
        if changed:  # a new move: back to the newest (and stay there while the lines are laid out)
            self.anchor()
            self.call_after_refresh(self.scroll_end, animate=False)

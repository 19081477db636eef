"""The full-screen table of ``burraco play`` (Textual): the human against (or with) the computer players.

The table (:mod:`burraco.tui.table`) shows the human seat's :class:`~burraco.view.View` and the moves of the hand.
Playing, with keys or the mouse: ``d`` or a click on the stock draws, ``p`` or a click on the pile takes it. Cards
are chosen with ←/→, Home/End or a rank key (``2``–``9``, ``0`` for the 10, ``j``, ``Q``, ``k``, ``1`` or ``A``
for the ace, ``*`` for the joker: the cursor jumps to the next card of that rank) and space, with a click, or by
typing them after ``/`` or Enter (``7h 8h 9h`` or ``7♥ 8♥ 9♥``; a whole command such as ``m 7h 8h 9h`` or
``a 2 5s`` plays at once). ``m`` melds the chosen cards, ``a`` and a meld's number (or a click on one of your
side's melds) adds them to it, ``x`` discards the chosen card (or the one under the cursor). ``h`` gives a hint and
chooses its cards, ``u`` takes back a meld or an attachment of the turn (docs/play.md "Taking a move back"), ``o``
sorts, ``s`` sets the computer's pace, ``r`` shows the rule the last refusal or hint named in the rule book (else the
rules of the table; ``/r 6.4`` any rule), ``?`` the keys, PageUp/PageDown scroll the moves, ``q`` quits (the game is
saved after every move). ``/timeout`` calls the director's time-out in a match of fixed hands: the match ends with
the hand (RULES.md §0.1, §9.4). Below :data:`MIN_SIZE` the table gives way to a line that says how large the
terminal must be.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import ClassVar

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.widgets import Button, Input

from ..actions import ADD, DISCARD, MELD, SWAP, Action, ActionError
from ..cards import cards_str
from ..i18n import Translator
from ..rulebook import RulebookError, cited
from .commands import CommandError, command_text, parse_command
from .render import Names, hint_keys, pace_short, pace_text
from .screens import CoachScreen, PageScreen, RulebookScreen, ScoreScreen, TextScreen, check_rule, score_page
from .session import Session, next_speed
from .table import TABLE_CSS, TALL, TableState, TableView
from .widgets import RANK_KEYS, CardHand, Clickable, Line, MeldBox, MoveLog

__all__ = ["BUTTONS", "MIN_SIZE", "PlayApp"]

#: the smallest terminal the table is laid out for (columns, rows)
MIN_SIZE = (80, 24)

#: the buttons, in two rows (the moves, then the rest): id and key
BUTTONS = (
    (("draw", "d"), ("pick", "p"), ("meld", "m"), ("add", "a"), ("discard", "x"), ("hint", "h")),
    (("undo", "u"), ("sort", "o"), ("speed", "s"), ("rules", "r"), ("help", "?"), ("quit", "q")),
)

PLAY_CSS = """
#buttons { height: auto; padding: 0 0 0 1; }
.buttonrow { height: 1; width: 100%; }
.buttonrow Button { height: 1; width: auto; min-width: 4; border: none; margin: 0 1 0 0; padding: 0; }
Line#help { color: $text-muted; padding: 0 1; height: auto; }
Line#toosmall { display: none; padding: 1 2; color: $warning; text-style: bold; }
PlayApp.-small Line#toosmall { display: block; }
PlayApp.-small TableView, PlayApp.-small #buttons, PlayApp.-small Line#help { display: none; }
"""
# (Line#help, not #help: the page of the keys is a screen with the id "help", which #help would pad by a column)


class PlayApp(App[int]):
    """``burraco play``: the human against (or with) the computer players."""

    TITLE = "burraco"
    CSS = TABLE_CSS + PLAY_CSS
    VERTICAL_BREAKPOINTS = [(0, "-short"), (TALL, "-tall")]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "draw", show=False),
        Binding("p", "pick", show=False),
        Binding("m", "meld", show=False),
        Binding("a", "add_key", show=False),
        Binding("x", "discard", show=False),
        Binding("left", "cursor(-1)", show=False),
        Binding("right", "cursor(1)", show=False),
        Binding("home", "home(0)", show=False),
        Binding("end", "home(1)", show=False),
        Binding("space", "select_card", show=False),
        Binding("escape", "clear", show=False),
        Binding("slash", "entry", show=False),
        Binding("enter", "entry", show=False),
        Binding("pageup", "log(-1)", show=False),
        Binding("pagedown", "log(1)", show=False),
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
        session.lang = tr.lang  # the game is played (and saved, and resumed) in the table's language
        self.tr = tr
        self.delay = delay
        self.names = Names(tr, session.seat_names, session.human)
        self.by_rank = False
        self.message = message
        self.adding = False  # "a" was pressed: the next digit names the meld
        #: the rule the message on the table names (a refusal's, a hint's): what ``r`` opens
        self.rule: str | None = None
        self._timeout_asked = False  # /timeout while the computer players move: called before their next move
        self._busy = False  # the computer players are moving
        self._gen = 0  # the current run of computer moves (an undo starts a new one)
        self._table_ready = False

    # ----- layout -----------------------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield TableView(self.tr, entry=True, id="table")
        with Vertical(id="buttons"):
            for row in BUTTONS:
                with Horizontal(classes="buttonrow"):
                    for bid, key in row:
                        button = Button(f"{key} {self.tr.word('tui_button', bid)}", id=f"btn-{bid}")
                        button.can_focus = False  # the keys keep working on the hand
                        yield button
        yield Line(id="help")
        yield Line(id="toosmall")

    def show_pace(self) -> None:
        """The pace on its button."""
        label = self.tr("tui_btn_speed", pace=pace_short(self.tr, self.delay))
        button = self.query_one("#btn-speed", Button)
        button.label = f"s {label}"
        button.refresh(layout=True)  # its width follows the label

    def on_mount(self) -> None:
        self.check_size(self.size.width, self.size.height)
        self.show_pace()
        self.query_one("#help", Line).show(self.tr("tui_help_line"))
        self.hand.focus()
        self.refresh_table()
        self._table_ready = True
        self.after_change()

    def on_resize(self, event: events.Resize) -> None:
        self.check_size(event.size.width, event.size.height)
        if self._table_ready:
            self.refresh_table()

    def check_size(self, width: int, height: int) -> None:
        """Below :data:`MIN_SIZE` the table is not drawn (it would lose the hand): one line says why, and the
        table comes back when the terminal is large enough."""
        small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        if small:
            text = self.tr("tui_too_small", w=MIN_SIZE[0], h=MIN_SIZE[1], cw=width, ch=height)
            self.query_one("#toosmall", Line).show(text)
        self.set_class(small, "-small")

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
                log=s.log,
                message=self.message,
                by_rank=self.by_rank,
            )
        )

    def say(self, text: str, rule: str | None = None) -> None:
        """Show ``text`` on the message line; ``rule``: the rule it names, which ``r`` then opens."""
        self.message = text
        self.rule = rule
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
                if self._timeout_asked:  # asked while a computer player was deciding: called between moves
                    self._timeout_asked = False
                    try:
                        s.call_timeout()
                    except ActionError as e:
                        self.say(self.tr("tui_refused", reason=e.msg), next(iter(cited(e.msg)), None))
                    self.refresh_table()
                match = s.match
                a = await asyncio.to_thread(s.choose_computer)
                if s.match is not match:  # undone meanwhile
                    return
                s.apply(a)  # (saved: a quit now loses nothing)
                try:
                    self.refresh_table()
                except NoMatches:  # the table is gone: the app is closing
                    return
        finally:
            if gen == self._gen:
                self._busy = False
        self.after_change()

    def show_scores(self) -> None:
        if any(isinstance(sc, TextScreen) and sc.id == "scores" for sc in self.screen_stack):
            return
        table, plain = score_page(self.tr, self.names, self.session)
        footer = self.tr("tui_press_quit") if self.session.match_over else self.tr("tui_next_hand")
        note = self.tr("tui_coach_key")  # its own line: the button's line is full in some languages at 80 columns
        self.push_screen(ScoreScreen(table, plain, footer, "scores", note), self.scores_closed)

    def scores_closed(self, how: str | None) -> None:
        s = self.session
        if how == "coach":  # the coach's page, then the scores again
            self.push_screen(CoachScreen(self.tr, s, s.hand_index()), lambda _how: self.show_scores())
            return
        if s.match_over:
            self.exit(0)
            return
        s.next_hand()
        self.message = ""
        self.refresh_table()
        self.after_change()

    def play(self, action: Action) -> None:
        """Play a move of the human; the engine's refusal is shown (its reason, in the player's words), never
        raised."""
        s = self.session
        self.adding = False
        if not s.human_to_act:
            self.say(self.tr("tui_not_your_turn"))
            return
        try:
            s.play_human(action)
        except ActionError as e:
            self.say(self.tr("tui_refused", reason=e.msg), next(iter(cited(e.msg)), None))
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
            self.say(self.tr("tui_select_first"))
            return
        self.play(Action.meld_cards(self.me(), cards))

    def action_add_key(self) -> None:
        """``a``: the next digit names the meld to add the chosen cards to."""
        if not self.selected_cards():
            self.say(self.tr("tui_select_first"))
            return
        self.adding = True
        self.say(self.tr("tui_add_which"))

    def action_add(self, k: int) -> None:
        self.adding = False
        cards = self.selected_cards()
        if not cards:
            self.say(self.tr("tui_select_first"))
            return
        v = self.session.view
        if k > len(v.melds[v.side_of(v.seat)]):
            self.say(self.tr("tui_no_meld", k=k))
            return
        self.play(Action.add(self.me(), k, cards))

    def action_discard(self) -> None:
        cards = self.selected_cards()
        h = self.hand
        if not cards and h.cards:
            cards = [h.cards[h.cursor]]
        if len(cards) != 1:
            self.say(self.tr("tui_discard_one"))
            return
        self.play(Action.discard(self.me(), cards[0]))

    def action_cursor(self, step: int) -> None:
        self.hand.move(step)

    def action_home(self, end: int) -> None:
        self.hand.home(bool(end))

    def action_select_card(self) -> None:
        self.hand.toggle()
        self.show_selection()

    def action_clear(self) -> None:
        """Escape: close the typing line, or forget the meld asked for, or unselect every card."""
        if self.table.has_class("-entry"):
            self.close_entry()
            return
        self.hand.selected = set()
        self.hand.refresh()
        self.show_selection()

    def action_log(self, direction: int) -> None:
        log = self.query_one(MoveLog)
        if direction < 0:
            log.scroll_page_up(animate=False)
        else:
            log.scroll_page_down(animate=False)

    def on_key(self, event: events.Key) -> None:
        """A meld's number after ``a`` (any other key forgets the ``a``); else a rank key moves the cursor to a
        card of that rank. (Keys reach this before their bindings.)"""
        ch = event.character or ""
        if self.adding:
            self.adding = False
            if ch.isdigit() and ch != "0":
                event.stop()
                self.action_add(int(ch))
                return
            if event.key == "escape":  # no meld after all: the cards stay chosen
                event.stop()
                event.prevent_default()  # (not the binding of Escape: that unchooses them)
                self.say("")
                return
        if ch in RANK_KEYS and self.hand.has_focus:
            event.stop()
            rank = RANK_KEYS[ch]
            if not self.hand.jump(rank):
                self.say(self.tr("tui_no_joker") if rank == 0 else self.tr("tui_no_rank", rank=rank))

    def show_selection(self) -> None:
        cards = self.selected_cards()
        self.say(self.tr("tui_selected", cards=cards_str(cards)) if cards else "")

    def action_hint(self) -> None:
        """The hint says the move and why, once, and chooses its cards in the hand."""
        if not self.session.human_to_act:
            self.say(self.tr("tui_not_your_turn"))
            return
        h = self.session.hint()
        a = h.action
        if a.verb in (MELD, ADD, DISCARD, SWAP):
            self.hand.select_cards(a.cards)
        keys = hint_keys(a.verb, a.meld)
        rule = next(iter(cited(h.why)), None)
        self.say(self.tr("tui_hint_keys", reason=h.why, keys=keys) if keys else self.tr("tui_hint", reason=h.why), rule)

    def action_undo(self) -> None:
        """Take back the human's last meld, attachment or swap of his turn in progress; otherwise say why it
        cannot be (a take-back never shows a card he could not otherwise see: docs/play.md)."""
        why = self.session.takeback_refusal()
        if why is not None:
            self.say(self.tr.render(why))
            return
        self.session.undo()
        self.workers.cancel_group(self, "computer")
        self._gen += 1
        self._busy = False
        self.message = self.tr("tui_undone")
        self.refresh_table()
        self.after_change()

    def action_sort(self) -> None:
        self.by_rank = not self.by_rank
        how = self.tr.word("tui_sort", "rank" if self.by_rank else "suit")
        self.message = self.tr("tui_sorted_now", how=how)
        self.refresh_table()

    def action_speed(self) -> None:
        """The next pace of the computer's moves (instant, fast, normal, slow); it holds from the next move on."""
        self.delay = next_speed(self.delay)
        self.show_pace()
        self.say(self.tr("tui_pace_now", pace=pace_text(self.tr, self.delay)))

    def action_rules(self, number: str | None = None) -> None:
        """``r``: the rule the message names in the rule book (``number``: the one asked for), else the rules of
        the table."""
        self.push_screen(RulebookScreen(self.tr, self.session.rules, number or self.rule))

    def ask_rule(self, arg: str) -> None:
        """``/r 6.4``: that rule of the book (``/r`` alone: as ``r``)."""
        if not arg.strip():
            self.action_rules()
            return
        try:
            number = check_rule(arg)
        except RulebookError:
            self.say(self.tr("tui_no_rule", rule=arg.strip()))
            return
        self.action_rules(number)

    def call_timeout(self) -> None:
        """``/timeout``: the director's time-out (§9.4); refused, with the rule, where the rules have none. Asked
        while a computer player decides, it is called before the next move."""
        s = self.session
        if self._busy:
            self._timeout_asked = True
            self.say(self.tr("tui_timeout_called"), "9.4")
            return
        try:
            s.call_timeout()
        except ActionError as e:
            self.say(self.tr("tui_refused", reason=e.msg), next(iter(cited(e.msg)), None))
            return
        self.message = self.tr("tui_timeout_called")
        self.rule = "9.4"
        self.refresh_table()
        self.after_change()

    def action_help(self) -> None:
        pace = self.tr("tui_pace_now", pace=pace_text(self.tr, self.delay))
        keys = self.tr("tui_help_keys").splitlines()
        text = "\n".join([self.tr("tui_help_title"), "", *keys, "", pace])
        self.push_screen(PageScreen(text, text, self.tr("tui_close_screen"), "help"))

    # ----- typed cards and commands ----------------------------------------------------------------------------------
    def action_entry(self) -> None:
        """``/`` or Enter: a line to type cards (they are chosen) or a whole command (it is played)."""
        entry = self.query_one("#entry", Input)
        entry.placeholder = self.tr("tui_entry")
        entry.value = ""
        entry.can_focus = True
        self.table.add_class("-entry")
        entry.focus()

    def close_entry(self) -> None:
        self.table.remove_class("-entry")
        self.query_one("#entry", Input).can_focus = False
        self.hand.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.close_entry()
        self.typed(event.value)

    def typed(self, text: str) -> None:
        """Carry out a typed line: cards alone are chosen in the hand, a command is played."""
        try:
            cmd = parse_command(text, self.me(), self.tr)
        except CommandError as e:
            self.say(str(e))
            return
        if cmd.kind == "select":
            missing = self.hand.select_cards(cmd.cards)
            if missing:
                self.say(self.tr("tui_not_held", cards=cards_str(missing)))
            else:
                self.show_selection()
        elif cmd.kind == "action":
            assert cmd.action is not None
            self.play(cmd.action)
        elif cmd.kind == "rules":
            self.ask_rule(cmd.arg)
        elif cmd.kind == "timeout":
            self.call_timeout()
        elif cmd.kind == "legal":
            legal = self.session.game.legal_actions() if self.session.human_to_act else []
            self.say(self.tr("tui_legal_moves", moves="; ".join(command_text(a, self.tr) for a in legal)))
        elif cmd.kind in self.DOES:
            self.DOES[cmd.kind](self)

    # ----- mouse ----------------------------------------------------------------------------------------------------
    def on_card_hand_clicked(self, msg: CardHand.Clicked) -> None:
        h = self.hand
        h.cursor = msg.index
        h.toggle(msg.index)
        self.show_selection()

    def on_meld_box_clicked(self, msg: MeldBox.Clicked) -> None:
        if msg.column == 0:  # the left column: the human's side
            self.action_add(msg.k)

    def on_clickable_clicked(self, msg: Clickable.Clicked) -> None:
        if msg.widget_id == "stock":
            self.action_draw()
        elif msg.widget_id == "pile":
            self.action_pick()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        bid = (event.button.id or "").removeprefix("btn-")
        event.stop()
        self.DOES[bid](self)

    def leave(self) -> None:
        """q: quit (the game is saved after every move)."""
        self.exit()

    #: what a button, or a command typed on the table's line, does
    DOES: ClassVar[dict[str, Callable[[PlayApp], None]]] = {
        "draw": action_draw,
        "pick": action_pick,
        "meld": action_meld,
        "add": action_add_key,
        "discard": action_discard,
        "hint": action_hint,
        "undo": action_undo,
        "sort": action_sort,
        "speed": action_speed,
        "rules": action_rules,
        "help": action_help,
        "quit": leave,
    }

"""``burraco play --plain``: the game as lines of text on standard input and output, for screen readers and dumb
terminals. The commands are those of :mod:`burraco.tui.commands`. Cards are written as on the full-screen table,
``7♥ 10♦`` and the joker as the language's word, everywhere: the hand, the melds, the pile, the moves, the hints;
the player may type them so or in the notation (``7h 10d JK``).
"""

from __future__ import annotations

import dataclasses
import time
from typing import TextIO

from ..actions import ActionError
from ..cards import cards_str
from ..i18n import Translator
from ..rulebook import RulebookError, cited, plain_text, section
from .commands import CommandError, command_text, parse_command
from .movelog import event_text
from .render import (
    Names,
    match_line,
    meld_line,
    pace_text,
    pile_text,
    pozzetti_text,
    rules_lines,
    score_lines,
    side_header,
    sort_hand,
    status_text,
    totals_text,
)
from .session import SPEEDS, Session, SessionError, next_speed, parse_speed

__all__ = ["PlainUI", "run_plain"]


class PlainUI:
    """The line-based game loop. ``delay``: seconds to wait after each computer move."""

    def __init__(
        self, session: Session, tr: Translator, inp: TextIO, out: TextIO, *, delay: float = 0.0
    ) -> None:
        self.s = session
        session.lang = tr.lang  # the game is played (and saved, and resumed) in this language
        self.tr = tr
        self.inp = inp
        self.out = out
        self.delay = delay
        self.by_rank = False
        self.names = Names(tr, session.seat_names, session.human)
        #: the rule the last refusal or hint named: what ``r`` alone shows
        self.rule: str | None = None

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    # ----- the table ----------------------------------------------------------------------------------------------
    def table(self) -> None:
        """Write the whole table as the human sees it."""
        tr, v, names = self.tr, self.s.view, self.names
        names.follow(v)
        self.say(f"== {match_line(tr, self.s.rules, v.match_totals, self.s.hand_index() + 1)} ==")
        others = [s for s in range(self.s.rules.players) if s != self.s.human]
        self.say(" · ".join(f"{names.seat(s)}: {tr.cards(v.hand_sizes[s])}" for s in others))
        stock = tr("tui_stock", n=v.stock_size)
        self.say(f"{stock} · {pozzetti_text(tr, v)} · {self.pile()}")
        for side in names.own_first():
            self.say(side_header(tr, names, v, side))
            if not v.melds[side]:
                self.say("  " + tr("tui_no_melds"))
            for k, m in enumerate(v.melds[side], 1):
                self.say("  " + meld_line(tr, self.s.rules, k, m))
        self.hand()
        self.say(status_text(tr, names, v))

    def pile(self) -> str:
        """The pile from its bottom to its top, in words (an open pile; a closed one as on the table)."""
        v = self.s.view
        if v.pile_size and v.rules.discard_pile_open:
            return self.tr("tui_pile_plain", n=v.pile_size, cards=cards_str(v.pile))
        return pile_text(self.tr, v)

    def hand(self) -> None:
        v = self.s.view
        how = self.tr.word("tui_sort", "rank" if self.by_rank else "suit")
        cards = cards_str(sort_hand(v.hand, self.by_rank))
        self.say(self.tr("tui_plain_hand", n=len(v.hand), how=how, cards=cards))
        fresh = self.s.log.fresh(v.hand)
        if fresh:
            self.say(self.tr("tui_fresh", cards=cards_str(sorted(fresh.elements()))))
        if v.hidden_pozzetto:
            self.say(self.tr("tui_hidden_poz", n=v.hidden_pozzetto))

    def last_move(self) -> None:
        """The last action, as the moves log tells it (one line per event: the move, the pozzetto, the end), each
        with the number of its turn (the coach's "move 12")."""
        log = self.s.log
        e = log.events[-1]
        k = len(log.turns())
        for m in e.messages:
            one = dataclasses.replace(e, messages=(m,))
            self.say(f"{k}. {event_text(self.tr, one, self.names.all(e.sides or None), self.names.seats)}")

    def scores(self) -> None:
        tr, names, g = self.tr, self.names, self.s.game
        sc = g.scores()
        assert sc is not None
        title = tr("tui_score_title", i=self.s.hand_index() + 1)
        self.say(f"-- {title} --")
        self.say(status_text(tr, names, self.s.view))
        names.follow(g)
        for label, *vals in score_lines(tr, g.sides, sc):
            self.say(f"{label}: " + ", ".join(f"{sd} {val}" for sd, val in zip(g.sides, vals, strict=True)))
        m = self.s.match
        totals = ", ".join(f"{sd} {t}" for sd, t in zip(m.sides, m.totals, strict=True))
        self.say(f"{tr.word('tui_score_row', 'match')}: {totals}")

    def match_end(self) -> None:
        tr, m = self.tr, self.s.match
        w = m.winner()
        self.say(tr("tui_match_drawn") if w is None else tr("tui_match_won", side=m.sides[w]))
        vp = m.vp()
        if vp is not None:
            self.say(f"{tr.word('tui_score_row', 'vp')}: {m.sides[0]} {vp[0]}, {m.sides[1]} {vp[1]}")
        if m.timed_out:  # the time-out ended the match with its hand (RULES.md §0.1)
            self.say(tr("tui_timeout_ended", i=len(m.games)))
        self.say(tr("tui_match_summary", hands=len(m.games), totals=totals_text(m.sides, m.totals)))

    # ----- the loop -----------------------------------------------------------------------------------------------
    def run(self) -> int:
        """Play until the match ends or the player quits (or the input ends); returns the exit status."""
        s, tr = self.s, self.tr
        shown = False
        while True:
            if s.hand_over:
                self.scores()
                if s.match_over:
                    self.match_end()
                if s.match_over:
                    return 0
                self.say(tr("tui_next_hand"))
                line = self.inp.readline()
                word = line.strip().lower()
                if not line or word in ("q", "quit", "exit", *tr.word("tui_command", "quit").split()):
                    return self.stop()
                s.next_hand()
                shown = False
                continue
            if s.computer_to_act:
                s.apply(s.choose_computer())
                self.last_move()
                if self.delay:
                    time.sleep(self.delay)
                shown = False
                continue
            if not shown:
                self.table()
                shown = True
            self.out.write(tr("tui_prompt") + "> ")
            self.out.flush()
            line = self.inp.readline()
            if not line:
                self.say()
                return self.stop()
            if not self.command(line):
                return self.stop()

    def command(self, line: str) -> bool:
        """Carry out one typed line; False when the player quits."""
        s, tr = self.s, self.tr
        try:
            cmd = parse_command(line, s.seat_names[s.human], tr)
        except CommandError as e:
            self.say(str(e))
            return True
        if cmd.kind == "quit":
            return False
        try:
            if cmd.kind == "action":
                assert cmd.action is not None
                s.play_human(cmd.action)
                self.last_move()
                if s.human_to_act:
                    self.hand()
                    self.say(status_text(tr, self.names, s.view))
            elif cmd.kind == "select":
                self.say(tr("tui_cards_alone", cards=cards_str(cmd.cards)))
            elif cmd.kind == "hint":
                reason = s.hint().why
                self.rule = next(iter(cited(reason)), None)
                self.say(tr("tui_hint", reason=reason))
            elif cmd.kind == "undo":
                why = s.takeback_refusal()
                if why is not None:
                    self.say(tr.render(why))
                    return True
                s.undo()
                self.say(tr("tui_undone"))
                self.table()
            elif cmd.kind == "sort":
                self.by_rank = not self.by_rank
                self.hand()
            elif cmd.kind == "legal":
                legal = s.game.legal_actions() if s.human_to_act else []  # never another seat's moves
                self.say(tr("tui_legal_moves", moves="; ".join(command_text(a, tr) for a in legal)))
            elif cmd.kind == "rules":
                self.rules(cmd.arg)
            elif cmd.kind == "timeout":
                s.call_timeout()
                self.last_move()
                self.say(tr("tui_timeout_called"))
            elif cmd.kind == "speed":
                local = {tr.word("tui_pace", k).lower(): v for k, v in SPEEDS.items()}  # in his words, too
                try:
                    if not cmd.arg:
                        self.delay = next_speed(self.delay)
                    else:
                        word = cmd.arg.strip().lower()
                        self.delay = local[word] if word in local else parse_speed(cmd.arg)
                except SessionError as e:
                    self.say(e.text(tr))
                    return True
                self.say(tr("tui_pace_now", pace=pace_text(tr, self.delay)))
            elif cmd.kind == "help":
                self.say(tr("tui_plain_help"))
                self.say(tr("tui_pace_now", pace=pace_text(tr, self.delay)))
            else:  # table, or an empty line
                self.table()
        except ActionError as e:  # the engine's refusal, its reason in the player's words
            self.rule = next(iter(cited(e.msg)), None)
            self.say(tr("tui_refused", reason=e.msg))
        return True

    def rules(self, arg: str) -> None:
        """``r``: the rule the last refusal or hint named, ``r 6.4`` that rule of the book, else the rules of the
        table (and how to read the book)."""
        tr, number = self.tr, arg.strip().lstrip("§").strip() or self.rule
        if number:
            try:
                self.say(plain_text(section(number, tr.lang).page))
            except RulebookError:
                self.say(tr("tui_no_rule", rule=number))
            return
        self.say(tr("tui_rules_title", name=self.s.rules.name))
        for line in rules_lines(tr, self.s.rules):
            self.say("  " + line)
        self.say(tr("tui_rule_book_plain"))

    def stop(self) -> int:
        if self.s.path is not None:
            self.say(self.tr("tui_saved_at", path=str(self.s.path)))
        return 0


def run_plain(session: Session, tr: Translator, inp: TextIO, out: TextIO, delay: float = 0.0) -> int:
    """Play ``session`` in plain text; returns the exit status."""
    return PlainUI(session, tr, inp, out, delay=delay).run()


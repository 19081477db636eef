"""``burraco play --plain``: the game as lines of text on standard input and output, for screen readers and dumb
terminals. The commands are those of :mod:`burraco.tui.commands`; the table is written in words and the record
notation (``7h``, ``JK``), which is also what the player types.
"""

from __future__ import annotations

import time
from typing import TextIO

from ..actions import ActionError
from .commands import CommandError, command_text, parse_command
from .i18n import Translator
from .render import (
    Names,
    advice_text,
    card_plain,
    describe_action,
    match_line,
    meld_plain,
    pace_text,
    pozzetti_lines,
    rules_lines,
    score_lines,
    sort_hand,
    status_text,
)
from .session import SPEEDS, Session, SessionError, next_speed, parse_speed


class PlainUI:
    """The line-based game loop. ``delay``: seconds to wait after each computer move."""

    def __init__(
        self, session: Session, tr: Translator, inp: TextIO, out: TextIO, *, delay: float = 0.0
    ) -> None:
        self.s = session
        self.tr = tr
        self.inp = inp
        self.out = out
        self.delay = delay
        self.by_rank = False
        self.names = Names(tr, session.seat_names, session.human)

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    # ----- the table ----------------------------------------------------------------------------------------------
    def table(self) -> None:
        """Write the whole table as the human sees it."""
        tr, v, names = self.tr, self.s.view, self.names
        totals = v.match_totals or (0, 0)
        self.say(f"== {match_line(tr, names, self.s.rules, totals, self.s.hand_index() + 1)} ==")
        others = [s for s in range(self.s.rules.players) if s != self.s.human]
        self.say(" · ".join(f"{names.seat(s)}: {tr.cards(v.hand_sizes[s])}" for s in others))
        if not v.pile_size:
            pile = tr("pile_empty")
        elif v.rules.discard_pile_open:
            pile = f"{tr('pile', n=v.pile_size)} {' '.join(card_plain(c) for c in v.pile)}"
        else:
            pile = f"{tr('pile_closed', n=v.pile_size)} {card_plain(v.pile[-1])}"
        self.say(f"{tr('stock', n=v.stock_size)} · {pile}")
        self.say(" · ".join(pozzetti_lines(tr, names, v)))
        own = v.side_of(v.seat)
        for side in (own, 1 - own):
            self.say(tr("melds_of", side=names.side(side)) + ":")
            if not v.melds[side]:
                self.say("  " + tr("no_melds"))
            for k, m in enumerate(v.melds[side], 1):
                self.say("  " + meld_plain(tr, self.s.rules, k, m))
        self.hand()
        self.say(status_text(tr, names, v))

    def hand(self) -> None:
        v = self.s.view
        cards = " ".join(card_plain(c) for c in sort_hand(v.hand, self.by_rank))
        how = self.tr("sorted_rank" if self.by_rank else "sorted_suit")
        self.say(f"{self.tr('your_hand', n=len(v.hand))} [{how}]: {cards}")
        if v.hidden_pozzetto:
            self.say(self.tr("hidden_poz", n=v.hidden_pozzetto))

    def scores(self) -> None:
        tr, names, g = self.tr, self.names, self.s.game
        sc = g.scores()
        assert sc is not None
        self.say(f"-- {tr('score_title', i=self.s.hand_index() + 1)} --")
        self.say(status_text(tr, names, self.s.view))
        sides = [names.side(0), names.side(1)]
        for label, *vals in score_lines(tr, self.s.match.sides, sc):
            self.say(f"{label}: " + ", ".join(f"{sd} {val}" for sd, val in zip(sides, vals, strict=True)))
        t = self.s.match.totals
        self.say(f"{tr('row_match')}: {sides[0]} {t[0]}, {sides[1]} {t[1]}")

    def match_end(self) -> None:
        tr, names, m = self.tr, self.names, self.s.match
        w = m.winner()
        self.say(tr("match_drawn") if w is None else tr("match_won", side=names.side(w)))
        vp = m.vp()
        if vp is not None:
            self.say(f"{tr('row_vp')}: {names.side(0)} {vp[0]}, {names.side(1)} {vp[1]}")
        self.say(
            tr(
                "match_summary",
                hands=len(m.games),
                a_side=names.side(0),
                a=m.totals[0],
                b_side=names.side(1),
                b=m.totals[1],
            )
        )

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
                undo = s.can_undo()
                if s.match_over and not undo:
                    return 0
                prompt = tr("end_prompt") if s.match_over else tr("next_hand")
                self.say(prompt + (" · " + tr("score_undo_plain") if undo else ""))
                line = self.inp.readline()
                word = line.strip().lower()
                if undo and word in ("u", "undo"):
                    s.undo()  # back into the hand that ended
                    self.say(tr("undone"))
                    shown = False
                    continue
                if s.match_over:
                    return 0
                if not line or word in ("q", "quit", "exit"):
                    return self.stop()
                s.next_hand()
                shown = False
                continue
            if s.computer_to_act:
                a = s.choose_computer()
                s.apply(a)
                self.say(describe_action(tr, self.names, a))
                if self.delay:
                    time.sleep(self.delay)
                shown = False
                continue
            if not shown:
                self.table()
                shown = True
            self.out.write(tr("prompt") + "> ")
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
                self.say(describe_action(tr, self.names, cmd.action))
                if s.human_to_act:
                    self.hand()
                    self.say(status_text(tr, self.names, s.view))
            elif cmd.kind == "hint":
                h = s.hint()
                self.say(
                    tr(
                        "hint_plain",
                        action=advice_text(tr, h.action),
                        cmd=command_text(h.action),
                        reason=h.why,
                    )
                )
            elif cmd.kind == "undo":
                if not s.can_undo():
                    self.say(tr("nothing_to_undo"))
                    return True
                s.undo()
                self.say(tr("undone"))
                self.table()
            elif cmd.kind == "sort":
                self.by_rank = not self.by_rank
                self.hand()
            elif cmd.kind == "legal":
                legal = s.game.legal_actions() if s.human_to_act else []  # never another seat's moves
                self.say(tr("legal_moves", moves="; ".join(command_text(a) for a in legal)))
            elif cmd.kind == "rules":
                self.say(tr("rules_title", name=s.rules.name))
                for line_ in rules_lines(tr, s.rules):
                    self.say("  " + line_)
            elif cmd.kind == "speed":
                local = {tr(f"pace_{k}").lower(): v for k, v in SPEEDS.items()}  # the pace in his words, too
                try:
                    if not cmd.arg:
                        self.delay = next_speed(self.delay)
                    else:
                        word = cmd.arg.strip().lower()
                        self.delay = local[word] if word in local else parse_speed(cmd.arg)
                except SessionError:
                    self.say(tr("bad_pace", pace=cmd.arg))
                    return True
                self.say(tr("pace_now", pace=pace_text(tr, self.delay)))
            elif cmd.kind == "help":
                self.say(tr("plain_help"))
                self.say(tr("pace_now", pace=pace_text(tr, self.delay)))
            else:  # table, or an empty line
                self.table()
        except ActionError as e:  # the engine's refusal, in the player's language
            self.say(tr("refused", msg=e.msg))
        return True

    def stop(self) -> int:
        if self.s.path is not None:
            self.say(self.tr("saved_at", path=self.s.path))
        return 0


def run_plain(session: Session, tr: Translator, inp: TextIO, out: TextIO, delay: float = 0.0) -> int:
    """Play ``session`` in plain text; returns the exit status."""
    return PlainUI(session, tr, inp, out, delay=delay).run()


__all__ = ["PlainUI", "run_plain"]

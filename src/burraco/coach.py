"""The coach's words (docs/analysis.md), at the terminal table and in the browser: the analysis of a player's
decisions in a hand, in the player's words, and the marks a replay shows on the moves they judge.

The judging is :func:`burraco.analysis.analyse`'s, from the seat's view at each decision (never the hidden cards);
this module only says it: ``Move 12, mistake: you chose to discard 7♥; better: discard K♣ (95 points)``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .actions import ADD, DISCARD, DRAW, MELD, PICK, REDRAW, SWAP, parse_action
from .analysis import INACCURACY, KINDS, Decision
from .cards import cards_str
from .i18n import Translator
from .messages import Message, MessageError, message_from_json, msg
from .seats import seat_names

__all__ = ["better_message", "coach_lines", "mark_line", "move_message"]

def move_message(text: str, players: int) -> Message:
    """A move of an analysis (``S add 2 Ac``) as the player says it: ``add A♣ to meld 2``."""
    a = parse_action(text, seat_names(players))
    cards = cards_str(a.cards)
    if a.verb == DRAW:
        return msg("coach_draw")
    if a.verb == PICK:
        return msg("coach_pick")
    if a.verb == REDRAW:
        return msg("coach_redraw")
    if a.verb == MELD:
        return msg("coach_meld", cards=cards)
    if a.verb == ADD:
        return msg("coach_add", cards=cards, k=a.meld)
    if a.verb == SWAP:
        return msg("coach_swap", cards=cards, k=a.meld)
    if a.verb == DISCARD:
        return msg("coach_discard", cards=cards)
    return msg("text", text=text)


def better_message(d: Decision, players: int) -> Message:
    """The better move of a judged decision as the coach says it: the hint's reason for it (what it gains, what the
    move played gave away) where the analysis kept one, else the move in words."""
    if d.why is not None:
        try:
            return message_from_json(d.why)
        except (MessageError, KeyError, TypeError, ValueError):
            pass
    return move_message(d.best, players)


def _loss(d: Decision) -> str:
    return f"{d.loss:.0f}"


def mark_line(tr: Translator, d: Decision, players: int) -> str:
    """The coach's word on one judged move, for the replay: ``The coach, mistake: better discard K♣ (95
    points)``."""
    return tr(
        "tui_coach_seen",
        mark=tr.word("coach_mark", d.mark or "inaccuracy"),
        best=better_message(d, players),
        loss=_loss(d),
    )


def coach_lines(
    tr: Translator,
    decisions: Iterable[Decision],
    hand: int,
    players: int,
    iterations: int,
    turns: Sequence[int] | None = None,
) -> list[str]:
    """The page of the coach for one hand: a title, one line per marked decision (in the order played), the
    points lost per kind of decision. ``turns``: the turn of each action of the hand, as the terminal's moves log
    numbers its lines (``burraco.tui.movelog.turn_numbers``): a decision is named by its line there; without
    it, by its action's number."""
    ds = [d for d in decisions if d.hand == hand]
    lines = [tr("tui_coach_title", h=hand + 1, n=len(ds), k=iterations)]
    marked = [d for d in ds if d.mark is not None]
    for d in marked:
        lines.append(
            tr(
                "tui_coach_line",
                i=turns[d.index] if turns is not None and d.index < len(turns) else d.index + 1,
                mark=tr.word("coach_mark", d.mark or "inaccuracy"),
                played=move_message(d.played, players),
                best=better_message(d, players),
                loss=_loss(d),
            )
        )
    if not marked:
        lines.append(tr("tui_coach_none", t=f"{INACCURACY:.0f}"))
    lost = {k: sum(d.loss for d in ds if d.kind == k) for k in KINDS}
    lines.append(tr("tui_coach_lost", **{k: f"{v:.0f}" for k, v in lost.items()}))
    return lines

"""Hints for human players: the recommended action of a computer player, with a short reason in words.

>>> from burraco import Game, preset, hint
>>> g = Game.new(preset("italian"), seed=2026)
>>> h = hint(g.view(0))
>>> h.action in g.legal_actions(), bool(h.reason)
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..actions import ADD, DISCARD, DRAW, MELD, PICK, REDRAW, SWAP, Action
from ..cards import CARD_STR, RANK_NAMES, SUIT_NAMES, cards_str
from ..melds import SET, Meld, MeldError, meld_rules
from ..view import View
from .heuristic import LEVELS, HeuristicPlayer


@dataclass(frozen=True)
class Hint:
    """A recommended action and why, in a sentence."""

    action: Action
    reason: str

    def __str__(self) -> str:
        return f"{self.action}: {self.reason}"


def _meld_words(m: Meld) -> str:
    if m.kind == SET:
        return f"set of {RANK_NAMES[m.rank - 1]}s"
    return f"sequence of {SUIT_NAMES[m.suit]}"


def _after(view: View, a: Action) -> Meld | None:
    ctx = meld_rules(view.rules)
    try:
        if a.verb == MELD:
            return ctx.make(a.cards)
        return ctx.attach(view.melds[view.side_of(view.seat)][a.meld - 1], a.cards)
    except (MeldError, IndexError):
        return None


def hint(view: View, level: str = "hard", legal: list[Action] | None = None) -> Hint:
    """The action the ``level`` heuristic would play from ``view`` (the seat must be the one to act), with a reason.

    ``legal`` may pass the seat's legal actions when the caller has them (it saves building a determinization)."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r} (levels are {', '.join(LEVELS)})")
    if legal is None:
        legal = view.legal_actions()
    if not legal:
        raise ValueError("it is not this seat's turn: there is nothing to recommend")
    player = HeuristicPlayer(level, seed=0)
    a = player.choose(view, legal)
    return Hint(a, _reason(view, a))


def _reason(view: View, a: Action) -> str:
    side = view.side_of(view.seat)
    hand_left = len(view.hand) + view.hidden_pozzetto
    if a.verb == DRAW:
        if view.pile_size:
            return f"draw from the stock: the pile ({view.pile_size} cards) is not worth taking now"
        return "draw from the stock"
    if a.verb == PICK:
        own = {m.suit for m in view.melds[side] if m.kind != SET}
        useful = sum(1 for c in view.pile if c in view.hand or (c != 52 and c // 13 in own))
        top = CARD_STR[view.pile[-1]] if view.pile else "?"
        return (
            f"take the pile: {view.pile_size} cards, top {top}; {useful} of the visible ones match your hand or "
            "your side's melds"
        )
    if a.verb in (MELD, ADD):
        m = _after(view, a)
        left = hand_left - len(a.cards)
        what = _meld_words(m) if m is not None else "meld"
        if a.verb == MELD:
            text = f"meld {cards_str(a.cards)}: a new {what} of {len(a.cards)} cards"
        else:
            text = f"add {cards_str(a.cards)} to meld {a.meld} ({what}), now {m.size if m else '?'} cards"
        if m is not None and m.burraco is not None:
            text += f", a {m.burraco} burraco"
        if left == 0:
            text += "; it empties your hand: you take the pozzetto and play on"
        return text
    if a.verb == DISCARD:
        c = a.cards[0]
        if hand_left == 1:
            if view.poz_taken[side] and not (view.rules.three_morto and len(view.poz_order) == 2):
                return f"discard {CARD_STR[c]} and close: your side has its pozzetto and a burraco"
            return f"discard your last card, {CARD_STR[c]}, and take the pozzetto"
        return f"discard {CARD_STR[c]}: the card your hand needs least"
    if a.verb == SWAP:
        return f"give {CARD_STR[a.cards[0]]} to meld {a.meld} and take its wild back into your hand"
    if a.verb == REDRAW:
        return "put your first card on the pile and draw another"
    return str(a)


__all__ = ["Hint", "hint"]

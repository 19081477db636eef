"""Hints for human players: the recommended action of a computer player, with a short reason in words.

>>> from burraco import Game, preset, hint
>>> g = Game.new(preset("italian"), seed=2026)
>>> h = hint(g.view(0))
>>> h.action in g.legal_actions(), bool(h.reason)
(True, True)

``h.why`` is the reason as a :class:`~burraco.messages.Message`, to show in the player's language
(``render(h.why, "it")``); ``h.reason`` is its English text.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..actions import ADD, DISCARD, DRAW, MELD, PICK, REDRAW, SWAP, Action
from ..cards import CARD_STR, SUITS, cards_str
from ..melds import SET, Meld, MeldError, meld_rules
from ..messages import Message, msg, render
from ..view import View
from .heuristic import LEVELS, HeuristicPlayer


@dataclass(frozen=True)
class Hint:
    """A recommended action and why, in a sentence (``why``: the message; ``reason``: its English text)."""

    action: Action
    why: Message

    @property
    def reason(self) -> str:
        """Why, in English."""
        return render(self.why)

    def text(self, lang: str = "en") -> str:
        """Why, in ``lang``."""
        return render(self.why, lang)

    def __str__(self) -> str:
        return f"{self.action}: {self.reason}"


def _meld_words(m: Meld) -> Message:
    if m.kind == SET:
        return msg("set_of", rank=m.rank)
    return msg("sequence_of", suit=SUITS[m.suit])


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


def _reason(view: View, a: Action) -> Message:
    side = view.side_of(view.seat)
    hand_left = len(view.hand) + view.hidden_pozzetto
    if a.verb == DRAW:
        if view.pile_size:
            return msg("hint_draw_not_pile", size=view.pile_size)
        return msg("hint_draw")
    if a.verb == PICK:
        own = {m.suit for m in view.melds[side] if m.kind != SET}
        useful = sum(1 for c in view.pile if c in view.hand or (c != 52 and c // 13 in own))
        top = CARD_STR[view.pile[-1]] if view.pile else "?"
        return msg("hint_pick", size=view.pile_size, top=top, useful=useful)
    if a.verb in (MELD, ADD):
        m = _after(view, a)
        left = hand_left - len(a.cards)
        what = _meld_words(m) if m is not None else msg("a_meld")
        if a.verb == MELD:
            text = msg("hint_meld", cards=cards_str(a.cards), what=what, count=len(a.cards))
        else:
            size: int | str = m.size if m else "?"
            text = msg("hint_add", cards=cards_str(a.cards), meld=a.meld, what=what, count=size)
        if m is not None and m.burraco is not None:
            text = msg("hint_burraco", text=text, kind=m.burraco)
        if left == 0:
            text = msg("hint_goes_down", text=text)
        return text
    if a.verb == DISCARD:
        c = a.cards[0]
        if hand_left == 1:
            if view.poz_taken[side] and not (view.rules.three_morto and len(view.poz_order) == 2):
                return msg("hint_discard_close", card=CARD_STR[c])
            return msg("hint_discard_last", card=CARD_STR[c])
        return msg("hint_discard", card=CARD_STR[c])
    if a.verb == SWAP:
        return msg("hint_swap", card=CARD_STR[a.cards[0]], meld=a.meld)
    if a.verb == REDRAW:
        return msg("hint_redraw")
    return msg("text", text=str(a))


__all__ = ["Hint", "hint"]

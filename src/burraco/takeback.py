"""Take-backs that reveal nothing (docs/fairness.md "Take-backs"): which of a player's plays may be taken back, and
the hand without it.

A take-back may never let a player see a card he could not otherwise see. So only a meld, an attachment or a swap
made in the player's own turn, after he took his card, may be taken back, one at a time and latest first; never a
draw from the stock (he has seen the card: he could take the pile instead), a pile taken, a play that took a
pozzetto (he has seen its cards), a discard (it ends his turn), nor anything across another seat's turn. The hand
is then rebuilt from its deal and the actions before the one taken back, exactly as if it had never been played.

>>> from burraco import Game, preset
>>> g = Game.new(preset("italian"), seed=7)
>>> g.apply("N draw")
>>> why_not(g, 0).code
'takeback_draw'
"""

from __future__ import annotations

from .actions import ADD, DRAW, MELD, PICK, REDRAW, SWAP
from .game import Game
from .messages import Message, msg

#: the verbs of the plays that may be taken back (they show the others cards from the hand, never a hidden one)
TAKE_BACK_VERBS = frozenset({MELD, ADD, SWAP})


def without_last(g: Game) -> Game:
    """The hand as it was before its last action: rebuilt from its deal and the actions before it."""
    assert g.deal is not None, "a determinized game has no deal to rebuild from"
    out = Game(g.rules, g.deal, g.first)
    for a in g.actions[:-1]:
        out.apply(a)
    return out


def why_not(g: Game, seat: int) -> Message | None:
    """Why ``seat`` may not take back the hand's last action now (a message naming the rule), or None when it may:
    a meld, an attachment or a swap of its own, in its turn, that took no pozzetto."""
    if g.is_over:
        return msg("takeback_hand_over")
    if g.current_seat != seat:  # a discard ended its turn, or it is another seat's
        return msg("takeback_other_turn")
    last = g.actions[-1] if g.actions else None
    if last is None or last.seat != g.seats[seat]:
        return msg("takeback_nothing")
    if last.verb in (DRAW, REDRAW):
        return msg("takeback_draw")
    if last.verb == PICK:
        return msg("takeback_pick")
    if last.verb not in TAKE_BACK_VERBS:
        return msg("takeback_nothing")
    before = without_last(g)
    if before.pozzetti_left() != g.pozzetti_left() or before.poz_taken != g.poz_taken or before.hidden != g.hidden:
        return msg("takeback_pozzetto")
    return None


__all__ = ["TAKE_BACK_VERBS", "why_not", "without_last"]

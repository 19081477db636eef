"""What a table shows of each action, in a player's words: the one source of the moves log of the terminal table,
the browser table and anything else that tells a hand as it is played.

:func:`narrate` turns one action, with the views of one seat just before and just after it, into
:class:`~burraco.messages.Message` values ("Anna takes the pile (5 cards, top 7♥)", "Marco opens 7♥ 8♥ 9♥",
"Luca takes his pozzetto and plays on"). It uses only what that seat may know (its views), so a draw names its card
only to the player who drew it. Render the messages with :func:`burraco.messages.render` in the player's language,
``player=True`` for cards as symbols.

>>> from burraco import Game, preset
>>> from burraco.messages import render
>>> g = Game.new(preset("italian"), seed=2026)
>>> before = g.view(2)
>>> g.apply("N pick")
>>> [render(m, "it", player=True) for m in narrate(before, g.actions[-1], g.view(2), names=["Anna", "Bruno", "Carla", "Dario"])]
['Anna raccoglie 4♣ dagli scarti']
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import ADD, DISCARD, DRAW, MELD, PICK, REDRAW, SWAP, TIMEOUT, Action
from .cards import CARD_STR, cards_str
from .messages import Message, msg
from .seats import seat_names
from .view import View


def narrate(
    before: View,
    action: Action,
    after: View,
    names: Sequence[str] | None = None,
    viewer: int | None = None,
) -> list[Message]:
    """The events of ``action`` as the seat of ``before`` saw them: the move itself, then a pozzetto taken and the
    end of the hand where the action brought them.

    ``names`` are the players' names by seat (the seat letters by default); ``viewer`` is the seat whose own moves
    are told in the second person ("You draw 7♥"): the views' seat by default, ``-1`` for none (a spectator).
    """
    r = before.rules
    seats = seat_names(r.players)
    who_of = list(names) if names is not None else list(seats)
    you = before.seat if viewer is None else viewer
    if action.verb == TIMEOUT:
        return [msg("log_timeout")]
    seat = seats.index(action.seat)
    side = before.side_of(seat)
    # the seat's side after the action, and the sides before it that it holds: with three and five players the
    # first player out turns the others into a pair whose melds and pozzetti are both of theirs (§14.3-§14.4)
    side_after = after.side_of(seat)
    merged = sorted({before.side_of(s) for s in after.side_seats[side_after]})
    who = who_of[seat]
    mine = seat == you
    out: list[Message] = []
    v = action.verb
    if v == DRAW:
        if mine and after.drawn >= 0:
            out.append(msg("log_draw_you", card=CARD_STR[after.drawn]))
        else:
            out.append(msg("log_draw", who=who))
    elif v == REDRAW:
        up = CARD_STR[after.pile[-1]] if after.pile else "?"
        out.append(msg("log_redraw_you", card=up) if mine else msg("log_redraw", who=who, card=up))
    elif v == PICK:
        n = before.pile_size
        top = CARD_STR[before.pile[-1]]
        if n == 1:
            out.append(msg("log_pick_one_you", card=top) if mine else msg("log_pick_one", who=who, card=top))
        else:
            out.append(msg("log_pick_you", n=n, top=top) if mine else msg("log_pick", who=who, n=n, top=top))
    elif v == MELD:
        old = [m for x in merged for m in before.melds[x]]
        made = next((m for m in after.melds[side_after] if m not in old), None)
        cards = cards_str(made.display_cards() if made is not None else action.cards)
        out.append(msg("log_meld_you", cards=cards) if mine else msg("log_meld", who=who, cards=cards))
    elif v in (ADD, SWAP):
        cards = cards_str(action.cards)
        target = cards_str(before.melds[side][action.meld - 1].display_cards())
        if v == ADD:
            out.append(
                msg("log_add_you", cards=cards, meld=target)
                if mine
                else msg("log_add", who=who, cards=cards, meld=target)
            )
        else:
            out.append(
                msg("log_swap_you", cards=cards, meld=target)
                if mine
                else msg("log_swap", who=who, cards=cards, meld=target)
            )
    elif v == DISCARD:
        card = CARD_STR[action.cards[0]]
        out.append(msg("log_discard_you", card=card) if mine else msg("log_discard", who=who, card=card))
    else:  # pragma: no cover - every verb is above
        out.append(msg("text", text=str(action)))
    if after.poz_taken[side_after] > sum(before.poz_taken[x] for x in merged):
        if v != DISCARD:  # in diretta: the turn goes on
            out.append(msg("log_pozzetto_direct_you") if mine else msg("log_pozzetto_direct", who=who))
        else:
            out.append(msg("log_pozzetto_discard_you") if mine else msg("log_pozzetto_discard", who=who))
    if len(after.side_seats) < len(before.side_seats):  # three and five players: the first out plays solo now
        out += _pairs_formed(after, who_of, you)
    if after.end is not None and before.end is None:
        if after.end == "closed" and after.closed_by >= 0:
            closer = after.closed_by
            out.append(msg("log_closed_you") if closer == you else msg("log_closed", who=who_of[closer]))
        else:
            out.append(msg("log_hand_end", end=after.end))
    return out


def _pairs_formed(after: View, who_of: Sequence[str], you: int) -> list[Message]:
    """The pairs formed against the solo player, one line each (RULES.md §14.3, §14.4): told from the solo's seat
    ("You play alone from now on; B and C play as a pair"), from a seat of the pair ("A plays alone from now on;
    you and C play as a pair"), or by a spectator."""
    rule = "14.3" if after.rules.players == 3 else "14.4"
    solo = after.solo
    out: list[Message] = []
    for pair in (x for x in after.side_seats if len(x) > 1):
        names = [who_of[s] for s in pair]
        if solo == you:
            out.append(msg("log_solo_you", pair=names, rule=rule))
        elif you in pair:
            partner = next(who_of[s] for s in pair if s != you)
            out.append(msg("log_pair_formed_you", solo=who_of[solo], partner=partner, rule=rule))
        else:
            out.append(msg("log_pair_formed", solo=who_of[solo], pair=names, rule=rule))
    return out


__all__ = ["narrate"]

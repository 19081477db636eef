"""Hints for human players: the recommended action, with a short reason in words.

The recommendation is the shared judgement of :mod:`burraco.bots.judge` (the coach's, at the same budget): the
candidates valued on sampled determinizations of the view, seeded by the view, so the same position always gets the
same hint and the coach never marks it (docs/analysis.md, "One judgement").

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
from ..cards import CARD_STR, SUITS, cards_str, is_wild_card, rank_distance
from ..determinize import legal_actions
from ..melds import SET, Meld, MeldError, meld_rules
from ..messages import Message, msg, render
from ..view import View
from .heuristic import LEVELS
from .judge import SELECT, choose


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


def hint(view: View, level: str = "hard", legal: list[Action] | None = None, samples: int = SELECT) -> Hint:
    """The best move from ``view`` (the seat must be the one to act) by :func:`burraco.bots.judge.choose`, with a
    reason: the candidates of the ``level`` heuristic valued on ``samples`` determinizations (the coach's default
    budget) with ``level`` rollouts.

    ``legal`` may pass the seat's legal actions when the caller has them (it saves building a determinization)."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r} (levels are {', '.join(LEVELS)})")
    if legal is None:
        legal = legal_actions(view)
    if not legal:
        raise ValueError("it is not this seat's turn: there is nothing to recommend")
    a = choose(view, legal, samples=samples, level=level).best
    return Hint(a, reason(view, a))


def pile_matches(view: View) -> list[int]:
    """The visible pile cards that fit the seat's hand or its side's melds as a club player counts them: a wild; a
    card of a rank the hand holds (a set) or of a suit a side's sequence runs in; one within two ranks of a card of
    its suit in the hand — or of a pile card already counted (the pile's own run that joins the hand)."""
    side = view.side_of(view.seat)
    runs = {m.suit for m in view.melds[side] if m.kind != SET}
    sets = {m.rank for m in view.melds[side] if m.kind == SET}
    near = [c for c in view.hand if not is_wild_card(c)]
    ranks = {c % 13 for c in near}
    out: list[int] = []
    left = list(view.pile)
    grew = True
    while grew:
        grew = False
        for c in list(left):
            fits = (
                is_wild_card(c)
                or c % 13 in ranks
                or c // 13 in runs
                or c % 13 + 1 in sets
                or any(h // 13 == c // 13 and rank_distance(h, c) <= 2 for h in near)
            )
            if fits:
                out.append(c)
                left.remove(c)
                near.append(c)
                grew = True
    return out


def fits_opponents(view: View, card: int) -> Meld | None:
    """A meld of another side that ``card`` (a natural card) would extend, as the table stands in ``view``: a
    discard the opponents could attach, and take the pile with (None when it fits none)."""
    if is_wild_card(card):
        return None
    ctx = meld_rules(view.rules)
    own = view.side_of(view.seat)
    for side, melds in enumerate(view.melds):
        if side == own:
            continue
        for m in melds:
            try:
                ctx.attach(m, (card,))
            except MeldError:
                continue
            return m
    return None


def better_reason(view: View, best: Action, played: Action) -> Message:
    """Why ``best`` is better than ``played`` from ``view``, in the hint's words (the coach's reason): the hint's
    reason for ``best`` and, where the move played gives something away, what ``best`` keeps — the wild it threw
    away, or a discard the opponents' meld would take."""
    why = reason(view, best)
    if played.verb != DISCARD or (best.verb == DISCARD and best.cards == played.cards):
        return why
    c = played.cards[0]
    if is_wild_card(c) and not (best.verb == DISCARD and is_wild_card(best.cards[0])):
        return msg("coach_why", text=why, gain=msg("coach_keeps_wild", card=CARD_STR[c]))
    m = fits_opponents(view, c)
    if m is not None and not (best.verb == DISCARD and fits_opponents(view, best.cards[0]) is not None):
        return msg("coach_why", text=why, gain=msg("coach_keeps_from_them", card=CARD_STR[c], what=_meld_words(m)))
    return why


def reason(view: View, a: Action) -> Message:
    """The hint's reason for playing ``a`` from ``view``, as a message."""
    side = view.side_of(view.seat)
    hand_left = len(view.hand) + view.hidden_pozzetto
    if a.verb == DRAW:
        if view.pile_size:
            return msg("hint_draw_not_pile", size=view.pile_size)
        return msg("hint_draw")
    if a.verb == PICK:
        useful = len(pile_matches(view))
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


__all__ = ["Hint", "better_reason", "fits_opponents", "hint", "pile_matches", "reason"]

"""Text for the table, shared by the full-screen app and the line-based ``--plain`` mode.

Everything shown about a hand in progress is computed from the human seat's :class:`~burraco.view.View` (and the
public list of actions). Cards are written with their rank and a suit symbol that is readable without colour
(``7♥``, ``10♠``, ``JK``); the full-screen table adds colour on top. The plain mode writes the notation the player
types (``7h``).

>>> from burraco import parse_cards
>>> [card_plain(c) for c in sort_hand(parse_cards("2h 5s Kh 3h JK 5d"))]
['3h', 'Kh', '5d', '5s', '2h', 'JK']
>>> [card_plain(c) for c in sort_hand(parse_cards("2h 5s Kh 3h JK 5d"), by_rank=True)]
['3h', '5d', '5s', 'Kh', '2h', 'JK']
>>> card_face(parse_cards("Td")[0])
'10♦'
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from ..actions import ADD, DISCARD, DRAW, MELD, PICK, REDRAW, SWAP, TIMEOUT, Action
from ..cards import CARD_STR, JOKER, is_wild_card
from ..melds import Meld, burraco_bonus, meld_points
from ..messages import card_symbol
from ..rules import BurracoNeeded, PickupRule, Rules
from ..view import View
from .i18n import Translator
from .session import speed_name

#: colours of the suits (hearts and diamonds red, but their shapes differ, so colour is never the only cue)
SUIT_COLOURS = ("red3", "dark_orange3", "green4", "blue3")
#: width of one card in the hand, in cells (``10♥`` plus a space)
CARD_CELL = 4


def card_plain(c: int) -> str:
    """The record notation: ``7h``, ``Td``, ``JK``."""
    return CARD_STR[c]


def card_face(c: int) -> str:
    """Rank and suit symbol: ``7♥``, ``10♦``, ``JK`` (:func:`burraco.messages.card_symbol`)."""
    return card_symbol(CARD_STR[c])


def card_rich(c: int, *, selected: bool = False, cursor: bool = False) -> Text:
    """A card in colour on a light face (a yellow one when selected), :data:`CARD_CELL` cells wide with the gap
    after it."""
    face = card_face(c).rjust(CARD_CELL - 1)
    style = "bold magenta" if c == JOKER else f"bold {SUIT_COLOURS[c // 13]}"
    style += " on gold1" if selected else " on grey93"
    if cursor:
        style += " underline"
    t = Text(face, style=style)
    t.append(" ")
    return t


def sort_hand(cards: Sequence[int], by_rank: bool = False) -> list[int]:
    """A hand in display order: by suit (h d c s) then rank, or by rank then suit; the wilds (2s, jokers) apart at
    the end. Aces sort high in rank order (A after K), low among a suit's cards (as in the engine's order)."""
    naturals = [c for c in cards if not is_wild_card(c)]
    wilds = [c for c in cards if is_wild_card(c)]
    if by_rank:
        naturals.sort(key=lambda c: ((c % 13) or 13, c // 13))
    else:
        naturals.sort(key=lambda c: (c // 13, c % 13))
    wilds.sort(key=lambda c: (c == JOKER, c))
    return naturals + wilds


def meld_bonus(rules: Rules, m: Meld) -> int:
    """The burraco bonus a meld scores now (the engine's :func:`burraco.melds.burraco_bonus`)."""
    return burraco_bonus(m, rules)


def meld_value(rules: Rules, m: Meld) -> tuple[int, int]:
    """Card points and burraco bonus of a meld."""
    return meld_points(m, rules.card_values()), meld_bonus(rules, m)


def meld_caption(tr: Translator, rules: Rules, m: Meld) -> str:
    """``7 cards, clean burraco, 70 pts + 200 bonus``."""
    pts, bonus = meld_value(rules, m)
    parts = [tr("cards", n=m.size)]
    if m.burraco:
        parts.append(tr(m.burraco))
    parts.append(tr("points_bonus", n=pts, b=bonus) if bonus else tr("points", n=pts))
    return ", ".join(parts)


def meld_plain(tr: Translator, rules: Rules, k: int, m: Meld) -> str:
    """One meld as a line of the plain mode: ``2. 3h 4h 5h (3 cards, 15 pts)``."""
    return f"{k}. {' '.join(card_plain(c) for c in m.display_cards())} ({meld_caption(tr, rules, m)})"


def meld_rich(tr: Translator, rules: Rules, k: int, m: Meld) -> Text:
    """One meld as a line of the full-screen table, with a burraco mark."""
    t = Text(f"{k}. ", style="bold")
    for c in m.display_cards():
        t.append_text(card_rich(c))
    mark = {"clean": "★", "semiclean": "☆", "dirty": "◆"}.get(m.burraco or "", "")
    if mark:
        t.append(mark + " ", style="bold green")
    t.append(f"({meld_caption(tr, rules, m)})", style="dim")
    return t


class Names:
    """Seat and side names as the human sees them: ``You (S)``, ``Partner (N)``, ``Opponent E``."""

    def __init__(self, tr: Translator, seats: Sequence[str], human: int | None) -> None:
        self.tr = tr
        self.seats = tuple(seats)
        self.human = human
        self.n = len(seats)

    def seat(self, s: int) -> str:
        name = self.seats[s]
        if self.human is None:
            return self.tr("seat_plain", seat=name)
        if s == self.human:
            return self.tr("seat_you", seat=name)
        if self.n == 4 and s == (self.human + 2) % 4:
            return self.tr("seat_partner", seat=name)
        return self.tr("seat_opponent", seat=name)

    def side(self, side: int) -> str:
        if self.n == 4:
            return ("NS", "EW")[side]
        return self.seats[side]

    def seat_of(self, letter: str) -> int:
        return self.seats.index(letter)


def describe_action(tr: Translator, names: Names, a: Action) -> str:
    """A move in words (only what the table sees: a draw does not name its card)."""
    if a.verb == TIMEOUT:
        return tr("act_timeout")
    seat = names.seat_of(a.seat)
    who = names.seat(seat)
    you = "_you" if seat == names.human else ""
    cards = " ".join(card_face(c) for c in a.cards)
    if a.verb in (DRAW, PICK, MELD, ADD, DISCARD, REDRAW, SWAP):
        return tr(f"act_{a.verb}{you}", who=who, cards=cards, k=a.meld)
    return tr("act_other", who=who, text=str(a))


def advice_text(tr: Translator, a: Action) -> str:
    """A move as advice to the player: ``meld 3♥ 4♥ 5♥`` (a hint's move)."""
    if a.verb in (DRAW, PICK, MELD, ADD, DISCARD, REDRAW, SWAP, TIMEOUT):
        return tr(f"do_{a.verb}", cards=" ".join(card_face(c) for c in a.cards), k=a.meld)
    return str(a)  # pragma: no cover - every verb is above


def end_text(tr: Translator, names: Names, view: View) -> str:
    """Why the hand ended."""
    end = view.end or ""
    if end == "closed" and view.closed_by >= 0:
        return tr("end_closed", who=names.seat(view.closed_by))
    key = {"stock": "end_stock", "stalemate": "end_stalemate", "timeout": "end_timeout", "cap": "end_cap"}
    return tr(key.get(end, "end_stock"))


def status_text(tr: Translator, names: Names, view: View) -> str:
    """Whose turn it is and what to do."""
    if view.end is not None:
        return end_text(tr, names, view)
    if view.turn == view.seat:
        return tr("turn_draw") if view.phase == "draw" else tr("turn_play")
    return tr("turn_other", who=names.seat(view.turn))


def pozzetti_lines(tr: Translator, names: Names, view: View) -> list[str]:
    """How many pozzetti are left and which side took which, by whom."""
    out = [tr("pozzetti_left", n=sum(view.pozzetti))]
    for side in (0, 1):
        if view.poz_taken[side]:
            out.append(tr("poz_taken", side=names.side(side), seat=names.seat(view.poz_by[side])))
        else:
            out.append(tr("poz_not", side=names.side(side)))
    return out


def score_lines(
    tr: Translator, sides: Sequence[str], scores: dict[str, dict[str, int]]
) -> list[tuple[str, ...]]:
    """The RECORDS.md §5 breakdown as rows: label, then one value per side."""
    rows: list[tuple[str, ...]] = []
    for key in ("melds", "bonuses", "closing", "hand", "pozzetto", "total"):
        rows.append((tr(f"row_{key}"), *(str(scores[s][key]) for s in sides)))
    return rows


def pace_text(tr: Translator, delay: float) -> str:
    """The computer's pace in words: ``fast``, or ``0.5 s per move`` for one set in seconds."""
    name = speed_name(delay)
    return tr(f"pace_{name}") if name else tr("pace_seconds", s=f"{delay:g}")


def match_line(tr: Translator, names: Names, rules: Rules, totals: Sequence[int], hand_i: int) -> str:
    """``Match NS 320 – EW 150 (to 2005, hand 3)``."""
    goal = []
    if rules.target is not None:
        goal.append(tr("target", n=rules.target))
    if rules.hands_per_match is not None:
        goal.append(tr("hand_of", i=hand_i, n=rules.hands_per_match))
    else:
        goal.append(tr("hand_no", i=hand_i))
    return (
        f"{tr('match_score')}: {names.side(0)} {totals[0]} – {names.side(1)} {totals[1]} ({', '.join(goal)})"
    )


def rules_lines(tr: Translator, r: Rules) -> list[str]:
    """A short description of a rule set, in the player's language."""
    out = [tr("rule_players", n=r.players)]
    if r.hands_per_match is not None:
        out.append(tr("rule_hands", n=r.hands_per_match))
    if r.target is not None:
        out.append(tr("rule_target", n=r.target))
    out.append(
        tr(
            "rule_values",
            jk=r.value_joker,
            two=r.value_two,
            ace=r.value_ace,
            high=r.value_high,
            low=r.value_low,
        )
    )
    out.append(tr("rule_wilds", n=r.max_wilds))
    if r.min_first_meld:
        out.append(tr("rule_min_meld", n=r.min_first_meld))
    out.append(tr("rule_pile_open") if r.discard_pile_open else tr("rule_pile_closed"))
    what = {
        PickupRule.NONE: "pickup_none",
        PickupRule.MUST_OPEN_OR_ATTACH: "pickup_open",
        PickupRule.MUST_USE_TOP_CARD: "pickup_top",
    }[r.pickup_rule]
    out.append(tr("rule_pickup", what=tr(what)))
    if r.single_card_pile_no_rediscard:
        out.append(tr("rule_lone"))
    need = tr("clean") if r.closing_burraco is BurracoNeeded.CLEAN else tr("any_burraco")
    out.append(tr("rule_close", what=need, n=r.closing_bonus))
    if r.semiclean:
        out.append(tr("rule_bonuses", clean=r.bonus_clean, semi=r.bonus_semiclean, dirty=r.bonus_dirty))
    else:
        out.append(tr("rule_bonuses2", clean=r.bonus_clean, dirty=r.bonus_dirty))
    out.append(tr("rule_poz_penalty", n=r.pozzetto_penalty))
    return out


__all__ = [
    "CARD_CELL",
    "Names",
    "advice_text",
    "card_face",
    "card_plain",
    "card_rich",
    "describe_action",
    "end_text",
    "match_line",
    "meld_bonus",
    "meld_caption",
    "meld_plain",
    "meld_rich",
    "meld_value",
    "pace_text",
    "pozzetti_lines",
    "rules_lines",
    "score_lines",
    "sort_hand",
    "status_text",
]

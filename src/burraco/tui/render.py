"""Text for the table, shared by the full-screen app and the line-based ``--plain`` mode.

Everything shown about a hand in progress is computed from the human seat's :class:`~burraco.view.View` (and the
moves log, :mod:`burraco.tui.movelog`, which is made of that seat's views too). Cards are written as the player
reads them, in both modes: their rank and a suit symbol that is readable without colour (``7♥``, ``10♠``), the
joker as the language's word; the full-screen table adds colour on top. What the player types may be either form
(``7h`` or ``7♥``).

>>> from burraco import parse_cards
>>> [card_face(c) for c in sort_hand(parse_cards("2h 5s Kh 3h JK 5d"))]
['3♥', 'K♥', '5♦', '5♠', '2♥', 'JK']
>>> [card_face(c) for c in sort_hand(parse_cards("2h 5s Kh 3h JK 5d"), by_rank=True)]
['3♥', '5♦', '5♠', 'K♥', '2♥', 'JK']
>>> card_face(parse_cards("Td")[0]), card_face(52, "Jolly")
('10♦', 'Jolly')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from rich.text import Text

from ..cards import CARD_STR, JOKER, cards_str, is_wild_card
from ..i18n import Translator
from ..melds import Meld, burraco_bonus, meld_points
from ..messages import card_symbol
from ..rules import BurracoNeeded, PickupRule, Rules
from ..seats import initial_sides, scorer_names, side_name
from ..view import View
from .movelog import HandLog, event_text, turn_text
from .session import speed_name

__all__ = [
    "BURRACO_MARKS",
    "SUIT_COLOURS",
    "Names",
    "Sides",
    "card_face",
    "card_rich",
    "end_text",
    "hint_keys",
    "log_lines",
    "match_line",
    "meld_caption",
    "meld_line",
    "meld_value",
    "pace_short",
    "pace_text",
    "pile_text",
    "pozzetti_text",
    "rules_lines",
    "score_lines",
    "seat_line",
    "side_header",
    "side_points",
    "sort_hand",
    "status_text",
    "totals_text",
]

#: colours of the suits (hearts and diamonds red, but their shapes differ, so colour is never the only cue)
SUIT_COLOURS = ("red3", "dark_orange3", "green4", "blue3")
#: the mark of a burraco after its cards, by kind (the caption says it in words too)
BURRACO_MARKS = {"clean": "★", "semiclean": "☆", "dirty": "◆"}


def card_face(c: int, joker: str = "JK") -> str:
    """Rank and suit symbol: ``7♥``, ``10♦``; the joker as ``joker`` (the language's word on the table,
    :attr:`Translator.joker`). The one card-to-symbol function is :func:`burraco.messages.card_symbol`."""
    return card_symbol(CARD_STR[c], joker)


def card_style(c: int) -> str:
    """The colour of a card's face (the suit's, magenta for the joker), bold."""
    return "bold magenta" if c == JOKER else f"bold {SUIT_COLOURS[c // 13]}"


def card_rich(c: int, joker: str = "JK", *, width: int = 3) -> Text:
    """A card in colour on a light face, right-aligned in ``width`` cells (no gap after it)."""
    return Text(card_face(c, joker).rjust(width), style=f"{card_style(c)} on grey93")


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


def meld_value(rules: Rules, m: Meld) -> tuple[int, int]:
    """Card points and burraco bonus of a meld (the engine's :func:`~burraco.melds.meld_points` and
    :func:`~burraco.melds.burraco_bonus`)."""
    return meld_points(m, rules.card_values()), burraco_bonus(m, rules)


def side_points(rules: Rules, melds: Sequence[Meld]) -> tuple[int, int]:
    """A side's running points on the table during the hand: the card points of its melds and its burraco
    bonuses (the hand's score adds closing, cards in hand and the pozzetto penalty at its end)."""
    pts = bonus = 0
    for m in melds:
        p, b = meld_value(rules, m)
        pts += p
        bonus += b
    return pts, bonus


def meld_caption(tr: Translator, rules: Rules, m: Meld) -> str:
    """``7 cards, clean burraco, 70 pts + 200 bonus`` (``4 cards, 40 pts`` without a burraco)."""
    pts, bonus = meld_value(rules, m)
    if m.burraco:
        return tr("tui_meld_burraco", n=m.size, kind=m.burraco, pts=pts, bonus=bonus)
    return tr("tui_meld_caption", n=m.size, pts=pts)


def meld_line(tr: Translator, rules: Rules, k: int, m: Meld) -> str:
    """One meld as a line of text: ``2. 3♥ 4♥ 5♥ (3 cards, 15 pts)``."""
    return tr("tui_meld_line", k=k, cards=cards_str(m.display_cards()), caption=meld_caption(tr, rules, m))


class Sides(Protocol):
    """What :meth:`Names.follow` reads: a :class:`~burraco.View` or a :class:`~burraco.Game`."""

    @property
    def side_seats(self) -> tuple[tuple[int, ...], ...]: ...

    @property
    def sides(self) -> tuple[str, ...]: ...


class Names:
    """Seat and side names as the human sees them: ``You (S)``, ``Partner (N)``, ``Opponent E``; the sides ``Us
    (NS)`` and ``Them (EW)`` where the human plays in a pair, the players' own names where they play alone (two
    players, and the first part of a hand of three or five). ``human`` None: a spectator (the seat letters).

    With three and five players the sides change during a hand (RULES.md §14.3–§14.4: a pair forms against the
    solo player): the table calls :meth:`follow` with the state it shows, so that a partner is named as one."""

    def __init__(self, tr: Translator, seats: Sequence[str], human: int | None) -> None:
        self.tr = tr
        self.seats = tuple(seats)
        self.human = human
        self.n = len(seats)
        #: the sides of the state last followed (at first, as a hand starts)
        self.side_seats: tuple[tuple[int, ...], ...] = initial_sides(self.n)
        self.sides: tuple[str, ...] = tuple(side_name(self.seats, side) for side in self.side_seats)

    def follow(self, state: Sides) -> None:
        """Name the sides (and the human's partners) as they stand in ``state``."""
        self.side_seats = state.side_seats
        self.sides = state.sides

    def partners(self, sides: Sequence[Sequence[int]] | None = None) -> tuple[int, ...]:
        """The human's partners as the sides stand (or as ``sides`` were; none for a spectator or a player
        alone)."""
        if self.human is None:
            return ()
        side = next((x for x in (self.side_seats if sides is None else sides) if self.human in x), ())
        return tuple(s for s in side if s != self.human)

    def seat(self, s: int, sides: Sequence[Sequence[int]] | None = None) -> str:
        """Seat ``s`` as the table names it, with the sides as they stand (or as ``sides`` were)."""
        name = self.seats[s]
        if self.human is None:
            return name
        if s == self.human:
            return self.tr("tui_seat_you", seat=name)
        if s in self.partners(sides):
            return self.tr("tui_seat_partner", seat=name)
        return self.tr("tui_seat_opponent", seat=name)

    def all(self, sides: Sequence[Sequence[int]] | None = None) -> list[str]:
        """The names by seat (for the moves log), with the sides as they stand or as ``sides`` were: a line of
        the log keeps the names of its time (an opponent of the first part of a hand of three is not renamed a
        partner once the pair forms)."""
        return [self.seat(s, sides) for s in range(self.n)]

    def side(self, side: int) -> str:
        """The side's letters: ``NS``, ``EW``; a player alone: his seat's letter."""
        return self.sides[side]

    def side_label(self, side: int) -> str:
        """The side as the table names it: ``Us (NS)`` / ``Them (EW)``; a player alone as his seat is named
        (``You (S)``, ``Opponent N``); a spectator sees the letters."""
        if self.human is None:
            return self.side(side)
        seats = self.side_seats[side]
        if len(seats) == 1:
            return self.seat(seats[0])
        if self.human in seats:
            return self.tr("tui_side_us", side=self.side(side))
        return self.tr("tui_side_them", side=self.side(side))

    def own_first(self) -> list[int]:
        """The sides in the order the table shows them: the human's (or, for a spectator, the first seat's), then
        the others in playing order from the seat after him."""
        me = 0 if self.human is None else self.human
        order: list[int] = []
        for k in range(self.n):
            s = (me + k) % self.n
            side = next(i for i, x in enumerate(self.side_seats) if s in x)
            if side not in order:
                order.append(side)
        return order


def totals_text(scorers: Sequence[str], totals: Sequence[int]) -> str:
    """The match totals in one line: ``NS 320 – EW 150`` (with three and five players, one total a player)."""
    return " – ".join(f"{name} {t}" for name, t in zip(scorers, totals, strict=True))


def side_header(tr: Translator, names: Names, view: View, side: int, short: bool = False) -> str:
    """The head of a side's melds: its running points on the table and its pozzetto,
    ``Us (NS): 410 pts (200 of them bonuses) · pozzetto taken``; ``short`` (the narrow columns of five sides):
    ``Opponent D: 120``, the pozzetto only once taken."""
    pts, bonus = side_points(view.rules, view.melds[side])
    label = names.side_label(side)
    if short:
        head = f"{label}: {pts + bonus}"
    elif bonus:
        head = tr("tui_side_points_bonus", side=label, n=pts + bonus, b=bonus)
    else:
        head = tr("tui_side_points", side=label, n=pts)
    if view.poz_taken[side]:
        poz = tr("tui_poz_taken")
    elif any(view.pozzetti) and not short:
        poz = tr("tui_poz_not")
    else:
        poz = ""
    return f"{head} · {poz}" if poz else head


def pozzetti_text(tr: Translator, view: View) -> str:
    """``Pozzetti on the table: 2``."""
    return tr("tui_pozzetti", n=sum(view.pozzetti))


def pile_text(tr: Translator, view: View) -> str:
    """The discard pile as one line of text, its top end marked: ``Discard pile (3): 4♣ 7♥ 9♠ ← top`` (a closed
    pile: its size and top card)."""
    if not view.pile_size:
        return tr("tui_pile_empty")
    if view.rules.discard_pile_open:
        return tr("tui_pile", n=view.pile_size, cards=cards_str(view.pile))
    return tr("tui_pile_closed", n=view.pile_size, card=CARD_STR[view.pile[-1]])


def end_text(tr: Translator, names: Names, view: View) -> str:
    """Why the hand ended."""
    if view.end == "closed" and view.closed_by >= 0:
        return tr("tui_end_closed", who=names.seat(view.closed_by))
    return tr("tui_end", end=view.end or "stock")


def status_text(tr: Translator, names: Names, view: View) -> str:
    """Whose turn it is and what to do."""
    if view.end is not None:
        return end_text(tr, names, view)
    if view.turn == view.seat and names.human is not None:
        return tr("tui_turn_draw") if view.phase == "draw" else tr("tui_turn_play")
    return tr("tui_turn_other", who=names.seat(view.turn))


def seat_line(tr: Translator, names: Names, view: View, log: HandLog, s: int) -> str:
    """One seat as the table shows it: ``▶ Partner (N) · 9 cards · discards 5♠`` (▶ marks the seat to play; after
    the count, that seat's last action in this hand)."""
    mark = "▶ " if view.turn == s else "  "
    line = f"{mark}{names.seat(s)} · {tr.cards(view.hand_sizes[s])}"
    last = log.last_of(s)
    if last is not None:
        line += " · " + event_text(tr, last, names.all(), names.seats, name=False)
    return line


def log_lines(tr: Translator, names: Names, log: HandLog) -> list[str]:
    """The moves of the hand so far, one numbered line per turn, the oldest first (the coach's "move 12" is line
    12, :func:`burraco.tui.movelog.turn_numbers`); each line names the seats as the sides stood then."""
    return [
        f"{k}. {turn_text(tr, t, names.all(t[0].sides or None), names.seats)}"
        for k, t in enumerate(log.turns(), 1)
    ]


def score_lines(
    tr: Translator, sides: Sequence[str], scores: dict[str, dict[str, int]]
) -> list[tuple[str, ...]]:
    """The RECORDS.md §5 breakdown as rows: label, then one value per side."""
    rows: list[tuple[str, ...]] = []
    for key in ("melds", "bonuses", "closing", "hand", "pozzetto", "total"):
        rows.append((tr.word("tui_score_row", key), *(str(scores[s][key]) for s in sides)))
    return rows


def pace_text(tr: Translator, delay: float) -> str:
    """The computer's pace in words: ``fast``, or ``0.5 s per move`` for one set in seconds."""
    name = speed_name(delay)
    return tr.word("tui_pace", name) if name else tr("tui_pace_seconds", s=f"{delay:g}")


def pace_short(tr: Translator, delay: float) -> str:
    """The pace for its button: ``fast``, ``0.5 s``."""
    name = speed_name(delay)
    return tr.word("tui_pace", name) if name else f"{delay:g} s"


def match_line(tr: Translator, rules: Rules, totals: Sequence[int] | None, hand_i: int) -> str:
    """``Match NS 320 – EW 150 (to 2005, hand 3)`` (one total a player with three and five players; ``totals``
    None: before the first hand has been scored)."""
    scorers = scorer_names(rules)
    goal = []
    if rules.target is not None:
        goal.append(tr("tui_target", n=rules.target))
    if rules.hands_per_match is not None:
        goal.append(tr("tui_hand_of", i=hand_i, n=rules.hands_per_match))
    else:
        goal.append(tr("tui_hand_no", i=hand_i))
    return tr("tui_match", totals=totals_text(scorers, totals or (0,) * len(scorers)), goal=", ".join(goal))


def rules_lines(tr: Translator, r: Rules) -> list[str]:
    """A short description of a rule set, in the player's language."""
    out = [tr("tui_rule_players", n=r.players)]
    if r.hands_per_match is not None:
        out.append(tr("tui_rule_hands", n=r.hands_per_match))
    if r.target is not None:
        out.append(tr("tui_rule_target", n=r.target))
    out.append(
        tr(
            "tui_rule_values",
            jk=r.value_joker,
            two=r.value_two,
            ace=r.value_ace,
            high=r.value_high,
            low=r.value_low,
        )
    )
    out.append(tr("tui_rule_wilds", n=r.max_wilds))
    if r.min_first_meld:
        out.append(tr("tui_rule_min_meld", n=r.min_first_meld))
    out.append(tr("tui_rule_pile_open") if r.discard_pile_open else tr("tui_rule_pile_closed"))
    what = {
        PickupRule.NONE: "none",
        PickupRule.MUST_OPEN_OR_ATTACH: "open",
        PickupRule.MUST_USE_TOP_CARD: "top",
    }[r.pickup_rule]
    out.append(tr("tui_rule_pickup", what=tr.word("tui_pickup", what)))
    if r.single_card_pile_no_rediscard:
        out.append(tr("tui_rule_lone"))
    need = "clean" if r.closing_burraco is BurracoNeeded.CLEAN else "any"
    out.append(tr("tui_rule_close", kind=need, n=r.closing_bonus))
    if r.semiclean:
        out.append(tr("tui_rule_bonuses", clean=r.bonus_clean, semi=r.bonus_semiclean, dirty=r.bonus_dirty))
    else:
        out.append(tr("tui_rule_bonuses2", clean=r.bonus_clean, dirty=r.bonus_dirty))
    out.append(tr("tui_rule_poz_penalty", n=r.pozzetto_penalty))
    return out


def hint_keys(verb: str, meld: int) -> str:
    """The keys that play a hinted move once its cards are selected: ``m``, ``a 2``, ``x``, ``d``, ``p``."""
    return {"draw": "d", "pick": "p", "meld": "m", "add": f"a {meld}", "discard": "x"}.get(verb, "")

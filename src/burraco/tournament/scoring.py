"""Score sheets and victory points: one hand's result of one line (RULES.md §10.1), the checks a scorer's entry must
pass before it counts, and the conversion of a match's MP difference into VP with a table (§12.2, §12.3).

>>> from burraco import preset
>>> r = preset("italian-tournament")
>>> ns = LineScore(clean=1, closing=True, melds=105, hand=20)
>>> ew = LineScore(melds=75, hand=70)
>>> ns.total(r), ew.total(r)
(385, 5)
>>> check_hand(r, ns, ew)
>>> vp(vp_rows(r), 380)
(14, 6)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from ..messages import Message, MessageError, msg
from ..rules import Rules, load_vp_table, victory_points


class ScoreError(MessageError):
    """An entry that cannot be right: the message (``err.msg``) says which number and why."""


@dataclass(frozen=True)
class LineScore:
    """One line's result of one hand, as a score sheet has it (§10.1): its burracos by class, whether it closed,
    the points of the cards on the table, the points of the cards left in both partners' hands (a positive number,
    subtracted), and whether it took its pozzetto."""

    clean: int = 0
    semiclean: int = 0
    dirty: int = 0
    closing: bool = False
    melds: int = 0
    hand: int = 0
    pozzetto: bool = True

    def honours(self, r: Rules) -> int:
        """Burraco bonuses and the closing bonus ("base")."""
        return (
            self.clean * r.bonus_clean
            + self.semiclean * r.bonus_semiclean
            + self.dirty * r.bonus_dirty
            + (r.closing_bonus if self.closing else 0)
        )

    def total(self, r: Rules) -> int:
        """The line's match points for the hand (§10.1)."""
        return self.honours(r) + self.melds - self.hand - (0 if self.pozzetto else r.pozzetto_penalty)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, d: Any) -> LineScore:
        if not isinstance(d, dict):
            raise ScoreError(msg("te_line_object", fields=", ".join(_FIELDS), value=repr(d)))
        unknown = set(d) - set(_FIELDS)
        if unknown:
            raise ScoreError(msg("te_line_fields", unknown=", ".join(sorted(unknown)), fields=", ".join(_FIELDS)))
        kw: dict[str, Any] = {}
        for k, v in d.items():
            if k in ("closing", "pozzetto"):
                if not isinstance(v, bool):
                    raise ScoreError(msg("te_bool", field=k, value=repr(v)))
            elif not isinstance(v, int) or isinstance(v, bool):
                raise ScoreError(msg("te_whole", field=k, value=repr(v)))
            kw[k] = v
        return cls(**kw)


_FIELDS = ("clean", "semiclean", "dirty", "closing", "melds", "hand", "pozzetto")

#: the fewest card points a burraco can hold: seven 5-point cards (7 threes … 7 sevens, a set of one rank)
MIN_BURRACO_POINTS = 35

#: the fewest cards of a meld, and of a burraco (RULES.md §4, §4.8)
MELD_CARDS = 3
BURRACO_CARDS = 7


def deck_cards(r: Rules) -> list[int]:
    """The point value of every card of the deck the rules ``r`` play with, cheapest first (§1: 108 cards,
    1,080 points with two packs and four jokers)."""
    values = r.card_values()
    return sorted(v for c, n in enumerate(r.deck_counts()) for v in [values[c]] * n)


def deck_points(r: Rules) -> int:
    """The points of every card of the deck together: the most the card points on the table and in the hands of
    one hand can come to (§0.1 "Score sheets")."""
    return sum(deck_cards(r))


def least_points(r: Rules, cards: int) -> int:
    """The fewest points ``cards`` cards of the deck can hold (the cheapest ones), or -1 if it has fewer cards."""
    deck = deck_cards(r)
    return sum(deck[:cards]) if cards <= len(deck) else -1


def check_line(r: Rules, s: LineScore, line: Message | str = "the line") -> None:
    """Raise :class:`ScoreError` if one line's figures cannot be right under the rules ``r`` (RULES.md §0.1
    "Score sheets", §10.1): whole numbers of burracos, card points in multiples of 5, at least a meld's worth of
    them if any, enough of them for its burracos, a closing only with the pozzetto and a burraco."""
    for k in ("clean", "semiclean", "dirty"):
        if getattr(s, k) < 0:
            raise ScoreError(msg("te_negative_burracos", line=line, kind=k))
    if s.semiclean and not r.semiclean:
        raise ScoreError(msg("te_no_semiclean", line=line))
    labels = {"melds": msg("t_melds"), "hand": msg("t_hand_points")}
    for k, label in labels.items():
        v = getattr(s, k)
        if v < 0:
            raise ScoreError(msg("te_positive", line=line, field=label, value=v))
        if v % 5:
            raise ScoreError(msg("te_multiple_5", line=line, field=label, value=v))
    most = deck_points(r)
    for k, label in labels.items():
        v = getattr(s, k)
        if v > most:
            raise ScoreError(msg("te_line_deck", line=line, field=label, value=v, most=most, cards=r.deck_size))
    if 0 < s.melds < least_points(r, MELD_CARDS):
        raise ScoreError(msg("te_meld_least", line=line, melds=s.melds, least=least_points(r, MELD_CARDS)))
    burracos = s.clean + s.semiclean + s.dirty
    cards = BURRACO_CARDS * burracos
    if cards > r.deck_size:
        raise ScoreError(msg("te_burraco_cards", line=line, burracos=burracos, cards=cards, deck=r.deck_size))
    least = max(MIN_BURRACO_POINTS * burracos, least_points(r, cards))
    if s.melds < least:
        raise ScoreError(msg("te_burraco_points", line=line, burracos=burracos, least=least, melds=s.melds))
    if s.closing:
        if not s.pozzetto:
            raise ScoreError(msg("te_close_pozzetto", line=line))
        if burracos == 0 or (r.closing_burraco.value == "clean" and s.clean == 0):
            if r.closing_burraco.value == "clean":
                raise ScoreError(msg("te_close_clean", line=line))
            raise ScoreError(msg("te_close_burraco", line=line))


def check_hand(r: Rules, ns: LineScore, ew: LineScore) -> None:
    """Raise :class:`ScoreError` if a hand's two lines cannot both be right (RULES.md §0.1 "Score sheets"): each
    line's figures; at most one line closed; the burracos of both lines no more than the deck's cards make, with
    at least the card points the cheapest of those cards hold; the card points on the table and in the hands
    together no more than the deck holds."""
    check_line(r, ns, msg("t_ns"))
    check_line(r, ew, msg("t_ew"))
    if ns.closing and ew.closing:
        raise ScoreError(msg("te_both_close"))
    burracos = sum(x.clean + x.semiclean + x.dirty for x in (ns, ew))
    cards = BURRACO_CARDS * burracos
    if cards > r.deck_size:
        raise ScoreError(msg("te_burraco_cards_both", burracos=burracos, cards=cards, deck=r.deck_size))
    least = least_points(r, cards)
    if ns.melds + ew.melds < least:
        raise ScoreError(msg("te_burraco_points_both", burracos=burracos, least=least, melds=ns.melds + ew.melds))
    total = ns.melds + ew.melds + ns.hand + ew.hand
    if total > deck_points(r):
        raise ScoreError(msg("te_deck_points", table=ns.melds + ew.melds, hands=ns.hand + ew.hand, total=total,
                             most=deck_points(r), cards=r.deck_size))


# ----------------------------------------------------------------------------------------------------------------
# victory points
# ----------------------------------------------------------------------------------------------------------------
VPRows = tuple[tuple[int, int, int], ...]


def vp_rows(r: Rules) -> VPRows:
    """The VP table of the rules ``r`` (the FIBUR 3- or 4-hand table with ``vp_table="auto"``); raises if they
    have none (say which table to load)."""
    rows = r.vp_table_rows()
    if rows is None:
        raise ScoreError(msg("te_rules_no_vp", hands=str(r.hands_per_match)))
    return tuple(rows)


def vp(rows: Sequence[tuple[int, int, int]], diff: int) -> tuple[int, int]:
    """(VP of the line that scored more, VP of the other) for an MP difference (§12.3)."""
    return victory_points(list(rows), diff)


def match_vp(rows: Sequence[tuple[int, int, int]], a: int, b: int) -> tuple[int, int]:
    """The VP of two lines that scored ``a`` and ``b`` match points."""
    w, lo = vp(rows, a - b)
    return (w, lo) if a >= b else (lo, w)


def parse_vp_table(data: Any, name: str = "the table") -> VPRows:
    """A VP table from its JSON form (``{"rows": [{"max_diff": 50, "winner": 10, "loser": 10}, …]}``, as the
    shipped ones in burraco/data/vp_tables), checked: bounds ascending multiples of 5 ending with the "and above"
    row, winner VP rising and loser VP falling, the same total in every row, the first row a draw."""
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as e:
            raise ScoreError(msg("te_vp_json", name=name, error=str(e))) from e
    rows_in = data.get("rows") if isinstance(data, dict) else None
    if not isinstance(rows_in, list) or not rows_in:
        raise ScoreError(msg("te_vp_rows", name=name))
    rows: list[tuple[int, int, int]] = []
    for i, row in enumerate(rows_in, 1):
        try:
            b, w, lo = (row["max_diff"], row["winner"], row["loser"])
        except (TypeError, KeyError) as e:
            raise ScoreError(msg("te_vp_row_fields", name=name, row=i)) from e
        if not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in (b, w, lo)):
            raise ScoreError(msg("te_vp_row_numbers", name=name, row=i))
        rows.append((b, w, lo))
    total = rows[0][1] + rows[0][2]
    for i, (b, w, lo) in enumerate(rows, 1):
        if w + lo != total:
            raise ScoreError(msg("te_vp_total", name=name, row=i, winner=w, loser=lo, total=total))
        if w < lo:
            raise ScoreError(msg("te_vp_winner_less", name=name, row=i, winner=w, loser=lo))
        if i < len(rows) and b % 5 != 0:
            raise ScoreError(msg("te_vp_bound_5", name=name, row=i, bound=b))
    if rows[0][1] != rows[0][2]:
        raise ScoreError(msg("te_vp_first_row", name=name))
    for i in range(1, len(rows)):
        (b0, w0, _), (b1, w1, _) = rows[i - 1], rows[i]
        if b1 <= b0:
            raise ScoreError(msg("te_vp_ascending", name=name, row=i + 1, bound=b1, prev=b0))
        if w1 < w0:
            raise ScoreError(msg("te_vp_falls", name=name, row=i + 1, prev=w0, winner=w1))
    return tuple(rows)


def shipped_vp_table(name: str) -> VPRows:
    """A VP table shipped with the engine (``fibur_3_hands``, ``fibur_4_hands``)."""
    return tuple(load_vp_table(name))


__all__ = [
    "BURRACO_CARDS",
    "LineScore",
    "MELD_CARDS",
    "MIN_BURRACO_POINTS",
    "ScoreError",
    "VPRows",
    "check_hand",
    "check_line",
    "deck_cards",
    "deck_points",
    "least_points",
    "match_vp",
    "parse_vp_table",
    "shipped_vp_table",
    "vp",
    "vp_rows",
]

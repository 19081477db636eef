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

from ..rules import Rules, load_vp_table, victory_points


class ScoreError(ValueError):
    """An entry that cannot be right: the message says which number and why."""


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
            raise ScoreError(f"a line's score is an object with the fields {', '.join(_FIELDS)}, not {d!r}")
        unknown = set(d) - set(_FIELDS)
        if unknown:
            raise ScoreError(
                f"unknown field(s) {', '.join(sorted(unknown))} (the fields are {', '.join(_FIELDS)})"
            )
        kw: dict[str, Any] = {}
        for k, v in d.items():
            if k in ("closing", "pozzetto"):
                if not isinstance(v, bool):
                    raise ScoreError(f"{k} is true or false, not {v!r}")
            elif not isinstance(v, int) or isinstance(v, bool):
                raise ScoreError(f"{k} is a whole number, not {v!r}")
            kw[k] = v
        return cls(**kw)


_FIELDS = ("clean", "semiclean", "dirty", "closing", "melds", "hand", "pozzetto")

#: the fewest card points a burraco can hold: seven 5-point cards (7 threes … 7 sevens, a set of one rank)
MIN_BURRACO_POINTS = 35


def check_line(r: Rules, s: LineScore, line: str = "the line") -> None:
    """Raise :class:`ScoreError` if one line's figures cannot be right under the rules ``r``."""
    for k in ("clean", "semiclean", "dirty"):
        if getattr(s, k) < 0:
            raise ScoreError(f"{line}: the number of {k} burracos cannot be negative")
    if s.semiclean and not r.semiclean:
        raise ScoreError(f"{line}: these rules have no semiclean burraco (it counts as dirty)")
    for k in ("melds", "hand"):
        v = getattr(s, k)
        if v < 0:
            raise ScoreError(f"{line}: {k} points are entered as a positive number ({v})")
        if v % 5:
            raise ScoreError(
                f"{line}: {k} points {v} are not a multiple of 5 (every card is worth 5, 10, 15, 20 or 30)"
            )
    burracos = s.clean + s.semiclean + s.dirty
    if s.melds < MIN_BURRACO_POINTS * burracos:
        raise ScoreError(
            f"{line}: {burracos} burraco(s) hold at least {MIN_BURRACO_POINTS * burracos} card points, "
            f"not {s.melds}"
        )
    if s.closing:
        if not s.pozzetto:
            raise ScoreError(f"{line}: a line closes only after taking its pozzetto (§8.1)")
        if burracos == 0 or (r.closing_burraco.value == "clean" and s.clean == 0):
            need = "a clean burraco" if r.closing_burraco.value == "clean" else "a burraco"
            raise ScoreError(f"{line}: closing needs {need} on the table (§8.1)")


def check_hand(r: Rules, ns: LineScore, ew: LineScore) -> None:
    """Raise :class:`ScoreError` if a hand's two lines cannot both be right: each line's figures, and at most one
    line closed."""
    check_line(r, ns, "NS")
    check_line(r, ew, "EW")
    if ns.closing and ew.closing:
        raise ScoreError("both lines are entered as closing: only one line can close a hand (§8)")


# ----------------------------------------------------------------------------------------------------------------
# victory points
# ----------------------------------------------------------------------------------------------------------------
VPRows = tuple[tuple[int, int, int], ...]


def vp_rows(r: Rules) -> VPRows:
    """The VP table of the rules ``r`` (the FIBUR 3- or 4-hand table with ``vp_table="auto"``); raises if they
    have none (say which table to load)."""
    rows = r.vp_table_rows()
    if rows is None:
        raise ScoreError(
            f"the rules have no VP table for {r.hands_per_match} hands: load one (a JSON file of rows "
            "max_diff / winner / loser, see docs/tournaments.md)"
        )
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
            raise ScoreError(f"{name} is not JSON: {e}") from e
    rows_in = data.get("rows") if isinstance(data, dict) else None
    if not isinstance(rows_in, list) or not rows_in:
        raise ScoreError(f'{name} needs a non-empty list "rows" of {{"max_diff", "winner", "loser"}}')
    rows: list[tuple[int, int, int]] = []
    for i, row in enumerate(rows_in, 1):
        try:
            b, w, lo = (row["max_diff"], row["winner"], row["loser"])
        except (TypeError, KeyError) as e:
            raise ScoreError(f"{name}, row {i}: needs max_diff, winner and loser") from e
        if not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in (b, w, lo)):
            raise ScoreError(f"{name}, row {i}: max_diff, winner and loser are whole numbers ≥ 0")
        rows.append((b, w, lo))
    total = rows[0][1] + rows[0][2]
    for i, (b, w, lo) in enumerate(rows, 1):
        if w + lo != total:
            raise ScoreError(f"{name}, row {i}: {w} + {lo} VP is not {total} like the first row")
        if w < lo:
            raise ScoreError(f"{name}, row {i}: the winner gets fewer VP ({w}) than the loser ({lo})")
        if i < len(rows) and b % 5 != 0:
            raise ScoreError(f"{name}, row {i}: max_diff {b} is not a multiple of 5")
    if rows[0][1] != rows[0][2]:
        raise ScoreError(f"{name}: the first row (the smallest differences) must give both lines the same VP")
    for i in range(1, len(rows)):
        (b0, w0, _), (b1, w1, _) = rows[i - 1], rows[i]
        if b1 <= b0:
            raise ScoreError(f"{name}, row {i + 1}: max_diff {b1} does not follow {b0} (ascending, no gaps)")
        if w1 < w0:
            raise ScoreError(f"{name}, row {i + 1}: the winner's VP fall from {w0} to {w1}")
    return tuple(rows)


def shipped_vp_table(name: str) -> VPRows:
    """A VP table shipped with the engine (``fibur_3_hands``, ``fibur_4_hands``)."""
    return tuple(load_vp_table(name))


__all__ = [
    "LineScore",
    "MIN_BURRACO_POINTS",
    "ScoreError",
    "VPRows",
    "check_hand",
    "check_line",
    "match_vp",
    "parse_vp_table",
    "shipped_vp_table",
    "vp",
    "vp_rows",
]

"""The standings of an event after a round (:class:`Standing`): the ranking points of the results net of the
director's penalties, entrants level on them separated by the steps of RULES.md §0.1 "Ranking ties"
(:data:`TIE_STEPS`, the director's draw by lot the last), and the prizes of the setup awarded on them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .results import Result, _Results
from .setup import Entrant, _lot

#: the steps that separate entrants level on the ranking points (RULES.md §0.1 "Ranking ties"), in order
TIE_STEPS = ("head_to_head", "head_to_head_mp", "mp_diff", "mp_for", "vp", "lot", "lot_pending")


@dataclass(frozen=True)
class Standing:
    """A line of the standings. ``vp`` and ``mp_for`` are net of the director's penalties (``penalty_vp``,
    ``penalty_mp``, §13). An entrant level with others on the ranking points has ``tie_group`` (the whole group,
    in order) and ``tie``: the step of RULES.md §0.1 "Ranking ties" that placed it (``TIE_STEPS``;
    ``lot_pending``: still level after the MP, the director's draw by lot is to be made — such entrants share a
    rank), with ``tie_value`` the figure that step compared (the VP or MP difference of the matches among the
    group, the MP difference, the MP scored); ``head_to_head`` says whether step 1 applied to the group (every
    member met every other the same number of times)."""

    rank: int
    entrant: Entrant
    rounds: int
    vp: int
    mp_for: int
    mp_against: int
    byes: int
    penalty_vp: int = 0
    penalty_mp: int = 0
    tie: str = ""
    tie_value: int | None = None
    tie_group: tuple[str, ...] = ()
    head_to_head: bool = False

    @property
    def diff(self) -> int:
        return self.mp_for - self.mp_against



class _Standings(_Results):
    """The standings and prizes of :class:`~burraco.tournament.event.Event`, from its results and its log."""

    def standings(self, upto: int | None = None) -> list[Standing]:
        """The standings after round ``upto`` (default: everything counted so far), RULES.md §0.1 "Ranking
        ties": by total VP (net of penalties; ``ranking="mp"``: by the MP difference). Entrants level on it are
        separated, the whole group still level at each step, by (1) head-to-head — only when every member of the
        group has met every other the same number of times: the VP of their matches among themselves, then the
        MP difference of those matches —, (2) the total MP difference, (3) the total MP scored (with
        ``ranking="mp"``: the total VP, then the MP scored), (4) the director's draw by lot (a ``lot`` entry);
        until it is made, the order of the event's seed, the entrants sharing a rank."""
        res = self.results(upto)
        acc: dict[str, list[int]] = {
            e: [0, 0, 0, 0, 0, 0, 0] for e in self.entrants
        }  # vp, for, against, rounds, byes, penalty vp, penalty mp
        for r in res:
            a = acc[r.entrant]
            a[0] += r.vp
            a[1] += r.mp_for
            a[2] += r.mp_against
            a[3] += 1
            a[4] += r.line == "bye"
        last = upto if upto is not None else len(self.rounds)
        for p in self.penalties():
            if p["round"] <= last and p["entrant"] in acc:
                a = acc[p["entrant"]]
                a[5] += p["vp"]
                a[6] += p["mp"]
                a[0] -= p["vp"]
                a[1] -= p["mp"]
        by_vp = self.setup.ranking == "vp"

        def primary(e: str) -> int:
            return acc[e][0] if by_vp else acc[e][1] - acc[e][2]

        ids = sorted(self.entrants, key=lambda e: -primary(e))
        placed: list[tuple[str, str, int | None, tuple[str, ...], bool, int]] = []
        i = 0
        while i < len(ids):
            j = i
            while j < len(ids) and primary(ids[j]) == primary(ids[i]):
                j += 1
            group = ids[i:j]
            if len(group) == 1:
                placed.append((group[0], "", None, (), False, i))
            else:
                order, h2h = self._break_tie(group, res, acc, last)
                placed += [(e, step, value, tuple(x for x, _, _, _ in order), h2h, i * 1000 + sub)
                           for e, step, value, sub in order]
            i = j
        out: list[Standing] = []
        ranks: dict[int, int] = {}
        for k, (e, step, value, tied, h2h, sub) in enumerate(placed):
            a = acc[e]
            # entrants still level, waiting for the director's draw, share a rank
            rank = ranks.setdefault(sub, k + 1) if step == "lot_pending" else k + 1
            out.append(Standing(rank, self.entrants[e], a[3], a[0], a[1], a[2], a[4], a[5], a[6], step, value,
                                tied, h2h))
        return out

    def _break_tie(
        self, group: list[str], res: Sequence[Result], acc: Mapping[str, list[int]], last: int
    ) -> tuple[list[tuple[str, str, int | None, int]], bool]:
        """A group level on the ranking points in order, each with the step that placed it, the figure it
        compared and the number of the part of the group it was last level with; and whether the head-to-head
        applied (RULES.md §0.1 "Ranking ties")."""
        members = set(group)
        met: dict[frozenset[str], int] = {}
        h2h_vp = dict.fromkeys(group, 0)
        h2h_mp = dict.fromkeys(group, 0)
        for r in res:
            if r.entrant not in members:
                continue
            inside = [o for o in r.opponents if o in members]
            for o in inside:
                met[frozenset((r.entrant, o))] = met.get(frozenset((r.entrant, o)), 0) + 1
            if inside:
                h2h_vp[r.entrant] += r.vp
                h2h_mp[r.entrant] += r.diff
        counts = {met.get(frozenset((x, y)), 0) for x in group for y in group if x < y}
        # every member met every other, the same number of times (a pair meets once per match; in an individual
        # event each of two players meeting at a table counts the match for both)
        h2h = len(counts) == 1 and min(counts) > 0
        keys: list[tuple[str, dict[str, int]]] = []
        if h2h:
            keys += [("head_to_head", h2h_vp), ("head_to_head_mp", h2h_mp)]
        diff = {e: acc[e][1] - acc[e][2] for e in group}
        if self.setup.ranking == "vp":
            keys.append(("mp_diff", diff))
        else:
            keys.append(("vp", {e: acc[e][0] for e in group}))
        keys.append(("mp_for", {e: acc[e][1] for e in group}))
        out: list[tuple[str, str, int | None, int]] = []

        def refine(sub: list[str], k: int) -> None:
            if len(sub) == 1:
                step, fig = keys[k - 1]
                out.append((sub[0], step, fig[sub[0]], len(out)))
                return
            if k == len(keys):
                drawn = self._lot_order(sub, last)
                first = len(out)
                for e in drawn or sorted(sub, key=lambda e: _lot(self.setup.seed, e)):
                    out.append((e, "lot" if drawn else "lot_pending", None, first))
                return
            _, fig = keys[k]
            for v in sorted({fig[e] for e in sub}, reverse=True):
                refine([e for e in sub if fig[e] == v], k + 1)

        refine(sorted(group, key=lambda e: _lot(self.setup.seed, e)), 0)
        return out, h2h

    def _lot_order(self, group: Sequence[str], last: int) -> list[str] | None:
        """The order of the director's latest draw by lot for exactly these entrants in the standings after
        round ``last``, if one was made."""
        for e in reversed(self.log):
            if e["type"] == "lot" and int(e["round"]) == last and set(e["entrants"]) == set(group):
                return [str(x) for x in e["entrants"]]
        return None

    def prizes(self, upto: int | None = None) -> list[tuple[str, list[tuple[int, Standing]]]]:
        """The prizes of :attr:`~burraco.tournament.setup.Setup.prizes` on the standings after round ``upto``:
        per category (``""``: the overall ranking), in the setup's order, its winners with their place in it. An
        entrant wins one prize at most: one placed in an earlier category is passed over in the later ones."""
        st = self.standings(upto)
        won: set[str] = set()
        out: list[tuple[str, list[tuple[int, Standing]]]] = []
        for cat, n in self.setup.prizes:
            winners: list[tuple[int, Standing]] = []
            for s in st:
                if len(winners) == n:
                    break
                if s.entrant.id in won or (cat and cat not in s.entrant.categories):
                    continue
                winners.append((len(winners) + 1, s))
                won.add(s.entrant.id)
            out.append((cat, winners))
        return out

    def penalties(self) -> list[dict[str, Any]]:
        """The director's penalties (§13), as entered: round, entrant, vp, mp, reason, who."""
        return [dict(e) for e in self.log if e["type"] == "penalty"]


__all__ = ["TIE_STEPS", "Standing"]

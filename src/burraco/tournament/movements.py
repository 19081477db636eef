"""Movements: who meets whom in each round of a tournament (RULES.md §12.5, §12.6). Pure functions of the entrants,
the standings order and what happened before; no clock, no global randomness.

A round's pairing is a list of tables, each ``(ns, ew)`` by entrant id, and the entrants with a bye ("tavolo
zoppo", §12.6). Entrants are pairs (or teams, which meet like pairs); :func:`individual` forms pairs and tables of
single players.

>>> mitchell(["A", "B", "C", "D", "E", "F"], 1).tables
(('A', 'F'), ('C', 'B'), ('E', 'D'))
>>> danish(["A", "B", "C", "D"], previous={"A": "B", "B": "A", "C": "D", "D": "C"}, modified=True).tables
(('A', 'C'), ('B', 'D'))
>>> [p.tables for p in (round_robin(["A", "B", "C", "D"], r) for r in range(3))]
[(('A', 'D'), ('C', 'B')), (('C', 'A'), ('D', 'B')), (('A', 'B'), ('D', 'C'))]
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..messages import MessageError, msg

if TYPE_CHECKING:
    import networkx as nx

#: the empty seat of an odd field: whoever meets it has a bye
PHANTOM = ""


class MovementError(MessageError):
    """A round that this movement cannot produce (``err.msg`` says which and why)."""


@dataclass(frozen=True)
class Pairing:
    """One round: ``tables[i] = (ns, ew)`` (entrant ids), and the entrants with a bye."""

    tables: tuple[tuple[str, str], ...]
    byes: tuple[str, ...] = ()

    def opponents(self) -> dict[str, str]:
        """Each seated entrant's opponent."""
        out: dict[str, str] = {}
        for ns, ew in self.tables:
            out[ns] = ew
            out[ew] = ns
        return out


def _with_byes(pairs: Sequence[tuple[str, str]]) -> Pairing:
    tables: list[tuple[str, str]] = []
    byes: list[str] = []
    for ns, ew in pairs:
        if ns == PHANTOM or ew == PHANTOM:
            byes.append(ew if ns == PHANTOM else ns)
        else:
            tables.append((ns, ew))
    return Pairing(tuple(tables), tuple(b for b in byes if b != PHANTOM))


# ----------------------------------------------------------------------------------------------------------------
# Mitchell
# ----------------------------------------------------------------------------------------------------------------
def mitchell_lines(order: Sequence[str]) -> tuple[list[str], list[str]]:
    """The NS and EW lines of a Mitchell segment from an order (the standings, or the registration order): 1st NS
    at table 1 against the 2nd EW, 3rd NS at table 2 against the 4th, … An odd field gets a phantom EW pair."""
    ids = list(order)
    if len(ids) % 2:
        ids.append(PHANTOM)
    return ids[0::2], ids[1::2]


def mitchell_rounds(tables: int, skip: bool = False) -> int:
    """How many rounds a Mitchell segment of ``tables`` tables can have before an EW pair meets an NS pair again."""
    return tables - 1 if skip and tables % 2 == 0 else tables


def mitchell_from_lines(ns: Sequence[str], ew: Sequence[str], r: int, skip: bool = False) -> Pairing:
    """Round ``r`` (0-based) of a Mitchell segment: NS pairs stay at their tables, EW pairs move up one table each
    round. ``skip``: with an even number of tables the EW pairs skip one table after half the rounds (the classic
    fix when boards travel the other way; here every table plays its own or the round's duplicate deals, so it is
    off by default)."""
    t = len(ns)
    if len(ew) != t or t == 0:
        raise MovementError(msg("te_mitchell_sides"))
    if not 0 <= r < mitchell_rounds(t, skip):
        raise MovementError(msg("te_mitchell_rounds", tables=t, rounds=mitchell_rounds(t, skip), round=r + 1))
    jump = 1 if skip and t % 2 == 0 and r >= t // 2 else 0
    pairs = []
    for i in range(t):
        # the EW pair at table i in round r is the one that started at table i - r (- the skip)
        pairs.append((ns[i], ew[(i - r - jump) % t]))
    return _with_byes(pairs)


def mitchell(order: Sequence[str], r: int, skip: bool = False) -> Pairing:
    """Round ``r`` of a Mitchell segment whose lines come from ``order`` (:func:`mitchell_lines`)."""
    ns, ew = mitchell_lines(order)
    return mitchell_from_lines(ns, ew, r, skip)


# ----------------------------------------------------------------------------------------------------------------
# Danish (simplified Swiss)
# ----------------------------------------------------------------------------------------------------------------
def bye_for(order: Sequence[str], byes_had: Mapping[str, int]) -> str:
    """The entrant who sits out an odd round: the lowest ranked of those with the fewest byes so far."""
    fewest = min(byes_had.get(e, 0) for e in order)
    return next(e for e in reversed(order) if byes_had.get(e, 0) == fewest)


def danish(
    order: Sequence[str],
    previous: Mapping[str, str] | None = None,
    *,
    modified: bool = False,
    byes_had: Mapping[str, int] | None = None,
) -> Pairing:
    """A Danish round from the standings ``order`` (best first): 1st v 2nd, 3rd v 4th, … (*danese puro*). With
    ``modified`` nobody meets the opponent of the previous round (``previous``: entrant → opponent) where that can
    be avoided: among the pairings without such a rematch (or with the fewest), the one whose opponents are closest
    in the standings — a maximum-weight perfect matching (networkx) with the cost ``(rank distance)²``.

    An odd field: the lowest-ranked entrant with the fewest byes sits out (:func:`bye_for`)."""
    ids = list(order)
    byes: tuple[str, ...] = ()
    if len(ids) % 2:
        b = bye_for(ids, byes_had or {})
        ids.remove(b)
        byes = (b,)
    if not modified:
        return Pairing(tuple((ids[i], ids[i + 1]) for i in range(0, len(ids), 2)), byes)
    prev = previous or {}
    n = len(ids)
    import networkx as nx

    rematch_cost = (n * n + 1) * n  # more than any pairing's rank cost: rematches only when unavoidable
    big = rematch_cost * n + 1
    graph: nx.Graph[int] = nx.Graph()
    for i in range(n):
        for j in range(i + 1, n):
            cost = (j - i) ** 2 + (rematch_cost if prev.get(ids[i]) == ids[j] else 0)
            graph.add_edge(i, j, weight=big - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs = sorted((min(a, b), max(a, b)) for a, b in matching)
    return Pairing(tuple((ids[a], ids[b]) for a, b in pairs), byes)


# ----------------------------------------------------------------------------------------------------------------
# round robin (all'italiana)
# ----------------------------------------------------------------------------------------------------------------
def round_robin_rounds(n: int) -> int:
    """Rounds of a complete round robin of ``n`` entrants (a bye each round for an odd field)."""
    return n - 1 if n % 2 == 0 else n


def round_robin(entrants: Sequence[str], r: int) -> Pairing:
    """Round ``r`` of a round robin by the circle method (Berger tables): the first entrant stays, the others turn;
    every entrant meets every other exactly once in :func:`round_robin_rounds` rounds, and changes direction from
    round to round."""
    ids = list(entrants)
    if len(ids) % 2:
        ids.append(PHANTOM)
    n = len(ids)
    if n < 2:
        raise MovementError(msg("te_robin_two"))
    if not 0 <= r < n - 1:
        raise MovementError(msg("te_robin_rounds", entrants=len(entrants), rounds=round_robin_rounds(len(entrants))))
    rest = ids[1:]
    k = r % (n - 1)
    rot = rest[-k:] + rest[:-k] if k else rest
    circle = [ids[0], *rot]
    pairs = []
    for i in range(n // 2):
        a, b = circle[i], circle[n - 1 - i]
        pairs.append((a, b) if (r + i) % 2 == 0 else (b, a))
    return _with_byes(pairs)


def groups_of(order: Sequence[str], groups: int) -> list[list[str]]:
    """``order`` dealt into ``groups`` groups by the snake (1 2 3 3 2 1 …), so the groups are of equal strength."""
    if groups < 1:
        raise MovementError(msg("te_groups"))
    out: list[list[str]] = [[] for _ in range(groups)]
    for i, e in enumerate(order):
        k = i % (2 * groups)
        out[k if k < groups else 2 * groups - 1 - k].append(e)
    return out


def round_robin_groups(order: Sequence[str], r: int, groups: int = 1) -> Pairing:
    """Round ``r`` of a round robin in groups (:func:`groups_of`); a group that has finished sits out."""
    tables: list[tuple[str, str]] = []
    byes: list[str] = []
    for g in groups_of(order, groups):
        if len(g) < 2:
            byes += g
            continue
        if r < round_robin_rounds(len(g)):
            p = round_robin(g, r)
            tables += p.tables
            byes += p.byes
        else:
            byes += g
    return Pairing(tuple(tables), tuple(byes))


# ----------------------------------------------------------------------------------------------------------------
# individual events: partners change every round
# ----------------------------------------------------------------------------------------------------------------
def _noise(seed: int, *parts: object) -> int:
    """A small deterministic tie-breaker (0…999) so that equal choices vary from round to round."""
    h = hashlib.blake2b(repr((seed, parts)).encode(), digest_size=4).digest()
    return int.from_bytes(h, "big") % 1000


def individual(
    order: Sequence[str],
    partners_before: Mapping[frozenset[str], int],
    opponents_before: Mapping[frozenset[str], int],
    *,
    byes_had: Mapping[str, int] | None = None,
    seed: int = 0,
    round_no: int = 0,
) -> tuple[tuple[tuple[tuple[str, str], tuple[str, str]], ...], tuple[str, ...]]:
    """One round of an individual event: the players of ``order`` (best first) form partnerships and tables of
    four. Nobody partners a player he has partnered before while that can be avoided (a maximum-weight perfect
    matching that pays for every repeated partnership more than for anything else), and, second, partnerships
    are seated against players they have met least. ``len(order) % 4`` players sit out (the lowest ranked with the
    fewest byes).

    Returns the tables, each ``((ns1, ns2), (ew1, ew2))``, and the players with a bye."""
    ids = list(order)
    byes: list[str] = []
    had = dict(byes_had or {})
    while len(ids) % 4:
        b = bye_for(ids, had)
        ids.remove(b)
        byes.append(b)
        had[b] = had.get(b, 0) + 1
    if not ids:
        return (), tuple(byes)
    import networkx as nx

    n = len(ids)
    repeat = 10_000 * (n + 1)
    big = repeat * (n + 1)
    g: nx.Graph[int] = nx.Graph()
    for i in range(n):
        for j in range(i + 1, n):
            key = frozenset((ids[i], ids[j]))
            cost = repeat * partners_before.get(key, 0) + 100 * opponents_before.get(key, 0)
            g.add_edge(i, j, weight=big - cost - _noise(seed, round_no, "p", ids[i], ids[j]))
    duos = sorted(tuple(sorted((a, b))) for a, b in nx.max_weight_matching(g, maxcardinality=True))
    teams = [(ids[a], ids[b]) for a, b in duos]
    h: nx.Graph[int] = nx.Graph()
    m = len(teams)
    for i in range(m):
        for j in range(i + 1, m):
            met = sum(opponents_before.get(frozenset((x, y)), 0) for x in teams[i] for y in teams[j])
            h.add_edge(i, j, weight=big - repeat * met - _noise(seed, round_no, "t", teams[i], teams[j]))
    tables = sorted(tuple(sorted((a, b))) for a, b in nx.max_weight_matching(h, maxcardinality=True))
    return tuple((teams[a], teams[b]) for a, b in tables), tuple(byes)


__all__ = [
    "PHANTOM",
    "MovementError",
    "Pairing",
    "bye_for",
    "danish",
    "groups_of",
    "individual",
    "mitchell",
    "mitchell_from_lines",
    "mitchell_lines",
    "mitchell_rounds",
    "round_robin",
    "round_robin_groups",
    "round_robin_rounds",
]

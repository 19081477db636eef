"""The seats and the sides of a table (RECORDS.md §2): their letters and names, and who keeps a match total.

>>> from burraco import preset
>>> seat_names(4), side_names(4), side_names(6)
(('N', 'E', 'S', 'W'), ('NS', 'EW'), ('AD', 'BE', 'CF'))
>>> scorer_names(preset("italian-5p")), scorer_names(preset("italian-6p"))
(('A', 'B', 'C', 'D', 'E'), ('AD', 'BE', 'CF'))
"""

from __future__ import annotations

from .rules import Rules

SEATS_4 = ("N", "E", "S", "W")
SEATS_2 = ("N", "S")
SIDES_4 = ("NS", "EW")
SIDES_2 = ("N", "S")
#: the seats of 3, 5 and 6 players (RECORDS.md §2)
SEATS_ABC = ("A", "B", "C", "D", "E", "F")


def seat_names(players: int) -> tuple[str, ...]:
    """The seats' letters for ``players`` players (RECORDS.md §2), in clockwise order."""
    if players == 4:
        return SEATS_4
    if players == 2:
        return SEATS_2
    return SEATS_ABC[:players]


def initial_sides(players: int) -> tuple[tuple[int, ...], ...]:
    """The sides at the start of a hand, as tuples of seats: ``NS``/``EW`` with 4 players, the partners opposite
    with 6, every seat its own side otherwise (3 and 5 players until the first goes out, RULES.md §14.3)."""
    if players == 4:
        return ((0, 2), (1, 3))
    if players == 6:
        return ((0, 3), (1, 4), (2, 5))
    return tuple((s,) for s in range(players))


def side_name(seats: tuple[str, ...], members: tuple[int, ...]) -> str:
    """A side's name: its seats' letters in seat order (``NS``, ``AC``)."""
    return "".join(seats[s] for s in sorted(members))


def side_names(players: int) -> tuple[str, ...]:
    """The names of the sides at the start of a hand (:func:`initial_sides`)."""
    if players == 4:
        return SIDES_4
    if players == 2:
        return SIDES_2
    seats = seat_names(players)
    return tuple(side_name(seats, m) for m in initial_sides(players))


def seat_sides(sides: tuple[tuple[int, ...], ...], players: int) -> tuple[int, ...]:
    """Each seat's side (its index in ``sides``, the sides as tuples of seats)."""
    out = [0] * players
    for k, members in enumerate(sides):
        for m in members:
            out[m] = k
    return tuple(out)


def pairs_after(solo: int, players: int) -> tuple[tuple[int, ...], ...]:
    """The pairs formed when seat ``solo`` goes out first (RULES.md §14.3–§14.4): the others in seat order after
    him form pairs of alternating seats — with 3 players the other two, with 5 the 2nd and 4th, the 3rd and 5th
    counting the solo as the 1st."""
    others = [(solo + k) % players for k in range(1, players)]
    h = len(others) // 2
    return tuple(tuple(sorted((others[i], others[i + h]))) for i in range(h))



def scorer_names(rules: Rules) -> tuple[str, ...]:
    """Who keeps a match total: the sides with 2, 4 and 6 players, every player with 3 and 5 (his own hands, his
    half of a pair's, RULES.md §14.3–§14.4)."""
    if rules.players in (3, 5):
        return seat_names(rules.players)
    return side_names(rules.players)


__all__ = [
    "SEATS_2", "SEATS_4", "SEATS_ABC", "SIDES_2", "SIDES_4", "initial_sides", "pairs_after", "scorer_names",
    "seat_names", "seat_sides", "side_name", "side_names",
]

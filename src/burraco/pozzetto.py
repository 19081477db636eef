"""The pozzetto (RULES.md §7): which one a side takes on emptying its hand, taking it (in diretta or with the
discard), the morto that becomes the stock, a pozzetto taken with the discard that does not count as taken yet, and
the pairs that 3 and 5 players form when the first of them goes out (RULES.md §14.3–§14.4)."""

from __future__ import annotations

from .cards import NUM_TYPES
from .melds import Meld
from .seats import pairs_after, seat_sides, side_name
from .state import HandState


class Pozzetti(HandState):
    """The pozzetti of a hand: a part of :class:`~burraco.game.Game`."""

    def _pozzetto_for(self, side: int, made: Meld | None = None) -> int:
        """Index of the pozzetto this side would take on emptying its hand now, or -1 if none is due. ``made``: the
        meld (new or attached to) that empties the hand, already counted as on the table: with 6 players a burraco
        it makes lets the pair take its pozzetto, as the player melds first and then takes it (RULES.md §14.4, §7.2)."""
        if (
            self.rules.pozzetto_requires_burraco
            and not self._has_burraco(side, False)
            and (made is None or made.burraco is None)
        ):
            return -1
        taken = self.poz_taken[side]
        if taken == 0:
            for i, p in enumerate(self.pozzetti):
                if p is not None and not (self.rules.three_morto and i == 2):
                    return i
            return -1
        if (
            self.rules.three_morto
            and taken == 1
            and len(self.poz_order) == 2
            and self.poz_order[1] == side
            and self.pozzetti[2] is not None
        ):
            return 2
        return -1

    def _take_pozzetto(self, seat: int, side: int, i: int, direct: bool) -> None:
        if self.rules.solo_pair and self.solo < 0:
            self._form_pairs(seat)
            side = self.side_of_seat[seat]
        p = self.pozzetti[i]
        assert p is not None
        self.pozzetti[i] = None
        if self.poz_taken[side] == 0:
            self.poz_order.append(side)
            self.poz_by[side] = seat
        self.poz_taken[side] += 1
        h = self.hands[seat]
        for c in p:
            h[c] += 1
        self.hand_n[seat] += len(p)
        if not direct:
            self.poz_pending[seat] = True
            if len(self.side_seats[side]) > 1:  # seen after the partner's next discard (§0.1 C-22); alone: at once
                hid = [0] * NUM_TYPES
                for c in p:
                    hid[c] += 1
                self.hidden[seat] = hid

    def _form_pairs(self, solo: int) -> None:
        """3 and 5 players: ``solo`` went out first; he plays solo and the others form pairs (RULES.md §14.3–§14.4).
        A pair's melds become one side's: its first seat's melds (in seat order) keep their numbers, its partner's
        follow in their order."""
        old = self.side_of_seat
        groups = tuple(sorted([(solo,), *pairs_after(solo, self.n)]))
        melds: list[list[Meld]] = []
        taken: list[int] = []
        by: list[int] = []
        for members in groups:
            ms: list[Meld] = []
            for m in members:
                ms += self.melds[old[m]]
            melds.append(ms)
            taken.append(sum(self.poz_taken[old[m]] for m in members))
            by.append(next((self.poz_by[old[m]] for m in members if self.poz_by[old[m]] >= 0), -1))
        self.side_seats = groups
        self.side_of_seat = seat_sides(groups, self.n)
        self.sides = tuple(side_name(self.seats, g) for g in groups)
        self.melds = melds
        self.poz_taken = taken
        self.poz_by = by
        self.poz_order = [self.side_of_seat[old.index(s)] for s in self.poz_order]
        self._meldkeys = [None] * len(groups)
        self.solo = solo

    def _morto_to_stock(self) -> None:
        for i, p in enumerate(self.pozzetti):
            if p is not None:
                self.stock = list(reversed(p))
                self.pozzetti[i] = None
                return
        raise AssertionError("no stock and no morto")  # unreachable: the hand ends at the turn start

    def _unreached_morto(self, side: int) -> int:
        """The seat of ``side`` holding a pozzetto taken with the discard that does not count as taken yet (its
        owner's next turn has not started and the rules count such a pozzetto as not taken at scoring: Brazilian),
        or -1. While there is one the side may not go out (§0.1 C-22, decision of 2026-12-01)."""
        if self.rules.indirect_pozzetto_counts_if_unplayed:
            return -1
        for s in range(self.n):
            if self.poz_pending[s] and self.side_of(s) == side:
                return s
        return -1

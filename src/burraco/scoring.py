"""The scores of a hand (RULES.md §10, RECORDS.md §5): each side's melds, bonuses, closing, cards left in hand and
pozzetto, what each seat's match total gets, and with 3 and 5 players each player's share of his side's score
(RULES.md §14.3)."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import NUM_TYPES
from .melds import CLEAN, Meld, burraco_bonus, meld_points
from .state import HandState


def split_share(total: int, members: int, rounding: str = "up") -> int:
    """Each player's share of a side's hand score (RULES.md §14.3): the whole score alone; a pair's halves rounded
    up (``"up"``: 305 -> 153, -305 -> -152) or down (``"down"``: 305 -> 152, -305 -> -153)."""
    if members == 1:
        return total
    return -(-total // members) if rounding == "up" else total // members


def player_shares(totals: Sequence[int], seat_side: Sequence[int], rounding: str = "up") -> list[int]:
    """Per seat, his share (:func:`split_share`) of his side's total, the sides' ``totals`` indexed as
    ``seat_side`` gives each seat's side."""
    members = [0] * len(totals)
    for k in seat_side:
        members[k] += 1
    return [split_share(totals[k], members[k], rounding) for k in seat_side]


class Scoring(HandState):
    """The scores of a hand: a part of :class:`~burraco.game.Game`."""

    def scores(self) -> dict[str, dict[str, int]] | None:
        """The score breakdown of RECORDS.md §5 per side once the hand has ended, else None."""
        if self.end is None:
            return None
        return {self.sides[s]: self.side_score(s) for s in range(len(self.sides))}

    def side_score(self, side: int) -> dict[str, int]:
        """Melds, bonuses, closing, hand, pozzetto and total of one side as things stand (§10.1)."""
        r = self.rules
        vals = self._values
        melds = 0
        bonuses = 0
        clean = False
        for m in self.melds[side]:
            melds += meld_points(m, vals)
            bonuses += self._bonus(m)
            if m.burraco == CLEAN:
                clean = True
        if r.no_canastra_penalty and not clean:
            melds = -melds
        closing = (
            r.closing_bonus
            if self.end == "closed" and self.closed_by >= 0 and self.side_of(self.closed_by) == side
            else 0
        )
        hand = 0
        uncounted = False
        for s in self.side_seats[side]:
            if self.poz_pending[s] and not r.indirect_pozzetto_counts_if_unplayed:
                uncounted = True
                continue  # a pozzetto taken with the discard, not yet played: its cards are ignored
            h = self.hands[s]
            hand -= sum(vals[c] * h[c] for c in range(NUM_TYPES) if h[c])
        taken = self.poz_taken[side] > 0 and not uncounted
        pozz = 0 if taken else -r.pozzetto_penalty
        total = melds + bonuses + closing + hand + pozz
        return {
            "melds": melds,
            "bonuses": bonuses,
            "closing": closing,
            "hand": hand,
            "pozzetto": pozz,
            "total": total,
        }

    def _bonus(self, m: Meld) -> int:
        return burraco_bonus(m, self.rules)

    def returns(self) -> list[int]:
        """Per seat: its side's hand total (0 for everybody while the hand is running); with 3 and 5 players a
        pair's players get their half (:meth:`player_points`)."""
        if self.end is None:
            return [0] * self.n
        if self.rules.players in (3, 5):
            return self.player_points()
        sc = self.scores()
        assert sc is not None
        return [sc[self.sides[self.side_of(s)]]["total"] for s in range(self.n)]

    def player_points(self) -> list[int]:
        """Per seat, what the hand adds to his match total with 3 and 5 players: the solo's whole score, each
        half of a pair's score (rounded as ``pair_split_rounding`` says, RULES.md §14.3), a player alone his own."""
        if self.end is None:
            return [0] * self.n
        totals = [self.side_score(k)["total"] for k in range(len(self.side_seats))]
        return player_shares(totals, self.side_of_seat, self.rules.pair_split_rounding)

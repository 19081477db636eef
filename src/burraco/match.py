"""Matches: hands in a row with the deal rotating clockwise, to a target (§11) or a fixed number of hands with VP
(§12).

>>> from burraco import Game, Match, preset
>>> m = Match(preset("italian-tournament"), seed=5)
>>> g = m.start_hand()
>>> m.hand_dealer(0), m.hand_dealer(1)
(3, 0)

With a seed, hand ``i`` is dealt from its own source derived from ``(seed, i)`` (hand 0 from the seed itself, as
``Game.new(rules, seed)`` deals), never from a random state carried from hand to hand. So a match rebuilt from its
record and the seed deals the hands that follow exactly as the unbroken match would have:

>>> m.deal_for_hand(1) == Match(preset("italian-tournament"), seed=5).deal_for_hand(1)
True
>>> m.deal_for_hand(0) == Game.new(preset("italian-tournament"), seed=5).deal
True
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from typing import Any

from .actions import Action, IllegalActionError
from .deal import Deal, deal_from_seed, deal_physical, draw_for_dealer
from .game import Game
from .game import core_served as core_served_game
from .messages import msg
from .rules import Rules, rules_to_json, victory_points
from .seats import scorer_names, seat_names, side_names
from .takeback import without_last
from .view import View


def hand_points(g: Game) -> list[int]:
    """What a finished hand adds to each match total (:func:`scorer_names`)."""
    if g.rules.players in (3, 5):
        return g.player_points()
    sc = g.scores()
    assert sc is not None
    return [sc[name]["total"] for name in side_names(g.rules.players)]


class Match:
    """A sequence of hands between the sides (or, with 3 and 5 players, the players). ``dealer`` deals the first
    hand (default: the last seat)."""

    def __init__(
        self,
        rules: Rules,
        dealer: int | None = None,
        seed: int | None = None,
        *,
        draw_dealer: bool = False,
        physical_deal: bool = False,
    ) -> None:
        """``draw_dealer``: choose the first dealer by the draw of §2.2 (unless ``dealer`` is given);
        ``physical_deal``: deal every hand by the cut-and-deal procedure of §2.3 instead of a uniform shuffle
        (the same distribution; the order of the stock follows the physical procedure)."""
        self.rules = rules
        self.n = rules.players
        self.seats = seat_names(self.n)
        #: who keeps a total (:func:`scorer_names`): the sides, or the players with 3 and 5
        self.sides = scorer_names(rules)
        #: with 3 and 5 players: the first hand played individually (a total reached ``individual_from``)
        self.individual_since: int | None = None
        #: the seed every hand is dealt from (None: fresh OS randomness for every hand)
        self.seed = seed
        self.dealer_draw: list[tuple[int, int]] = []
        if dealer is None and draw_dealer:
            dealer, self.dealer_draw = draw_for_dealer(rules, self._source("dealer"))
        self.dealer = self.n - 1 if dealer is None else dealer
        self.physical_deal = physical_deal
        self.games: list[Game] = []
        self.totals = [0] * len(self.sides)
        self._scored = 0  # hands whose score is in the totals
        self._view_totals: tuple[tuple[int, int], tuple[int, ...]] | None = None  # for view(): (key, totals)

    # ----- hands --------------------------------------------------------------------------------------------------
    def _source(self, *parts: object) -> random.Random:
        """A random source for ``parts`` of this match: derived from the seed (the same on every machine and Python
        version), or fresh from the OS when the match has no seed."""
        if self.seed is None:
            return random.Random()  # seeded from os.urandom
        if parts == (0,):
            return random.Random(self.seed)  # hand 0: as Game.new(rules, seed) deals
        text = repr(("burraco.match", self.seed, *parts)).encode()
        return random.Random(int.from_bytes(hashlib.blake2b(text, digest_size=16).digest(), "big"))

    def deal_for_hand(self, i: int) -> Deal:
        """The deal of hand ``i`` (0-based) when it is dealt by the match: from a source derived from
        ``(seed, i)`` alone, so the same for every call and for a match rebuilt from its record with the same seed
        (without a seed, a fresh random deal on every call). ``physical_deal`` matches cut and deal (§2.3)."""
        if i < 0:
            raise ValueError(f"hand {i}: hands are numbered from 0")
        rng = self._source(i)
        rules = self.rules_for_hand(i)
        if self.physical_deal:
            return deal_physical(rules, rng, self.hand_dealer(i))
        return deal_from_seed(rules, rng)

    def rules_for_hand(self, i: int) -> Rules:
        """The rules hand ``i`` is played by: the match's, but from the hand after a player's total reached
        ``individual_from`` (3 and 5 players) every player plays alone with his own 11-card pozzetto (§14.3)."""
        if self.individual_since is not None and i >= self.individual_since and self.rules.solo_pair:
            return dataclasses.replace(self.rules, solo_pair=False)
        return self.rules

    def hand_dealer(self, i: int) -> int:
        """The seat that deals hand ``i`` (0-based): the deal rotates clockwise (§2.2.5)."""
        return (self.dealer + i * self.rules.direction) % self.n

    @property
    def game(self) -> Game:
        """The current (last started) hand."""
        return self.games[-1]

    def start_hand(self, deal: Deal | None = None, *, core_served: bool = False) -> Game:
        """Deal the next hand (:meth:`deal_for_hand` unless a deal is given). ``core_served``: the hand as a game the
        native core alone serves where it serves the rules (:func:`burraco.game.core_served`: its Python fields
        made when one is first read)."""
        if self.is_over:
            raise IllegalActionError(msg("match_over"))
        if self.games and not self.games[-1].is_over:
            raise IllegalActionError(msg("hand_not_ended"))
        dealer = self.hand_dealer(len(self.games))
        rules = self.rules_for_hand(len(self.games))
        if deal is None:
            deal = self.deal_for_hand(len(self.games))
            g = Game(rules, deal, (dealer + rules.direction) % self.n, check=False)
        else:
            g = Game.from_deal(rules, deal, dealer)
        if core_served:
            g = core_served_game(g)
        self.games.append(g)
        return g

    def take_back(self) -> Game:
        """Take back the current hand's last action (:mod:`burraco.takeback` says which may be): the hand is rebuilt
        from its deal and the actions before it, and replaces the current one, which is returned."""
        g = without_last(self.game)
        self.games[-1] = g
        return g

    def apply(self, action: Action | str) -> None:
        """Apply an action to the current hand; the totals update when the hand ends."""
        self.game.apply(action)
        self._score_finished()

    def _score_finished(self) -> None:
        while self._scored < len(self.games) and self.games[self._scored].is_over:
            for s, pts in enumerate(hand_points(self.games[self._scored])):
                self.totals[s] += pts
            self._scored += 1
            limit = self.rules.individual_from
            if self.individual_since is None and limit is not None and max(self.totals) >= limit:
                self.individual_since = self._scored  # irreversible (§14.3)

    # ----- the end of the match -------------------------------------------------------------------------------
    @property
    def hands_finished(self) -> int:
        self._score_finished()
        return self._scored

    @property
    def timed_out(self) -> bool:
        """True when a hand in which the time-out was called has ended: the match ends with it, whatever number of
        hands it was set for (RULES.md §0.1 "The time-out ends the match", §9.4)."""
        done = self.hands_finished
        return any(g.timeout_called for g in self.games[:done])

    @property
    def is_over(self) -> bool:
        """True when the match has ended (§11, §12, §0.1 "Match end"; a time-out ends it with its hand)."""
        r = self.rules
        done = self.hands_finished
        if done == 0 or (self.games and not self.games[-1].is_over):
            return False
        if self.timed_out:
            return True
        if r.hands_per_match is not None and done >= r.hands_per_match:
            return True
        top = max(self.totals)
        if r.target is not None and top >= r.target:
            if r.hands_per_match is not None:
                return True
            return self.totals.count(top) == 1  # an exact tie at or above the target: another hand (§11.3)
        return False

    def vp(self) -> tuple[int, int] | None:
        """Victory Points per side once a match with a VP table has ended."""
        rows = self.rules.vp_table_rows()
        if rows is None or not self.is_over or self.rules.hands_per_match is None or len(self.totals) != 2:
            return None
        d = self.totals[0] - self.totals[1]
        w, lo = victory_points(rows, d)
        return (w, lo) if d >= 0 else (lo, w)

    def winner(self) -> int | None:
        """The winning side (0 or 1), or None while running or on a draw."""
        if not self.is_over:
            return None
        vp = self.vp()
        if vp is not None:
            if vp[0] == vp[1]:
                return None
            return 0 if vp[0] > vp[1] else 1
        top = max(self.totals)
        if self.totals.count(top) > 1:
            return None
        return self.totals.index(top)

    def view(self, seat: int) -> View:
        """The current hand's view for ``seat`` with the match totals (RULES.md §0.1: a view holds the scores)."""
        self._score_finished()
        key = (len(self.games), self._scored)
        if self._view_totals is None or self._view_totals[0] != key:
            done = [g for g in self.games[: self._scored] if g is not self.games[-1]]
            totals = [0] * len(self.sides)
            for g in done:
                for s, pts in enumerate(hand_points(g)):
                    totals[s] += pts
            self._view_totals = (key, tuple(totals))
        v = self.game.view(seat)
        # a fresh view: fill its field in place (dataclasses.replace would rebuild all forty fields)
        v.__dict__["match_totals"] = self._view_totals[1]
        return v

    # ----- output -------------------------------------------------------------------------------------------------
    def to_record(self) -> dict[str, Any]:
        """The match as a record (RECORDS.md §3)."""
        hands = []
        for g in self.games:
            assert g.deal is not None  # the match's games are dealt, never determinized
            hands.append({"deal": g.deal.to_json(self.seats), "actions": [str(a) for a in g.actions]})
        return {
            "format": "burraco-record/1",
            "rules": rules_to_json(self.rules),
            "dealer": self.seats[self.dealer],
            "hands": hands,
        }

    def summary_json(self) -> dict[str, Any]:
        """``totals``, ``winner`` and ``vp`` as the replay output writes them."""
        vp = self.vp()
        w = self.winner()
        return {
            "totals": {self.sides[s]: self.totals[s] for s in range(len(self.sides))},
            "winner": None if w is None else self.sides[w],
            "vp": None if vp is None else {self.sides[0]: vp[0], self.sides[1]: vp[1]},
        }

    def __repr__(self) -> str:
        score = " - ".join(f"{s} {t}" for s, t in zip(self.sides, self.totals, strict=True))
        return f"<Match {self.rules.name} hands={len(self.games)} {score}>"


__all__ = ["Match", "hand_points", "scorer_names", "seat_names", "side_names"]

"""A rule-based player that plays the way good club players describe it (RULES.md sources, the seeds' tips).

Every legal action gets a transparent score from the seat's :class:`~burraco.view.View` only; the best one is
played (ties broken by the player's own seeded random source, over the actions in a canonical order).

* **Draw phase** — the pile is taken when it is worth more than a stock card: each pile card is rated by what it
  does with the hand and the side's melds (a wild, an attachment, a pair for a set, a same-suit neighbour within two
  ranks), useless cards cost their points (more when the opponents can close soon); while a long hand lies ahead
  and no opponent is near the pozzetto, every pile card is worth more (more cards make more melds and burraco).
* **Play phase** — melds and attachments are rated by the points they lay down and the progress toward a burraco
  (convex in the meld's length, a clean meld worth twice a dirty one, so long clean sequences are preferred); a wild
  is kept back unless it completes a burraco or the hand is nearly empty (not where only sequences exist: natural
  burraco are rare there); emptying the hand to take the pozzetto is
  rewarded; the side closes when it can, unless it is behind and nobody threatens to close.
* **Discard** — the card least worth keeping: wilds, pairs and near-sequences are kept, isolated high cards go
  early; cards the next opponent was seen to pick up (same rank, same suit nearby) and cards that feed his side's
  melds (``_Ctx.feeds``: most when one completes a burraco, more on a big pile, less for a rank he was seen to
  discard) are avoided; the last card kept for closing is never a lone wild.
* **The partner's runs** — a wild put on a clean meld of the side (the partner's as one's own) that stays short of a
  burraco pays for the clean burraco it may no longer become (``_Ctx.dirty_cost``), unless the hand is nearly
  empty or the opponents can close at any moment.

Levels make human mistakes on purpose: ``easy`` melds greedily (wilds included), takes the pile whenever its top
card fits and never thinks about what it feeds the opponents or what a wild does to a clean run; ``medium`` keeps
wilds back a little, watches the cards the next opponent picked up and what its discards feed his melds, keeps the
side's clean runs clean, and values the pile by its cards' uses alone; and it errs like a club player: it does not
tell apart the moves within :data:`CLUB_MARGIN` points of the best and plays one of them at random (issue 22,
levels for people); ``hard`` does everything above and plays the best move (ties drawn at random).
``HeuristicPlayer(level, safety=False)`` plays as before the partner's safety (issue 22: no ``_Ctx.feeds``, no
``_Ctx.dirty_cost``, ``medium`` blind to the opponents' melds), for benchmarks/partner_safety.py only; the
native core (src/native/heuristic.c) plays the default, identically.
"""

from __future__ import annotations

import random

from ..actions import ADD, DISCARD, DRAW, MELD, PICK, SWAP, Action
from ..cards import JOKER, NUM_TYPES, same_suit_near
from ..melds import CLEAN, SEQUENCE, SET, Meld, MeldError, MeldRules, burraco_bonus, meld_rules
from ..rules import BurracoNeeded
from ..view import View

LEVELS = ("easy", "medium", "hard")
#: how close to the best score two moves must be for the player to count them as ties (float noise only)
TIE = 1e-9
#: ``medium`` errs like a club player (issue 22, levels for people): it does not tell apart the moves whose score is
#: within this many points of the best and plays one of them at random, from its own generator (tuned in duplicate
#: play: ``hard`` about 170 points a deal above it, ``easy`` about as far below; docs/strength.md). What the partner's
#: safety prices dearly lies beyond it: a discard that brings the next opponent's meld within a card of a burraco
#: or completes one (60 and more, ``_Ctx.feeds``), a wild that dirties a clean run of the side (20 and more,
#: ``_Ctx.dirty_cost``).
CLUB_MARGIN = 14.0
#: what a stock card is worth on average, in the units of the pile rating (tuned in duplicate play)
PICK_BASE = 30.0


def is_wild(c: int) -> bool:
    return c == JOKER or c % 13 == 1


# per card type: same-suit naturals one and two ranks away (2s excluded: they are wilds), and every same-suit card
# within two ranks (for what a seen pick-up suggests)
_NEAR1 = tuple(same_suit_near(c, 1, True) for c in range(NUM_TYPES))
_NEAR2 = tuple(same_suit_near(c, 2, True) for c in range(NUM_TYPES))
_NEAR_ANY = tuple(same_suit_near(c, -2, False) for c in range(NUM_TYPES))


class _Ctx:
    """What one decision needs, computed once from the view."""

    def __init__(self, view: View, level: str, safety: bool = True) -> None:
        r = view.rules
        self.view = view
        self.rules = r
        self.level = level
        #: the partner's safety (issue 22): :meth:`feeds` and :meth:`dirty_cost` from ``medium`` up
        self.safety = safety and level != "easy"
        self.values = r.card_values()
        self.mr: MeldRules = meld_rules(r)
        self.side = view.side_of(view.seat)
        #: the other sides (one with 2 and 4 players; two or more with 3, 5 and 6, partners by the view's sides)
        self.opps = [k for k in range(len(view.melds)) if k != self.side]
        self.own: tuple[Meld, ...] = view.melds[self.side]
        self.hand = view.hand
        self.counts = [0] * NUM_TYPES
        for c in view.hand:
            self.counts[c] += 1
        self.n_hand = len(view.hand) + view.hidden_pozzetto
        n = r.players
        # the next opponent to play (with 3 and 5 players the next seat may be the partner)
        nxt = (view.seat + r.direction) % n
        while view.side_of(nxt) == self.side and nxt != view.seat:
            nxt = (nxt + r.direction) % n
        self.next_seat = nxt
        # the melds a discard could feed: those of the next opponent to play, who can take the pile first (with two
        # sides, the opponents' melds)
        self.their: tuple[Meld, ...] = view.melds[view.side_of(nxt)]
        # the ranks the next opponent was seen to discard: since the last pick-up every turn ended with a discard,
        # so the visible pile's card k from the top came from the seat k + 1 turns back
        self.next_discards = 0
        j0 = ((view.seat - nxt) * r.direction) % n
        if j0:
            pile = view.pile
            for k in range(j0 - 1, len(pile), n):
                c = pile[-1 - k]
                if c != JOKER:
                    self.next_discards |= 1 << (c % 13)
        self.need_clean = r.closing_burraco is BurracoNeeded.CLEAN
        self.own_poz = view.poz_taken[self.side] > 0
        self.poz_left = any(view.pozzetti)
        self.own_can_close = self.own_poz and self._has_burraco(self.own)
        self.opp_threat = any(view.poz_taken[k] > 0 and self._has_burraco(view.melds[k]) for k in self.opps)
        opp_seats = [s for s in range(n) if view.side_of(s) != self.side]
        self.opp_short = min(view.hand_sizes[s] for s in opp_seats) <= 3
        self.late = self.opp_threat or view.stock_size < 12
        # the single cards each meld accepts (bit c set: card c can be attached)
        self._own_singles = [(self.mr.singles(m), m) for m in self.own]
        self._their_singles: list[tuple[int, Meld]] | None = None

    # ----- table knowledge ------------------------------------------------------------------------------------
    def _has_burraco(self, melds: tuple[Meld, ...]) -> bool:
        return any(m.burraco is not None and (not self.need_clean or m.burraco == CLEAN) for m in melds)

    def bonus(self, m: Meld) -> int:
        return burraco_bonus(m, self.rules)

    def potential(self, m: Meld) -> float:
        """A meld's worth: its bonus once a burraco, else the expected bonus times the progress toward one."""
        if m.burraco is not None:
            b = float(self.bonus(m))
            if m.burraco == CLEAN:
                b += 40.0  # a clean burraco lets the side close in every preset
            return b + 5.0 * (m.size - self.rules.burraco_min_len)
        expect = float(self.rules.bonus_clean if m.wild < 0 else self.rules.bonus_dirty)
        if m.kind == SET:
            expect *= 0.8  # only eight naturals of a rank exist
        frac = m.size / self.rules.burraco_min_len
        return expect * frac * frac * 0.6

    def fits(self, c: int, melds: tuple[Meld, ...]) -> Meld | None:
        """The first meld of ``melds`` that card ``c`` can be attached to, or None."""
        bit = 1 << c
        masks = self._own_singles if melds is self.own else self._singles_of(melds)
        for mask, m in masks:
            if mask & bit:
                return m
        return None

    def _singles_of(self, melds: tuple[Meld, ...]) -> list[tuple[int, Meld]]:
        if melds is self.their:
            if self._their_singles is None:
                self._their_singles = [(self.mr.singles(m), m) for m in melds]
            return self._their_singles
        return [(self.mr.singles(m), m) for m in melds]

    def use(self, c: int, counts: list[int]) -> float:
        """How much card ``c`` does with the cards ``counts`` (``c`` itself not counted) and the side's melds."""
        if is_wild(c):
            return 25.0
        u = 0.0
        m = self.fits(c, self.own)
        if m is not None:
            u += 15.0 + (10.0 if m.size >= 5 and m.size < self.rules.burraco_min_len else 0.0)
        rank = c % 13
        if rank + 1 in self.rules.allowed_set_ranks:
            same = counts[rank] + counts[rank + 13] + counts[rank + 26] + counts[rank + 39]
            u += 8.0 * min(same, 2)
        near = 7.0 * sum(1 for x in _NEAR1[c] if counts[x]) + 4.0 * sum(1 for x in _NEAR2[c] if counts[x])
        return u + min(near, 16.0)

    def danger(self, c: int) -> float:
        """How much discarding ``c`` would help the opponents (medium: known cards only; hard: melds too)."""
        if self.level == "easy":
            return 0.0
        d = 0.0
        if is_wild(c):
            d += 40.0
        kn = self.view.known[self.next_seat]
        if any(kn):
            if kn[c]:
                d += 30.0
            rank = c % 13 + 1
            if rank in self.rules.allowed_set_ranks and any(kn[rank - 1 + 13 * s] for s in range(4)):
                d += 25.0
            elif c != JOKER and any(kn[x] for x in _NEAR_ANY[c]):
                d += 15.0
        if self.safety:
            d += self.feeds(c)
        elif self.level == "hard" and not is_wild(c):
            m = self.fits(c, self.their)
            if m is not None:
                d += 30.0 + (40.0 if m.size >= 5 else 0.0)
        return d

    def feeds(self, c: int) -> float:
        """What a natural ``c`` on the pile hands the next opponent's side: the best of their melds it attaches
        to (most when it completes a burraco, more when it brings one within a card), more on a big pile (the
        taker gets it all); less when that opponent was seen to discard its rank (he rarely wants it)."""
        if is_wild(c):
            return 0.0  # a wild's danger is counted apart (every meld takes it)
        r = self.rules
        bit = 1 << c
        f = 0.0
        for mask, m in self._singles_of(self.their):
            if not mask & bit:
                continue
            if m.burraco is not None:
                w = 20.0
            else:
                gap = r.burraco_min_len - m.size
                bonus = float(r.bonus_clean if m.wild < 0 else r.bonus_dirty)
                w = 40.0 + 0.5 * bonus if gap <= 1 else (30.0 + 0.2 * bonus if gap == 2 else 30.0)
            f = max(f, w)
        if f > 0.0:
            f *= 1.0 + min(self.view.pile_size, 20) / 20.0
        if self.next_discards >> (c % 13) & 1:
            f = max(0.0, f - 15.0)
        return f

    def dirty_cost(self, before: Meld | None, after: Meld, left: int) -> float:
        """A wild put on a clean meld of the side (the partner's or one's own) that stays short of a burraco: the
        clean burraco it may no longer become; none when the wild completes a burraco, when the hand is nearly
        empty (to go out or to close) or when the opponents can close at any moment."""
        if not self.safety or before is None or before.wild >= 0 or after.wild < 0 or after.burraco is not None:
            return 0.0
        if left <= 2 or (self.opp_threat and self.opp_short):
            return 0.0
        r = self.rules
        frac = min(1.0, before.size / r.burraco_min_len)
        return 20.0 + 0.5 * (r.bonus_clean - r.bonus_dirty) * frac

    def score_diff(self) -> float:
        """A rough estimate of the hand's score difference (own side minus the best of the others) as things
        stand."""
        own = self._side_points(self.side)
        return own - max(self._side_points(k) for k in self.opps)

    def _side_points(self, side: int) -> float:
        v = self.view
        vals = self.values
        pts = float(sum(sum(vals[c] for c in m.cards) + self.bonus(m) for m in v.melds[side]))
        if v.poz_taken[side] == 0:
            pts -= self.rules.pozzetto_penalty
        for s in range(self.rules.players):
            if v.side_of(s) == side:
                if s == v.seat:
                    pts -= sum(vals[c] for c in v.hand)
                else:
                    pts -= 8.0 * v.hand_sizes[s]
        return pts


class HeuristicPlayer:
    """Rule-based player; ``level`` is ``easy``, ``medium`` or ``hard``."""

    def __init__(
        self, level: str = "hard", seed: int | None = None, *, safety: bool = True, margin: float | None = None
    ) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r} (levels are {', '.join(LEVELS)})")
        self.level = level
        #: False: the play before the partner's safety (issue 22), kept for benchmarks/partner_safety.py only (the
        #: native core plays the default)
        self.safety = safety
        #: the moves within this many points of the best score are played at random (the level's own:
        #: :data:`CLUB_MARGIN` for ``medium``, :data:`TIE` for the others and for the play before the partner's
        #: safety); another value is for benchmarks/levels.py only (the native core plays the level's own)
        self.margin = (CLUB_MARGIN if level == "medium" and safety else TIE) if margin is None else float(margin)
        self.name = f"heuristic:{level}" + ("" if safety else ":control")
        if margin is not None:
            self.name += f":margin={self.margin:g}"
        self.rng = random.Random(seed)

    # ------------------------------------------------------------------------------------------------------------
    def choose(self, view: View, legal: list[Action]) -> Action:
        return self.choose_scored(view, legal)[0]

    def choose_scored(self, view: View, legal: list[Action]) -> tuple[Action, list[float]]:
        """The action :meth:`choose` plays (the same choice, the same draws of the player's random source) and
        the score of every legal action, in the order of ``legal`` (a single legal action: its score is 0; for
        learners that imitate the heuristic's preferences, ``examples/train_bc.py``).

        The choice: the actions scored within :attr:`margin` of the best (:meth:`near_best`), one drawn at random
        when there are several -- ties for ``easy`` and ``hard``, every move within :data:`CLUB_MARGIN` points for
        ``medium``."""
        if len(legal) == 1:
            return legal[0], [0.0]
        ctx = _Ctx(view, self.level, self.safety)
        values = [self.evaluate(ctx, a) for a in legal]
        near = self.near_best(values, legal)
        return (near[0] if len(near) == 1 else near[self.rng.randrange(len(near))]), values

    def near_best(self, values: list[float], legal: list[Action]) -> list[Action]:
        """The actions of ``legal`` (scored ``values``) that the player may play: those within :attr:`margin` of
        the best score, in the canonical order of actions (the draw picks an index into this list)."""
        best = max(values)
        return sorted(a for s, a in zip(values, legal, strict=True) if s >= best - self.margin)

    def scores(self, view: View, legal: list[Action]) -> list[tuple[float, Action]]:
        """Every legal action with its score, best first (for hints and debugging)."""
        ctx = _Ctx(view, self.level, self.safety)
        return sorted(((self.evaluate(ctx, a), a) for a in legal), key=lambda t: -t[0])

    def evaluate(self, ctx: _Ctx, a: Action) -> float:
        verb = a.verb
        if verb == DRAW:
            return 0.0
        if verb == PICK:
            return self._pick_value(ctx)
        if verb in (MELD, ADD):
            # a meld is played only when it is worth something; otherwise the turn ends with a discard
            m = self._meld_value(ctx, a)
            return m if m > 0 else m - 5000.0
        if verb == DISCARD:
            if ctx.n_hand == 1:
                return 500.0  # the closing discard or the indirect pozzetto: the only way on
            return self._discard_value(ctx, a.cards[0]) - 1000.0
        if verb == SWAP:
            return 60.0  # a wild back to hand, the burraco cleaner: almost always worth it
        return -1000.0  # redraw and anything else: only when nothing else is legal

    # ----- draw phase -----------------------------------------------------------------------------------------
    def _pick_value(self, ctx: _Ctx) -> float:
        v = ctx.view
        pile = v.pile
        if not pile:
            return -1.0
        if self.level == "easy":
            # takes the pile whenever its top card fits somewhere, whatever comes with it
            return 1.0 if ctx.use(pile[-1], ctx.counts) >= 8.0 else -1.0
        late_w = 1.0 if (self.level == "hard" and ctx.late) else 0.35
        total = 0.0
        with_pile = list(ctx.counts)
        for c in pile:
            with_pile[c] += 1
        for c in pile:
            with_pile[c] -= 1  # each pile card rated with the hand and the rest of the pile
            u = ctx.use(c, with_pile)
            with_pile[c] += 1
            if u > 0:
                total += u + 0.3 * ctx.values[c]
            else:
                total -= 3.0 + late_w * ctx.values[c]
        hidden = v.pile_size - len(pile)
        total += hidden * (-4.0 if ctx.late and self.level == "hard" else 1.5)
        if self.level == "hard" and ctx.opp_threat and ctx.opp_short:
            total -= 4.0 * v.pile_size  # they can close at any moment: no big hands now
        if self.level == "hard" and not ctx.late and v.stock_size > 10 and not any(v.poz_taken[k] for k in ctx.opps):
            # a long hand ahead: more cards are more melds and burraco (random pile-takers show how much); less so
            # when an opponent is about to reach the pozzetto (closing is not far then)
            ahead = min(1.0, (v.stock_size - 10) / 25.0) * (0.0 if ctx.opp_short else 1.0)
            total += 14.0 * len(pile) * ahead
        return total - PICK_BASE

    # ----- melds and attachments ------------------------------------------------------------------------------
    def _meld_value(self, ctx: _Ctx, a: Action) -> float:
        before: Meld | None = None
        try:
            if a.verb == MELD:
                after = ctx.mr.make(a.cards)
            else:
                before = ctx.own[a.meld - 1]
                after = ctx.mr.attach(before, a.cards)
        except (MeldError, IndexError):
            return -1.0
        vals = ctx.values
        left = ctx.n_hand - len(a.cards)
        laid = float(sum(vals[c] for c in a.cards))
        if self.level == "easy":
            return 10.0 + laid + after.size  # greedy: lay down whatever can be laid down
        gain = laid * (1.0 if ctx.late else 0.6)
        gain += ctx.potential(after) - (ctx.potential(before) if before is not None else 0.0)
        new_wild = after.wild >= 0 and (before is None or before.wild < 0)
        if new_wild and after.burraco is None and left > 2:
            # hold a wild back for a burraco; not for long where only sequences exist (natural ones are rare)
            hold = 45.0 if self.level == "hard" else 25.0
            gain -= hold if ctx.rules.allowed_set_ranks else 0.0
        if new_wild and after.burraco is not None and before is not None and before.burraco == CLEAN:
            gain -= 60.0  # never dirty a clean burraco for nothing
        gain -= ctx.dirty_cost(before, after, left)
        if left == 0 and not ctx.own_poz and ctx.poz_left:
            gain += 80.0  # to the pozzetto in diretta
        elif left == 1 and not ctx.own_poz and ctx.poz_left:
            gain += 30.0  # the next discard takes the pozzetto
        if left == 1 and ctx.own_can_close and self.level == "hard" and not self._want_close(ctx):
            gain -= 150.0
        if after.kind == SEQUENCE and after.wild < 0:
            gain += 2.0  # clean sequences grow best
        return gain

    def _want_close(self, ctx: _Ctx) -> bool:
        return ctx.opp_threat or ctx.late or ctx.score_diff() > -150.0

    # ----- discards -------------------------------------------------------------------------------------------
    def _discard_value(self, ctx: _Ctx, c: int) -> float:
        """Minus the worth of keeping ``c``: the discard with the highest value is the card least worth keeping."""
        counts = ctx.counts
        v = ctx.view
        counts[c] -= 1
        try:
            keep = ctx.use(c, counts)
            if counts[c] >= 1 and not is_wild(c):
                keep = 8.0 if (c % 13 + 1) in ctx.rules.allowed_set_ranks else 2.0  # its twin keeps its place
        finally:
            counts[c] += 1
        if is_wild(c):
            keep = 200.0 if self.level != "easy" else 60.0
        dump_w = 0.6 if self.level == "easy" else (1.2 if ctx.late else 0.4)
        keep -= dump_w * ctx.values[c]
        keep += ctx.danger(c)
        if self.level != "easy" and len(v.hand) == 2 and v.hidden_pozzetto == 0:
            other = v.hand[0] if v.hand[1] == c else v.hand[1]
            if is_wild(other) and not is_wild(c) and ctx.own_poz:
                keep += 80.0  # keep a card the side may close with, not a lone wild
        return -keep


__all__ = ["CLUB_MARGIN", "HeuristicPlayer", "LEVELS", "TIE"]

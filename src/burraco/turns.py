"""A turn played (RULES.md §3, §5, §9): what each legal action does to a hand's state. Drawing from the stock or
picking up the pile, melding and attaching, the house rules' redraw and swap, discarding, the next turn, the end of
the hand and a director's time-out. Nothing here asks whether the action is legal: :mod:`burraco.legality` does,
before."""

from __future__ import annotations

from .actions import DISCARD, DRAW, MELD, PICK, REDRAW, SWAP, TIMEOUT, Action
from .cards import JOKER, cards_str
from .melds import SEQUENCE, SET, Meld, MeldError
from .messages import msg
from .pozzetto import Pozzetti
from .rules import PickupRule, StockEnd, TimeoutPolicy
from .state import DRAW_PHASE, END_PHASE, PLAY_PHASE


class Turns(Pozzetti):
    """The actions of a hand applied to its state: a part of :class:`~burraco.game.Game`."""

    def _apply(self, a: Action) -> None:
        """Apply an action already known to be legal (no checks), to the native core's copy too."""
        h = self._nh
        if h and not h.apply(a):  # a director's time-out: the core's copy is made again when needed
            self._nh = None
        self.actions.append(a)
        v = a.verb
        if v == TIMEOUT:
            self._timeout()
            return
        seat = self.turn
        if v == DRAW:
            self._draw(seat)
        elif v == PICK:
            self._pick(seat)
        elif v == DISCARD:
            self._discard(seat, a.cards[0])
        elif v == REDRAW:
            self._redraw(seat)
        elif v == SWAP:
            self._swap(seat, self.side_of(seat), a)
        else:
            side = self.side_of(seat)
            m = self._meld_result(side, a)
            self._lay(seat, side, a, m)

    def _meld_result(self, side: int, a: Action) -> Meld:
        """The meld created or changed by a meld/add action (raises MeldError)."""
        if a.verb == MELD:
            m = self._ctx.make(a.cards)
            self._check_duplicate(side, m)
            return m
        return self._ctx.attach(self.melds[side][a.meld - 1], a.cards)

    def _check_duplicate(self, side: int, m: Meld) -> None:
        r = self.rules
        for o in self.melds[side]:
            if o.kind != m.kind:
                continue
            if m.kind == SET and r.forbid_duplicate_set_rank and o.rank == m.rank:
                raise MeldError(msg("duplicate_set", cards=cards_str(m.cards), rank=m.rank))
            if m.kind == SEQUENCE and r.forbid_identical_sequences and o.suit == m.suit and o.mask == m.mask:
                raise MeldError(
                    msg(
                        "duplicate_sequence",
                        cards=cards_str(m.display_cards()),
                        other=cards_str(o.display_cards()),
                    )
                )

    def _draw(self, seat: int) -> None:
        if not self.stock:
            self._morto_to_stock()
        c = self.stock.pop()
        self.hands[seat][c] += 1
        self.hand_n[seat] += 1
        self.phase = PLAY_PHASE
        self.drew = True
        self.drawn = c
        if self.rules.stock_end is StockEnd.END_AFTER_THIRD_LAST and len(self.stock) <= 2:
            self.last_turn = True

    def _pick(self, seat: int) -> None:
        pile = self.pile
        h = self.hands[seat]
        top = pile[-1]
        if len(pile) == 1:
            self.lone = top
            self.lone_gone = False
        self.top = top
        self.top_used = self.rules.pickup_rule is not PickupRule.MUST_USE_TOP_CARD
        kn = self.known[seat]
        if self.rules.discard_pile_open:
            for c in pile:
                h[c] += 1
                kn[c] += 1
        else:
            for c in pile:
                h[c] += 1
            kn[top] += 1
        self.hand_n[seat] += len(pile)
        self.pile = []
        self.picked = True
        self.phase = PLAY_PHASE
        side = self.side_of(seat)
        if self.rules.min_meld_required_for_pickup and self.rules.min_first_meld > 0 and not self.melds[side]:
            self.must_open = True
            self.opening = True

    def _redraw(self, seat: int) -> None:
        c = self.drawn
        self.hands[seat][c] -= 1
        self.hand_n[seat] -= 1
        self.pile.append(c)
        self.redrawn = True
        self._draw(seat)

    def _swap_target(self, m: Meld, c: int) -> int:
        """The position where natural ``c`` would replace ``m``'s wild, or 0 if it cannot."""
        if m.kind != SEQUENCE or m.wild < 0 or c == JOKER or c // 13 != m.suit:
            return 0
        r = c % 13 + 1
        spots = [m.wild_pos] if m.wild_pos else []
        if not m.wild_pos:  # a free wild stands for either end
            lo, hi = m.span()
            spots = [p for p in (lo - 1, hi + 1) if 1 <= p <= 14]
        for p in spots:
            if p == r or (r == 1 and p == 14):
                if p == 1 or p == 14:
                    other = 14 if p == 1 else 1
                    if m.mask >> other & 1 and not self._ctx.two_aces:
                        continue
                return p
        return 0

    def _swap(self, seat: int, side: int, a: Action) -> None:
        m = self.melds[side][a.meld - 1]
        c = a.cards[0]
        p = self._swap_target(m, c)
        cards = list(m.cards)
        cards.remove(m.wild)
        cards.append(c)
        new = self._ctx.place(m.suit, m.mask | (1 << p), tuple(sorted(cards)))
        h = self.hands[seat]
        h[c] -= 1
        h[m.wild] += 1
        kn = self.known[seat]
        if kn[c]:
            kn[c] -= 1
        kn[m.wild] += 1  # everybody saw the wild go to his hand
        self.table[c] += 1
        self.table[m.wild] -= 1
        self.melds[side][a.meld - 1] = new
        self._meldkeys[side] = None
        self.melded = True
        if c == self.lone:
            self.lone_gone = True
        if self.opening:
            self.laid += self._values[c] - self._values[m.wild]
        if self.top >= 0 and not self.top_used and self.top == c:
            self.top_used = True

    def _lay(self, seat: int, side: int, a: Action, m: Meld) -> None:
        h = self.hands[seat]
        kn = self.known[seat]
        tb = self.table
        pts = 0
        vals = self._values
        for c in a.cards:
            tb[c] += 1
            h[c] -= 1
            if kn[c]:  # one publicly known copy is accounted for (observers cannot tell which copy was used)
                kn[c] -= 1
            pts += vals[c]
        self.hand_n[seat] -= len(a.cards)
        self._meldkeys[side] = None
        if a.verb == MELD:
            if not self.melds[side] and self.rules.min_first_meld > 0:
                self.opening = True
            self.melds[side].append(m)
        else:
            self.melds[side][a.meld - 1] = m
        self.melded = True
        if self.lone >= 0 and self.lone in a.cards:
            self.lone_gone = True
        if self.opening:
            self.laid += pts
        if self.top >= 0 and not self.top_used and self.top in a.cards:
            self.top_used = True
        if self.hand_n[seat] == 0:
            i = self._pozzetto_for(side)
            if i >= 0:
                self._take_pozzetto(seat, side, i, direct=True)
            else:  # Brazilian batida by melding the last card (legality checked before)
                self._finish("closed", seat)

    def _discard(self, seat: int, c: int) -> None:
        h = self.hands[seat]
        h[c] -= 1
        self.hand_n[seat] -= 1
        kn = self.known[seat]
        if kn[c]:
            kn[c] -= 1
        self.pile.append(c)
        side = self.side_of(seat)
        closed = False
        if self.hand_n[seat] == 0:
            i = self._pozzetto_for(side)
            if i >= 0:
                self._take_pozzetto(seat, side, i, direct=False)
            else:
                closed = True
        # the partner's pozzetto taken with the discard becomes visible after this discard (§0.1 C-22)
        for p in self.side_seats[self.side_of_seat[seat]]:
            if p != seat and self.hidden[p] is not None:
                self.hidden[p] = None
        # stalemate bookkeeping (§9.3.2)
        if self.lone >= 0 and not self.melded and not self.drew:
            self.stalemate_run += 1
        else:
            self.stalemate_run = 0
        self.turns += 1
        if self.timeout_left > 0:
            self.timeout_left -= 1
        if closed:
            self._finish("closed", seat)
        elif self.last_turn:
            self._finish("stock")
        elif self.rules.stalemate and self.stalemate_run >= self.n:
            self._finish("stalemate")
        elif self.timeout_left == 0:
            self._finish("timeout")
        elif self.turns >= self.rules.turn_cap:
            self._finish("cap")
        else:
            self._next_turn()

    def _next_turn(self) -> None:
        self.turn = self.next_seat(self.turn)
        self.phase = DRAW_PHASE
        self.picked = False
        self.drew = False
        self.lone = -1
        self.lone_gone = False
        self.top = -1
        self.top_used = True
        self.melded = False
        self.opening = False
        self.laid = 0
        self.must_open = False
        self.drawn = -1
        self.poz_pending[self.turn] = False
        if len(self.side_seats[self.side_of_seat[self.turn]]) == 1:
            self.hidden[self.turn] = None
        if not self.stock and self.pozzetti_left() == 0:
            self._finish("stock")
        elif not self.stock and self.rules.stock_end is not StockEnd.MORTO_BECOMES_STOCK:
            self._finish("stock")

    def _finish(self, how: str, seat: int = -1) -> None:
        self.end = how
        self.closed_by = seat if how == "closed" else -1
        self.phase = END_PHASE

    def _timeout(self) -> None:
        self.timeout_called = True
        pol = self.rules.timeout_policy
        if pol is TimeoutPolicy.ROUND_FROM_CURRENT:
            self.timeout_left = self.n
        else:  # FIBUR_PARTNER_OF_NEXT_DRAWER
            started = self.phase != DRAW_PHASE
            if self.turns == 0 and not started:
                self.timeout_left = self.n  # before the first draw: one full round
            else:
                # X = next to draw; play until partner(X) is due, then a full round ending after left(X)
                x = self.next_seat(self.turn) if started else self.turn
                px = self.partner(x)
                until = (px - x) * self.rules.direction % self.n if px != x else 0
                self.timeout_left = (1 if started else 0) + until + self.n

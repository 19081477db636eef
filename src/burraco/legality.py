"""Legality: which actions the seat to act may play, and why any other is refused (RULES.md §3, §6, §8, §0.1).

An action is legal when the hand's rules allow it and the player can still end his turn legally afterwards (no dead
ends, §0.1): :meth:`Legality.check` says why an action is refused, :meth:`Legality._py_legal_actions` lists the
legal ones (the Python engine's list, the reference the native core's follows), and :meth:`Legality._completable`
is the search both rely on: can the turn still end, with the hand and the table?
"""

from __future__ import annotations

from itertools import compress
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from .actions import (
    ADD,
    DISCARD,
    DRAW,
    MELD,
    PICK,
    REDRAW,
    SWAP,
    TIMEOUT,
    Action,
    ActionError,
    IllegalActionError,
    InvalidActionError,
)
from .cards import CARD_STR, JOKER, NUM_TYPES
from .melds import SEQUENCE, SET, Meld, MeldError
from .messages import Message, msg
from .rules import BurracoNeeded, PickupRule
from .seats import SEATS_4, SEATS_ABC
from .state import DRAW_PHASE, PLAY_PHASE
from .turns import Turns

_ALL_SEATS = tuple(dict.fromkeys(SEATS_4 + SEATS_ABC))
_Z4 = bytes(4)
_Z13 = bytes(13)
_DRAWS = {s: Action(s, DRAW) for s in _ALL_SEATS}
_PICKS = {s: Action(s, PICK) for s in _ALL_SEATS}
_CARDS_OF = itemgetter(2)  # an action's cards
_DISCARDS = {s: [Action(s, DISCARD, (c,)) for c in range(NUM_TYPES)] for s in _ALL_SEATS}


def refused(action: str, reason: Message) -> Message:
    """``"<action>: <reason>"``: the message of an action the engine refuses."""
    return msg("action_refused", action=action, reason=reason)


class Legality(Turns):
    """Whether an action is legal, why not, and the legal actions: a part of :class:`~burraco.game.Game`."""

    if TYPE_CHECKING:

        def _copy(self) -> Legality:
            """An independent copy of every field, for the look-ahead (:meth:`Game._copy
            <burraco.game.Game._copy>`, which makes a game)."""
            ...

    def is_legal(self, action: Action | str) -> bool:
        """True when :meth:`Game.apply <burraco.game.Game.apply>` would accept the action (``a in legal_actions()``
        for the seat's actions)."""
        try:
            a = self.parse(action) if isinstance(action, str) else action
        except ActionError:
            return False
        return self.check(a) is None

    def check(self, a: Action) -> ActionError | None:
        """The error :meth:`Game.apply <burraco.game.Game.apply>` would raise for ``a``, or None when it is legal."""
        text = str(a)
        if self.end is not None:
            return IllegalActionError(refused(text, msg("hand_over", end=self.end)), text)
        if a.verb == TIMEOUT:
            if not self.rules.has_timeouts:
                return IllegalActionError(msg("no_timeouts"), text)
            if self.timeout_called:
                return IllegalActionError(msg("timeout_called"), text)
            return None
        if a.seat not in self.seats:
            return InvalidActionError(refused(text, msg("unknown_seat", seat=a.seat)), text)
        seat = self.seats.index(a.seat)
        side = self.side_of(seat)
        h = self.hands[seat]
        # cards held / meld numbers (invalid)
        if a.verb in (MELD, ADD, DISCARD, SWAP):
            need: dict[int, int] = {}
            for c in a.cards:
                need[c] = need.get(c, 0) + 1
            for c, k in need.items():
                if h[c] < k:
                    lack = (
                        msg("holds_none", seat=a.seat, card=CARD_STR[c])
                        if h[c] == 0
                        else msg("holds_only", seat=a.seat, count=h[c], card=CARD_STR[c])
                    )
                    return InvalidActionError(refused(text, lack), text)
            if a.verb in (ADD, SWAP) and not 1 <= a.meld <= len(self.melds[side]):
                lack = msg("no_such_meld", side=self.sides[side], meld=a.meld, count=len(self.melds[side]))
                return InvalidActionError(refused(text, lack), text)
        if seat != self.turn:
            return IllegalActionError(
                refused(text, msg("not_your_turn", turn=self.seats[self.turn], seat=a.seat)), text
            )
        if a.verb in (DRAW, PICK):
            if self.phase != DRAW_PHASE:
                return IllegalActionError(refused(text, msg("already_drew", seat=a.seat)), text)
            if a.verb == DRAW:
                return None
            why: Message | None = self._pick_error(seat)
            return None if why is None else IllegalActionError(refused(text, why), text)
        if self.phase != PLAY_PHASE:
            return IllegalActionError(refused(text, msg("must_draw_first", seat=a.seat)), text)
        if a.verb == DISCARD:
            why = self._discard_error(seat, a.cards[0])
        elif a.verb == REDRAW:
            why = self._redraw_error(seat)
        elif a.verb == SWAP:
            why = self._swap_error(seat, side, a)
        elif not a.cards:
            return InvalidActionError(refused(text, msg("no_cards_named")), text)
        else:
            try:
                new = self._meld_result(side, a)
            except MeldError as e:
                return IllegalActionError(e.msg, text)
            why = self._after_meld_error(seat, a, new)
        return None if why is None else IllegalActionError(refused(text, why), text)

    def _pick_error(self, seat: int) -> Message | None:
        if not self.pile:
            return msg("pile_empty")
        r = self.rules
        if self.last_turn:
            return msg("pile_last_cards")
        if not r.pickup_with_one_card_allowed and self.hand_n[seat] == 1:
            return msg("pile_one_card")
        cond = r.pickup_rule is not PickupRule.NONE or (
            r.min_meld_required_for_pickup and r.min_first_meld > 0 and not self.melds[self.side_of(seat)]
        )
        if not cond:
            return None
        g = self._copy()
        if not r.discard_pile_open and len(g.pile) > 1:
            # legality never depends on cards the seat cannot see (§0.1): judge with the visible top card only
            g.pile = [g.pile[-1]]
            g._pick(seat)
            g.lone = -1
        else:
            g._pick(seat)
        if g._completable({}):
            return None
        if r.pickup_rule is PickupRule.MUST_USE_TOP_CARD:
            return msg("pile_top_unusable", card=CARD_STR[self.pile[-1]])
        if r.pickup_rule is PickupRule.MUST_OPEN_OR_ATTACH:
            return msg("pile_must_meld")
        return msg("pile_cannot_open", points=r.min_first_meld)

    def _pending(self) -> Message | None:
        """A condition that must be met before the turn may end, or None."""
        r = self.rules
        if self.picked and r.pickup_rule is PickupRule.MUST_OPEN_OR_ATTACH and not self.melded:
            return msg("pending_must_meld")
        if not self.top_used:
            return msg("pending_top_card", card=CARD_STR[self.top])
        if (self.opening and self.laid < r.min_first_meld) and (self.melded or self.must_open):
            return msg("pending_first_meld", points=r.min_first_meld, laid=self.laid)
        return None

    def _discard_error(self, seat: int, c: int) -> Message | None:
        r = self.rules
        if r.single_card_pile_no_rediscard and c == self.lone and not self.lone_gone and self.hands[seat][c] == 1:
            # the only copy in hand must be the one picked up (§6.4, §0.1 twin copies)
            return msg("lone_card_discard", card=CARD_STR[c])
        p = self._pending()
        if p is not None:
            return p
        if self.hand_n[seat] == 1:
            side = self.side_of(seat)
            if self._pozzetto_for(side) >= 0:
                return None
            return self._closing_error(side, c)
        return None

    def _closing_error(self, side: int, c: int) -> Message | None:
        r = self.rules
        if self.poz_taken[side] == 0:
            if r.pozzetto_requires_burraco:
                return msg("pozzetto_needs_burraco")
            return msg("no_pozzetto_left")
        p = self._unreached_morto(side)
        if p >= 0:
            return msg("morto_not_reached", seat=self.seats[p])
        if not self._has_burraco(side):
            return msg(
                "close_needs_burraco", kind="clean" if r.closing_burraco is BurracoNeeded.CLEAN else "any"
            )
        if c >= 0 and not r.closing_discard_may_be_wild and (c == JOKER or c % 13 == 1):
            return msg("closing_wild", card=CARD_STR[c])
        return None

    def _after_meld_error(self, seat: int, a: Action, m: Meld | None) -> Message | None:
        """Why the player could not complete his turn after this meld/add (no dead ends, §0.1), or None."""
        left = self.hand_n[seat] - len(a.cards)
        r = self.rules
        side = self.side_of(seat)
        if left >= 2 and (self.top_used or self.top in a.cards):
            # the action itself meets "must meld"; a card other than the lone pick-up remains to discard
            if r.min_first_meld == 0 or (self.melds[side] and not self.opening):
                return None
            pts = sum(self._values[c] for c in a.cards)
            if self.laid + pts >= r.min_first_meld:
                return None
        if m is None:
            m = self._meld_result(side, a)
        g = self._copy()
        if left == 0 and g._pozzetto_for(side, m) < 0:
            # going out by melding: a Brazilian batida, never in rules that need a closing discard
            if r.closing_requires_discard:
                if g.poz_taken[side] == 0:
                    if r.pozzetto_requires_burraco and not g._has_burraco(side, False):
                        return msg("pozzetto_needs_burraco")  # 6 players (RULES.md §14.4)
                    return msg("last_meld_no_pozzetto")
                return msg("last_meld_needs_discard")
            g._lay(seat, side, a, m)
            if not g._has_burraco(side):
                return msg(
                    "go_out_needs_burraco",
                    kind="clean" if r.closing_burraco is BurracoNeeded.CLEAN else "any",
                )
            if g.poz_taken[side] == 0:
                return msg("no_morto_left")
            owner = g._unreached_morto(side)
            if owner >= 0:
                return msg("morto_not_reached", seat=self.seats[owner])
            return g._pending_at_end()
        g._lay(seat, side, a, m)
        if left == 0:
            # in diretta: taking the pozzetto completes the turn, but not before a first-meld minimum (§0.1)
            if g.opening and g.laid < r.min_first_meld:
                return msg("pozzetto_before_opening", points=r.min_first_meld)
            return None
        if g._completable({}):
            return None
        if left == 1:
            owner = g._unreached_morto(side)
            if owner >= 0:  # the last card could only go out, and the side may not go out yet (§0.1 C-22)
                return msg("dead_end_because", reason=msg("morto_not_reached", seat=self.seats[owner]))
            last = g.hand_cards(seat)[0]
            return msg("leaves_last_card", card=CARD_STR[last])
        p = g._pending()
        if p is not None:
            return msg("dead_end_because", reason=p)
        return msg("dead_end")

    def _pending_at_end(self) -> Message | None:
        if self.opening and self.laid < self.rules.min_first_meld:
            return msg("first_meld_minimum", points=self.rules.min_first_meld)
        if not self.top_used:
            return msg("top_card_unused")
        return None

    def _completable(self, memo: dict[Any, bool]) -> bool:
        """Can the player in turn (play phase) still end his turn legally, using only his hand and the table?"""
        seat = self.turn
        if self.end is not None:
            return self._pending_at_end() is None
        n = self.hand_n[seat]
        if n == 0:  # just went to the pozzetto in diretta
            return not (self.opening and self.laid < self.rules.min_first_meld)
        pending = self._pending()
        h = self.hands[seat]
        if pending is None:
            if n >= 2:
                # a card other than the lone picked-up one can always be discarded
                return True
        # a legal discard now?
        for c in range(NUM_TYPES):
            if h[c] and self._discard_error(seat, c) is None:
                return True
        key = (
            bytes(h),
            tuple(m.cards for m in self.melds[self.side_of(seat)]),
            self.laid,
            self.top_used,
            self.melded,
        )
        got = memo.get(key)
        if got is not None:
            return got
        memo[key] = False
        ok = False
        top_only = pending is not None and not self.top_used and not self.opening
        side = self.side_of(seat)
        for a in self._raw_meld_actions(seat):
            if top_only and self.top not in a.cards:
                continue
            m = self._meld_result(side, a)
            left = n - len(a.cards)
            if left == 0 and self._pozzetto_for(side, m) < 0:
                if self.rules.closing_requires_discard:
                    continue
                g = self._copy()
                g._lay(seat, side, a, m)
                if (
                    g.end is not None
                    and g._has_burraco(side)
                    and g.poz_taken[side]
                    and g._unreached_morto(side) < 0
                    and g._pending_at_end() is None
                ):
                    ok = True
                    break
                continue
            g = self._copy()
            g._lay(seat, side, a, m)
            if left == 0:
                if not (g.opening and g.laid < self.rules.min_first_meld):
                    ok = True
                    break
                continue
            if g._completable(memo):
                ok = True
                break
        memo[key] = ok
        return ok

    def _redraw_error(self, seat: int) -> Message | None:
        if not self.rules.first_player_redraw:
            return msg("no_redraw")
        if self.redrawn or self.turns > 0 or seat != self.first or not self.drew or self.melded:
            return msg("redraw_only_first")
        if not self.stock and self.pozzetti_left() == 0:
            return msg("stock_empty")
        if self.last_turn:
            return msg("stock_last_cards")
        return None

    def _swap_error(self, seat: int, side: int, a: Action) -> Message | None:
        if not self.rules.wild_may_return_to_hand:
            return msg("swap_not_allowed")
        m = self.melds[side][a.meld - 1]
        if len(a.cards) != 1:
            return msg("swap_one_card")
        if m.kind != SEQUENCE or m.wild < 0:
            return msg("swap_no_wild", meld=a.meld)
        if not self._swap_target(m, a.cards[0]):
            return msg("swap_wrong_card", card=CARD_STR[a.cards[0]], meld=a.meld)
        g = self._copy()
        g._swap(seat, side, a)
        if not g._completable({}):
            return msg("swap_dead_end")
        return None

    def _house_actions(self, seat: int, name: str) -> list[Action]:
        """Legal redraw / swap actions under their house rules."""
        out: list[Action] = []
        r = self.rules
        if r.first_player_redraw and self._redraw_error(seat) is None:
            out.append(Action(name, REDRAW))
        if r.wild_may_return_to_hand:
            h = self.hands[seat]
            side = self.side_of(seat)
            for k, m in enumerate(self.melds[side], start=1):
                if m.kind != SEQUENCE or m.wild < 0:
                    continue
                b0 = m.suit * 13
                for c in range(b0, b0 + 13):
                    if h[c] and self._swap_target(m, c):
                        a = Action(name, SWAP, (c,), k)
                        if self._swap_error(seat, side, a) is None:
                            out.append(a)
        return out

    def _py_legal_actions(self) -> list[Action]:
        """:meth:`Game.legal_actions <burraco.game.Game.legal_actions>` worked out by the Python engine (the
        reference)."""
        seat = self.turn
        name = self.seats[seat]
        if self.phase == DRAW_PHASE:
            out = [_DRAWS[name]]
            if self.pile and self._pick_error(seat) is None:
                out.append(_PICKS[name])
            self._legal = (len(self.actions), tuple(out))
            return out
        h = self.hands[seat]
        n = self.hand_n[seat]
        if n >= 3 and self._pending() is None:
            # no condition pending: every distinct card may be discarded (§3.4 keeps >= 2 cards after it), but for
            # the card taken from a one-card pile when the one copy in hand must be it (§6.4, §0.1 twin copies)
            da = _DISCARDS[name]
            out = list(compress(da, h))
            lone = self.lone
            if lone >= 0 and not self.lone_gone and h[lone] == 1 and self.rules.single_card_pile_no_rediscard:
                out.remove(da[lone])
        else:
            out = [
                Action(name, DISCARD, (c,))
                for c in range(NUM_TYPES)
                if h[c] and self._discard_error(seat, c) is None
            ]
        r = self.rules
        simple = r.pickup_rule is PickupRule.NONE and r.min_first_meld == 0
        if r.first_player_redraw or r.wild_may_return_to_hand:
            out += self._house_actions(seat, name)
        raw = self._raw_meld_actions(seat)
        if simple and (n >= 2 + 14 or not raw or n >= 2 + max(map(len, map(_CARDS_OF, raw)))):
            out += raw  # no meld leaves fewer than 2 cards: all are legal
        else:
            for a in raw:
                if (simple and n - len(a[2]) >= 2) or self._after_meld_error(seat, a, None) is None:
                    out.append(a)
        self._legal = (len(self.actions), tuple(out))
        return out

    def _raw_meld_actions(self, seat: int) -> list[Action]:
        """Every distinct valid new meld and attachment from the hand (§4, §5.4, §0.1 C-16).

        Only the rules of melds are checked here; turn-level legality (dead ends, §3.4) is checked by the caller.
        """
        name = self.seats[seat]
        side = self.side_of_seat[seat]
        gen = self._gen
        hb = bytes(self.hands[seat])
        sig = (hb[52] > 0) | (hb[1] > 0) << 1 | (hb[14] > 0) << 2 | (hb[27] > 0) << 3 | (hb[40] > 0) << 4
        melds = self.melds[side]
        mk = self._meldkeys[side]
        if mk is None:
            r = self.rules
            mk = self._meldkeys[side] = (
                frozenset(m.rank for m in melds if m.kind == SET)
                if r.forbid_duplicate_set_rank
                else frozenset(),
                frozenset((m.suit, m.mask) for m in melds if m.kind == SEQUENCE)
                if r.forbid_identical_sequences
                else frozenset(),
            )
        set_ranks, seq_keys = mk
        tn = tuple.__new__
        out: list[Action] = []
        fb = int.from_bytes
        # cards per rank, summed lane by lane over the four suits (each total fits in a byte)
        tots = (
            fb(hb[0:13], "big") + fb(hb[13:26], "big") + fb(hb[26:39], "big") + fb(hb[39:52], "big")
        ).to_bytes(13, "big")
        for rank in gen.set_candidates(tots, 2 if sig else 3):
            if rank in set_ranks:
                continue
            base = rank - 1
            out += [tn(Action, (name, MELD, t, 0)) for t in gen.sets(rank, hb[base : base + 40 : 13], sig)]
        max_zeros = 11 if sig else 10  # a sequence needs 2 naturals and a wild, or 3 naturals
        for suit in (0, 1, 2, 3):
            b0 = suit * 13
            cs = hb[b0 : b0 + 13]
            if cs.count(0) > max_zeros:
                continue
            if seq_keys:
                out += [
                    tn(Action, (name, MELD, t, 0))
                    for t, smask in gen.sequences(suit, cs, sig)
                    if (suit, smask) not in seq_keys
                ]
            else:
                out += [tn(Action, (name, MELD, t, 0)) for t, _ in gen.sequences(suit, cs, sig)]
        k = 0
        for m in melds:
            k += 1
            if m.kind == SET:
                base = m.rank - 1
                cnt = hb[base : base + 40 : 13]
                if not sig and cnt == _Z4:
                    continue
            else:
                b0 = m.suit * 13
                cnt = hb[b0 : b0 + 13]
                if not sig and cnt == _Z13:
                    continue
            adds = gen.additions(m, cnt, sig)
            if adds:
                out += [tn(Action, (name, ADD, t, k)) for t in adds]
        return out

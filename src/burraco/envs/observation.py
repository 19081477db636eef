"""The observation tensors of the research environments: a seat's view as a fixed-shape ``float32`` vector.

:func:`encode_view` turns a seat's :class:`~burraco.View` into a ``float32`` vector of
:data:`~burraco.envs.layout.OBS_SIZE` with 2 and 4 players (the size of the rules'
:class:`~burraco.envs.layout.Layout` otherwise); the blocks are the layout's (:mod:`burraco.envs.layout`,
docs/research.md). :func:`encode_game` gives the same vector straight from a :class:`~burraco.Game` for one seat,
faster (no ``View`` is built); it reads only what the seat's view holds, and the tests check that both agree on
every state. :class:`Encoder` is :func:`encode_game` done incrementally (the environments' Python encoder), and
:func:`view_to_dict` the view as a JSON-ready dict beside the tensor.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ..cards import JOKER, NUM_TYPES
from ..melds import CLEAN, SEMICLEAN, SEQUENCE, Meld
from ..rules import BurracoNeeded, PickupRule, Rules
from .action_space import MAX_SLOTS
from .layout import (
    _O_HIDDEN,
    _O_LONE,
    _O_MELDS,
    _O_PENDING,
    _O_RULES,
    _O_SIZES,
    _O_TOPUSE,
    _ROW_BYTES,
    MELD_FEATURES,
    OBS_SIZE,
    Layout,
    layout_for,
)

if TYPE_CHECKING:
    from ..game import Game
    from ..view import View


#: one meld's row: its features as float32 bytes, its card points, whether it is a burraco, whether a clean one,
#: and its card counts as one integer of 53 byte lanes
_Slot = tuple[bytes, int, bool, bool, int]
#: one side's melds (at most MAX_SLOTS), their rows, table counts (53 bytes), points, has a burraco, a clean one
_Side = tuple[list[Meld], list[_Slot], bytes, int, bool, bool]

_MELD_ROWS: dict[int, _Slot] = {}
_MELD_ROWS_BY_CONTENT: dict[tuple[Any, ...], _Slot] = {}


def _meld_row(m: Meld, values: tuple[int, ...]) -> _Slot:
    """The feature row of a meld (float32 bytes), its card points, whether it is a burraco, whether a clean one,
    and its card counts as one integer of 53 byte lanes (cached by the meld's unique id: melds are immutable; the
    same row object for melds of the same content)."""
    got = _MELD_ROWS.get(m.uid)
    if got is not None:
        return got
    pts = sum(values[c] for c in m.cards)
    # a new meld object often equals an earlier one (the same cards in the same roles): cached by content too
    ckey = (m.kind, m.cards, m.mask, m.wild, m.wild_pos, m.burraco, pts)
    got = _MELD_ROWS_BY_CONTENT.get(ckey)
    if got is not None:
        _MELD_ROWS[m.uid] = got
        return got
    row = np.zeros(MELD_FEATURES, dtype=np.float32)
    row[0] = 1.0
    if m.kind == SEQUENCE:
        row[1] = 1.0
        row[2 + m.suit] = 1.0
        mask = m.mask
        for p in range(1, 15):
            if mask >> p & 1:
                row[18 + p] = 1.0  # 19..32
    else:
        row[6 + m.rank - 1] = 1.0  # 6..18
        for c in m.cards:
            if c != m.wild and c != JOKER and c % 13 == m.rank - 1:
                row[33 + c // 13] += 1.0
    if m.wild >= 0:
        row[37] = 1.0
        row[38 if m.wild == JOKER else 39 + m.wild // 13] = 1.0
        if m.kind == SEQUENCE:
            row[43] = 1.0 if m.wild_pos else 0.0
            row[44] = float(m.wild_position())
    row[45] = float(m.size)
    if m.burraco is not None:
        row[46 if m.burraco == CLEAN else 47 if m.burraco == SEMICLEAN else 48] = 1.0
    row[49] = float(pts)
    lanes = sum(1 << (8 * (NUM_TYPES - 1 - c)) for c in m.cards)
    got = (row.tobytes(), pts, m.burraco is not None, m.burraco == CLEAN, lanes)
    if len(_MELD_ROWS) > 200_000:
        _MELD_ROWS.clear()
    if len(_MELD_ROWS_BY_CONTENT) > 200_000:
        _MELD_ROWS_BY_CONTENT.clear()
    _MELD_ROWS[m.uid] = got
    _MELD_ROWS_BY_CONTENT[ckey] = got
    return got


_RULE_ROWS: dict[Rules, npt.NDArray[np.float32]] = {}


def _rules_row(r: Rules) -> npt.NDArray[np.float32]:
    got = _RULE_ROWS.get(r)
    if got is None:
        got = np.array(
            [
                r.players == 4,
                r.discard_pile_open,
                r.pickup_rule is PickupRule.NONE,
                r.pickup_rule is PickupRule.MUST_OPEN_OR_ATTACH,
                r.pickup_rule is PickupRule.MUST_USE_TOP_CARD,
                r.closing_burraco is BurracoNeeded.CLEAN,
                r.closing_requires_discard,
                r.min_first_meld,
                r.up_card,
                bool(r.allowed_set_ranks),
            ],
            dtype=np.float32,
        )
        _RULE_ROWS[r] = got
    return got


_DECK: dict[Rules, int] = {}


def _deck_lanes(r: Rules) -> int:
    got = _DECK.get(r)
    if got is None:
        got = _DECK[r] = int.from_bytes(r.deck_counts(), "big")
    return got


_SIDE_BLOCKS: dict[tuple[int, ...], tuple[npt.NDArray[np.float32], bytes, int, bool, bool]] = {}
_ZERO53 = bytes(NUM_TYPES)
_LANE = [1 << (8 * (NUM_TYPES - 1 - c)) for c in range(NUM_TYPES)]
_ONE_HOT = [bytes(c) + b"\x01" + bytes(NUM_TYPES - 1 - c) for c in range(NUM_TYPES)]
_NO_SIDE: _Side = ([], [], _ZERO53, 0, False, False)
_COUNTS_END = _O_MELDS[0]  # hand … table_other: nine blocks of 53 counts


def _summarise(slots: Sequence[_Slot]) -> tuple[bytes, int, bool, bool]:
    """A side's table counts (53 bytes), card points, and whether it has a burraco / a clean one, from its rows."""
    pts = lanes = 0
    bur = clean = False
    for sl in slots:
        pts += sl[1]
        bur = bur or sl[2]
        clean = clean or sl[3]
        lanes += sl[4]
    return lanes.to_bytes(NUM_TYPES, "big"), pts, bur, clean


def _side_block(
    ms: Sequence[Meld], values: tuple[int, ...], max_slots: int = MAX_SLOTS
) -> tuple[npt.NDArray[np.float32], bytes, int, bool, bool]:
    """The meld rows of one side (its first ``max_slots`` melds), its table counts, card points, and whether it
    has a burraco / a clean one (cached by the melds' unique ids)."""
    key = tuple(m.uid for m in ms[:max_slots])
    got = _SIDE_BLOCKS.get(key)
    if got is None:
        slots = [_meld_row(m, values) for m in ms[:max_slots]]
        got = (np.frombuffer(b"".join(sl[0] for sl in slots), dtype=np.float32), *_summarise(slots))
        if len(_SIDE_BLOCKS) > 100_000:
            _SIDE_BLOCKS.clear()
        _SIDE_BLOCKS[key] = got
    return got


_PHASES = {"draw": (1.0, 0.0, 0.0), "play": (0.0, 1.0, 0.0)}
_END_PHASE = (0.0, 0.0, 1.0)
_TAIL = _O_SIZES  # hand_sizes … rules: 67 values written at once (the incremental encoder)


#: per (sides, seat, direction of play): the side in each slot and each seat's slot (a few dozen entries)
_SLOTS: dict[tuple[tuple[tuple[int, ...], ...], int, int], tuple[tuple[int, ...], tuple[int, ...]]] = {}


def _side_order(side_seats: Sequence[Sequence[int]], seat_side: Sequence[int], rel: Sequence[int], me: int) -> list[int]:
    """The sides in slot order for seat ``me``: its own, then the others by their nearest seat in playing order."""
    my = seat_side[me]
    others = sorted(
        (k for k in range(len(side_seats)) if k != my), key=lambda k: min(rel[m] for m in side_seats[k])
    )
    return [my, *others]


def _fill(
    out: npt.NDArray[np.float32],
    L: Layout,
    r: Rules,
    me: int,
    hand: bytes | bytearray,
    hidden_poz: int,
    hand_sizes: Sequence[int],
    known: Sequence[bytes | bytearray],
    melds: Sequence[Sequence[Meld]],
    pile: Sequence[int],
    pile_size: int,
    stock_size: int,
    pozzetti: Sequence[bool],
    poz_taken: Sequence[int],
    poz_by: Sequence[int],
    hidden_seats: Sequence[bool],
    poz_pending: Sequence[bool],
    unseen: bytes,
    turn: int,
    phase: str,
    st: Any,
    match_totals: Sequence[int] | None,
    side_seats: Sequence[Sequence[int]],
    seat_side: Sequence[int],
    solo: int,
) -> None:
    """Write the observation of seat ``me`` into ``out`` (zeroed) from the fields of its view, in layout ``L``
    (:func:`encode_view` and :func:`encode_game` give the fields from a view and from a game)."""
    n = r.players
    d = r.direction
    rel = [((s - me) * d) % n for s in range(n)]
    order = _side_order(side_seats, seat_side, rel, me)
    slot_of = [0] * len(side_seats)
    for j, k in enumerate(order):
        slot_of[k] = j
    o = L._at
    ks = L.side_slots
    places = L.seats  # relative seat places (4 in the 2-player game, which pads)
    blocks: list[bytes | bytearray] = [bytes(hand)]
    blocks += [_ZERO53] * (places - 1)
    for s in range(n):
        if rel[s]:
            blocks[rel[s]] = known[s]
    if pile:
        lanes = 0
        for c in pile:
            lanes += _LANE[c]
        blocks += [lanes.to_bytes(NUM_TYPES, "big"), _ONE_HOT[pile[-1]]]
    else:
        blocks += [_ZERO53, _ZERO53]
    blocks.append(unseen)
    values = r.card_values()
    rows: list[Any] = [None] * ks
    table = [_ZERO53] * ks
    for j, k in enumerate(order):
        ms = melds[k]
        if ms:
            rows[j] = _side_block(ms, values, L.max_slots)
            table[j] = rows[j][1]
    blocks += table
    end = o["melds_0"]  # the count blocks at the start, in one copy
    out[:end] = np.frombuffer(b"".join(blocks), dtype=np.uint8)
    pts = [0.0] * ks
    bur = [0.0] * ks
    clean = [0.0] * ks
    for j, got in enumerate(rows):
        if got is not None:
            block, _counts_b, p, b, c = got
            base = o[f"melds_{j}"]
            out[base : base + len(block)] = block
            pts[j] = p
            bur[j] = b
            clean[j] = c
    if st.lone >= 0 and turn >= 0:
        out[o["lone"] + st.lone] = 1.0
    if st.top >= 0 and not st.top_used:
        out[o["top_to_use"] + st.top] = 1.0
    # hand_sizes … rules: one list, written at once (offsets relative to its start)
    base = o["hand_sizes"]
    t: list[Any] = [0.0] * (L.obs_size - base)
    hi, pe = o["hidden_seats"] - base, o["poz_pending"] - base
    for s in range(n):
        k = rel[s]
        t[k] = hand_sizes[s]
        if hidden_seats[s]:
            t[hi + k] = 1.0
        if poz_pending[s]:
            t[pe + k] = 1.0
    if turn >= 0:
        t[o["to_act"] - base + rel[turn]] = 1.0
    if not L.default:  # who plays with whom now, and the solo
        ss = o["seat_side"] - base
        for s in range(n):
            t[ss + rel[s] * ks + slot_of[seat_side[s]]] = 1.0
        if solo >= 0:
            t[o["solo"] - base + rel[solo]] = 1.0
    f = o["phase"] - base
    t[f : f + 3] = _PHASES.get(phase, _END_PHASE)
    f = o["flags"] - base
    t[f : f + 17] = (
        st.picked,
        st.drew,
        st.melded,
        st.opening,
        st.must_open,
        st.last_turn,
        st.timeout_called,
        st.redrawn,
        hidden_poz > 0,
        turn == me,
        hidden_poz,
        stock_size,
        pile_size,
        st.laid,
        st.stalemate_run,
        st.turns,
        st.timeout_left,
    )
    pz = o["pozzetti"] - base
    for i, there in enumerate(pozzetti[: L.pozzetti]):
        if there:
            t[pz + i] = 1.0
    pt, pb = o["poz_taken"] - base, o["poz_by"] - base
    for j, k in enumerate(order):
        t[pt + j] = poz_taken[k]
        x = poz_by[k]
        if x >= 0:
            t[pb + j * places + rel[x]] = 1.0
    if match_totals:  # None (a hand outside a match) or the totals before this hand
        mt = o["match_totals"] - base
        if L.scorers_are_seats:  # 3 and 5 players: every player keeps a total
            for s in range(n):
                t[mt + rel[s]] = match_totals[s]
        else:
            for j, k in enumerate(order):
                t[mt + j] = match_totals[k]
    f = o["table_points"] - base
    t[f : f + 3 * ks] = pts + bur + clean
    f = o["rules"] - base
    t[f : f + 10] = _rules_row(r).tolist()
    if not L.default:
        t[f + 10] = r.solo_pair
    out[base:] = t


def _hand_bytes(cards: Sequence[int]) -> bytes:
    lanes = 0
    for c in cards:
        lanes += _LANE[c]
    return lanes.to_bytes(NUM_TYPES, "big")


def encode_view(view: View, out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
    """The observation vector of ``view`` (``float32``, the size of its rules' :class:`Layout`: :data:`OBS_SIZE`
    with 2 and 4 players); written into ``out`` when given."""
    L = layout_for(view.rules)
    if out is None:
        out = np.zeros(L.obs_size, dtype=np.float32)
    else:
        out.fill(0.0)
    _fill(
        out,
        L,
        view.rules,
        view.seat,
        _hand_bytes(view.hand),
        view.hidden_pozzetto,
        view.hand_sizes,
        view.known,
        view.melds,
        view.pile,
        view.pile_size,
        view.stock_size,
        view.pozzetti,
        view.poz_taken,
        view.poz_by,
        view.hidden_seats,
        view.poz_pending,
        view.unseen,
        view.turn,
        view.phase,
        view,
        view.match_totals,
        view.side_seats,
        view.seat_side,
        view.solo,
    )
    return out


def encode_game(
    game: Game,
    seat: int,
    match_totals: Sequence[int] | None = None,
    out: npt.NDArray[np.float32] | None = None,
) -> npt.NDArray[np.float32]:
    """The observation of ``seat`` straight from ``game``: equal to ``encode_view(game.view(seat))`` (with
    ``match_totals`` as a match's view has them), without building the view."""
    L = layout_for(game.rules)
    if out is None:
        out = np.zeros(L.obs_size, dtype=np.float32)
    else:
        out.fill(0.0)
    g = game
    r = g.rules
    hid = g.hidden[seat]
    hb: bytes | bytearray = g.hands[seat]
    known: list[bytes | bytearray] = list(g.known)
    if hid is not None:
        vis = bytes(max(0, hb[c] - hid[c]) for c in range(NUM_TYPES))
        known[seat] = bytes(min(g.known[seat][c], vis[c]) for c in range(NUM_TYPES))
        hb = vis
    pile: Sequence[int] = g.pile if r.discard_pile_open else g.pile[-1:]
    # unseen = deck - own visible hand - melds - visible pile - cards others were seen to take, lane by lane on
    # Python integers (every lane stays non-negative), as the view computes it
    fb = int.from_bytes
    u = _deck_lanes(r) - fb(hb, "big") - fb(g.table, "big")
    for c in pile:
        u -= 1 << (8 * (NUM_TYPES - 1 - c))
    for s in range(g.n):
        if s != seat:
            u -= fb(known[s], "big")
    unseen = u.to_bytes(NUM_TYPES, "big")
    st: Any = g
    _fill(
        out,
        L,
        r,
        seat,
        hb,
        sum(hid) if hid is not None else 0,
        g.hand_n,
        known,
        g.melds,
        pile,
        len(g.pile),
        len(g.stock),
        [p is not None for p in g.pozzetti],
        g.poz_taken,
        g.poz_by,
        [x is not None for x in g.hidden],
        g.poz_pending,
        unseen,
        g.current_seat,
        g.phase,
        st,
        match_totals,
        g.side_seats,
        g.side_of_seat,
        g.solo,
    )
    return out


def _move_flag(buf: npt.NDArray[np.float32], st: list[Any], slot: int, i: int) -> None:
    """Move the one-hot flag remembered in ``st[slot]`` to position ``i`` of ``buf`` (-1: no flag)."""
    if i != st[slot]:
        if st[slot] >= 0:
            buf[st[slot]] = 0.0
        if i >= 0:
            buf[i] = 1.0
        st[slot] = i


class Encoder:
    """:func:`encode_game` for one rule set, incrementally: every seat keeps its last observation, and the blocks
    that change rarely (the meld rows of both sides, the rules) are rewritten only when they changed. Each side's
    melds are summarised once per change, for all seats (compared with the side's last melds: melds are immutable
    values, an attachment replaces one), and a seat's buffer rewrites only the slots whose meld changed. The
    result is a new array equal to ``encode_game(game, seat, match_totals)`` (the tests check it on every state of
    random matches). With 3, 5 and 6 players (and three packs) every observation is :func:`encode_game`'s. Where the
    native core plays the rules the environments take the core's observation instead (``burraco._native.Encoding``,
    the same vector: tests/test_native_envs.py), so this is the reference they fall back to."""

    __slots__ = (
        "rules", "layout", "_rel", "_side", "_others", "_values", "_deck", "_sides", "_state",
    )

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        #: the rules' :class:`Layout`
        self.layout = layout_for(rules)
        n = rules.players
        if n == 4:
            d = rules.direction
            self._rel: list[tuple[int, ...]] = [tuple(((s - me) * d) % 4 for s in range(4)) for me in range(4)]
            self._side = [me % 2 for me in range(4)]
        elif n == 2:
            self._rel = [(0, 1), (1, 0)]
            self._side = [0, 1]
        else:  # 3, 5, 6 players: the relative places in playing order (the sides change in a hand with 3 and 5)
            d = rules.direction
            self._rel = [tuple(((s - me) * d) % n for s in range(n)) for me in range(n)]
            self._side = [0] * n
        # the other seats of each seat, with their place relative to it (1 next, 2 partner, 3 previous)
        self._others = [[(s, self._rel[me][s]) for s in range(n) if s != me] for me in range(n)]
        self._values = rules.card_values()
        self._deck = _deck_lanes(rules)
        self._sides: list[_Side] = [_NO_SIDE] * max(2, self.layout.side_slots)
        self._state: list[list[Any] | None] = [None] * n

    def _new_state(self) -> list[Any]:
        raw = bytearray(OBS_SIZE * 4)
        buf = np.frombuffer(raw, dtype=np.float32)
        buf[_O_RULES : _O_RULES + 10] = _rules_row(self.rules)
        # buffer, its bytes, the side summaries written in the own and the other meld block, the index of the
        # one-hot lone and top-to-use entries (-1: none)
        return [buf, raw, _NO_SIDE, _NO_SIDE, -1, -1]

    def _side_summary(self, side: int, ms: list[Meld]) -> _Side:
        """The summary of a side's melds (``ms``, at most :data:`MAX_SLOTS`), updated when they changed."""
        slots = [_meld_row(m, self._values) for m in ms]
        got = (ms[:], slots, *_summarise(slots))
        self._sides[side] = got
        return got

    def encode(
        self, g: Game, seat: int, match_totals: Sequence[int] | None = None
    ) -> npt.NDArray[np.float32]:
        """The observation of ``seat`` in ``g`` (a new array)."""
        if not self.layout.default:  # 3, 5 and 6 players, three packs: the reference, whole
            return encode_game(g, seat, match_totals)
        st = self._state[seat]
        if st is None:
            st = self._state[seat] = self._new_state()
        buf = st[0]
        r = self.rules
        rel = self._rel[seat]
        my_side = self._side[seat]
        hid = g.hidden[seat]
        hb: bytes | bytearray = g.hands[seat]
        hidden_poz = 0
        if hid is not None:
            hb = bytes(max(0, hb[c] - hid[c]) for c in range(NUM_TYPES))
            hidden_poz = sum(hid)
        gp = g.pile
        pile = gp if r.discard_pile_open else gp[-1:]
        fb = int.from_bytes
        u = self._deck - fb(hb, "big") - fb(g.table, "big")
        hand_n = g.hand_n
        ghidden = g.hidden
        pending_l = g.poz_pending
        known = g.known
        # the tail (hand_sizes … scores, see _LAYOUT_SPEC) as one list, written at once
        t = _TAIL_ZERO[:]
        t[0] = hand_n[seat]
        if hid is not None:
            t[_T_HIDDEN] = 1.0
        if pending_l[seat]:
            t[_T_PENDING] = 1.0
        kn: list[bytes | bytearray] = [_ZERO53, _ZERO53, _ZERO53]
        for s, k in self._others[seat]:
            kb = known[s]
            kn[k - 1] = kb
            u -= fb(kb, "big")
            t[k] = hand_n[s]
            if ghidden[s] is not None:
                t[_T_HIDDEN + k] = 1.0
            if pending_l[s]:
                t[_T_PENDING + k] = 1.0
        if pile:
            lanes = 0
            for c in pile:
                lanes += _LANE[c]
            u -= lanes
            pile_b = lanes.to_bytes(NUM_TYPES, "big")
            top_b = _ONE_HOT[pile[-1]]
        else:
            pile_b = top_b = _ZERO53
        # the meld blocks: each side summarised once per change, a seat's slots rewritten only where they changed
        melds = g.melds
        sides = self._sides
        raw = st[1]
        for j in (0, 1):
            side = my_side if j == 0 else 1 - my_side
            ms = melds[side]
            if len(ms) > MAX_SLOTS:
                ms = ms[:MAX_SLOTS]
            sd = sides[side]
            if sd[0] != ms:
                sd = self._side_summary(side, ms)
            old = st[2 + j]
            if old is not sd:
                base = (_O_MELDS[j]) * 4
                old_slots = old[1]
                new_slots = sd[1]
                for k, sl in enumerate(new_slots):
                    if k < len(old_slots) and old_slots[k] is sl:
                        continue
                    o = base + k * _ROW_BYTES
                    raw[o : o + _ROW_BYTES] = sl[0]
                if len(old_slots) > len(new_slots):
                    o = base + len(new_slots) * _ROW_BYTES
                    raw[o : base + len(old_slots) * _ROW_BYTES] = bytes(
                        (len(old_slots) - len(new_slots)) * _ROW_BYTES
                    )
                st[2 + j] = sd
        own = st[2]
        other = st[3]
        buf[:_COUNTS_END] = np.frombuffer(
            b"".join(
                (hb, kn[0], kn[1], kn[2], pile_b, top_b, u.to_bytes(NUM_TYPES, "big"), own[2], other[2])
            ),
            dtype=np.uint8,
        )
        turn = g.current_seat
        # the one-hot lone and top-to-use cards: the flag moves only when the card changes
        _move_flag(buf, st, 4, _O_LONE + g.lone if g.lone >= 0 and turn >= 0 else -1)
        _move_flag(buf, st, 5, _O_TOPUSE + g.top if g.top >= 0 and not g.top_used else -1)
        if turn >= 0:
            t[4 + rel[turn]] = 1.0
        ph = g.phase
        t[8 if ph == "draw" else 9 if ph == "play" else 10] = 1.0
        t[11:28] = (
            g.picked,
            g.drew,
            g.melded,
            g.opening,
            g.must_open,
            g.last_turn,
            g.timeout_called,
            g.redrawn,
            hidden_poz > 0,
            turn == seat,
            hidden_poz,
            len(g.stock),
            len(gp),
            g.laid,
            g.stalemate_run,
            g.turns,
            g.timeout_left,
        )
        for k, pz in enumerate(g.pozzetti[:3]):
            if pz is not None:
                t[28 + k] = 1.0
        pt = g.poz_taken
        t[31] = pt[my_side]
        t[32] = pt[1 - my_side]
        pb = g.poz_by
        x = pb[my_side]
        if x >= 0:
            t[33 + rel[x]] = 1.0
        x = pb[1 - my_side]
        if x >= 0:
            t[37 + rel[x]] = 1.0
        if match_totals is not None:
            t[49] = match_totals[my_side]
            t[50] = match_totals[1 - my_side]
        t[51] = own[3]
        t[52] = other[3]
        t[53] = own[4]
        t[54] = other[4]
        t[55] = own[5]
        t[56] = other[5]
        _TAIL_PACK.pack_into(raw, _TAIL * 4, *t)
        out: npt.NDArray[np.float32] = buf.copy()
        return out


# the tail of the observation: offsets within it (hand_sizes 0, to_act 4, phase 8, flags 11, counters 21,
# pozzetti 28, poz_taken 31, poz_by 33, hidden_seats 41, poz_pending 45, scores 49), all float32
_T_HIDDEN = _O_HIDDEN - _TAIL
_T_PENDING = _O_PENDING - _TAIL
_TAIL_ZERO: list[Any] = [0.0] * (_O_RULES - _TAIL)
_TAIL_PACK = struct.Struct(f"={_O_RULES - _TAIL}f")


def view_to_dict(view: View) -> dict[str, Any]:
    """The view as a JSON-ready dict: :meth:`burraco.View.to_json` (the "dict view" beside the tensor, for logging,
    debugging and agents that prefer structured input).

    >>> from burraco import Game, preset
    >>> d = view_to_dict(Game.new(preset("italian-2p"), seed=1).view(0))
    >>> d["seat"], d["phase"], len(d["hand"]), d["hand_sizes"], d["stock"]
    ('N', 'draw', 11, {'N': 11, 'S': 11}, 63)
    """
    return view.to_json()


__all__ = [
    "Encoder",
    "encode_game",
    "encode_view",
    "view_to_dict",
]

"""A fixed integer action space with masks, and fixed-shape observation tensors, for learning agents.

Actions
-------
Every action :meth:`burraco.Game.legal_actions` can list has one integer in ``range(NUM_ACTIONS)``; the layout is
documented in ``docs/research.md`` and in :data:`ACTION_LAYOUT`:

* ``draw``, ``pick``, ``redraw`` (house rule), then ``discard <card>`` for the 53 card types;
* ``meld <cards>``: one index per *meld template*, a multiset of cards that forms a valid meld under some rule
  set. Templates are grouped: sequences of hearts, diamonds, clubs, spades (2255 each: the suit's naturals, the
  same-suit 2 once or twice, at most one other wild), then sets of A, 2 (the house rule of sets of twos), 3 … K;
* ``add <k> <cards>``: meld slot ``k`` (1 … :data:`MAX_SLOTS`) times the template of the meld *after* the
  attachment, numbered within the meld's group (its suit, or its rank): the attached cards are that template minus
  the meld's cards. One block of :data:`ADD_BLOCK` indices per slot;
* ``swap <k> <card>`` (house rule): slot times the rank of the natural card.

A side can never hold more than 36 melds (108 cards, at least 3 a meld), so the space covers every action of every
supported rule set exactly: two packs, one wild per meld (the rules of every preset). Three packs (5 and 6
players, RULES.md §14.4) have a space of their own, with sets of up to three copies of a card and 54 slots: the
rules' :class:`Layout` (:func:`layout_for`), which every function here takes (the default is the two-pack space of
the constants). :func:`check_rules` refuses the rest (more packs, more wilds a meld).

>>> from burraco import Game, preset
>>> g = Game.new(preset("italian"), seed=13)
>>> g.apply("N pick")
>>> legal = g.legal_actions()
>>> codes = [encode_action(a, g.melds[0]) for a in legal]
>>> [str(decode_action(i, "N", g.melds[0])) for i in codes] == [str(a) for a in legal]
True
>>> encode_action(legal[-1], g.melds[0]) >= MELD_OFFSET, NUM_ACTIONS
(True, 96218)

Observations
------------
:func:`encode_view` turns a seat's :class:`~burraco.View` into a ``float32`` vector of :data:`OBS_SIZE`; the
layout is :data:`OBS_LAYOUT` (name, offset, size) and docs/research.md. Seats are relative to the observer in
playing order (self, next, partner, previous; in a two-player game the opponent is "next"), sides are own then
other. With 3, 5 and 6 players the rules' :class:`Layout` has a block per other seat and per side slot (the own
side first, then the others in playing order), and says who plays with whom now (the pairs of 3 and 5 players
form during the hand). :func:`encode_game` gives the same vector straight from a :class:`~burraco.Game` for one seat, faster (no
``View`` is built); it reads only what the seat's view holds, and the tests check that both agree on every state.
"""

from __future__ import annotations

import operator
import struct
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, SupportsIndex

import numpy as np
import numpy.typing as npt

from ..actions import ADD, DISCARD, DRAW, MELD, PICK, REDRAW, SWAP, Action
from ..cards import JOKER, NUM_TYPES
from ..melds import CLEAN, SEMICLEAN, SEQUENCE, Meld
from ..rules import BurracoNeeded, PickupRule, Rules

if TYPE_CHECKING:
    from ..game import Game
    from ..view import View


class EncodingError(ValueError):
    """An action or an index outside the fixed action space, or rules the space does not cover."""


# --------------------------------------------------------------------------------------------------------------
# meld templates
# --------------------------------------------------------------------------------------------------------------

#: melds one side can hold at most: 108 cards, at least 3 a meld
MAX_SLOTS = 36


def _seq_templates() -> list[tuple[int, int, int, int]]:
    """Every sequence multiset of one suit (suit-relative): ``(aces, same-suit 2s, bits of 3…K, other wild)``
    where other wild is 0 none, 1 joker, 2…4 the 2 of the suit 1…3 places after it. Valid when some placement
    of the naturals (ace low or high, the same-suit 2 natural or wild) makes a run with at most one gap and at
    most one wild filling it (the most permissive supported rules: two natural aces allowed)."""
    out: set[tuple[int, int, int, int]] = set()
    for lo in range(1, 15):
        for hi in range(lo + 1, 15):
            full = ((1 << (hi + 1)) - 1) & ~((1 << lo) - 1)
            holes = [0] + [1 << p for p in range(lo + 1, hi)]
            for hole in holes:
                mask = full & ~hole
                n = mask.bit_count()
                if n < 2:
                    continue
                for wild in range(6):  # 0 none, 1 joker, 2..4 other-suit 2, 5 the same-suit 2 as a wild
                    if hole and not wild:
                        continue
                    if wild == 0 and n < 3:
                        continue
                    if wild and not hole and lo == 1 and hi == 14:
                        continue  # a complete A…A run has no place for a wild
                    aces = (mask >> 1 & 1) + (mask >> 14 & 1)
                    twos = (mask >> 2 & 1) + (1 if wild == 5 else 0)
                    bits = (mask >> 3) & 0x7FF
                    out.add((aces, twos, bits, wild if wild < 5 else 0))
    return sorted(out)


def _set_templates(rank: int, copies: int = 2) -> list[tuple[int, int]]:
    """Every set multiset of one rank: ``(counts per suit in base copies+1, wild)`` with wild 0 none, 1 joker, 2…5
    the 2 of hearts … spades (a set of 2s, a house rule, takes only the joker as its wild). At least two naturals,
    three cards, one wild; ``copies`` of each card (the packs)."""
    out: list[tuple[int, int]] = []
    b = copies + 1
    for code in range(b**4):
        c = [code // (b * b * b) % b, code // (b * b) % b, code // b % b, code % b]
        n = sum(c)
        for wild in range(6 if rank != 2 else 2):
            if n < 2 or (wild == 0 and n < 3):
                continue
            out.append((code, wild))
    return out


_SEQ: list[tuple[int, int, int, int]] = _seq_templates()
_SEQ_INDEX: dict[tuple[int, int, int, int], int] = {k: i for i, k in enumerate(_SEQ)}

#: sequence templates per suit
SEQ_TEMPLATES = len(_SEQ)

#: template groups in index order: ``("seq", suit)`` for the four suits, then ``("set", rank)`` for A, 2, 3 … K
GROUPS: tuple[tuple[str, int], ...] = tuple(
    [("seq", s) for s in range(4)] + [("set", r) for r in range(1, 14)]
)


class _Templates:
    """The meld templates for ``copies`` copies of each card (the packs): the sequences are the same for every
    count (a sequence holds each natural once, the ace at both ends), the sets have up to ``copies`` of a card."""

    def __init__(self, copies: int) -> None:
        self.copies = copies
        self.sets: dict[int, list[tuple[int, int]]] = {r: _set_templates(r, copies) for r in range(1, 14)}
        self.set_index: dict[int, dict[tuple[int, int], int]] = {
            r: {k: i for i, k in enumerate(v)} for r, v in self.sets.items()
        }
        self.group_size = [SEQ_TEMPLATES] * 4 + [len(self.sets[r]) for r in range(1, 14)]
        self.group_offset: list[int] = []
        acc = 0
        for n in self.group_size:
            self.group_offset.append(acc)
            acc += n
        #: number of meld templates over all groups
        self.total = acc


_TP2 = _Templates(2)
_SETS = _TP2.sets
_SET_INDEX = _TP2.set_index
_GROUP_SIZE = _TP2.group_size
_GROUP_OFFSET = _TP2.group_offset
#: number of meld templates over all groups (two packs)
MELD_TEMPLATES = _TP2.total

DRAW_INDEX = 0
PICK_INDEX = 1
REDRAW_INDEX = 2
DISCARD_OFFSET = 3
MELD_OFFSET = DISCARD_OFFSET + NUM_TYPES
ADD_OFFSET = MELD_OFFSET + MELD_TEMPLATES
#: indices per slot in the ``add`` part: the largest group
ADD_BLOCK = max(_GROUP_SIZE)
SWAP_OFFSET = ADD_OFFSET + MAX_SLOTS * ADD_BLOCK
#: the size of the action space
NUM_ACTIONS = SWAP_OFFSET + MAX_SLOTS * 13

#: ``(part, first index, size)`` of the action space
ACTION_LAYOUT: tuple[tuple[str, int, int], ...] = (
    ("draw", DRAW_INDEX, 1),
    ("pick", PICK_INDEX, 1),
    ("redraw", REDRAW_INDEX, 1),
    ("discard", DISCARD_OFFSET, NUM_TYPES),
    ("meld", MELD_OFFSET, MELD_TEMPLATES),
    ("add", ADD_OFFSET, MAX_SLOTS * ADD_BLOCK),
    ("swap", SWAP_OFFSET, MAX_SLOTS * 13),
)


def check_rules(rules: Rules) -> None:
    """Raise :class:`EncodingError` for rules outside the fixed spaces: they cover 2 to 6 players, up to three
    packs and one wild per meld (every preset; :class:`Layout`)."""
    if not 2 <= rules.players <= 6:
        raise EncodingError(f"the research environments' spaces are laid out for 2 to 6 players, not {rules.players}")
    if rules.decks > 3 or rules.max_wilds != 1:
        raise EncodingError(
            "the fixed action space covers rules with at most three packs and one wild per meld "
            f"(these have {rules.decks} packs and {rules.max_wilds} wilds per meld: RULES.md §14.4 plays with "
            "three packs, and every preset with one wild per meld)"
        )


def _group_of_cards(cards: tuple[int, ...]) -> int:
    """The template group of a new meld's cards, decided as the engine does (naturals of one rank: a set)."""
    first = -1
    same = True
    count = 0
    suit = -1
    for c in cards:
        if c == JOKER or c % 13 == 1:
            continue
        count += 1
        if first < 0:
            first = c % 13
            suit = c // 13
        elif c % 13 != first:
            same = False
    if count == 0:
        return 4 + 1  # a set of 2s
    if count >= 2 and same:
        return 4 + first
    return suit


def _group_of_meld(m: Meld) -> int:
    return m.suit if m.kind == SEQUENCE else 4 + m.rank - 1


def _template(group: int, cards: tuple[int, ...], tp: _Templates = _TP2) -> int:
    """The index, within ``group``, of the template with exactly these cards; :class:`EncodingError` if none."""
    if group < 4:
        s = group
        aces = twos = bits = 0
        other = 0
        for c in cards:
            if c == JOKER:
                if other:
                    raise EncodingError(f"{cards} holds two wilds")
                other = 1
            elif c // 13 == s:
                r = c % 13
                if r == 0:
                    aces += 1
                elif r == 1:
                    twos += 1
                else:
                    if bits >> (r - 2) & 1:
                        raise EncodingError(f"{cards} holds a natural twice")
                    bits |= 1 << (r - 2)
            elif c % 13 == 1:
                if other:
                    raise EncodingError(f"{cards} holds two wilds")
                other = 1 + (c // 13 - s) % 4
            else:
                raise EncodingError(f"{cards} is not one suit")
        i = _SEQ_INDEX.get((aces, twos, bits, other))
    else:
        rank = group - 4 + 1
        cnt = [0, 0, 0, 0]
        wild = 0
        for c in cards:
            if c == JOKER:
                if wild:
                    raise EncodingError(f"{cards} holds two wilds")
                wild = 1
            elif c % 13 == rank - 1:
                cnt[c // 13] += 1
            elif c % 13 == 1 and rank != 2:
                if wild:
                    raise EncodingError(f"{cards} holds two wilds")
                wild = 2 + c // 13
            else:
                raise EncodingError(f"{cards} is not one rank")
        if max(cnt) > tp.copies:
            raise EncodingError(f"{cards}: more than {tp.copies} copies of a card")
        b = tp.copies + 1
        i = tp.set_index[rank].get((((cnt[0] * b + cnt[1]) * b + cnt[2]) * b + cnt[3], wild))
    if i is None:
        raise EncodingError(f"no meld template holds {cards}")
    return i


def _template_cards(group: int, i: int, tp: _Templates = _TP2) -> tuple[int, ...]:
    """The sorted cards of template ``i`` of ``group``."""
    out: list[int] = []
    if group < 4:
        s = group
        aces, twos, bits, other = _SEQ[i]
        base = s * 13
        out += [base] * aces + [base + 1] * twos
        out += [base + 2 + k for k in range(11) if bits >> k & 1]
        if other == 1:
            out.append(JOKER)
        elif other:
            out.append((s + other - 1) % 4 * 13 + 1)
    else:
        rank = group - 4 + 1
        code, wild = tp.sets[rank][i]
        b = tp.copies + 1
        cnt = [code // (b * b * b) % b, code // (b * b) % b, code // b % b, code % b]
        for s in range(4):
            out += [s * 13 + rank - 1] * cnt[s]
        if wild == 1:
            out.append(JOKER)
        elif wild:
            out.append((wild - 2) * 13 + 1)
    return tuple(sorted(out))


def _sub(big: tuple[int, ...], small: tuple[int, ...]) -> tuple[int, ...] | None:
    """The sorted multiset ``big - small``, or None when ``small`` is not inside ``big``."""
    rest = list(big)
    for c in small:
        try:
            rest.remove(c)
        except ValueError:
            return None
    return tuple(rest)


_MELD_CACHE: dict[tuple[int, ...], int] = {}
_ADD_CACHE: dict[tuple[tuple[int, ...], int, tuple[int, ...]], int] = {}
_ADD_BY_UID: dict[tuple[int, tuple[int, ...]], int] = {}


def encode_action(a: Action, melds: Sequence[Meld], layout: Layout | None = None) -> int:
    """The index of action ``a``; ``melds`` are the acting side's melds (needed for ``add`` and ``swap``);
    ``layout`` the space (:func:`layout_for` the rules; default the 2- and 4-player one, two packs)."""
    L = _DEFAULT if layout is None else layout
    v = a.verb
    if v == DISCARD:
        return DISCARD_OFFSET + a.cards[0]
    if v == MELD:
        mc = L.meld_cache
        got = mc.get(a.cards)
        if got is None:
            g = _group_of_cards(a.cards)
            got = MELD_OFFSET + L.tp.group_offset[g] + _template(g, a.cards, L.tp)
            if len(mc) > 500_000:
                mc.clear()
            mc[a.cards] = got
        return got
    slots = L.max_slots
    if v == ADD:
        k = a.meld
        if not 1 <= k <= min(len(melds), slots):
            raise EncodingError(f"{a}: no meld {k} (slots 1…{slots})")
        m = melds[k - 1]
        key = (m.cards, _group_of_meld(m), a.cards)
        ac = L.add_cache
        t = ac.get(key)
        if t is None:
            t = _template(key[1], tuple(sorted(m.cards + a.cards)), L.tp)
            if len(ac) > 500_000:
                ac.clear()
            ac[key] = t
        return L.add_offset + (k - 1) * L.add_block + t
    if v == DRAW:
        return DRAW_INDEX
    if v == PICK:
        return PICK_INDEX
    if v == REDRAW:
        return REDRAW_INDEX
    if v == SWAP:
        if not 1 <= a.meld <= slots:
            raise EncodingError(f"{a}: no meld {a.meld} (slots 1…{slots})")
        return L.swap_offset + (a.meld - 1) * 13 + a.cards[0] % 13
    raise EncodingError(f"{a}: not a player's action (a director's time-out has no index)")


def decode_action(
    index: SupportsIndex, seat: str, melds: Sequence[Meld], layout: Layout | None = None
) -> Action:
    """The action of ``seat`` (a seat letter) at ``index``; ``melds`` are its side's melds. The inverse of
    :func:`encode_action`; :class:`EncodingError` for an index that names no action in this state (an ``add`` to
    a slot the side does not have, or whose template does not contain the meld)."""
    L = _DEFAULT if layout is None else layout
    tp = L.tp
    i = operator.index(index)  # numpy integers too
    if not 0 <= i < L.num_actions:
        raise EncodingError(f"action index {i} is outside 0…{L.num_actions - 1}")
    if i == DRAW_INDEX:
        return Action(seat, DRAW)
    if i == PICK_INDEX:
        return Action(seat, PICK)
    if i == REDRAW_INDEX:
        return Action(seat, REDRAW)
    if i < MELD_OFFSET:
        return Action(seat, DISCARD, (i - DISCARD_OFFSET,))
    if i < L.add_offset:
        j = i - MELD_OFFSET
        g = max(k for k in range(len(GROUPS)) if tp.group_offset[k] <= j)
        return Action(seat, MELD, _template_cards(g, j - tp.group_offset[g], tp))
    if i < L.swap_offset:
        k, t = divmod(i - L.add_offset, L.add_block)
        if k >= len(melds):
            raise EncodingError(
                f"action index {i}: an attachment to meld {k + 1}, and the side has {len(melds)}"
            )
        m = melds[k]
        g = _group_of_meld(m)
        if t >= tp.group_size[g]:
            raise EncodingError(f"action index {i}: no template {t} for meld {k + 1}")
        added = _sub(_template_cards(g, t, tp), m.cards)
        if not added:
            raise EncodingError(f"action index {i}: its template does not extend meld {k + 1}")
        return Action(seat, ADD, added, k + 1)
    k, r = divmod(i - L.swap_offset, 13)
    if k >= len(melds) or melds[k].kind != SEQUENCE:
        raise EncodingError(f"action index {i}: a swap on meld {k + 1}, which is not a sequence of the side")
    return Action(seat, SWAP, (melds[k].suit * 13 + r,), k + 1)


def describe_index(index: SupportsIndex, layout: Layout | None = None) -> tuple[str, int, int]:
    """``(part, slot, position)`` of an index: the part of :data:`ACTION_LAYOUT`, the 1-based meld slot (``add``,
    ``swap``; else 0) and the position within the part (card type, template number, rank). Handy for factored
    policy heads."""
    L = _DEFAULT if layout is None else layout
    i = operator.index(index)  # numpy integers too
    if i < MELD_OFFSET:
        if i < DISCARD_OFFSET:
            return (("draw", "pick", "redraw")[i], 0, 0)
        return ("discard", 0, i - DISCARD_OFFSET)
    if i < L.add_offset:
        return ("meld", 0, i - MELD_OFFSET)
    if i < L.swap_offset:
        k, t = divmod(i - L.add_offset, L.add_block)
        return ("add", k + 1, t)
    if i < L.num_actions:
        k, r = divmod(i - L.swap_offset, 13)
        return ("swap", k + 1, r)
    raise EncodingError(f"action index {i} is outside 0…{L.num_actions - 1}")


def _index_slow(a: Action, melds: Sequence[Meld], layout: Layout | None = None) -> int:
    """:func:`encode_action`, remembering an attachment's template by the meld's unique id (melds are immutable:
    the same meld in any slot has the same templates)."""
    if a[1] == ADD:
        L = _DEFAULT if layout is None else layout
        k = a[3]
        if 1 <= k <= len(melds) and k <= L.max_slots:
            got = encode_action(a, melds, L)
            au = L.add_by_uid
            if len(au) > 500_000:
                au.clear()
            au[(melds[k - 1].uid, a[2])] = got - L.add_offset - (k - 1) * L.add_block
            return got
    return encode_action(a, melds, layout)


def legal_indices(legal: Sequence[Action], melds: Sequence[Meld], layout: Layout | None = None) -> list[int]:
    """The indices of ``legal`` (in the same order): :func:`encode_action` of each, with the common verbs inline
    and attachments cached by the meld's unique id (the native core writes the same indices from its own state:
    ``burraco._native.Encoding``)."""
    L = _DEFAULT if layout is None else layout
    out: list[int] = []
    append = out.append
    mc = L.meld_cache
    ac = L.add_by_uid
    slots = L.max_slots
    add_offset = L.add_offset
    add_block = L.add_block
    for a in legal:
        v = a[1]
        if v == DISCARD:
            append(DISCARD_OFFSET + a[2][0])
        elif v == DRAW:
            append(DRAW_INDEX)
        elif v == PICK:
            append(PICK_INDEX)
        elif v == MELD:
            got = mc.get(a[2])
            append(_index_slow(a, melds, L) if got is None else got)
        elif v == ADD:
            k = a[3]
            got = ac.get((melds[k - 1].uid, a[2])) if 1 <= k <= len(melds) and k <= slots else None
            append(_index_slow(a, melds, L) if got is None else add_offset + (k - 1) * add_block + got)
        else:
            append(_index_slow(a, melds, L))
    return out


def action_mask(
    legal: Sequence[Action], melds: Sequence[Meld], layout: Layout | None = None
) -> npt.NDArray[np.int8]:
    """An ``int8`` vector of the space's size (:data:`NUM_ACTIONS` by default) with 1 at every legal action's
    index."""
    L = _DEFAULT if layout is None else layout
    mask = np.zeros(L.num_actions, dtype=np.int8)
    if legal:
        mask[legal_indices(legal, melds, L)] = 1
    return mask


# --------------------------------------------------------------------------------------------------------------
# observations
# --------------------------------------------------------------------------------------------------------------

#: features of one meld row (see docs/research.md)
MELD_FEATURES = 50

_LAYOUT_SPEC: list[tuple[str, int, str]] = [
    ("hand", NUM_TYPES, "own hand: count of each card type it may look at"),
    ("known_next", NUM_TYPES, "cards the next seat was seen to pick up and still holds"),
    ("known_partner", NUM_TYPES, "the same for the partner (zeros with 2 players)"),
    ("known_previous", NUM_TYPES, "the same for the previous seat (zeros with 2 players)"),
    ("pile", NUM_TYPES, "counts of the visible discard pile (only the top card where the pile is closed)"),
    ("pile_top", NUM_TYPES, "one-hot top card of the pile"),
    ("unseen", NUM_TYPES, "counts of the cards this seat cannot locate"),
    ("table_own", NUM_TYPES, "counts of the cards in the own side's melds"),
    ("table_other", NUM_TYPES, "counts of the cards in the other side's melds"),
    ("melds_own", MAX_SLOTS * MELD_FEATURES, "own side's melds by slot, MELD_FEATURES each"),
    ("melds_other", MAX_SLOTS * MELD_FEATURES, "other side's melds by slot"),
    ("lone", NUM_TYPES, "one-hot card taken from a one-card pile this turn (may not be discarded back)"),
    ("top_to_use", NUM_TYPES, "one-hot top card of a picked-up pile that must still be used this turn"),
    ("hand_sizes", 4, "cards held: self, next, partner, previous"),
    ("to_act", 4, "one-hot seat to act (relative), all zero once the hand is over"),
    ("phase", 3, "one-hot draw, play, end"),
    (
        "flags",
        10,
        "picked, drew, melded, opening, must_open, last_turn, timeout_called, redrawn, "
        "hidden_pozzetto>0, is own turn",
    ),
    (
        "counters",
        7,
        "hidden pozzetto cards, stock size, pile size, points laid this turn, stalemate run, turns, "
        "turns left after a time-out (-1 none)",
    ),
    ("pozzetti", 3, "which dealt pozzetti are still on the table"),
    ("poz_taken", 2, "pozzetti taken: own side, other side"),
    ("poz_by", 8, "one-hot relative seat that took each side's first pozzetto (own side then other)"),
    ("hidden_seats", 4, "seats holding a pozzetto they have not seen yet (relative)"),
    ("poz_pending", 4, "seats whose pozzetto taken with the discard is not yet played (relative)"),
    (
        "scores",
        8,
        "match totals before this hand (own, other), card points on the table (own, other), "
        "side has a burraco (own, other), a clean one (own, other)",
    ),
    (
        "rules",
        10,
        "players==4, pile open, pick-up rule none / must open or attach / must use top card, clean "
        "burraco needed to close, closing needs a discard, first-meld minimum, up-card, sets allowed",
    ),
]

OBS_LAYOUT: tuple[tuple[str, int, int], ...]
_offs: list[tuple[str, int, int]] = []
_acc = 0
for _name, _size, _ in _LAYOUT_SPEC:
    _offs.append((_name, _acc, _size))
    _acc += _size
OBS_LAYOUT = tuple(_offs)
#: the length of the observation vector
OBS_SIZE = _acc
_O = {name: off for name, off, _ in OBS_LAYOUT}
#: one line per block: ``(name, size, meaning)``
OBS_DESCRIPTION: tuple[tuple[str, int, str], ...] = tuple(_LAYOUT_SPEC)

_O_HAND = _O["hand"]
_O_KNOWN = (_O["known_next"], _O["known_partner"], _O["known_previous"])
_O_PILE = _O["pile"]
_O_TOP = _O["pile_top"]
_O_UNSEEN = _O["unseen"]
_O_TABLE = (_O["table_own"], _O["table_other"])
_O_MELDS = (_O["melds_own"], _O["melds_other"])
_O_LONE = _O["lone"]
_O_TOPUSE = _O["top_to_use"]
_O_SIZES = _O["hand_sizes"]
_O_TOACT = _O["to_act"]
_O_PHASE = _O["phase"]
_O_FLAGS = _O["flags"]
_O_COUNT = _O["counters"]
_O_POZ = _O["pozzetti"]
_O_POZT = _O["poz_taken"]
_O_POZBY = _O["poz_by"]
_O_HIDDEN = _O["hidden_seats"]
_O_PENDING = _O["poz_pending"]
_O_SCORES = _O["scores"]
_O_RULES = _O["rules"]

#: one meld's row: its features as float32 bytes, its card points, whether it is a burraco, whether a clean one,
#: and its card counts as one integer of 53 byte lanes
_Slot = tuple[bytes, int, bool, bool, int]
#: one side's melds (at most MAX_SLOTS), their rows, table counts (53 bytes), points, has a burraco, a clean one
_Side = tuple[list[Meld], list[_Slot], bytes, int, bool, bool]
_ROW_BYTES = MELD_FEATURES * 4

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


class Layout:
    """The action space and the observation layout for one number of players and of packs
    (:func:`layout_for`). The 2- and 4-player layout of at most two packs is the module's constants
    (:data:`NUM_ACTIONS`, :data:`OBS_SIZE`, :data:`OBS_LAYOUT` …); the others (3, 5 and 6 players, three packs)
    have one block per other seat (relative, in playing order), one per side slot (the own side first, then the
    others in playing order of their nearest seat) and :data:`MAX_SLOTS` grown with the deck
    (a pack's 54 cards make 18 melds at most). See docs/research.md."""

    def __init__(self, players: int, decks: int) -> None:
        from ..game import initial_sides  # the engine's sides at the start of a hand

        copies = max(2, decks)
        #: the number of players and of packs this layout is for
        self.players = players
        self.decks = copies
        #: True for the 2- and 4-player layout of two packs (the module's constants)
        self.default = players in (2, 4) and copies == 2
        #: True when the action space is the two-pack one
        self.default_actions = copies == 2
        self.tp = _TP2 if copies == 2 else _Templates(copies)
        #: meld slots per side: one side can hold at most a third of the deck's cards as melds
        self.max_slots = 18 * copies
        self.meld_templates = self.tp.total
        self.add_offset = MELD_OFFSET + self.tp.total
        self.add_block = max(self.tp.group_size)
        self.swap_offset = self.add_offset + self.max_slots * self.add_block
        #: the size of the action space
        self.num_actions = self.swap_offset + self.max_slots * 13
        self.action_layout: tuple[tuple[str, int, int], ...] = (
            ("draw", DRAW_INDEX, 1),
            ("pick", PICK_INDEX, 1),
            ("redraw", REDRAW_INDEX, 1),
            ("discard", DISCARD_OFFSET, NUM_TYPES),
            ("meld", MELD_OFFSET, self.tp.total),
            ("add", self.add_offset, self.max_slots * self.add_block),
            ("swap", self.swap_offset, self.max_slots * 13),
        )
        if self.default_actions:  # the module's caches: the C legal_indices fills them too
            self.meld_cache: dict[tuple[int, ...], int] = _MELD_CACHE
            self.add_cache: dict[tuple[tuple[int, ...], int, tuple[int, ...]], int] = _ADD_CACHE
            self.add_by_uid: dict[tuple[int, tuple[int, ...]], int] = _ADD_BY_UID
        else:
            self.meld_cache, self.add_cache, self.add_by_uid = {}, {}, {}
        if self.default:
            #: relative seat places, side slots, pozzetto flags, match totals
            self.seats, self.side_slots, self.pozzetti, self.scorers = 4, 2, 3, 2
            #: one line per block: ``(name, size, meaning)``
            self.obs_description: tuple[tuple[str, int, str], ...] = OBS_DESCRIPTION
        else:
            n = players
            k = max(2, len(initial_sides(players)))
            self.seats, self.side_slots, self.pozzetti = n, k, max(3, k)
            self.scorers = n if players in (3, 5) else k
            self.obs_description = _generic_spec(n, k, self.pozzetti, self.scorers, self.max_slots)
        offs: list[tuple[str, int, int]] = []
        acc = 0
        for name, size, _ in self.obs_description:
            offs.append((name, acc, size))
            acc += size
        #: ``(name, offset, size)`` of every block, and the length of the observation vector
        self.obs_layout: tuple[tuple[str, int, int], ...] = tuple(offs)
        self.obs_size = acc
        self.offsets: dict[str, int] = {name: off for name, off, _ in offs}
        #: every player keeps a match total (3 and 5 players), else every side
        self.scorers_are_seats = players in (3, 5)
        # the blocks by the names the encoder writes them under (the 2/4-player layout names some differently)
        at = dict(self.offsets)
        at["OBS"] = self.obs_size
        if self.default:
            o = self.offsets
            at.update(
                {
                    "known_1": o["known_next"],
                    "known_2": o["known_partner"],
                    "known_3": o["known_previous"],
                    "table_0": o["table_own"],
                    "table_1": o["table_other"],
                    "melds_0": o["melds_own"],
                    "melds_1": o["melds_other"],
                    "match_totals": o["scores"],
                    "table_points": o["scores"] + 2,
                    "burraco": o["scores"] + 4,
                    "clean": o["scores"] + 6,
                }
            )
        self._at = at
        #: the offsets the native core's encoder takes (``burraco._native.Encoding``; -1 for a block the layout
        #: does not have)
        self.c_offsets: tuple[int, ...] = (
            *(at.get(k, -1) for k in _C_BLOCKS),
            self.seats,
            self.side_slots,
            self.pozzetti,
            self.max_slots,
            _ROW_BYTES,
        )

    def __repr__(self) -> str:
        return (
            f"Layout(players={self.players}, decks={self.decks}, obs_size={self.obs_size}, "
            f"num_actions={self.num_actions})"
        )


#: the blocks of :attr:`Layout.c_offsets`, in the order src/native/native.c reads them (then the relative places, the
#: side slots, the pozzetto flags, the meld slots and the bytes of a meld row)
_C_BLOCKS = (
    "OBS",
    "hand",
    "known_1",
    "pile",
    "pile_top",
    "unseen",
    "table_0",
    "melds_0",
    "lone",
    "top_to_use",
    "hand_sizes",
    "to_act",
    "phase",
    "flags",
    "counters",
    "pozzetti",
    "poz_taken",
    "poz_by",
    "hidden_seats",
    "poz_pending",
    "seat_side",
    "solo",
    "match_totals",
    "table_points",
    "burraco",
    "clean",
    "rules",
)


def _generic_spec(n: int, k: int, poz: int, scorers: int, slots: int) -> tuple[tuple[str, int, str], ...]:
    """The observation blocks of a layout for ``n`` players and ``k`` side slots (not the 2- and 4-player one)."""
    who = "relative seat (self, next … previous in playing order)"
    spec: list[tuple[str, int, str]] = [("hand", NUM_TYPES, "own hand: count of each card type it may look at")]
    spec += [
        (f"known_{i}", NUM_TYPES, f"cards the seat {i} places after in playing order was seen to pick up and holds")
        for i in range(1, n)
    ]
    spec += [
        ("pile", NUM_TYPES, "counts of the visible discard pile (only the top card where the pile is closed)"),
        ("pile_top", NUM_TYPES, "one-hot top card of the pile"),
        ("unseen", NUM_TYPES, "counts of the cards this seat cannot locate"),
    ]
    spec += [
        (f"table_{j}", NUM_TYPES, f"counts of the cards in side slot {j}'s melds (0 own side, then the others)")
        for j in range(k)
    ]
    spec += [(f"melds_{j}", slots * MELD_FEATURES, f"side slot {j}'s melds by slot") for j in range(k)]
    spec += [
        ("lone", NUM_TYPES, "one-hot card taken from a one-card pile this turn (may not be discarded back)"),
        ("top_to_use", NUM_TYPES, "one-hot top card of a picked-up pile that must still be used this turn"),
        ("hand_sizes", n, f"cards held, by {who}"),
        ("to_act", n, "one-hot relative seat to act, all zero once the hand is over"),
        ("phase", 3, "one-hot draw, play, end"),
        ("flags", 10, dict((x[0], x[2]) for x in _LAYOUT_SPEC)["flags"]),
        ("counters", 7, dict((x[0], x[2]) for x in _LAYOUT_SPEC)["counters"]),
        ("pozzetti", poz, "which dealt pozzetti are still on the table"),
        ("poz_taken", k, "pozzetti taken, by side slot"),
        ("poz_by", k * n, "per side slot, one-hot relative seat that took its first pozzetto"),
        ("hidden_seats", n, "seats holding a pozzetto they have not seen yet (relative)"),
        ("poz_pending", n, "seats whose pozzetto taken with the discard is not yet played (relative)"),
        ("seat_side", n * k, "per relative seat, one-hot side slot it plays in now (3, 5: pairs form in the hand)"),
        ("solo", n, "one-hot relative seat playing solo against the pairs (3 and 5 players), else zeros"),
        (
            "match_totals",
            scorers,
            "match totals before this hand: per relative seat with 3 and 5 players, per side slot otherwise",
        ),
        ("table_points", k, "card points on the table, by side slot"),
        ("burraco", k, "side has a burraco, by side slot"),
        ("clean", k, "side has a clean burraco, by side slot"),
        ("rules", 11, "the ten rule features of the 2- and 4-player layout, then the solo against pairs"),
    ]
    return tuple(spec)


_LAYOUTS: dict[tuple[int, int], Layout] = {}
#: the 2- and 4-player layout of two packs: the module's constants, the default of the functions here
_DEFAULT = Layout(4, 2)


def layout_for(rules: Rules) -> Layout:
    """The :class:`Layout` of these rules (by their number of players and of packs); :class:`EncodingError` for
    rules the spaces do not cover (:func:`check_rules`)."""
    check_rules(rules)
    got = _LAYOUTS.get((rules.players, rules.decks))
    if got is None:
        got = _LAYOUTS[(rules.players, rules.decks)] = Layout(rules.players, rules.decks)
    return got


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
    "Layout",
    "layout_for",
    "view_to_dict",
    "ACTION_LAYOUT",
    "ADD_BLOCK",
    "ADD_OFFSET",
    "DISCARD_OFFSET",
    "DRAW_INDEX",
    "EncodingError",
    "GROUPS",
    "MAX_SLOTS",
    "MELD_FEATURES",
    "MELD_OFFSET",
    "MELD_TEMPLATES",
    "NUM_ACTIONS",
    "OBS_DESCRIPTION",
    "OBS_LAYOUT",
    "OBS_SIZE",
    "PICK_INDEX",
    "REDRAW_INDEX",
    "SEQ_TEMPLATES",
    "SWAP_OFFSET",
    "action_mask",
    "check_rules",
    "decode_action",
    "describe_index",
    "encode_action",
    "encode_game",
    "encode_view",
    "legal_indices",
]

"""The fixed integer action space of the research environments: its parts, the meld templates, the rules it covers.

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
rules' :class:`~burraco.envs.layout.Layout` (:func:`~burraco.envs.layout.layout_for`); the constants here are the
two-pack space. :func:`check_rules` refuses the rest (more packs, more wilds a meld).

An action's index and back, the legal actions' indices and their mask are :mod:`burraco.envs.action_index`; the
native core reads the templates (``burraco/envs/native_env.py`` builds its tables from them).
"""

from __future__ import annotations

from ..cards import JOKER, NUM_TYPES
from ..melds import SEQUENCE, Meld
from ..rules import Rules


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


__all__ = [
    "ACTION_LAYOUT",
    "ADD_BLOCK",
    "ADD_OFFSET",
    "DISCARD_OFFSET",
    "DRAW_INDEX",
    "EncodingError",
    "GROUPS",
    "MAX_SLOTS",
    "MELD_OFFSET",
    "MELD_TEMPLATES",
    "NUM_ACTIONS",
    "PICK_INDEX",
    "REDRAW_INDEX",
    "SEQ_TEMPLATES",
    "SWAP_OFFSET",
    "check_rules",
]

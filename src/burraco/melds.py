"""Melds: sets and sequences with every subtlety of RULES.md §4–§5.

A sequence is stored as its suit, the bitmask of the positions its natural cards occupy (position 1 = low ace,
2…13 = ranks 2…K, 14 = high ace) and at most one wild card. Naturals never move (§0.1 "Attachments"); the wild's
role is re-derived from the cards after every change, so a wild moves or becomes natural exactly as §5.2–§5.7 say.
A set is its rank, its naturals and at most one wild.

Validation follows §4.5: a same-suit 2 is natural whenever it can be, then wilds are minimised. Every refusal is a
:class:`MeldError` whose message names the rule (``"5h 6h 7c is not a meld: 7c is not a heart and not a wild"``).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any, Final

from .cards import CARD_STR, JOKER, RANK_NAMES, SUIT_NAMES, SUITS, cards_str
from .messages import Message, MessageError, msg
from .rules import Rules


def _msg_text(cards: tuple[int, ...] | list[int]) -> str:
    """Cards for a message, in rank order (jokers last): ``5h 6h 7c``."""
    return cards_str(sorted(cards, key=lambda c: (99, 0) if c == JOKER else (c % 13, c // 13)))


_UIDS = itertools.count()

SET: Final = 0
SEQUENCE: Final = 1
KIND_NAMES: Final = ("set", "sequence")

CLEAN: Final = "clean"
SEMICLEAN: Final = "semiclean"
DIRTY: Final = "dirty"

FULL_POSITIONS: Final = 0b111111111111110  # bits 1…14


class MeldError(MessageError):
    """Cards that do not form a meld (or cannot be attached), with the rule that forbids it: ``msg`` is the
    :class:`~burraco.messages.Message` (code and parameters), ``str(err)`` its English text."""


#: builds the error of one meld or attachment from the reason it fails
_Fail = Callable[[Message], MeldError]


def _popcount(x: int) -> int:
    return x.bit_count()


def _pos_card(pos: int, suit: int) -> int:
    """The natural card that stands at ``pos`` in a sequence of ``suit``."""
    return suit * 13 + (0 if pos == 14 else pos - 1)


class Meld:
    """One meld on the table: an immutable value, shared by every game, view and cache that holds it (setting or
    deleting an attribute raises AttributeError). Build with :func:`make_meld` / :func:`attach`."""

    __slots__ = (
        "kind",
        "cards",
        "suit",
        "rank",
        "mask",
        "wild",
        "wild_pos",
        "size",
        "burraco",
        "naturals",
        "_hash",
        "uid",
    )

    kind: int
    cards: tuple[int, ...]
    suit: int  # sequences: the suit; sets: -1
    rank: int  # sets: the rank; sequences: 0
    mask: int  # sequences: natural positions; sets: 0
    wild: int  # the card used as a wild, or -1
    wild_pos: int  # sequences: position of a locked wild, 0 for a free one; sets: 0
    size: int
    burraco: str | None
    naturals: int  # number of natural cards
    _hash: int
    uid: int  # unique per meld object, never reused (a cheap cache key)

    def __repr__(self) -> str:
        return f"Meld({KIND_NAMES[self.kind]}: {cards_str(self.display_cards())})"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a meld is an immutable value: its {name!r} cannot be set")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a meld is an immutable value: its {name!r} cannot be deleted")

    def __reduce__(self) -> tuple[Callable[..., Meld], tuple[object, ...]]:
        """Pickled as its fields; loaded with a new :attr:`uid` (a uid is unique within one process only)."""
        fields = (self.kind, self.cards, self.suit, self.rank, self.mask, self.wild, self.wild_pos, self.naturals)
        return _load, (fields, self.burraco)

    def __copy__(self) -> Meld:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Meld:
        return self

    def __eq__(self, other: object) -> bool:
        """Two melds are equal when they hold the same cards in the same roles (naturals' places, the wild)."""
        if self is other:
            return True
        if not isinstance(other, Meld):
            return NotImplemented
        return (
            self._hash == other._hash
            and self.kind == other.kind
            and self.cards == other.cards
            and self.mask == other.mask
            and self.wild == other.wild
            and self.burraco == other.burraco
        )

    def __hash__(self) -> int:
        return self._hash

    @property
    def has_wild(self) -> bool:
        """True when a card is used as a wild (a same-suit 2 in its natural place is not one)."""
        return self.wild >= 0

    @property
    def free_wild(self) -> bool:
        """True when the meld's wild is at an end (it may move), False when locked in a gap or absent."""
        return self.wild >= 0 and self.kind == SEQUENCE and self.wild_pos == 0

    def span(self) -> tuple[int, int]:
        """Lowest and highest natural position of a sequence."""
        m = self.mask
        return (m & -m).bit_length() - 1, m.bit_length() - 1

    def wild_position(self) -> int:
        """Where a sequence's wild stands: its gap, or the low end (the high end when the low end is the ace)."""
        if self.wild < 0 or self.kind != SEQUENCE:
            return 0
        if self.wild_pos:
            return self.wild_pos
        lo, hi = self.span()
        return lo - 1 if lo > 1 else hi + 1

    def display_cards(self) -> list[int]:
        """The cards as laid out: a sequence low → high with its wild in place; a set naturals first, wild last."""
        if self.kind == SET:
            if self.wild < 0:
                return list(self.cards)
            nat = list(self.cards)
            nat.remove(self.wild)
            return nat + [self.wild]
        out: list[int] = []
        wp = self.wild_position()
        for p in range(1, 15):
            if self.mask >> p & 1:
                out.append(_pos_card(p, self.suit))
            elif p == wp:
                out.append(self.wild)
        return out

    def describe(self) -> str:
        """In words: ``"sequence of hearts 3-9 (clean burraco)"``."""
        if self.kind == SET:
            what = f"set of {RANK_NAMES[self.rank - 1]}s"
        else:
            what = f"sequence of {SUIT_NAMES[self.suit]}"
        b = f" ({self.burraco} burraco)" if self.burraco else ""
        return f"{what}: {cards_str(self.display_cards())}{b}"


def _new(
    kind: int,
    cards: tuple[int, ...],
    suit: int,
    rank: int,
    mask: int,
    wild: int,
    wild_pos: int,
    naturals: int,
    ctx: MeldRules,
) -> Meld:
    m = _building(kind, cards, suit, rank, mask, wild, wild_pos, naturals)
    m.burraco = ctx.classify(m)
    return _frozen(m)


def _load(fields: tuple[int, tuple[int, ...], int, int, int, int, int, int], burraco: str | None) -> Meld:
    """A pickled meld (:meth:`Meld.__reduce__`), with a new uid."""
    m = _building(*fields)
    m.burraco = burraco
    return _frozen(m)


class _Building:
    """A meld while it is filled in: the same slots as :class:`Meld` without its refusal to be set; one
    ``__class__`` assignment (:func:`_frozen`) then makes it a :class:`Meld` (five times cheaper than setting every
    field of a Meld through ``object.__setattr__``)."""

    __slots__ = Meld.__slots__

    kind: int
    cards: tuple[int, ...]
    suit: int
    rank: int
    mask: int
    wild: int
    wild_pos: int
    size: int
    burraco: str | None
    naturals: int
    _hash: int
    uid: int


def _building(
    kind: int, cards: tuple[int, ...], suit: int, rank: int, mask: int, wild: int, wild_pos: int, naturals: int
) -> _Building:
    m = _Building()
    m.kind = kind
    m.cards = cards
    m.suit = suit
    m.rank = rank
    m.mask = mask
    m.wild = wild
    m.wild_pos = wild_pos
    m.size = len(cards)
    m.naturals = naturals
    m._hash = hash((kind, cards, mask, wild))
    m.uid = next(_UIDS)
    return m


def _frozen(m: _Building) -> Meld:
    m.__class__ = Meld  # type: ignore[assignment]  # the same slots: from here on every field is fixed
    return m  # type: ignore[return-value]


class MeldRules:
    """The meld-related parameters of a :class:`Rules`, with caches of validated melds."""

    __slots__ = (
        "rules",
        "max_wilds",
        "max_set",
        "max_seq",
        "two_aces",
        "set_ranks",
        "set_of_twos",
        "min_len",
        "semiclean",
        "at_end_only",
        "_new_cache",
        "_add_cache",
        "_singles_cache",
    )

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.max_wilds = rules.max_wilds
        self.max_set = rules.max_set_size
        self.max_seq = rules.max_sequence_len
        self.two_aces = rules.two_natural_aces
        self.set_ranks = rules.allowed_set_ranks
        self.set_of_twos = rules.allow_set_of_twos
        self.min_len = rules.burraco_min_len
        self.semiclean = rules.semiclean
        self.at_end_only = rules.semipulito_wild_at_end_only
        self._new_cache: dict[tuple[int, ...], Meld | Message] = {}
        self._add_cache: dict[tuple[int, tuple[int, ...], int, int, tuple[int, ...]], Meld | Message] = {}
        self._singles_cache: dict[tuple[int, tuple[int, ...], int, int], int] = {}

    # ----- classification (§4.8) ------------------------------------------------------------------------------
    def classify(self, m: Meld | _Building) -> str | None:
        """Burraco class re-derived from the cards: None below the minimum length, else clean/semiclean/dirty."""
        if m.size < self.min_len:
            return None
        if m.wild < 0:
            return CLEAN
        if not self.semiclean:
            return DIRTY
        if m.kind == SET:
            return SEMICLEAN if m.naturals >= 7 else DIRTY
        if m.wild_pos == 0:  # free wild at an end: beside the whole natural run
            return SEMICLEAN if m.naturals >= 7 else DIRTY
        if self.at_end_only:
            return DIRTY
        p = m.wild_pos
        below = (m.mask & ((1 << p) - 1)).bit_count()  # naturals below a locked wild are contiguous
        above = (m.mask >> (p + 1)).bit_count()
        return SEMICLEAN if below >= 7 or above >= 7 else DIRTY

    # ----- new melds ------------------------------------------------------------------------------------------
    def make(self, cards: tuple[int, ...]) -> Meld:
        """The meld formed by ``cards`` (sorted tuple of card types), or :class:`MeldError`."""
        got = self._new_cache.get(cards)
        if got is None:
            try:
                got = self._make(cards)
            except MeldError as e:
                got = e.msg
            if len(self._new_cache) > 200_000:
                self._new_cache.clear()
            self._new_cache[cards] = got
        if isinstance(got, Message):
            raise MeldError(got)
        return got

    def _make(self, cards: tuple[int, ...]) -> Meld:
        def fail(reason: Message) -> MeldError:
            return MeldError(msg("not_a_meld", cards=_msg_text(cards), reason=reason))

        if len(cards) < 3:
            raise fail(msg("too_few_cards"))
        others = [c for c in cards if c != JOKER and c % 13 != 1]
        if not others:
            twos = [c for c in cards if c != JOKER]
            if len(twos) >= 2 and self.set_of_twos:
                return self._make_set(cards, twos, fail)
            if len(twos) == len(cards):
                raise fail(msg("set_of_twos"))
            raise fail(
                msg("only_wilds", count=len(cards) - 1 if any(c != JOKER for c in cards) else len(cards))
            )
        # naturals of one rank make a set (a sequence cannot hold two naturals of one rank, but for A…A,
        # which needs 14 naturals); otherwise it must be a sequence
        first = others[0] % 13
        if len(others) >= 2 and all(c % 13 == first for c in others):
            return self._make_set(cards, others, fail)
        return self._make_seq(cards, others, fail)

    def _make_set(self, cards: tuple[int, ...], others: list[int], fail: _Fail) -> Meld:
        rank = others[0] % 13 + 1
        if not self.set_ranks:
            raise fail(msg("no_sets"))
        if rank not in self.set_ranks:
            raise fail(msg("set_rank_forbidden", rank=rank, allowed=tuple(sorted(self.set_ranks))))
        if rank == 2:
            wilds = [c for c in cards if c == JOKER]
        else:
            wilds = [c for c in cards if c == JOKER or c % 13 == 1]
        if len(wilds) > self.max_wilds:
            raise fail(msg("set_wilds", count=len(wilds), wilds=cards_str(wilds)))
        if len(cards) > self.max_set:
            raise fail(msg("set_too_long", max=self.max_set))
        return _new(SET, cards, -1, rank, 0, wilds[0] if wilds else -1, 0, len(cards) - len(wilds), self)

    def _make_seq(self, cards: tuple[int, ...], others: list[int], fail: _Fail) -> Meld:
        suit = others[0] // 13
        for c in others:
            if c // 13 != suit:
                ranks = [o % 13 for o in others]
                if len(set(ranks)) < len(ranks):  # two cards of one rank in other suits: neither kind fits
                    raise fail(msg("rank_or_suit"))
                raise fail(msg("wrong_suit", card=CARD_STR[c], suit=SUITS[suit]))
        return self._seq(cards, suit, 0, -1, list(cards), fail, new=True)

    # ----- the sequence solver --------------------------------------------------------------------------------
    def _seq(
        self,
        cards: tuple[int, ...],
        suit: int,
        fixed: int,
        old_wild: int,
        added: list[int],
        fail: _Fail,
        new: bool,
    ) -> Meld:  # noqa: C901 - one solver, kept in one place
        """Interpret a sequence: ``fixed`` natural positions stay; ``added`` cards (plus ``old_wild``) are placed.

        Tries every same-suit 2 as the natural 2 first, then as a wild; returns the first valid interpretation,
        so a natural 2 is preferred and wilds are minimised (§4.4.6).
        """
        two = suit * 13 + 1
        ace = suit * 13
        positions = fixed
        aces = 0
        wilds: list[int] = []
        twos_s = 0
        for c in added:
            if c == JOKER:
                wilds.append(c)
            elif c == two:
                twos_s += 1
            elif c % 13 == 1:
                wilds.append(c)
            elif c // 13 != suit:
                raise fail(msg("wrong_suit", card=CARD_STR[c], suit=SUITS[suit]))
            elif c == ace:
                aces += 1
            else:
                p = c % 13 + 1
                if positions >> p & 1:
                    if new:
                        raise fail(msg("twice_in_sequence", card=CARD_STR[c]))
                    raise fail(msg("meld_has_card", card=CARD_STR[c]))
                positions |= 1 << p
        if old_wild == two:
            twos_s += 1
        elif old_wild >= 0:
            wilds.insert(0, old_wild)
        # ace placements
        if aces == 0:
            ace_opts = [0]
        elif aces == 1:
            ace_opts = [1 << 1, 1 << 14]
        elif aces == 2:
            if not self.two_aces:
                raise fail(msg("one_ace"))
            ace_opts = [(1 << 1) | (1 << 14)]
        else:
            raise fail(msg("too_many_aces"))
        # natural-2 options: one same-suit 2 natural (if position 2 is free), then none
        nat2_opts = [1, 0] if twos_s and not (positions >> 2 & 1) else [0]
        reason: Message | None = None
        for nat2 in nat2_opts:
            w = len(wilds) + twos_s - nat2
            if w > self.max_wilds:
                reason = reason or msg("sequence_wilds", count=w)
                continue
            for ap in ace_opts:
                if positions & ap:
                    reason = reason or msg("ace_place_taken")
                    continue
                mask = positions | ap | (4 if nat2 else 0)
                if not self.two_aces and mask & 2 and mask >> 14 & 1:
                    reason = msg("one_ace")
                    continue
                if mask == 0:
                    continue
                lo = (mask & -mask).bit_length() - 1
                hi = mask.bit_length() - 1
                n = mask.bit_count()
                gaps = hi - lo + 1 - n
                if gaps > w:
                    reason = msg("gaps", gaps=gaps, wilds=w)
                    continue
                if gaps == 0 and w == 1 and lo == 1 and hi == 14:
                    reason = msg("sequence_complete")
                    continue
                if n < 2:
                    reason = msg("few_naturals")
                    continue
                size = n + w
                if size > self.max_seq:
                    reason = msg("sequence_too_long", max=self.max_seq)
                    continue
                if size < 3:
                    reason = msg("too_few_cards")
                    continue
                wild = -1
                if w:
                    if wilds:
                        wild = wilds[0]
                    else:
                        wild = two
                wild_pos = 0
                if gaps:
                    gap_mask = ((1 << (hi + 1)) - (1 << lo)) & ~mask
                    wild_pos = gap_mask.bit_length() - 1
                return _new(SEQUENCE, cards, suit, 0, mask, wild, wild_pos, n, self)
        raise fail(reason or msg("few_naturals"))

    def place(self, suit: int, mask: int, cards: tuple[int, ...]) -> Meld:
        """A clean sequence with natural positions ``mask`` (after a swap took its wild back)."""
        return _new(SEQUENCE, cards, suit, 0, mask, -1, 0, mask.bit_count(), self)

    # ----- attachments ----------------------------------------------------------------------------------------
    def attach(self, meld: Meld, added: tuple[int, ...]) -> Meld:
        """The meld after attaching ``added`` (sorted) from a hand, or :class:`MeldError` (§5.4, §0.1)."""
        key = (meld.kind, meld.cards, meld.mask, meld.wild, added)
        got = self._add_cache.get(key)
        if got is None:
            try:
                got = self._attach(meld, added)
            except MeldError as e:
                got = e.msg
            if len(self._add_cache) > 200_000:
                self._add_cache.clear()
            self._add_cache[key] = got
        if isinstance(got, Message):
            raise MeldError(got)
        return got

    def singles(self, meld: Meld) -> int:
        """Bitmask over card types (bit ``c``) of the single cards that :meth:`attach` would accept on ``meld``.

        Cached per meld; a fast answer to "does this card fit that meld" for players and hints.
        """
        key = (meld.kind, meld.cards, meld.mask, meld.wild)
        got = self._singles_cache.get(key)
        if got is None:
            got = 0
            # only a natural of the meld's rank (set) or suit (sequence), or a wild, can ever be attached
            if meld.kind == SET:
                cands = [s * 13 + meld.rank - 1 for s in range(4)]
            else:
                cands = [meld.suit * 13 + r for r in range(13)]
            cands += [s * 13 + 1 for s in range(4)] + [JOKER]
            for c in set(cands):
                try:
                    self.attach(meld, (c,))
                except MeldError:
                    continue
                got |= 1 << c
            if len(self._singles_cache) > 100_000:
                self._singles_cache.clear()
            self._singles_cache[key] = got
        return got

    def _attach(self, meld: Meld, added: tuple[int, ...]) -> Meld:
        cards = tuple(sorted(meld.cards + added))

        def fail(reason: Message) -> MeldError:
            return MeldError(
                msg("cannot_add", cards=_msg_text(added), meld=cards_str(meld.display_cards()), reason=reason)
            )

        if meld.kind == SET:
            wilds = 0 if meld.wild < 0 else 1
            twos_natural = meld.rank == 2
            for c in added:
                if c == JOKER or (c % 13 == 1 and not twos_natural):
                    wilds += 1
                elif c % 13 + 1 != meld.rank:
                    raise fail(msg("wrong_rank", card=CARD_STR[c], rank=meld.rank))
            if wilds > self.max_wilds:
                raise fail(msg("set_would_hold_wilds", count=wilds))
            if len(cards) > self.max_set:
                raise fail(msg("set_too_long", max=self.max_set))
            w = meld.wild
            if w < 0:
                for c in added:
                    if c == JOKER or (c % 13 == 1 and not twos_natural):
                        w = c
            nat_added = sum(1 for c in added if c != JOKER and (c % 13 != 1 or twos_natural))
            return _new(SET, cards, -1, meld.rank, 0, w, 0, meld.naturals + nat_added, self)
        return self._seq(cards, meld.suit, meld.mask, meld.wild, list(added), fail, new=False)


_CTX: dict[Rules, MeldRules] = {}


def meld_rules(rules: Rules) -> MeldRules:
    """The (cached) :class:`MeldRules` of a rule set."""
    ctx = _CTX.get(rules)
    if ctx is None:
        ctx = _CTX[rules] = MeldRules(rules)
    return ctx


def make_meld(cards: list[int] | tuple[int, ...], rules: Rules) -> Meld:
    """Validate ``cards`` as a new meld under ``rules`` (RULES.md §4.5)."""
    return meld_rules(rules).make(tuple(sorted(cards)))


def attach(meld: Meld, added: list[int] | tuple[int, ...], rules: Rules) -> Meld:
    """Validate attaching ``added`` to ``meld`` under ``rules`` (RULES.md §5.4)."""
    return meld_rules(rules).attach(meld, tuple(sorted(added)))


def burraco_bonus(meld: Meld, rules: Rules) -> int:
    """The burraco bonus ``meld`` scores as it stands (§10.1): 0 below a burraco, else by its class; with
    ``extra_honours`` a clean 13-natural sequence scores ``bonus_ace_to_king`` and A…A ``bonus_ace_to_ace``."""
    b = meld.burraco
    if b is None:
        return 0
    if b == CLEAN:
        if rules.extra_honours and meld.kind == SEQUENCE:
            if meld.mask == 0b111111111111110:
                return rules.bonus_ace_to_ace
            if meld.naturals >= 13:
                return rules.bonus_ace_to_king
        return rules.bonus_clean
    if b == SEMICLEAN:
        return rules.bonus_semiclean
    return rules.bonus_dirty


def meld_points(meld: Meld, values: tuple[int, ...]) -> int:
    """Card points of a meld (every card at face value, §1.3)."""
    return sum(values[c] for c in meld.cards)


def meld_json(m: Meld) -> dict[str, Any]:
    """A meld as the replay result writes it (``cards``, ``kind``, ``wild``, ``burraco``; RECORDS.md §5)."""
    return {
        "cards": [CARD_STR[c] for c in m.display_cards()],
        "kind": "set" if m.kind == SET else "sequence",
        "wild": m.wild >= 0,
        "burraco": m.burraco,
    }

"""Generation of every distinct new meld and attachment a hand allows, with caches.

What a hand can meld in one suit depends only on that suit's 13 counts and on which wild cards it holds; what it can
attach to a meld depends only on the meld and the same counts. Both are computed once per key, validated by the
meld solver (so the generator and :func:`burraco.melds.make_meld` can never disagree), and cached per rule set.
"""

from __future__ import annotations

from .cards import JOKER
from .melds import SET, Meld, MeldError, MeldRules

WILDS = (JOKER, 1, 14, 27, 40)  # joker, 2h, 2d, 2c, 2s

Cands = list[tuple[tuple[int, ...], Meld]]
#: sorted card tuples (new melds or the cards added to a meld)
Melds = tuple[tuple[int, ...], ...]
#: new sequences: (sorted cards, natural-positions mask)
Seqs = tuple[tuple[tuple[int, ...], int], ...]


def wild_sig(h: bytes | bytearray | list[int]) -> int:
    """Which wild card types a hand holds, as 5 bits (joker, 2h, 2d, 2c, 2s)."""
    return (h[52] > 0) | (h[1] > 0) << 1 | (h[14] > 0) << 2 | (h[27] > 0) << 3 | (h[40] > 0) << 4


def _wild_list(sig: int) -> list[int]:
    return [WILDS[i] for i in range(5) if sig >> i & 1]


class Generator:
    """Cached candidate generation for one rule set."""

    __slots__ = ("ctx", "_seq", "_seq0", "_set", "_add", "_add1", "_ranks", "_shapes", "_exp", "_exp2")

    def __init__(self, ctx: MeldRules) -> None:
        self.ctx = ctx
        # every cached result is a tuple: immutable (callers share it) and, holding only tuples of ints, untracked
        # by the cyclic garbage collector once it has seen it (tens of thousands of cached lists made every full
        # collection walk them all)
        self._seq: dict[tuple[int, bool], Seqs] = {}
        self._seq0: dict[tuple[bytes, int, int], Seqs] = {}
        self._set: dict[tuple[int, bytes, int], Melds] = {}
        self._add: dict[tuple[object, ...], Melds] = {}
        self._ranks: dict[bytes, tuple[int, ...]] = {}
        self._exp: dict[tuple[object, ...], Melds] = {}
        self._exp2: dict[tuple[object, ...], Seqs] = {}
        self._shapes: dict[tuple[bytes, bool, int, bool], tuple[tuple[bytes, bool], ...]] = {}
        self._add1: dict[tuple[int, bytes, int], Melds] = {}

    def _trim(self) -> None:
        for d in (self._seq, self._set, self._add, self._add1):
            if len(d) > 300_000:
                d.clear()

    # ----- new sequences ------------------------------------------------------------------------------------------
    def sequences(self, suit: int, cs: bytes, sig: int) -> Seqs:
        """Every valid new sequence in ``suit`` from the suit's counts ``cs`` (A, 2, 3 … K) and wilds ``sig``, as
        (sorted cards, natural-positions mask)."""
        k0 = (cs, sig, suit)
        got0 = self._seq0.get(k0)
        if got0 is not None:
            return got0
        if len(self._seq0) > 300_000:
            self._seq0.clear()
        # a second copy of 3…K changes nothing (a sequence holds each position once): normalise it away; the
        # result is computed once for hearts with a placeholder for "a wild other than the suit's own 2"
        n = int.from_bytes(cs, "big")
        norm = (n & _HEAD) | ((n | (n >> 1)) & _LOW1)
        filt = _ISOLATED.get(norm)
        if filt is None:
            filt = _ISOLATED[norm] = _drop_isolated(norm)
        own = 2 << suit
        any_other = bool(sig & ~own)
        # with no ace the answer slides along the suit: start the lowest card at 3 (at 5 when the 2 is held, whose
        # natural place must stay out of reach); the results slide back up in the expansion
        shift = 0
        if not filt & _ACE_LANE:
            low = _LOWEST.get(filt)
            if low is None:
                low = _LOWEST[filt] = _lowest_position(filt)
            base = 5 if filt & _TWO_LANE else 3
            if low > base:
                shift = low - base
                filt = (filt & _TWO_LANE) | ((filt & _POS_LANES) << (8 * shift))
        key = (filt, any_other)
        canon = self._seq.get(key)
        if canon is None:
            self._trim()
            canon = self._seq[key] = tuple(self._sequences(filt.to_bytes(13, "big"), any_other))
        if not canon:
            got0 = self._seq0[k0] = ()
            return got0
        others = sig & ~own
        ek2 = (key, shift, suit, others)
        got0 = self._exp2.get(ek2)
        if got0 is None:
            if len(self._exp2) > 300_000:
                self._exp2.clear()
            if shift:  # naturals (3…K) and their positions slide back up; the 2 and the placeholder are wilds
                canon = tuple(
                    (tuple(sorted(c if c < 2 else c + shift for c in t)), mk << shift) for t, mk in canon
                )
            got0 = self._exp2[ek2] = tuple(_expand(canon, suit, _others(sig, own)))
        self._seq0[k0] = got0
        return got0

    def _sequences(self, cs: bytes, any_other: bool) -> list[tuple[tuple[int, ...], int]]:
        """New sequences in hearts (suit 0) with ``PH`` standing for any wild but the 2 of hearts."""
        ctx = self.ctx
        avail = [False] * 16
        for p in range(2, 14):
            avail[p] = cs[p - 1] > 0
        avail[1] = avail[14] = cs[0] > 0
        two = 1
        out: list[tuple[tuple[int, ...], int]] = []
        seen: set[tuple[int, ...]] = set()

        def emit(t: tuple[int, ...]) -> None:
            if t in seen:
                return
            seen.add(t)
            probe = tuple(sorted(JOKER if c == PH else c for c in t))
            try:
                out.append((t, ctx.make(probe).mask))
            except MeldError:
                pass

        for a in range(1, 14):
            if not avail[a]:
                continue
            missing = 0
            miss_pos = 0
            for b in range(a + 1, 15):
                if not avail[b]:
                    missing += 1
                    miss_pos = b
                    if missing > 1:
                        break
                    continue
                if a == 1 and b == 14 and not (ctx.two_aces and cs[0] >= 2):
                    break
                holes = [miss_pos] if missing else [0, *range(a + 1, b)]
                for hole in holes:
                    nats = [p for p in range(a, b + 1) if p != hole]
                    n = len(nats)
                    if n < 2:
                        continue
                    cards = [0 if p == 14 else p - 1 for p in nats]
                    two_used = 1 if 2 in nats else 0
                    ws = [PH] if any_other else []
                    if cs[1] - two_used >= 1:
                        ws.append(two)
                    if hole == 0:
                        if n >= 3:
                            emit(tuple(sorted(cards)))
                        if a > 1 or b < 14:
                            for w in ws:
                                emit(tuple(sorted([*cards, w])))
                    else:
                        for w in ws:
                            emit(tuple(sorted([*cards, w])))
        return out

    # ----- new sets -----------------------------------------------------------------------------------------------
    def set_candidates(self, tots: bytes, need: int) -> tuple[int, ...]:
        """The ranks allowed for sets of which the hand holds at least ``need`` cards (``tots``: cards per rank)."""
        pattern = tots.translate(_AT_LEAST[need])
        got = self._ranks.get(pattern)
        if got is None:
            allowed = self.ctx.set_ranks
            got = self._ranks[pattern] = tuple(r for r in range(1, 14) if pattern[r - 1] and r in allowed)
        return got

    def sets(self, rank: int, cnt: bytes, sig: int) -> Melds:
        """Every valid new set of ``rank`` from its counts per suit ``cnt`` and wilds ``sig`` (§4.3)."""
        key = (rank, cnt, sig)
        got = self._set.get(key)
        if got is None:
            self._trim()
            if rank == 2:  # a set of 2s (only where the rules allow one): let the solver decide
                got = tuple(t for t, _ in self._sets_solver(rank, cnt, sig))
            else:
                got = _expand_sets(self._set_shapes(cnt, False, 0, bool(sig)), rank - 1, _wild_list(sig))
            self._set[key] = got
        return got

    def _set_shapes(
        self, cnt: bytes, has_wild: bool, size: int, any_wild: bool
    ) -> tuple[tuple[bytes, bool], ...]:
        """Shapes of a new set (``size`` 0) or of cards added to a set of ``size`` cards: naturals per suit and
        whether a wild comes too. A set holds naturals of one rank and at most one wild, 3 to ``max_set`` cards."""
        key = (cnt, has_wild, size, any_wild)
        got = self._shapes.get(key)
        if got is not None:
            return got
        ctx = self.ctx
        out: list[tuple[bytes, bool]] = []
        for a in range(cnt[0] + 1):
            for b in range(cnt[1] + 1):
                for c in range(cnt[2] + 1):
                    for d in range(cnt[3] + 1):
                        k = a + b + c + d
                        shape = bytes((a, b, c, d))
                        if size == 0:  # a new set: at least two naturals
                            if k < 2:
                                continue
                            if 3 <= k <= ctx.max_set:
                                out.append((shape, False))
                            if any_wild and ctx.max_wilds >= 1 and k + 1 <= ctx.max_set:
                                out.append((shape, True))
                        else:
                            if k and size + k <= ctx.max_set:
                                out.append((shape, False))
                            if any_wild and not has_wild and size + k + 1 <= ctx.max_set:
                                out.append((shape, True))
        got = self._shapes[key] = tuple(out)
        return got

    def _sets_solver(self, rank: int, cnt: bytes, sig: int) -> Cands:
        ctx = self.ctx
        base = rank - 1
        out: Cands = []
        wilds = _wild_list(sig)
        for nat in _sub_multisets(cnt, base):
            k = len(nat)
            if k < 2:
                continue
            cands = [nat] if k >= 3 else []
            cands += [tuple(sorted((*nat, w))) for w in wilds if _spare(w, nat, cnt, base)]
            for t in cands:
                try:
                    out.append((t, ctx.make(t)))
                except MeldError:
                    pass
        return out

    # ----- attachments --------------------------------------------------------------------------------------------
    def additions(self, m: Meld, counts: bytes, sig: int) -> Melds:
        """Every valid attachment to ``m`` from a hand with ``counts`` (the suit's 13 counts for a sequence, the
        rank's 4 counts for a set) and wilds ``sig``, as sorted tuples of the cards added.

        The cache key keeps only what validity depends on: for a set its rank, size and whether it has a wild; for a
        sequence its natural positions and whether its wild is the suit's own 2, with the counts of positions the
        meld already occupies dropped. The resulting meld is built on demand (:meth:`MeldRules.attach`).
        """
        k1 = (m.uid, counts, sig)
        got1 = self._add1.get(k1)
        if got1 is not None:
            return got1
        if len(self._add1) > 300_000:
            self._add1.clear()
        if m.kind == SET and m.rank != 2:
            shapes = self._set_shapes(counts, m.wild >= 0, m.size, bool(sig))
            got1 = self._add1[k1] = _expand_sets(shapes, m.rank - 1, _wild_list(sig)) if shapes else ()
            return got1
        if m.kind == SET:
            key: tuple[object, ...] = (0, m.rank, m.size, m.wild >= 0, int.from_bytes(counts, "big"), sig)
        else:
            # only the positions the meld can reach matter: the block may extend past at most one missing card
            mask = m.mask
            w = m.wild
            suit = m.suit
            w0_two = w == suit * 13 + 1
            ace = counts[0]
            two = counts[1]
            nz = counts.translate(_NZ)
            av = _AV.get(nz)
            if av is None:
                av = _AV[nz] = _avail_bits(nz)
            if w0_two:
                av |= 4
            lo = (mask & -mask).bit_length() - 1
            hi = mask.bit_length() - 1
            miss = ~av & ((1 << lo) - 2)  # missing positions below the block
            left = 1
            if miss:
                rest = miss & ((1 << (miss.bit_length() - 1)) - 1)
                if rest:
                    left = rest.bit_length()
            miss = ~av & 0x7FFF & ~((1 << (hi + 1)) - 1)  # missing positions above it
            right = 14
            if miss:
                rest = miss & (miss - 1)
                if rest:
                    right = (rest & -rest).bit_length() - 2
            bits = av & ((1 << (right + 1)) - (1 << left)) & ~mask & 0x3FF8  # reachable 3…K not in the meld
            wc = 0 if w < 0 else (1 if w0_two else 2)
            own = 2 << suit
            if not self.ctx.two_aces and ace > 1:
                ace = 1  # one natural ace per sequence: a second copy changes nothing
            others = sig & ~own
            shift = 0
            if left >= 5 and right <= 13:
                # away from the ace and the 2 the answer does not depend on where the block lies: slide it down
                # so that its reach starts at position 4 (position 3 stays the missing card that stops the reach,
                # the 2's own place stays out of reach); the results slide back up in the expansion
                shift = left - 4
                mask >>= shift
                bits >>= shift
                ace = 0
            key = (1, mask, wc, bits, ace, two, bool(others))
            canon = self._add.get(key)
            if canon is None:
                self._trim()
                syn = bytearray(13)
                syn[0] = ace
                syn[1] = two
                for q in range(3, 14):
                    if bits >> q & 1:
                        syn[q - 1] = 1
                w0 = -1 if wc == 0 else (1 if wc == 1 else JOKER)
                canon = self._add[key] = tuple(self._seq_additions(mask, w0, bytes(syn), bool(others)))
            if not canon:
                got1 = self._add1[k1] = ()
                return got1
            ek = (key, shift, suit, others)
            got1 = self._exp.get(ek)
            if got1 is None:
                if len(self._exp) > 300_000:
                    self._exp.clear()
                if shift:  # slide naturals (3…K) back up; the 2 and the placeholder are wilds and stay
                    canon = tuple(tuple(sorted(c if c < 2 else c + shift for c in t)) for t in canon)
                got1 = self._exp[ek] = tuple(
                    t for t, _ in _expand([(t, 0) for t in canon], suit, _others(sig, own))
                )
            self._add1[k1] = got1
            return got1
        got = self._add.get(key)
        if got is None:
            self._trim()
            got = self._add[key] = tuple(t for t, _ in self._additions(m, counts, sig))
        self._add1[k1] = got
        return got

    def _additions(self, m: Meld, counts: bytes, sig: int) -> Cands:
        ctx = self.ctx
        out: Cands = []
        seen: set[tuple[int, ...]] = set()

        def emit(t: tuple[int, ...]) -> None:
            if not t or t in seen:
                return
            seen.add(t)
            try:
                out.append((t, ctx.attach(m, t)))
            except MeldError:
                pass

        wilds = _wild_list(sig)
        if m.kind == SET:
            base = m.rank - 1
            for nat in _sub_multisets(counts, base):
                if m.size + len(nat) > ctx.max_set:
                    continue
                emit(nat)
                if m.wild < 0:
                    for w in wilds:
                        if _spare(w, nat, counts, base):
                            emit(tuple(sorted((*nat, w))))
            return out
        raise AssertionError("sequences use _seq_additions")

    def _seq_additions(self, mask: int, w0: int, counts: bytes, any_other: bool) -> list[tuple[int, ...]]:
        """Attachments to a sequence of hearts (natural positions ``mask``, wild ``w0`` or -1), by enumerating the
        valid final layouts directly (§5.4, §0.1), with ``PH`` standing for any wild but the 2 of hearts.

        A final layout is a block of positions containing the meld's naturals (which keep their places), every other
        position filled by an added natural except at most one filled by the one wild (the meld's own, which may
        move, or one added from the hand), or a free wild beside the block. The multisets found are exactly those the
        meld solver accepts (tests check both ways).
        """
        ctx = self.ctx
        two = 1
        lo = (mask & -mask).bit_length() - 1
        hi = mask.bit_length() - 1
        ace = counts[0]
        two_h = counts[1]
        w0_two = w0 == two
        has_w0 = w0 >= 0
        foreign = [PH] if any_other else []
        wild_source = has_w0 or any_other or two_h > 0
        two_aces = ctx.two_aces
        max_seq = ctx.max_seq
        nat_count = mask.bit_count()

        def avail(p: int) -> bool:
            if p == 1 or p == 14:
                return ace > 0
            if p == 2:
                return two_h > 0 or w0_two
            return counts[p - 1] > 0

        av = 0
        for p in range(1, 15):
            if avail(p):
                av |= 1 << p
        lefts = [lo]
        miss = 0
        for p in range(lo - 1, 0, -1):
            if not av >> p & 1:
                miss += 1
                if miss > 1:
                    break
            lefts.append(p)
        rights = [hi]
        miss = 0
        for p in range(hi + 1, 15):
            if not av >> p & 1:
                miss += 1
                if miss > 1:
                    break
            rights.append(p)
        out: set[tuple[int, ...]] = set()
        for a in lefts:
            for b in rights:
                empty = ((1 << (b + 1)) - (1 << a)) & ~mask  # positions of the block the meld does not fill
                missing = empty & ~av
                if missing & (missing - 1):  # two or more missing: one wild cannot fill them
                    continue
                if not wild_source:
                    if missing:
                        continue
                    wps = [0]
                elif missing:
                    wps = [missing]
                else:
                    wps = [0] + [1 << q for q in range(a, b + 1) if empty >> q & 1]
                free_edge = a == 1 and b == 14  # no room for a free wild
                for wp in wps:
                    nat = empty & ~wp
                    fin = mask | nat
                    if not two_aces and fin & 2 and fin >> 14 & 1:
                        continue  # two natural aces in one sequence (Italian rules allow one)
                    if (nat >> 1 & 1) + (nat >> 14 & 1) > ace:
                        continue
                    base_cards = _pos_cards(nat & ~4)
                    size = nat_count + nat.bit_count()
                    # how position 2 is filled (if needed) and what happens to the meld's own wild
                    if nat & 4:
                        options = []
                        if two_h > 0:
                            options.append((True, has_w0))
                        if w0_two:
                            options.append((False, False))
                    else:
                        options = [(False, has_w0)]
                    for two_from_hand, w0_stays in options:
                        cards = base_cards + (two,) if two_from_hand else base_cards
                        if w0_stays:
                            # the meld's wild is the one wild: in the gap wp, or free beside the block
                            if size + 1 > max_seq or (wp == 0 and free_edge):
                                continue
                            if cards:
                                out.add(tuple(sorted(cards)))
                            continue
                        # no wild left from the meld: a hole needs a new wild; without one, a wild is optional
                        if wp == 0 and cards and size <= max_seq:
                            out.add(tuple(sorted(cards)))
                        if size + 1 > max_seq or (wp == 0 and free_edge):
                            continue
                        for w in foreign:
                            out.add(tuple(sorted((*cards, w))))
                        if two_h - (1 if two_from_hand else 0) >= 1:
                            out.add(tuple(sorted((*cards, two))))
        return sorted(out)


_POS_CARDS: dict[int, tuple[int, ...]] = {}


def _pos_cards(bits: int) -> tuple[int, ...]:
    """The hearts cards standing at positions ``bits`` (the ace for 1 and 14, rank r at r): cached."""
    got = _POS_CARDS.get(bits)
    if got is None:
        got = _POS_CARDS[bits] = tuple(0 if q == 14 else q - 1 for q in range(1, 15) if bits >> q & 1)
    return got


_AT_LEAST = {k: bytes(1 if v >= k else 0 for v in range(256)) for k in (2, 3)}
PH = -1  # placeholder in canonical results: any wild but the suit's own 2


def _others(sig: int, own: int) -> list[int]:
    """The wild cards of ``sig`` other than the suit's own 2 (bit ``own``)."""
    return [WILDS[i] for i in range(5) if sig >> i & 1 and (1 << i) != own]


def _expand(
    canon: Seqs | list[tuple[tuple[int, ...], int]], suit: int, others: list[int]
) -> list[tuple[tuple[int, ...], int]]:
    """Move canonical hearts results to ``suit`` and the placeholder to each of the hand's other wilds."""
    sh = 13 * suit
    out: list[tuple[tuple[int, ...], int]] = []
    for t, mask in canon:
        if t[0] == PH:
            nat = [c + sh for c in t[1:]]
            for w in others:
                out.append((tuple(sorted([*nat, w])), mask))
        elif sh:
            out.append((tuple([c + sh for c in t]), mask))
        else:
            out.append((t, mask))
    return out


_NZ = bytes([0] + [1] * 255)  # bytes.translate table: a count -> 0 or 1
_AV: dict[bytes, int] = {}


def _avail_bits(nz: bytes) -> int:
    """Positions (bits 1…14) a suit's 0/1 counts make available: ace at 1 and 14, the 2 at 2, 3…K at 3…13."""
    bits = 0
    for i in range(13):
        if nz[i]:
            bits |= 1 << (i + 1)
    if nz[0]:
        bits |= 1 << 14
    return bits


_ACE_LANE = 0xFF << (8 * 12)
_TWO_LANE = 0xFF << (8 * 11)
_POS_LANES = (1 << (8 * 11)) - 1  # the lanes of 3…K
_LOWEST: dict[int, int] = {}


def _lowest_position(lanes: int) -> int:
    """The lowest of positions 3…13 with a card in a 13-lane count pattern (14 when none)."""
    b = lanes.to_bytes(13, "big")
    for p in range(3, 14):
        if b[p - 1]:
            return p
    return 14


_HEAD = 0xFFFF << (8 * 11)  # the ace and the 2 keep their counts
_LOW1 = sum(1 << (8 * (12 - i)) for i in range(2, 13))


_ISOLATED: dict[int, int] = {}


def _drop_isolated(norm: int) -> int:
    """Drop naturals 3…K (and the ace) with no other natural within two places: they cannot be in a sequence.
    The 2's count always stays (it may be a wild)."""
    b = norm.to_bytes(13, "big")
    have = [False] * 17
    for p in range(2, 14):
        have[p] = b[p - 1] > 0
    have[1] = have[14] = b[0] > 0
    out = bytearray(b)

    def near(p: int) -> bool:
        return any(have[q] for q in (p - 2, p - 1, p + 1, p + 2) if 1 <= q <= 14 and q != p)

    for p in range(3, 14):
        if have[p] and not near(p):
            out[p - 1] = 0
    if have[1] and not near(1) and not near(14):
        out[0] = 0
    return int.from_bytes(out, "big")


def _expand_sets(shapes: tuple[tuple[bytes, bool], ...], base: int, wilds: list[int]) -> Melds:
    """Cards of each set shape for the rank whose hearts card is ``base``, a wild shape once per wild type held."""
    out: list[tuple[int, ...]] = []
    for shape, wild in shapes:
        nat = (base,) * shape[0] + (base + 13,) * shape[1] + (base + 26,) * shape[2] + (base + 39,) * shape[3]
        if wild:
            for w in wilds:
                out.append(tuple(sorted((*nat, w))))
        else:
            out.append(nat)
    return tuple(out)


def _spare(w: int, nat: tuple[int, ...], cnt: bytes, base: int) -> bool:
    """Whether the hand still holds wild ``w`` besides the naturals ``nat`` of a set of rank ``base + 1`` (counts
    per suit ``cnt``): only a set of 2s uses 2s both ways, and one card cannot be both."""
    if w % 13 != base or w == JOKER:
        return True
    return nat.count(w) < cnt[w // 13]


def _sub_multisets(cnt: bytes, base: int) -> list[tuple[int, ...]]:
    """Every sub-multiset of the cards of one rank (counts per suit), as sorted tuples."""
    out: list[tuple[int, ...]] = []
    for a in range(cnt[0] + 1):
        for b in range(cnt[1] + 1):
            for c in range(cnt[2] + 1):
                for d in range(cnt[3] + 1):
                    out.append((base,) * a + (base + 13,) * b + (base + 26,) * c + (base + 39,) * d)
    return out


_GEN: dict[int, Generator] = {}


def generator(ctx: MeldRules) -> Generator:
    """The move generator of these meld rules: one per :class:`MeldRules` object, shared with its caches."""
    g = _GEN.get(id(ctx))
    if g is None or g.ctx is not ctx:
        g = _GEN[id(ctx)] = Generator(ctx)
    return g

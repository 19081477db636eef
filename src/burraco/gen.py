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


def wild_sig(h: list[int]) -> int:
    """Which wild card types a hand holds, as 5 bits (joker, 2h, 2d, 2c, 2s)."""
    return (h[52] > 0) | (h[1] > 0) << 1 | (h[14] > 0) << 2 | (h[27] > 0) << 3 | (h[40] > 0) << 4


def _wild_list(sig: int) -> list[int]:
    return [WILDS[i] for i in range(5) if sig >> i & 1]


class Generator:
    """Cached candidate generation for one rule set."""

    __slots__ = ("ctx", "_seq", "_set", "_add")

    def __init__(self, ctx: MeldRules) -> None:
        self.ctx = ctx
        self._seq: dict[tuple[int, int, int], Cands] = {}
        self._set: dict[tuple[int, bytes, int], Cands] = {}
        self._add: dict[tuple[int, ...], list[tuple[int, ...]]] = {}

    def _trim(self) -> None:
        for d in (self._seq, self._set, self._add):
            if len(d) > 300_000:
                d.clear()

    # ----- new sequences ------------------------------------------------------------------------------------------
    def sequences(self, suit: int, cs: bytes, sig: int) -> Cands:
        """Every valid new sequence in ``suit`` from the suit's counts ``cs`` (A, 2, 3 … K) and wilds ``sig``."""
        # a second copy of 3…K changes nothing (a sequence holds each position once): normalise it away
        n = int.from_bytes(cs, "big")
        norm = (n & _HEAD) | ((n | (n >> 1)) & _LOW1)
        filt = _ISOLATED.get(norm)
        if filt is None:
            filt = _ISOLATED[norm] = _drop_isolated(norm)
        key = (suit, filt, sig & ~(2 << suit))
        got = self._seq.get(key)
        if got is None:
            self._trim()
            got = self._seq[key] = self._sequences(suit, key[1].to_bytes(13, "big"), key[2])
        return got

    def _sequences(self, suit: int, cs: bytes, sig: int) -> Cands:
        ctx = self.ctx
        b0 = suit * 13
        avail = [False] * 16
        for p in range(2, 14):
            avail[p] = cs[p - 1] > 0
        avail[1] = avail[14] = cs[0] > 0
        wilds = _wild_list(sig)
        two = b0 + 1
        out: Cands = []
        seen: set[tuple[int, ...]] = set()

        def emit(t: tuple[int, ...]) -> None:
            if t in seen:
                return
            seen.add(t)
            try:
                out.append((t, ctx.make(t)))
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
                    cards = [b0 + (0 if p == 14 else p - 1) for p in nats]
                    two_used = 1 if 2 in nats else 0
                    ws = [w for w in wilds if not (w == two and cs[1] - two_used < 1)]
                    if two not in wilds and cs[1] - two_used >= 1:
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
    def sets(self, rank: int, cnt: bytes, sig: int) -> Cands:
        """Every valid new set of ``rank`` from its counts per suit ``cnt`` and wilds ``sig``."""
        key = (rank, cnt, sig)
        got = self._set.get(key)
        if got is None:
            self._trim()
            got = self._set[key] = self._sets(rank, cnt, sig)
        return got

    def _sets(self, rank: int, cnt: bytes, sig: int) -> Cands:
        ctx = self.ctx
        base = rank - 1
        out: Cands = []
        wilds = _wild_list(sig)
        for nat in _sub_multisets(cnt, base):
            k = len(nat)
            if k < 2:
                continue
            cands = [nat] if k >= 3 else []
            cands += [tuple(sorted((*nat, w))) for w in wilds]
            for t in cands:
                try:
                    out.append((t, ctx.make(t)))
                except MeldError:
                    pass
        return out

    # ----- attachments --------------------------------------------------------------------------------------------
    def additions(self, m: Meld, counts: bytes, sig: int) -> list[tuple[int, ...]]:
        """Every valid attachment to ``m`` from a hand with ``counts`` (the suit's 13 counts for a sequence, the
        rank's 4 counts for a set) and wilds ``sig``, as sorted tuples of the cards added.

        The cache key keeps only what validity depends on: for a set its rank, size and whether it has a wild; for a
        sequence its natural positions and whether its wild is the suit's own 2, with the counts of positions the
        meld already occupies dropped. The resulting meld is built on demand (:meth:`MeldRules.attach`).
        """
        if m.kind == SET:
            key: tuple[int, ...] = (0, m.rank, m.size, m.wild >= 0, int.from_bytes(counts, "big"), sig)
        else:
            # only the positions the meld can reach matter: the block may extend past at most one missing card
            mask = m.mask
            w = m.wild
            suit = m.suit
            w0_two = w == suit * 13 + 1
            ace = counts[0]
            two = counts[1]
            bits = 0
            miss = 0
            p = ((mask & -mask).bit_length() - 1) - 1
            while p >= 1:
                if (ace if p == 1 else (two or w0_two) if p == 2 else counts[p - 1]) > 0:
                    bits |= 1 << p
                else:
                    miss += 1
                    if miss > 1:
                        break
                p -= 1
            miss = 0
            p = mask.bit_length()
            while p <= 14:
                if (ace if p == 14 else counts[p - 1]) > 0:
                    bits |= 1 << p
                elif not (mask >> p & 1):
                    miss += 1
                    if miss > 1:
                        break
                p += 1
            # an internal gap (a locked wild's place) may be filled too
            lo = (mask & -mask).bit_length() - 1
            for q in range(lo + 1, mask.bit_length() - 1):
                if not (mask >> q & 1) and (ace if q == 1 else two if q == 2 else counts[q - 1]) > 0:
                    bits |= 1 << q
            wc = 0 if w < 0 else (1 if w0_two else 2)
            key = (1, suit, mask, wc, bits, ace, two, sig)
            if key not in self._add:
                syn = bytearray(13)
                syn[0] = ace
                syn[1] = two
                for q in range(3, 14):
                    if bits >> q & 1:
                        syn[q - 1] = 1
                counts = bytes(syn)
        got = self._add.get(key)
        if got is None:
            self._trim()
            got = self._add[key] = [t for t, _ in self._additions(m, counts, sig)]
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
                        emit(tuple(sorted((*nat, w))))
            return out
        suit = m.suit
        b0 = suit * 13
        mask = m.mask
        lo = (mask & -mask).bit_length() - 1
        hi = mask.bit_length() - 1
        ace = counts[0]
        two_h = counts[1]
        w0 = m.wild
        two = b0 + 1
        w0_is_two = w0 == two

        def avail(p: int) -> bool:
            if p == 1 or p == 14:
                return ace > 0
            if p == 2:
                return two_h > 0 or w0_is_two
            return counts[p - 1] > 0

        lefts = [lo]
        miss = 0
        for p in range(lo - 1, 0, -1):
            if not avail(p):
                miss += 1
                if miss > 1:
                    break
            lefts.append(p)
        rights = [hi]
        miss = 0
        for p in range(hi + 1, 15):
            if not avail(p):
                miss += 1
                if miss > 1:
                    break
            rights.append(p)
        has_wild = w0 >= 0
        all_wilds = list(wilds)
        if two not in all_wilds and two_h:
            all_wilds.append(two)
        for a in lefts:
            for b in rights:
                span = ((1 << (b + 1)) - (1 << a)) & ~mask
                free = [q for q in range(a, b + 1) if span >> q & 1]
                missing = [q for q in free if not avail(q)]
                if len(missing) > 1:
                    continue
                holes = missing if missing else [0, *free]
                for hole in holes:
                    fill = [q for q in free if q != hole]
                    w0_options = (
                        [True, False] if (2 in fill and w0_is_two and two_h) else [2 in fill and w0_is_two]
                    )
                    for two_from_w0 in w0_options:
                        cards: list[int] = []
                        aces = 0
                        for q in fill:
                            if q == 1 or q == 14:
                                aces += 1
                                cards.append(b0)
                            elif q == 2:
                                if not two_from_w0:
                                    cards.append(two)
                            else:
                                cards.append(b0 + q - 1)
                        if aces > ace:
                            continue
                        wild_left = has_wild and not two_from_w0
                        two_used = cards.count(two)
                        emit(tuple(sorted(cards)))
                        if not wild_left or hole == 0:
                            for w in all_wilds:
                                if w == two and two_h - two_used < 1:
                                    continue
                                emit(tuple(sorted([*cards, w])))
        return out


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
    g = _GEN.get(id(ctx))
    if g is None or g.ctx is not ctx:
        g = _GEN[id(ctx)] = Generator(ctx)
    return g

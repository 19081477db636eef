/* burraco._native: cards and melds (burraco/cards.py, burraco/melds.py): a meld made of cards or attached to,
 * its cards, its points, its burraco class and the single cards it takes. */
#include "native.h"

/* ----- melds (burraco/melds.py) ------------------------------------------------------------------------------ */

static int classify(const NRules *R, const NMeld *m) {
    if (m->size < R->min_len)
        return B_NONE;
    if (m->wild < 0)
        return B_CLEAN;
    if (!R->semiclean)
        return B_DIRTY;
    if (m->kind == 0 || m->wild_pos == 0)
        return m->naturals >= 7 ? B_SEMI : B_DIRTY;
    if (R->at_end_only)
        return B_DIRTY;
    int p = m->wild_pos;
    int below = popc(m->mask & ((1u << p) - 1));
    int above = popc(m->mask >> (p + 1));
    return (below >= 7 || above >= 7) ? B_SEMI : B_DIRTY;
}

/* the suits field of a set of these cards (its naturals, 2 bits a suit), the wild w aside */
uint8_t set_suits(const uint8_t *cards, int n, int w) {
    int wild_seen = 0, suits = 0;
    for (int i = 0; i < n; i++) {
        if (!wild_seen && cards[i] == w) {
            wild_seen = 1;
            continue;
        }
        suits += 1 << (2 * (cards[i] / 13));
    }
    return (uint8_t)suits;
}

/* m = the meld of n cards so described (suits: a set's naturals per suit; 0 for a sequence) */
void meld_fill(const NRules *R, NMeld *m, int kind, int suits, int n, int suit, int rank, unsigned mask,
                      int wild, int wild_pos, int naturals) {
    m->kind = (uint8_t)kind;
    m->suit = (int8_t)suit;
    m->rank = (int8_t)rank;
    m->mask = (uint16_t)mask;
    m->wild = (int8_t)wild;
    m->wild_pos = (uint8_t)wild_pos;
    m->size = (uint8_t)n;
    m->naturals = (uint8_t)naturals;
    m->suits = (uint8_t)suits;
    m->pad = 0;
    m->burraco = (uint8_t)classify(R, m);
    m->singles = 0;
}

/* the cards of m, sorted (as the Python engine keeps a meld's cards), into out: their number */
int meld_cards(const NMeld *m, uint8_t *out) {
    int n = 0;
    if (m->kind == 0) {
        for (int s = 0; s < 4; s++)
            for (int k = (m->suits >> (2 * s)) & 3; k > 0; k--)
                out[n++] = (uint8_t)(s * 13 + m->rank - 1);
    } else {
        int sh = m->suit * 13;
        for (int k = (m->mask >> 1 & 1) + (m->mask >> 14 & 1); k > 0; k--)
            out[n++] = (uint8_t)sh; /* the aces, low and high */
        for (int p = 2; p < 14; p++)
            if (m->mask >> p & 1)
                out[n++] = (uint8_t)(sh + p - 1);
    }
    if (m->wild >= 0) { /* in its place among the sorted naturals */
        int i = n++;
        while (i > 0 && out[i - 1] > m->wild) {
            out[i] = out[i - 1];
            i--;
        }
        out[i] = (uint8_t)m->wild;
    }
    return n;
}

/* m's cards added to counts (53 per-card counts): meld_cards without listing them in order */
void meld_count(const NMeld *m, uint8_t *counts) {
    if (m->kind == 0) {
        for (int s = 0; s < 4; s++)
            counts[s * 13 + m->rank - 1] += (uint8_t)((m->suits >> (2 * s)) & 3);
    } else {
        uint8_t *c = counts + m->suit * 13;
        c[0] += (uint8_t)((m->mask >> 1 & 1) + (m->mask >> 14 & 1)); /* the aces, low and high */
        for (unsigned b = m->mask & 0x3FFC; b; b &= b - 1)
            c[__builtin_ctz(b) - 1]++;
    }
    if (m->wild >= 0)
        counts[m->wild]++;
}

/* the points of m's cards (those of meld_cards, without listing them) */
int meld_points(const NRules *R, const NMeld *m) {
    int pts = m->wild >= 0 ? R->values[m->wild] : 0;
    if (m->kind == 0) {
        for (int s = 0; s < 4; s++)
            pts += ((m->suits >> (2 * s)) & 3) * R->values[s * 13 + m->rank - 1];
    } else {
        const int *v = R->values + m->suit * 13;
        pts += ((m->mask >> 1 & 1) + (m->mask >> 14 & 1)) * v[0];
        for (unsigned b = m->mask & 0x3FFC; b; b &= b - 1)
            pts += v[__builtin_ctz(b) - 1];
    }
    return pts;
}

/* the same meld: the same cards in the same roles (the heuristic's cache aside) */
int same_meld(const NMeld *a, const NMeld *b) {
    return a->kind == b->kind && a->suit == b->suit && a->rank == b->rank && a->wild == b->wild &&
           a->wild_pos == b->wild_pos && a->size == b->size && a->burraco == b->burraco && a->mask == b->mask &&
           a->suits == b->suits && a->naturals == b->naturals;
}

/* melds.MeldRules._seq: 1 and the meld in *out, or 0 when the cards are no sequence */
static int seq_solve(const NRules *R, int ncards, int suit, unsigned fixed, int old_wild,
                     const uint8_t *added, int nadded, NMeld *out) {
    int two = suit * 13 + 1, ace = suit * 13;
    unsigned positions = fixed;
    int aces = 0, nw = 0, twos_s = 0;
    int wilds[MAXMC + 1];
    for (int i = 0; i < nadded; i++) {
        int c = added[i];
        if (c == JOKER)
            wilds[nw++] = c;
        else if (c == two)
            twos_s++;
        else if (c % 13 == 1)
            wilds[nw++] = c;
        else if (c / 13 != suit)
            return 0;
        else if (c == ace)
            aces++;
        else {
            int p = c % 13 + 1;
            if (positions >> p & 1)
                return 0;
            positions |= 1u << p;
        }
    }
    if (old_wild == two)
        twos_s++;
    else if (old_wild >= 0) {
        memmove(wilds + 1, wilds, sizeof(int) * (size_t)nw);
        wilds[0] = old_wild;
        nw++;
    }
    unsigned ace_opts[2];
    int nace;
    if (aces == 0) {
        ace_opts[0] = 0;
        nace = 1;
    } else if (aces == 1) {
        ace_opts[0] = 1u << 1;
        ace_opts[1] = 1u << 14;
        nace = 2;
    } else if (aces == 2) {
        if (!R->two_aces)
            return 0;
        ace_opts[0] = (1u << 1) | (1u << 14);
        nace = 1;
    } else
        return 0;
    int nat2_opts[2], nn2;
    if (twos_s && !(positions >> 2 & 1)) {
        nat2_opts[0] = 1;
        nat2_opts[1] = 0;
        nn2 = 2;
    } else {
        nat2_opts[0] = 0;
        nn2 = 1;
    }
    for (int i2 = 0; i2 < nn2; i2++) {
        int nat2 = nat2_opts[i2];
        int w = nw + twos_s - nat2;
        if (w > 1) /* max_wilds is 1 in every rule set the native core takes */
            continue;
        for (int ia = 0; ia < nace; ia++) {
            unsigned ap = ace_opts[ia];
            if (positions & ap)
                continue;
            unsigned mask = positions | ap | (nat2 ? 4u : 0u);
            if (!R->two_aces && (mask & 2) && (mask >> 14 & 1))
                continue;
            if (mask == 0)
                continue;
            int lo = lowbit(mask), hi = bitlen(mask) - 1, n = popc(mask);
            int gaps = hi - lo + 1 - n;
            if (gaps > w)
                continue;
            if (gaps == 0 && w == 1 && lo == 1 && hi == 14)
                continue;
            if (n < 2)
                continue;
            int size = n + w;
            if (size > R->max_seq || size < 3)
                continue;
            int wild = -1;
            if (w)
                wild = nw ? wilds[0] : two;
            int wild_pos = 0;
            if (gaps) {
                unsigned gm = (((1u << (hi + 1)) - (1u << lo)) & ~mask);
                wild_pos = bitlen(gm) - 1;
            }
            meld_fill(R, out, 1, 0, ncards, suit, 0, mask, wild, wild_pos, n);
            return 1;
        }
    }
    return 0;
}

/* melds.MeldRules._make on sorted cards (a set of 2s never: the native core refuses rules that allow one) */
int make_meld(const NRules *R, const uint8_t *cards, int n, NMeld *out) {
    if (n < 3 || n > MAXMC)
        return 0;
    int others[MAXMC], no = 0;
    for (int i = 0; i < n; i++)
        if (cards[i] != JOKER && cards[i] % 13 != 1)
            others[no++] = cards[i];
    if (!no)
        return 0;
    int first = others[0] % 13, same = no >= 2;
    for (int i = 1; i < no && same; i++)
        if (others[i] % 13 != first)
            same = 0;
    if (same) {
        int rank = first + 1;
        if (!(R->set_ranks >> rank & 1))
            return 0;
        int nw = 0, w0 = -1;
        for (int i = 0; i < n; i++)
            if (cards[i] == JOKER || cards[i] % 13 == 1) {
                if (nw == 0)
                    w0 = cards[i];
                nw++;
            }
        if (nw > 1 || n > R->max_set)
            return 0;
        meld_fill(R, out, 0, set_suits(cards, n, w0), n, -1, rank, 0, w0, 0, n - nw);
        return 1;
    }
    int suit = others[0] / 13;
    for (int i = 0; i < no; i++)
        if (others[i] / 13 != suit)
            return 0;
    return seq_solve(R, n, suit, 0, -1, cards, n, out);
}

/* melds.MeldRules._attach: added sorted */
int attach_meld(const NRules *R, const NMeld *m, const uint8_t *added, int na, NMeld *out) {
    int n = m->size + na;
    if (n > MAXMC)
        return 0;
    if (m->kind == 0) {
        int wilds = m->wild < 0 ? 0 : 1;
        for (int i = 0; i < na; i++) {
            int c = added[i];
            if (c == JOKER || c % 13 == 1)
                wilds++;
            else if (c % 13 + 1 != m->rank)
                return 0;
        }
        if (wilds > 1 || n > R->max_set)
            return 0;
        int w = m->wild, nat = 0, suits = m->suits;
        for (int i = 0; i < na; i++) {
            int c = added[i];
            if (c == JOKER || c % 13 == 1) {
                if (m->wild < 0)
                    w = c;
            } else {
                nat++;
                suits += 1 << (2 * (c / 13));
            }
        }
        meld_fill(R, out, 0, suits, n, -1, m->rank, 0, w, 0, m->naturals + nat);
        return 1;
    }
    return seq_solve(R, n, m->suit, m->mask, m->wild, added, na, out);
}

int burraco_bonus(const NRules *R, const NMeld *m) {
    switch (m->burraco) {
    case B_NONE:
        return 0;
    case B_CLEAN:
        if (R->extra_honours && m->kind == 1) {
            if (m->mask == 0x7FFE)
                return R->bonus_aa;
            if (m->naturals >= 13)
                return R->bonus_ak;
        }
        return R->bonus_clean;
    case B_SEMI:
        return R->bonus_semi;
    default:
        return R->bonus_dirty;
    }
}

/* MeldRules.singles: the single cards attach() accepts on m, as bits */
static uint32_t singles(const NRules *R, const NMeld *m) {
    int cands[20], nc = 0;
    if (m->kind == 0)
        for (int s = 0; s < 4; s++)
            cands[nc++] = s * 13 + m->rank - 1;
    else
        for (int r = 0; r < 13; r++)
            cands[nc++] = m->suit * 13 + r;
    for (int s = 0; s < 4; s++)
        cands[nc++] = s * 13 + 1;
    cands[nc++] = JOKER;
    uint32_t got = 0;
    for (int i = 0; i < nc; i++) {
        uint8_t c = (uint8_t)cands[i];
        NMeld out;
        if (attach_meld(R, m, &c, 1, &out))
            got |= 1u << i;
    }
    return got;
}

/* singles()'s candidate bits as card bits (bit c): a set's four naturals (bits 0-3), a sequence's thirteen cards of
 * its suit (bits 0-12), then the four 2s and the joker */
static uint64_t singles_cards(const NMeld *m, uint32_t b) {
    uint64_t got;
    int k;
    if (m->kind == 0) {
        got = 0;
        for (int s = 0; s < 4; s++)
            if (b >> s & 1)
                got |= 1ULL << (s * 13 + m->rank - 1);
        k = 4;
    } else {
        got = (uint64_t)(b & 0x1FFFu) << (m->suit * 13);
        k = 13;
    }
    for (int s = 0; s < 4; s++)
        if (b >> (k + s) & 1)
            got |= 1ULL << (s * 13 + 1);
    if (b >> (k + 4) & 1)
        got |= 1ULL << JOKER;
    return got;
}

/* singles() of a meld as card bits, cached in the meld (a cache: the state's value does not change) */
uint64_t meld_singles(const NRules *R, const NMeld *m) {
    if (!(m->singles >> 31))
        ((NMeld *)m)->singles = singles(R, m) | 1u << 31;
    return singles_cards(m, m->singles);
}

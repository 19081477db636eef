/* burraco._native: generation (burraco/gen.py, legality.py Game._raw_meld_actions): every new set, new sequence
 * and attachment the cards of a hand make, in the Python generator's order; game.c keeps those that are legal. */
#include "native.h"

/* insertion sorts of the few cards of an action or a canonical tuple (PH = -1 sorts first) */
#define INSERTION_SORT(name, type)                                                                                 \
    static void name(type *a, int n) {                                                                             \
        for (int i = 1; i < n; i++) {                                                                              \
            type v = a[i];                                                                                         \
            int j = i - 1;                                                                                         \
            while (j >= 0 && a[j] > v) {                                                                           \
                a[j + 1] = a[j];                                                                                   \
                j--;                                                                                               \
            }                                                                                                      \
            a[j + 1] = v;                                                                                          \
        }                                                                                                          \
    }
INSERTION_SORT(sort_u8, uint8_t)
INSERTION_SORT(sort_i8, int8_t)
#undef INSERTION_SORT

/* ----- generation (burraco/gen.py, legality.py Game._raw_meld_actions) -------------------------------------- */

static const int WILDS[5] = {JOKER, 1, 14, 27, 40};

/* the wilds a hand holds: bit i for WILDS[i] */
static int wild_sig(const uint8_t *h) {
    return (h[52] > 0) | (h[1] > 0) << 1 | (h[14] > 0) << 2 | (h[27] > 0) << 3 | (h[40] > 0) << 4;
}

/* the wilds of sig but suit's own 2 (the joker and the other suits' 2s) into others: their number */
static int foreign_wilds(int sig, int suit, int *others) {
    int own = 2 << suit, n = 0;
    for (int i = 0; i < 5; i++)
        if (sig >> i & 1 && (1 << i) != own)
            others[n++] = WILDS[i];
    return n;
}

/* the cards of a, b, c and d copies of rank base + 1 in the four suits, sorted, into cards: their number */
static int set_cards(int base, int a, int b, int c, int d, uint8_t *cards) {
    const int k[4] = {a, b, c, d};
    int n = 0;
    for (int s = 0; s < 4; s++)
        for (int i = 0; i < k[s] && n < MAXMC; i++)
            cards[n++] = (uint8_t)(base + 13 * s);
    return n;
}

/* canonical tuples (hearts, PH for a foreign wild) of one generation step */
typedef struct {
    int8_t c[MAXMC];
    int8_t n;
    uint16_t mask;
} Canon;

#define MAXCANON 4096

static int canon_eq(const Canon *a, const int8_t *c, int n) {
    return a->n == n && memcmp(a->c, c, (size_t)n) == 0;
}

static int canon_cmp(const void *pa, const void *pb) {
    const Canon *a = (const Canon *)pa, *b = (const Canon *)pb;
    int n = a->n < b->n ? a->n : b->n;
    for (int i = 0; i < n; i++)
        if (a->c[i] != b->c[i])
            return a->c[i] < b->c[i] ? -1 : 1;
    return a->n - b->n;
}

/* expand one canonical tuple to suit and the hand's other wilds; mask==-1: no mask filter */
static void expand_push(ABuf *b, const Canon *t, int suit, const int *others, int nothers, int verb, int meld) {
    int sh = 13 * suit;
    uint8_t cards[MAXMC];
    if (t->n && t->c[0] == PH) {
        for (int k = 0; k < nothers; k++) {
            for (int i = 1; i < t->n; i++)
                cards[i - 1] = (uint8_t)(t->c[i] + sh);
            cards[t->n - 1] = (uint8_t)others[k];
            sort_u8(cards, t->n);
            push_act(b, verb, cards, t->n, meld);
        }
    } else {
        for (int i = 0; i < t->n; i++)
            cards[i] = (uint8_t)(t->c[i] + sh);
        push_act(b, verb, cards, t->n, meld);
    }
}

/* Generator._sequences run on the suit's own counts (the normalisations of gen.py do not change the result) */
static int gen_sequences(const NRules *R, const uint8_t *cs, int any_other, Canon *out) {
    int avail[16] = {0};
    for (int p = 2; p < 14; p++)
        avail[p] = cs[p - 1] > 0;
    avail[1] = avail[14] = cs[0] > 0;
    int nout = 0;
    static __thread Canon seen[MAXCANON];
    int nseen = 0;
    for (int a = 1; a < 14; a++) {
        if (!avail[a])
            continue;
        int missing = 0, miss_pos = 0;
        for (int b = a + 1; b < 15; b++) {
            if (!avail[b]) {
                missing++;
                miss_pos = b;
                if (missing > 1)
                    break;
                continue;
            }
            if (a == 1 && b == 14 && !(R->two_aces && cs[0] >= 2))
                break;
            int holes[16], nh = 0;
            if (missing)
                holes[nh++] = miss_pos;
            else {
                holes[nh++] = 0;
                for (int q = a + 1; q < b; q++)
                    holes[nh++] = q;
            }
            for (int ih = 0; ih < nh; ih++) {
                int hole = holes[ih];
                int8_t cards[MAXMC + 1];
                int n = 0, two_used = 0;
                for (int p = a; p <= b; p++) {
                    if (p == hole)
                        continue;
                    if (n >= MAXMC)
                        break;
                    cards[n++] = (int8_t)(p == 14 ? 0 : p - 1);
                    if (p == 2)
                        two_used = 1;
                }
                if (n < 2)
                    continue;
                sort_i8(cards, n);
                int ws[2], nws = 0;
                if (any_other)
                    ws[nws++] = PH;
                if (cs[1] - two_used >= 1)
                    ws[nws++] = 1;
                /* the emits of this hole, in order: the naturals alone, then with each wild */
                int8_t cand[3][MAXMC + 1];
                int clen[3], nc = 0;
                if (hole == 0) {
                    if (n >= 3) {
                        memcpy(cand[nc], cards, (size_t)n);
                        clen[nc++] = n;
                    }
                    if (!(a > 1 || b < 14))
                        nws = 0;
                }
                for (int k = 0; k < nws; k++) {
                    memcpy(cand[nc], cards, (size_t)n);
                    cand[nc][n] = (int8_t)ws[k];
                    sort_i8(cand[nc], n + 1);
                    clen[nc++] = n + 1;
                }
                for (int k = 0; k < nc; k++) {
                    int dup = 0;
                    for (int s = 0; s < nseen && !dup; s++)
                        dup = canon_eq(&seen[s], cand[k], clen[k]);
                    if (dup)
                        continue;
                    if (nseen < MAXCANON) {
                        memcpy(seen[nseen].c, cand[k], (size_t)clen[k]);
                        seen[nseen].n = (int8_t)clen[k];
                        nseen++;
                    }
                    uint8_t probe[MAXMC];
                    for (int i = 0; i < clen[k]; i++)
                        probe[i] = (uint8_t)(cand[k][i] == PH ? JOKER : cand[k][i]);
                    sort_u8(probe, clen[k]);
                    NMeld m;
                    if (clen[k] <= MAXMC && make_meld(R, probe, clen[k], &m) && nout < MAXCANON) {
                        memcpy(out[nout].c, cand[k], (size_t)clen[k]);
                        out[nout].n = (int8_t)clen[k];
                        out[nout].mask = m.mask;
                        nout++;
                    }
                }
            }
        }
    }
    return nout;
}

/* the ends a sequence ending at `end` can reach going `step` (-1 down to the low ace, 1 up to the high ace) with the
 * positions of av, one gap at most, into out (end first): their number */
static int reach(unsigned av, int end, int step, int *out) {
    int n = 0, miss = 0;
    out[n++] = end;
    for (int p = end + step; p > 0 && p < 15; p += step) {
        if (!(av >> p & 1)) {
            miss++;
            if (miss > 1)
                break;
        }
        out[n++] = p;
    }
    return n;
}

/* Generator._seq_additions on the meld's own positions and the suit's counts */
static int gen_seq_additions(const NRules *R, unsigned mask, int has_w0, int w0_two, const uint8_t *counts,
                             int any_other, Canon *out) {
    int lo = lowbit(mask), hi = bitlen(mask) - 1;
    int ace = counts[0], two_h = counts[1];
    if (!R->two_aces && ace > 1)
        ace = 1;
    int wild_source = has_w0 || any_other || two_h > 0;
    int nat_count = popc(mask);
    unsigned av = 0;
    for (int p = 1; p < 15; p++) {
        int ok;
        if (p == 1 || p == 14)
            ok = ace > 0;
        else if (p == 2)
            ok = two_h > 0 || w0_two;
        else
            ok = counts[p - 1] > 0;
        if (ok)
            av |= 1u << p;
    }
    int lefts[16], rights[16];
    int nl = reach(av, lo, -1, lefts), nr = reach(av, hi, 1, rights);
    int nout = 0;
#define ADD_OUT(arr, len)                                                                                          \
    do {                                                                                                           \
        int8_t _t[MAXMC + 1];                                                                                      \
        memcpy(_t, arr, (size_t)(len));                                                                            \
        sort_i8(_t, len);                                                                                          \
        int _dup = 0;                                                                                              \
        for (int _s = 0; _s < nout && !_dup; _s++)                                                                 \
            _dup = canon_eq(&out[_s], _t, len);                                                                    \
        if (!_dup && nout < MAXCANON && (len) <= MAXMC) {                                                          \
            memcpy(out[nout].c, _t, (size_t)(len));                                                                \
            out[nout].n = (int8_t)(len);                                                                           \
            out[nout].mask = 0;                                                                                    \
            nout++;                                                                                                \
        }                                                                                                          \
    } while (0)
    for (int ia = 0; ia < nl; ia++) {
        int a = lefts[ia];
        for (int ib = 0; ib < nr; ib++) {
            int b = rights[ib];
            unsigned empty = (((1u << (b + 1)) - (1u << a)) & ~mask);
            unsigned missing = empty & ~av;
            if (missing & (missing - 1))
                continue;
            unsigned wps[16];
            int nwp = 0;
            if (!wild_source) {
                if (missing)
                    continue;
                wps[nwp++] = 0;
            } else if (missing)
                wps[nwp++] = missing;
            else {
                wps[nwp++] = 0;
                for (int q = a; q <= b; q++)
                    if (empty >> q & 1)
                        wps[nwp++] = 1u << q;
            }
            int free_edge = a == 1 && b == 14;
            for (int iw = 0; iw < nwp; iw++) {
                unsigned wp = wps[iw];
                unsigned nat = empty & ~wp;
                unsigned fin = mask | nat;
                if (!R->two_aces && (fin & 2) && (fin >> 14 & 1))
                    continue;
                if ((int)((nat >> 1 & 1) + (nat >> 14 & 1)) > ace)
                    continue;
                int8_t base[MAXMC + 2];
                int nb = 0;
                unsigned bits = nat & ~4u;
                for (int q = 1; q < 15 && nb < MAXMC; q++)
                    if (bits >> q & 1)
                        base[nb++] = (int8_t)(q == 14 ? 0 : q - 1);
                int size = nat_count + popc(nat);
                int opt_two[2], opt_stay[2], no = 0;
                if (nat & 4) {
                    if (two_h > 0) {
                        opt_two[no] = 1;
                        opt_stay[no++] = has_w0;
                    }
                    if (w0_two) {
                        opt_two[no] = 0;
                        opt_stay[no++] = 0;
                    }
                } else {
                    opt_two[no] = 0;
                    opt_stay[no++] = has_w0;
                }
                for (int io = 0; io < no; io++) {
                    int8_t cards[MAXMC + 2];
                    int nc = nb;
                    memcpy(cards, base, (size_t)nb);
                    if (opt_two[io] && nc < MAXMC)
                        cards[nc++] = 1;
                    if (opt_stay[io]) {
                        if (size + 1 > R->max_seq || (wp == 0 && free_edge))
                            continue;
                        if (nc)
                            ADD_OUT(cards, nc);
                        continue;
                    }
                    if (wp == 0 && nc && size <= R->max_seq)
                        ADD_OUT(cards, nc);
                    if (size + 1 > R->max_seq || (wp == 0 && free_edge))
                        continue;
                    if (nc >= MAXMC)
                        continue;
                    if (any_other) {
                        cards[nc] = PH;
                        ADD_OUT(cards, nc + 1);
                    }
                    if (two_h - opt_two[io] >= 1) {
                        cards[nc] = 1;
                        ADD_OUT(cards, nc + 1);
                    }
                }
            }
        }
    }
#undef ADD_OUT
    qsort(out, (size_t)nout, sizeof(Canon), canon_cmp);
    return nout;
}

/* the action of these n cards with each of the nwl wilds wl added, in turn */
static void push_with_wilds(ABuf *b, int verb, const uint8_t *cards, int n, const int *wl, int nwl, int meld) {
    for (int w = 0; w < nwl; w++) {
        uint8_t c2[MAXMC + 1];
        memcpy(c2, cards, (size_t)n);
        c2[n] = (uint8_t)wl[w];
        sort_u8(c2, n + 1);
        push_act(b, verb, c2, n + 1, meld);
    }
}

/* Game._raw_meld_actions (legality.py) */
void raw_melds(const NRules *R, const NState *S, int seat, ABuf *b) {
    static __thread Canon canon[MAXCANON];
    const uint8_t *h = HAND(S, seat);
    int side = SIDE_OF(S, seat);
    int sig = wild_sig(h);
    int wl[5], nwl = 0;
    for (int i = 0; i < 5; i++)
        if (sig >> i & 1)
            wl[nwl++] = WILDS[i];
    int nm = S->nmelds[side];
    const NMeld *melds = side_melds(R, S, side);
    int dup_ranks = 0;
    if (R->forbid_dup_set)
        for (int i = 0; i < nm; i++)
            if (melds[i].kind == 0)
                dup_ranks |= 1 << melds[i].rank;
    /* new sets */
    int need = sig ? 2 : 3;
    for (int rank = 1; rank <= 13; rank++) {
        int base = rank - 1;
        int tot = h[base] + h[base + 13] + h[base + 26] + h[base + 39];
        if (tot < need || !(R->set_ranks >> rank & 1) || (dup_ranks >> rank & 1))
            continue;
        for (int a = 0; a <= h[base]; a++)
            for (int bb = 0; bb <= h[base + 13]; bb++)
                for (int c = 0; c <= h[base + 26]; c++)
                    for (int d = 0; d <= h[base + 39]; d++) {
                        int k = a + bb + c + d;
                        if (k < 2)
                            continue;
                        uint8_t cards[MAXMC + 1];
                        int n = set_cards(base, a, bb, c, d, cards);
                        if (3 <= k && k <= R->max_set)
                            push_act(b, V_MELD, cards, n, 0);
                        if (sig && k + 1 <= R->max_set)
                            push_with_wilds(b, V_MELD, cards, n, wl, nwl, 0);
                    }
    }
    /* new sequences */
    int max_zeros = sig ? 11 : 10;
    for (int suit = 0; suit < 4; suit++) {
        const uint8_t *cs = h + suit * 13;
        int zeros = 0;
        for (int i = 0; i < 13; i++)
            zeros += cs[i] == 0;
        if (zeros > max_zeros)
            continue;
        int others[5], nothers = foreign_wilds(sig, suit, others);
        int nc = gen_sequences(R, cs, nothers > 0, canon);
        for (int i = 0; i < nc; i++) {
            if (R->forbid_ident_seq) {
                int dup = 0;
                for (int j = 0; j < nm && !dup; j++)
                    dup = melds[j].kind == 1 && melds[j].suit == suit && melds[j].mask == canon[i].mask;
                if (dup)
                    continue;
            }
            expand_push(b, &canon[i], suit, others, nothers, V_MELD, 0);
        }
    }
    /* attachments */
    for (int k = 0; k < nm; k++) {
        const NMeld *m = &melds[k];
        if (m->kind == 0) {
            int base = m->rank - 1;
            int cnt[4] = {h[base], h[base + 13], h[base + 26], h[base + 39]};
            if (!sig && !(cnt[0] | cnt[1] | cnt[2] | cnt[3]))
                continue;
            int has_wild = m->wild >= 0;
            for (int a = 0; a <= cnt[0]; a++)
                for (int bb = 0; bb <= cnt[1]; bb++)
                    for (int c = 0; c <= cnt[2]; c++)
                        for (int d = 0; d <= cnt[3]; d++) {
                            int kk = a + bb + c + d;
                            uint8_t cards[MAXMC + 1];
                            int n = set_cards(base, a, bb, c, d, cards);
                            if (kk && m->size + kk <= R->max_set)
                                push_act(b, V_ADD, cards, n, k + 1);
                            if (sig && !has_wild && m->size + kk + 1 <= R->max_set)
                                push_with_wilds(b, V_ADD, cards, n, wl, nwl, k + 1);
                        }
        } else {
            const uint8_t *cs = h + m->suit * 13;
            if (!sig) {
                int any = 0;
                for (int i = 0; i < 13; i++)
                    any |= cs[i];
                if (!any)
                    continue;
            }
            int others[5], nothers = foreign_wilds(sig, m->suit, others);
            int w0_two = m->wild == m->suit * 13 + 1;
            int nc = gen_seq_additions(R, m->mask, m->wild >= 0, w0_two, cs, nothers > 0, canon);
            for (int i = 0; i < nc; i++)
                expand_push(b, &canon[i], m->suit, others, nothers, V_ADD, k + 1);
        }
    }
}

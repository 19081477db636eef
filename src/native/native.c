/* burraco._native: one hand of Burraco in compact native form (the engine's inner loop in C).
 *
 * The pure-Python engine (burraco/game.py, melds.py, gen.py) is the reference: this module holds the same state
 * in a compact C form laid out per rule set (NState, state_layout: a 4-player state is about 700 bytes) and
 * implements the same legal actions (the same list, in the same order), the same
 * apply, clone and scoring, and a random playout to the end of the hand that releases the GIL. burraco/native.py
 * wraps it (conversion from and to a Game, the rule sets it supports); tests/test_native.py compares both engines
 * on every state of random hands.
 *
 * Supported: 2 to 6 players (the solo and the pairs of 3 and 5 players included), every rule parameter but those
 * burraco/native.py: supported() refuses; those rule sets run on the Python engine.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <stddef.h>
#include <math.h>

#define NT 53
#define JOKER 52
#define MAXP 6
#define MAXSIDES 6
#define MAXPOZ 6
#define MAXCARDS 170
#define MAXMELDS (MAXCARDS / 3) /* melds on the table, every side together: a meld holds three cards or more */
#define MAXMC 16                /* cards in one meld or one action */
#define PH (-1)                 /* placeholder of the generator: any wild but the suit's own 2 */
#define PKB 14                  /* a packed count vector: 2 bits for each of the 52 cards, the jokers' byte last */

enum { V_DRAW, V_PICK, V_MELD, V_ADD, V_DISCARD, V_REDRAW, V_SWAP };
#define NVERBS 7
enum { PH_DRAW, PH_PLAY, PH_END };
enum { E_NONE, E_CLOSED, E_STOCK, E_STALEMATE, E_TIMEOUT, E_CAP };
enum { B_NONE, B_CLEAN, B_SEMI, B_DIRTY };

typedef struct {
    int players, direction, max_set, max_seq, two_aces, min_len, semiclean, at_end_only;
    int set_ranks; /* bit r for rank r allowed in sets */
    int forbid_dup_set, forbid_ident_seq, discard_open, no_rediscard, pickup_one_ok, indirect_counts;
    int poz_penalty, closing_clean, closing_requires_discard, closing_wild_ok, closing_bonus;
    int bonus_clean, bonus_semi, bonus_dirty, extra_honours, bonus_ak, bonus_aa, no_canastra_penalty;
    int stock_end_morto, stalemate, turn_cap, three_morto;
    int hand_size, poz_size, up_card, decks, jokers, poz_requires_burraco, solo_pair;
    int pickup_rule; /* 0 none, 1 must open or attach, 2 must use the top card */
    int redraw, swap; /* the house rules first_player_redraw and wild_may_return_to_hand */
    int min_first_meld, min_meld_for_pickup;
    int poz_sizes[MAXPOZ];
    int values[NT];
    /* the sides (fixed in a hand: no solo and pairs): the side of each seat, the sides, the seats of a side */
    int nsides, npoz, ssize;
    int side[MAXP];
    /* the layout of a state's variable part (NState.d, see state_layout): the offsets of each array, the cards of
     * the deck (the stock and the pile share that many bytes), a pozzetto's room, the melds a state can hold */
    int o_known, o_hidden, o_cards, o_poz, o_melds, ncards, poz_stride, mcap;
} NRules;

/* One meld. Its cards are not stored: they follow from the rest (meld_cards), as a meld's cards are always sorted:
 * a sequence's are its naturals at the positions of `mask` and its wild, a set's the naturals of each suit counted
 * in `suits` and its wild. 16 bytes. */
typedef struct {
    uint32_t singles;        /* the heuristic's cache: which of singles()'s candidates attach, and bit 31 once known */
    int8_t suit, rank, wild; /* sequences: suit; sets: rank; the card used as a wild or -1 */
    uint8_t kind;                    /* 0 set, 1 sequence */
    uint8_t wild_pos, size, naturals, burraco;
    uint8_t suits; /* sets: the naturals of each suit, 2 bits a suit (hearts lowest) */
    uint8_t pad;
    uint16_t mask; /* sequences: the positions of the naturals (1 the low ace … 14 the high ace) */
} NMeld;

_Static_assert(sizeof(NMeld) == 16, "a meld is 16 bytes");

typedef struct {
    uint8_t verb, n, meld;
    uint8_t cards[MAXMC];
} NAct;

/* One hand's state: the scalars, then a variable part laid out by the rules (NRules.o_*): the hands (players × 53
 * counts), the cards each seat was seen to pick up and a hidden pozzetto's cards (players × PKB packed counts), the
 * stock and the pile (one buffer of the deck's size: the pile from its start, the stock from its end), the
 * pozzetti, and the melds of every side in one pool, side by side in the order of the sides (mcap of them). A copy
 * takes the scalars and the variable part up to the melds in use (state_used). */
typedef struct {
    uint8_t hand_n[MAXP];
    int16_t stock_n, pile_n;
    int8_t poz_n[MAXPOZ]; /* -1: taken (None) */
    int8_t npoz;
    int8_t has_hidden[MAXP], poz_pending[MAXP];
    int8_t poz_taken[MAXSIDES], poz_by[MAXSIDES], poz_order[MAXPOZ], npoz_order;
    uint8_t nmelds[MAXSIDES];
    int8_t turn, phase, picked, drew, lone, lone_gone, top, top_used, melded, opening, must_open, drawn, redrawn;
    int8_t last_turn, timeout_called, end, closed_by, first;
    int16_t laid, stalemate_run, turns, timeout_left;
    int32_t nactions;
    /* the sides: of each seat, the seats per side, how many, the solo of 3 and 5 players (-1: none yet) */
    int8_t side[MAXP], ssz[MAXSIDES], nsides, solo;
    uint8_t mcap; /* the melds this state's memory holds (at most the rules' mcap) */
    uint32_t d[];  /* the variable part (bytes; words for the melds' alignment) */
} NState;

#define SD(S) ((uint8_t *)(S)->d)
#define HAND(S, s) (SD(S) + (size_t)(s) * NT)
#define KNOWN(R, S, s) (SD(S) + (R)->o_known + (size_t)(s) * PKB)
#define HIDDEN(R, S, s) (SD(S) + (R)->o_hidden + (size_t)(s) * PKB)
#define PILE(R, S) (SD(S) + (R)->o_cards)
#define STOCK_AT(R, S, i) (SD(S)[(R)->o_cards + (R)->ncards - 1 - (i)])
#define POZ(R, S, i) (SD(S) + (R)->o_poz + (size_t)(i) * (R)->poz_stride)
#define MELD_POOL(R, S) ((NMeld *)(SD(S) + (R)->o_melds))

/* the layout of a state's variable part under R (NRules.o_*) */
static void state_layout(NRules *R) {
    int o = R->players * NT;
    R->o_known = o;
    o += R->players * PKB;
    R->o_hidden = o;
    o += R->players * PKB;
    R->o_cards = o;
    R->ncards = 52 * R->decks + R->jokers;
    o += R->ncards;
    R->o_poz = o;
    R->poz_stride = 0;
    for (int i = 0; i < R->npoz; i++)
        if (R->poz_sizes[i] > R->poz_stride)
            R->poz_stride = R->poz_sizes[i];
    o += R->npoz * R->poz_stride;
    R->o_melds = (o + 3) & ~3;
    R->mcap = R->ncards / 3;
}

static int melds_used(const NState *S) {
    int k = 0;
    for (int i = 0; i < S->nsides; i++)
        k += S->nmelds[i];
    return k;
}

/* the bytes of a state holding k melds */
static size_t state_size_for(const NRules *R, int k) {
    return offsetof(NState, d) + (size_t)R->o_melds + (size_t)k * sizeof(NMeld);
}

/* the bytes of S in use (what a copy takes) */
static size_t state_used(const NRules *R, const NState *S) { return state_size_for(R, melds_used(S)); }

/* a new state of R with room for k melds (zeroed), or NULL */
static NState *state_new(const NRules *R, int k) {
    NState *S = (NState *)calloc(1, state_size_for(R, k));
    if (S != NULL)
        S->mcap = (uint8_t)k;
    return S;
}

/* dst (room for dst->mcap melds, at least those src uses) = src */
static void state_copy(const NRules *R, NState *dst, const NState *src) {
    uint8_t cap = dst->mcap;
    memcpy(dst, src, state_used(R, src));
    dst->mcap = cap;
}

/* a copy of S with room for every meld the rules allow, or NULL */
static NState *state_dup(const NRules *R, const NState *S) {
    NState *g = (NState *)malloc(state_size_for(R, R->mcap));
    if (g != NULL) {
        g->mcap = (uint8_t)R->mcap;
        state_copy(R, g, S);
    }
    return g;
}

/* S zeroed, keeping its room */
static void state_clear(const NRules *R, NState *S) {
    uint8_t cap = S->mcap;
    memset(S, 0, state_size_for(R, cap));
    S->mcap = cap;
}

/* the first meld of side in the pool */
static NMeld *side_melds(const NRules *R, const NState *S, int side) {
    int k = 0;
    for (int i = 0; i < side; i++)
        k += S->nmelds[i];
    return MELD_POOL(R, S) + k;
}

/* a new last meld of side (room for it is there: S->mcap > melds_used(S)) */
static NMeld *meld_append(const NRules *R, NState *S, int side) {
    NMeld *pool = MELD_POOL(R, S);
    int at = 0, used = 0;
    for (int i = 0; i < S->nsides; i++) {
        if (i <= side)
            at += S->nmelds[i];
        used += S->nmelds[i];
    }
    memmove(pool + at + 1, pool + at, sizeof(NMeld) * (size_t)(used - at));
    S->nmelds[side]++;
    return pool + at;
}

/* packed counts (KNOWN, HIDDEN): 2 bits a card for the 52 (two or three packs: at most 3 of a card), a byte for the
 * jokers */
static int pk_get(const uint8_t *p, int c) { return c == JOKER ? p[13] : (p[c >> 2] >> ((c & 3) * 2)) & 3; }
static void pk_inc(uint8_t *p, int c) {
    if (c == JOKER)
        p[13]++;
    else
        p[c >> 2] = (uint8_t)(p[c >> 2] + (1 << ((c & 3) * 2)));
}
static void pk_dec(uint8_t *p, int c) {
    if (c == JOKER)
        p[13]--;
    else
        p[c >> 2] = (uint8_t)(p[c >> 2] - (1 << ((c & 3) * 2)));
}
/* unpack into 53 counts */
static void pk_counts(const uint8_t *p, uint8_t *out) {
    for (int c = 0; c < 52; c++)
        out[c] = (uint8_t)((p[c >> 2] >> ((c & 3) * 2)) & 3);
    out[JOKER] = p[13];
}

static int n_sides(const NRules *R) { return R->nsides; } /* at the start of a hand: the most there are */
#define SIDE_OF(S, seat) ((S)->side[seat])

/* the sides at the start of a hand (burraco/game.py initial_sides) into S */
static void init_sides(const NRules *R, NState *S) {
    memset(S->ssz, 0, sizeof(S->ssz));
    for (int s = 0; s < R->players; s++) {
        S->side[s] = (int8_t)R->side[s];
        S->ssz[R->side[s]]++;
    }
    S->nsides = (int8_t)R->nsides;
    S->solo = -1;
}

static int popc(unsigned x) { return __builtin_popcount(x); }
static int bitlen(unsigned x) { return x ? 32 - __builtin_clz(x) : 0; }
static int lowbit(unsigned x) { return x ? __builtin_ctz(x) : -1; }

static void sort_u8(uint8_t *a, int n) {
    for (int i = 1; i < n; i++) {
        uint8_t v = a[i];
        int j = i - 1;
        while (j >= 0 && a[j] > v) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = v;
    }
}

static void sort_i8(int8_t *a, int n) {
    for (int i = 1; i < n; i++) {
        int8_t v = a[i];
        int j = i - 1;
        while (j >= 0 && a[j] > v) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = v;
    }
}

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
static uint8_t set_suits(const uint8_t *cards, int n, int w) {
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
static void meld_fill(const NRules *R, NMeld *m, int kind, int suits, int n, int suit, int rank, unsigned mask,
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
static int meld_cards(const NMeld *m, uint8_t *out) {
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

/* the points of m's cards (those of meld_cards, without listing them) */
static int meld_points(const NRules *R, const NMeld *m) {
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
static int same_meld(const NMeld *a, const NMeld *b) {
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
static int make_meld(const NRules *R, const uint8_t *cards, int n, NMeld *out) {
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
static int attach_meld(const NRules *R, const NMeld *m, const uint8_t *added, int na, NMeld *out) {
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

static int burraco_bonus(const NRules *R, const NMeld *m) {
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

/* ----- generation (burraco/gen.py, Game._raw_meld_actions) --------------------------------------------------- */

typedef struct {
    NAct *a;
    int n, cap, oom;
} ABuf;

static NAct *abuf_push(ABuf *b) {
    if (b->n == b->cap) {
        int cap = b->cap ? b->cap * 2 : 256;
        NAct *na = (NAct *)realloc(b->a, sizeof(NAct) * (size_t)cap);
        if (na == NULL) {
            b->oom = 1;
            return NULL;
        }
        b->a = na;
        b->cap = cap;
    }
    return &b->a[b->n++];
}

static void push_act(ABuf *b, int verb, const uint8_t *cards, int n, int meld) {
    NAct *a = abuf_push(b);
    if (a == NULL)
        return;
    a->verb = (uint8_t)verb;
    a->n = (uint8_t)n;
    a->meld = (uint8_t)meld;
    if (n)
        memcpy(a->cards, cards, (size_t)n);
}

static const int WILDS[5] = {JOKER, 1, 14, 27, 40};

static int wild_sig(const uint8_t *h) {
    return (h[52] > 0) | (h[1] > 0) << 1 | (h[14] > 0) << 2 | (h[27] > 0) << 3 | (h[40] > 0) << 4;
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
    int lefts[16], nl = 0, rights[16], nr = 0, miss = 0;
    lefts[nl++] = lo;
    for (int p = lo - 1; p > 0; p--) {
        if (!(av >> p & 1)) {
            miss++;
            if (miss > 1)
                break;
        }
        lefts[nl++] = p;
    }
    rights[nr++] = hi;
    miss = 0;
    for (int p = hi + 1; p < 15; p++) {
        if (!(av >> p & 1)) {
            miss++;
            if (miss > 1)
                break;
        }
        rights[nr++] = p;
    }
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

/* Game._raw_meld_actions */
static void raw_melds(const NRules *R, const NState *S, int seat, ABuf *b) {
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
                        int n = 0;
                        for (int i = 0; i < a && n < MAXMC; i++)
                            cards[n++] = (uint8_t)base;
                        for (int i = 0; i < bb && n < MAXMC; i++)
                            cards[n++] = (uint8_t)(base + 13);
                        for (int i = 0; i < c && n < MAXMC; i++)
                            cards[n++] = (uint8_t)(base + 26);
                        for (int i = 0; i < d && n < MAXMC; i++)
                            cards[n++] = (uint8_t)(base + 39);
                        if (3 <= k && k <= R->max_set)
                            push_act(b, V_MELD, cards, n, 0);
                        if (sig && k + 1 <= R->max_set)
                            for (int w = 0; w < nwl; w++) {
                                uint8_t c2[MAXMC + 1];
                                memcpy(c2, cards, (size_t)n);
                                c2[n] = (uint8_t)wl[w];
                                sort_u8(c2, n + 1);
                                push_act(b, V_MELD, c2, n + 1, 0);
                            }
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
        int own = 2 << suit;
        int others[5], nothers = 0;
        for (int i = 0; i < 5; i++)
            if (sig >> i & 1 && (1 << i) != own)
                others[nothers++] = WILDS[i];
        int nc = gen_sequences(R, cs, (sig & ~own) != 0, canon);
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
                            int n = 0;
                            for (int i = 0; i < a && n < MAXMC; i++)
                                cards[n++] = (uint8_t)base;
                            for (int i = 0; i < bb && n < MAXMC; i++)
                                cards[n++] = (uint8_t)(base + 13);
                            for (int i = 0; i < c && n < MAXMC; i++)
                                cards[n++] = (uint8_t)(base + 26);
                            for (int i = 0; i < d && n < MAXMC; i++)
                                cards[n++] = (uint8_t)(base + 39);
                            if (kk && m->size + kk <= R->max_set)
                                push_act(b, V_ADD, cards, n, k + 1);
                            if (sig && !has_wild && m->size + kk + 1 <= R->max_set)
                                for (int w = 0; w < nwl; w++) {
                                    uint8_t c2[MAXMC + 1];
                                    memcpy(c2, cards, (size_t)n);
                                    c2[n] = (uint8_t)wl[w];
                                    sort_u8(c2, n + 1);
                                    push_act(b, V_ADD, c2, n + 1, k + 1);
                                }
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
            int own = 2 << m->suit;
            int others[5], nothers = 0;
            for (int i = 0; i < 5; i++)
                if (sig >> i & 1 && (1 << i) != own)
                    others[nothers++] = WILDS[i];
            int w0_two = m->wild == m->suit * 13 + 1;
            int nc = gen_seq_additions(R, m->mask, m->wild >= 0, w0_two, cs, (sig & ~own) != 0, canon);
            for (int i = 0; i < nc; i++)
                expand_push(b, &canon[i], m->suit, others, nothers, V_ADD, k + 1);
        }
    }
}

/* ----- the hand (burraco/game.py) ---------------------------------------------------------------------------- */

static int has_burraco(const NRules *R, const NState *S, int side, int clean_only) {
    for (int i = 0; i < S->nmelds[side]; i++) {
        int b = side_melds(R, S, side)[i].burraco;
        if (b != B_NONE && (!clean_only || b == B_CLEAN))
            return 1;
    }
    return 0;
}

static int has_burraco(const NRules *R, const NState *S, int side, int clean_only);

static int pozzetto_for(const NRules *R, const NState *S, int side) {
    if (R->poz_requires_burraco && !has_burraco(R, S, side, 0))
        return -1;
    int taken = S->poz_taken[side];
    if (taken == 0) {
        for (int i = 0; i < S->npoz; i++)
            if (S->poz_n[i] >= 0 && !(R->three_morto && i == 2))
                return i;
        return -1;
    }
    if (R->three_morto && taken == 1 && S->npoz_order == 2 && S->poz_order[1] == side && S->npoz > 2 &&
        S->poz_n[2] >= 0)
        return 2;
    return -1;
}

static int pozzetti_left(const NState *S) {
    int k = 0;
    for (int i = 0; i < S->npoz; i++)
        k += S->poz_n[i] >= 0;
    return k;
}

static int unreached_morto(const NRules *R, const NState *S, int side) {
    if (R->indirect_counts)
        return -1;
    for (int s = 0; s < R->players; s++)
        if (S->poz_pending[s] && SIDE_OF(S, s) == side)
            return s;
    return -1;
}

/* Game._closing_error: 1 when the side may not close with card c (c<0: without a discard) */
static int closing_error(const NRules *R, const NState *S, int side, int c) {
    if (S->poz_taken[side] == 0)
        return 1;
    if (unreached_morto(R, S, side) >= 0)
        return 1;
    if (!has_burraco(R, S, side, R->closing_clean))
        return 1;
    if (c >= 0 && !R->closing_wild_ok && (c == JOKER || c % 13 == 1))
        return 1;
    return 0;
}

/* Game._pending: a condition that must be met before the turn may end */
static int pending(const NRules *R, const NState *S) {
    if (S->picked && R->pickup_rule == 1 && !S->melded)
        return 1;
    if (!S->top_used)
        return 1;
    if ((S->opening && S->laid < R->min_first_meld) && (S->melded || S->must_open))
        return 1;
    return 0;
}

static int pending_at_end(const NRules *R, const NState *S) {
    return (S->opening && S->laid < R->min_first_meld) || !S->top_used;
}

static int discard_error(const NRules *R, const NState *S, int seat, int c) {
    if (R->no_rediscard && c == S->lone && !S->lone_gone && HAND(S, seat)[c] == 1)
        return 1;
    if (pending(R, S))
        return 1;
    if (S->hand_n[seat] == 1) {
        int side = SIDE_OF(S, seat);
        if (pozzetto_for(R, S, side) >= 0)
            return 0;
        return closing_error(R, S, side, c);
    }
    return 0;
}

static void finish(NState *S, int how, int seat) {
    S->end = (int8_t)how;
    S->closed_by = (int8_t)(how == E_CLOSED ? seat : -1);
    S->phase = PH_END;
}

/* Game._form_pairs: 3 and 5 players, `solo` went out first: he plays alone, the others in pairs of alternating seats
 * (pairs_after); a pair's melds are its first seat's then its partner's, its pozzetti taken summed */
static void form_pairs(const NRules *R, NState *S, int solo) {
    int n = R->players, h = (n - 1) / 2;
    int others[MAXP], groups[MAXSIDES][2], gsz[MAXSIDES], ng = 0;
    for (int k = 1; k < n; k++)
        others[k - 1] = (solo + k) % n;
    groups[ng][0] = solo;
    gsz[ng++] = 1;
    for (int i = 0; i < h; i++) {
        int a = others[i], b = others[i + h];
        groups[ng][0] = a < b ? a : b;
        groups[ng][1] = a < b ? b : a;
        gsz[ng++] = 2;
    }
    /* sorted() of the tuples: by their first seat (no two groups share one) */
    for (int i = 1; i < ng; i++)
        for (int j = i; j > 0 && groups[j][0] < groups[j - 1][0]; j--) {
            int t0 = groups[j][0], t1 = groups[j][1], tz = gsz[j];
            groups[j][0] = groups[j - 1][0];
            groups[j][1] = groups[j - 1][1];
            gsz[j] = gsz[j - 1];
            groups[j - 1][0] = t0;
            groups[j - 1][1] = t1;
            gsz[j - 1] = tz;
        }
    int8_t old[MAXP];
    memcpy(old, S->side, sizeof(old));
    static __thread NMeld tmp[MAXMELDS];
    uint8_t tn[MAXSIDES], from[MAXSIDES];
    int used = melds_used(S);
    memcpy(tmp, MELD_POOL(R, S), sizeof(NMeld) * (size_t)used);
    memcpy(tn, S->nmelds, sizeof(tn));
    for (int k = 0, at = 0; k < MAXSIDES; k++) {
        from[k] = (uint8_t)at;
        at += k < S->nsides ? tn[k] : 0;
    }
    int8_t taken[MAXSIDES], by[MAXSIDES];
    memcpy(taken, S->poz_taken, sizeof(taken));
    memcpy(by, S->poz_by, sizeof(by));
    memset(S->nmelds, 0, sizeof(S->nmelds));
    memset(S->poz_taken, 0, sizeof(S->poz_taken));
    memset(S->ssz, 0, sizeof(S->ssz));
    S->nsides = (int8_t)ng;
    for (int k = 0; k < ng; k++) {
        S->poz_by[k] = -1;
        for (int j = 0; j < gsz[k]; j++) {
            int m = groups[k][j], os = old[m];
            for (int i = 0; i < tn[os]; i++) /* k is the last side filled so far: appends go to the end */
                *meld_append(R, S, k) = tmp[from[os] + i];
            S->poz_taken[k] = (int8_t)(S->poz_taken[k] + taken[os]);
            if (S->poz_by[k] < 0 && by[os] >= 0)
                S->poz_by[k] = by[os];
            S->side[m] = (int8_t)k;
            S->ssz[k]++;
        }
    }
    for (int k = ng; k < MAXSIDES; k++)
        S->poz_by[k] = -1;
    for (int i = 0; i < S->npoz_order; i++) {
        int first = 0; /* old.index(side): the first seat whose old side it was */
        while (first < n && old[first] != S->poz_order[i])
            first++;
        S->poz_order[i] = S->side[first];
    }
    S->nsides = (int8_t)ng;
    S->solo = (int8_t)solo;
}

static void take_pozzetto(const NRules *R, NState *S, int seat, int side, int i, int direct) {
    if (R->solo_pair && S->solo < 0) {
        form_pairs(R, S, seat);
        side = SIDE_OF(S, seat);
    }
    int n = S->poz_n[i];
    S->poz_n[i] = -1;
    if (S->poz_taken[side] == 0) {
        S->poz_order[S->npoz_order++] = (int8_t)side;
        S->poz_by[side] = (int8_t)seat;
    }
    S->poz_taken[side]++;
    for (int k = 0; k < n; k++)
        HAND(S, seat)[POZ(R, S, i)[k]]++;
    S->hand_n[seat] = (uint8_t)(S->hand_n[seat] + n);
    if (!direct) {
        S->poz_pending[seat] = 1;
        if (S->ssz[side] > 1) {
            uint8_t *hid = HIDDEN(R, S, seat);
            memset(hid, 0, PKB);
            for (int k = 0; k < n; k++)
                pk_inc(hid, POZ(R, S, i)[k]);
            S->has_hidden[seat] = 1;
        }
    }
}

static void lay(const NRules *R, NState *S, int seat, int side, const NAct *a, const NMeld *m) {
    uint8_t *h = HAND(S, seat), *kn = KNOWN(R, S, seat);
    int pts = 0;
    for (int i = 0; i < a->n; i++) {
        int c = a->cards[i];
        h[c]--;
        if (pk_get(kn, c))
            pk_dec(kn, c);
        pts += R->values[c];
    }
    S->hand_n[seat] = (uint8_t)(S->hand_n[seat] - a->n);
    if (a->verb == V_MELD) {
        if (S->nmelds[side] == 0 && R->min_first_meld > 0)
            S->opening = 1;
        *meld_append(R, S, side) = *m;
    } else
        side_melds(R, S, side)[a->meld - 1] = *m;
    S->melded = 1;
    if (S->lone >= 0) {
        for (int i = 0; i < a->n; i++)
            if (a->cards[i] == S->lone)
                S->lone_gone = 1;
    }
    if (S->opening)
        S->laid = (int16_t)(S->laid + pts);
    if (S->top >= 0 && !S->top_used)
        for (int i = 0; i < a->n; i++)
            if (a->cards[i] == S->top)
                S->top_used = 1;
    if (S->hand_n[seat] == 0) {
        int i = pozzetto_for(R, S, side);
        if (i >= 0)
            take_pozzetto(R, S, seat, side, i, 1);
        else
            finish(S, E_CLOSED, seat);
    }
}

/* the meld a meld/add action makes (0 when invalid or a duplicate) */
static int meld_result(const NRules *R, const NState *S, int side, const NAct *a, NMeld *out) {
    if (a->verb == V_MELD) {
        if (!make_meld(R, a->cards, a->n, out))
            return 0;
        for (int i = 0; i < S->nmelds[side]; i++) {
            const NMeld *o = &side_melds(R, S, side)[i];
            if (o->kind != out->kind)
                continue;
            if (out->kind == 0 && R->forbid_dup_set && o->rank == out->rank)
                return 0;
            if (out->kind == 1 && R->forbid_ident_seq && o->suit == out->suit && o->mask == out->mask)
                return 0;
        }
        return melds_used(S) < R->mcap;
    }
    if (a->meld < 1 || a->meld > S->nmelds[side])
        return 0;
    return attach_meld(R, &side_melds(R, S, side)[a->meld - 1], a->cards, a->n, out);
}

static void next_turn(const NRules *R, NState *S) {
    S->turn = (int8_t)(((S->turn + R->direction) % R->players + R->players) % R->players);
    S->phase = PH_DRAW;
    S->picked = S->drew = 0;
    S->lone = -1;
    S->lone_gone = 0;
    S->top = -1;
    S->top_used = 1;
    S->melded = S->opening = 0;
    S->laid = 0;
    S->must_open = 0;
    S->drawn = -1;
    S->poz_pending[S->turn] = 0;
    if (S->ssz[SIDE_OF(S, S->turn)] == 1)
        S->has_hidden[S->turn] = 0;
    if (S->stock_n == 0 && pozzetti_left(S) == 0)
        finish(S, E_STOCK, -1);
    else if (S->stock_n == 0 && !R->stock_end_morto)
        finish(S, E_STOCK, -1);
}

static void do_draw(const NRules *R, NState *S, int seat) {
    if (S->stock_n == 0) {
        for (int i = 0; i < S->npoz; i++)
            if (S->poz_n[i] >= 0) {
                int n = S->poz_n[i];
                for (int k = 0; k < n; k++)
                    STOCK_AT(R, S, k) = POZ(R, S, i)[n - 1 - k];
                S->stock_n = (int16_t)n;
                S->poz_n[i] = -1;
                break;
            }
    }
    int c = STOCK_AT(R, S, --S->stock_n);
    HAND(S, seat)[c]++;
    S->hand_n[seat]++;
    S->phase = PH_PLAY;
    S->drew = 1;
    S->drawn = (int8_t)c;
    if (!R->stock_end_morto && S->stock_n <= 2)
        S->last_turn = 1;
}

static void do_pick(const NRules *R, NState *S, int seat) {
    uint8_t *h = HAND(S, seat), *kn = KNOWN(R, S, seat);
    int top = PILE(R, S)[S->pile_n - 1];
    if (S->pile_n == 1) {
        S->lone = (int8_t)top;
        S->lone_gone = 0;
    }
    S->top = (int8_t)top;
    S->top_used = R->pickup_rule != 2;
    const uint8_t *pile = PILE(R, S);
    for (int i = 0; i < S->pile_n; i++) {
        h[pile[i]]++;
        if (R->discard_open)
            pk_inc(kn, pile[i]);
    }
    if (!R->discard_open)
        pk_inc(kn, top);
    S->hand_n[seat] = (uint8_t)(S->hand_n[seat] + S->pile_n);
    S->pile_n = 0;
    S->picked = 1;
    S->phase = PH_PLAY;
    if (R->min_meld_for_pickup && R->min_first_meld > 0 && S->nmelds[SIDE_OF(S, seat)] == 0) {
        S->must_open = 1;
        S->opening = 1;
    }
}

static void do_discard(const NRules *R, NState *S, int seat, int c) {
    HAND(S, seat)[c]--;
    S->hand_n[seat]--;
    if (pk_get(KNOWN(R, S, seat), c))
        pk_dec(KNOWN(R, S, seat), c);
    PILE(R, S)[S->pile_n++] = (uint8_t)c;
    int side = SIDE_OF(S, seat);
    int closed = 0;
    if (S->hand_n[seat] == 0) {
        int i = pozzetto_for(R, S, side);
        if (i >= 0)
            take_pozzetto(R, S, seat, side, i, 0);
        else
            closed = 1;
    }
    for (int p = 0; p < R->players; p++) /* the sides as they are now (pairs may have formed) */
        if (p != seat && SIDE_OF(S, p) == SIDE_OF(S, seat))
            S->has_hidden[p] = 0;
    if (S->lone >= 0 && !S->melded && !S->drew)
        S->stalemate_run++;
    else
        S->stalemate_run = 0;
    S->turns++;
    if (S->timeout_left > 0)
        S->timeout_left--;
    if (closed)
        finish(S, E_CLOSED, seat);
    else if (S->last_turn)
        finish(S, E_STOCK, -1);
    else if (R->stalemate && S->stalemate_run >= R->players)
        finish(S, E_STALEMATE, -1);
    else if (S->timeout_left == 0)
        finish(S, E_TIMEOUT, -1);
    else if (S->turns >= R->turn_cap)
        finish(S, E_CAP, -1);
    else
        next_turn(R, S);
}

/* ----- the house rules redraw and swap (Game._redraw, Game._swap) ----- */
static void do_draw(const NRules *R, NState *S, int seat);

static void do_redraw(const NRules *R, NState *S, int seat) {
    int c = S->drawn;
    HAND(S, seat)[c]--;
    S->hand_n[seat]--;
    PILE(R, S)[S->pile_n++] = (uint8_t)c;
    S->redrawn = 1;
    do_draw(R, S, seat);
}

/* Game._swap_target: where natural c would replace m's wild, or 0 */
static int swap_target(const NRules *R, const NMeld *m, int c) {
    if (m->kind != 1 || m->wild < 0 || c == JOKER || c / 13 != m->suit)
        return 0;
    int r = c % 13 + 1;
    int spots[2], ns = 0;
    if (m->wild_pos)
        spots[ns++] = m->wild_pos;
    else {
        int lo = lowbit(m->mask), hi = bitlen(m->mask) - 1;
        if (lo - 1 >= 1 && lo - 1 <= 14)
            spots[ns++] = lo - 1;
        if (hi + 1 >= 1 && hi + 1 <= 14)
            spots[ns++] = hi + 1;
    }
    for (int i = 0; i < ns; i++) {
        int p = spots[i];
        if (p == r || (r == 1 && p == 14)) {
            if (p == 1 || p == 14) {
                int other = p == 1 ? 14 : 1;
                if ((m->mask >> other & 1) && !R->two_aces)
                    continue;
            }
            return p;
        }
    }
    return 0;
}

static void do_swap(const NRules *R, NState *S, int seat, int side, const NAct *a) {
    NMeld *m = &side_melds(R, S, side)[a->meld - 1];
    int c = a->cards[0], w = m->wild;
    int p = swap_target(R, m, c);
    unsigned mask = m->mask | (1u << p); /* the natural in the wild's place: the same size, no wild */
    NMeld nm;
    meld_fill(R, &nm, 1, 0, m->size, m->suit, 0, mask, -1, 0, popc(mask));
    uint8_t *h = HAND(S, seat), *kn = KNOWN(R, S, seat);
    h[c]--;
    h[w]++;
    if (pk_get(kn, c))
        pk_dec(kn, c);
    pk_inc(kn, w);
    *m = nm;
    S->melded = 1;
    if (c == S->lone)
        S->lone_gone = 1;
    if (S->opening)
        S->laid = (int16_t)(S->laid + R->values[c] - R->values[w]);
    if (S->top >= 0 && !S->top_used && S->top == c)
        S->top_used = 1;
}

/* apply a legal action (no checks) */
static void apply_act(const NRules *R, NState *S, const NAct *a) {
    int seat = S->turn;
    S->nactions++;
    switch (a->verb) {
    case V_DRAW:
        do_draw(R, S, seat);
        break;
    case V_PICK:
        do_pick(R, S, seat);
        break;
    case V_DISCARD:
        do_discard(R, S, seat, a->cards[0]);
        break;
    case V_REDRAW:
        do_redraw(R, S, seat);
        break;
    case V_SWAP:
        do_swap(R, S, seat, SIDE_OF(S, seat), a);
        break;
    default: {
        int side = SIDE_OF(S, seat);
        NMeld m;
        if (meld_result(R, S, side, a, &m))
            lay(R, S, seat, side, a, &m);
    }
    }
}

/* the memo of one Game._completable search: keys (a hash of the hand, the side's melds, laid, top_used, melded) */
typedef struct {
    uint64_t *k;
    int8_t *v;
    int cap, n;
} Memo;

static uint64_t memo_key(const NRules *R, const NState *S, int seat, int side) {
    uint64_t h = 1469598103934665603ULL;
#define MIX(x)                                                                                                     \
    do {                                                                                                           \
        h ^= (uint64_t)(x);                                                                                        \
        h *= 1099511628211ULL;                                                                                     \
    } while (0)
    for (int c = 0; c < NT; c++)
        MIX(HAND(S, seat)[c]);
    for (int i = 0; i < S->nmelds[side]; i++) {
        const NMeld *m = &side_melds(R, S, side)[i];
        MIX(0x100 + m->size);
        MIX((uint32_t)m->mask << 16 | (uint32_t)m->suits << 8 | (uint8_t)m->wild);
        MIX(0x500 + (m->kind << 7 | m->wild_pos << 3 | (m->kind ? m->suit : m->rank)));
    }
    MIX(0x200 + S->nmelds[side]);
    MIX((uint16_t)S->laid);
    MIX(0x300 + S->top_used);
    MIX(0x400 + S->melded);
#undef MIX
    return h | 1;
}

/* the slot of key (found or free), or -1 out of memory */
static int memo_slot(Memo *mm, uint64_t key) {
    if ((mm->n + 1) * 2 > mm->cap) {
        int cap = mm->cap ? mm->cap * 2 : 64;
        uint64_t *k = (uint64_t *)calloc((size_t)cap, sizeof(uint64_t));
        int8_t *v = (int8_t *)calloc((size_t)cap, 1);
        if (k == NULL || v == NULL) {
            free(k);
            free(v);
            return -1;
        }
        for (int i = 0; i < mm->cap; i++)
            if (mm->k[i]) {
                int j = (int)(mm->k[i] & (uint64_t)(cap - 1));
                while (k[j])
                    j = (j + 1) & (cap - 1);
                k[j] = mm->k[i];
                v[j] = mm->v[i];
            }
        free(mm->k);
        free(mm->v);
        mm->k = k;
        mm->v = v;
        mm->cap = cap;
    }
    int j = (int)(key & (uint64_t)(mm->cap - 1));
    while (mm->k[j] && mm->k[j] != key)
        j = (j + 1) & (mm->cap - 1);
    return j;
}

/* Game._completable: can the player in turn still end his turn legally, with his hand and the table? */
static int completable_rec(const NRules *R, const NState *S, ABuf *scratch, Memo *mm) {
    int seat = S->turn;
    if (S->end != E_NONE)
        return !pending_at_end(R, S);
    int n = S->hand_n[seat];
    if (n == 0)
        return !(S->opening && S->laid < R->min_first_meld);
    int pend = pending(R, S);
    if (!pend && n >= 2)
        return 1;
    const uint8_t *h = HAND(S, seat);
    for (int c = 0; c < NT; c++)
        if (h[c] && !discard_error(R, S, seat, c))
            return 1;
    int side = SIDE_OF(S, seat);
    uint64_t key = memo_key(R, S, seat, side);
    int j = memo_slot(mm, key);
    if (j < 0) {
        scratch->oom = 1;
        return 0;
    }
    if (mm->k[j] == key)
        return mm->v[j];
    mm->k[j] = key;
    mm->v[j] = 0;
    mm->n++;
    int ok = 0;
    int top_only = pend && !S->top_used && !S->opening;
    int start = scratch->n;
    raw_melds(R, S, seat, scratch);
    int end = scratch->n;
    for (int i = start; i < end && !ok; i++) {
        NAct a = scratch->a[i];
        if (top_only) {
            int has = 0;
            for (int k = 0; k < a.n; k++)
                has |= a.cards[k] == S->top;
            if (!has)
                continue;
        }
        NMeld m;
        if (!meld_result(R, S, side, &a, &m))
            continue;
        int left = n - a.n;
        NState *g = state_dup(R, S);
        if (g == NULL) {
            scratch->oom = 1;
            break;
        }
        if (left == 0 && pozzetto_for(R, S, side) < 0) {
            if (!R->closing_requires_discard) {
                lay(R, g, seat, side, &a, &m);
                if (g->end != E_NONE && has_burraco(R, g, side, R->closing_clean) && g->poz_taken[side] &&
                    unreached_morto(R, g, side) < 0 && !pending_at_end(R, g))
                    ok = 1;
            }
            free(g);
            continue;
        }
        lay(R, g, seat, side, &a, &m);
        if (left == 0) {
            if (!(g->opening && g->laid < R->min_first_meld))
                ok = 1;
        } else if (completable_rec(R, g, scratch, mm))
            ok = 1;
        free(g);
    }
    scratch->n = start;
    j = memo_slot(mm, key); /* the table may have grown */
    if (j >= 0)
        mm->v[j] = (int8_t)ok;
    return ok;
}

static int completable(const NRules *R, const NState *S, ABuf *scratch) {
    Memo mm = {0};
    int ok = completable_rec(R, S, scratch, &mm);
    free(mm.k);
    free(mm.v);
    return ok;
}

/* Game._after_meld_error: 1 when the meld or attachment is not legal (a dead end, §0.1) */
static int after_meld_error(const NRules *R, const NState *S, int seat, const NAct *a, ABuf *scratch) {
    int left = S->hand_n[seat] - a->n;
    int side = SIDE_OF(S, seat);
    if (left >= 2) {
        int top_in = 0;
        for (int k = 0; k < a->n; k++)
            top_in |= a->cards[k] == S->top;
        if (S->top_used || top_in) {
            if (R->min_first_meld == 0 || (S->nmelds[side] && !S->opening))
                return 0;
            int pts = 0;
            for (int k = 0; k < a->n; k++)
                pts += R->values[a->cards[k]];
            if (S->laid + pts >= R->min_first_meld)
                return 0;
        }
    }
    NMeld m;
    if (!meld_result(R, S, side, a, &m))
        return 1;
    NState *g = state_dup(R, S);
    if (g == NULL) {
        scratch->oom = 1;
        return 1;
    }
    int err;
    if (left == 0 && pozzetto_for(R, g, side) < 0) {
        if (R->closing_requires_discard)
            err = 1;
        else {
            lay(R, g, seat, side, a, &m);
            err = !has_burraco(R, g, side, R->closing_clean) || g->poz_taken[side] == 0 ||
                  unreached_morto(R, g, side) >= 0 || pending_at_end(R, g);
        }
    } else {
        lay(R, g, seat, side, a, &m);
        if (left == 0)
            err = g->opening && g->laid < R->min_first_meld;
        else
            err = !completable(R, g, scratch);
    }
    free(g);
    return err;
}

static int pick_error(const NRules *R, const NState *S, int seat, ABuf *scratch) {
    if (S->pile_n == 0 || S->last_turn)
        return 1;
    if (!R->pickup_one_ok && S->hand_n[seat] == 1)
        return 1;
    int cond = R->pickup_rule != 0 ||
               (R->min_meld_for_pickup && R->min_first_meld > 0 && S->nmelds[SIDE_OF(S, seat)] == 0);
    if (!cond)
        return 0;
    NState *g = state_dup(R, S);
    if (g == NULL) {
        scratch->oom = 1;
        return 1;
    }
    if (!R->discard_open && g->pile_n > 1) {
        /* legality never depends on cards the seat cannot see (§0.1): judge with the visible top card only */
        PILE(R, g)[0] = PILE(R, g)[g->pile_n - 1];
        g->pile_n = 1;
        do_pick(R, g, seat);
        g->lone = -1;
    } else
        do_pick(R, g, seat);
    int saved = scratch->n;
    int err = !completable(R, g, scratch);
    scratch->n = saved;
    free(g);
    return err;
}

/* Game._house_actions: the legal redraw and swaps */
static void house_actions(const NRules *R, const NState *S, int seat, ABuf *b, ABuf *scratch) {
    if (R->redraw && !(S->redrawn || S->turns > 0 || seat != S->first || !S->drew || S->melded) &&
        !(S->stock_n == 0 && pozzetti_left(S) == 0) && !S->last_turn)
        push_act(b, V_REDRAW, NULL, 0, 0);
    if (!R->swap)
        return;
    int side = SIDE_OF(S, seat);
    const uint8_t *h = HAND(S, seat);
    for (int k = 0; k < S->nmelds[side]; k++) {
        const NMeld *m = &side_melds(R, S, side)[k];
        if (m->kind != 1 || m->wild < 0)
            continue;
        int b0 = m->suit * 13;
        for (int c = b0; c < b0 + 13; c++) {
            if (!h[c] || !swap_target(R, m, c))
                continue;
            NAct a;
            a.verb = V_SWAP;
            a.n = 1;
            a.meld = (uint8_t)(k + 1);
            a.cards[0] = (uint8_t)c;
            NState *g = state_dup(R, S);
            if (g == NULL) {
                scratch->oom = 1;
                return;
            }
            do_swap(R, g, seat, side, &a);
            int saved = scratch->n;
            int ok = completable(R, g, scratch);
            scratch->n = saved;
            free(g);
            if (ok)
                push_act(b, V_SWAP, a.cards, 1, k + 1);
        }
    }
}

/* Game.legal_actions into b (b->n = 0 first); scratch for the dead-end checks */
static void legal(const NRules *R, const NState *S, ABuf *b, ABuf *scratch) {
    b->n = 0;
    if (S->end != E_NONE)
        return;
    int seat = S->turn;
    if (S->phase == PH_DRAW) {
        push_act(b, V_DRAW, NULL, 0, 0);
        if (S->pile_n && !pick_error(R, S, seat, scratch))
            push_act(b, V_PICK, NULL, 0, 0);
        return;
    }
    const uint8_t *h = HAND(S, seat);
    int n = S->hand_n[seat];
    if (n >= 3 && !pending(R, S)) {
        int lone = S->lone;
        int skip = lone >= 0 && !S->lone_gone && h[lone] == 1 && R->no_rediscard ? lone : -1;
        for (int c = 0; c < NT; c++)
            if (h[c] && c != skip) {
                uint8_t cc = (uint8_t)c;
                push_act(b, V_DISCARD, &cc, 1, 0);
            }
    } else {
        for (int c = 0; c < NT; c++)
            if (h[c] && !discard_error(R, S, seat, c)) {
                uint8_t cc = (uint8_t)c;
                push_act(b, V_DISCARD, &cc, 1, 0);
            }
    }
    if (R->redraw || R->swap)
        house_actions(R, S, seat, b, scratch);
    int start = b->n;
    raw_melds(R, S, seat, b);
    int maxlen = 0;
    for (int i = start; i < b->n; i++)
        if (b->a[i].n > maxlen)
            maxlen = b->a[i].n;
    int simple = R->pickup_rule == 0 && R->min_first_meld == 0;
    if (simple && (n >= 16 || b->n == start || n >= 2 + maxlen))
        return;
    int w = start;
    for (int i = start; i < b->n; i++) {
        NAct a = b->a[i];
        scratch->n = 0;
        if ((simple && n - a.n >= 2) || !after_meld_error(R, S, seat, &a, scratch))
            b->a[w++] = a;
    }
    b->n = w;
}

/* the score breakdown of one side: melds, bonuses, closing, hand, pozzetto, total */
static void side_score(const NRules *R, const NState *S, int side, int out[6]) {
    int melds = 0, bonuses = 0, clean = 0;
    for (int i = 0; i < S->nmelds[side]; i++) {
        const NMeld *m = &side_melds(R, S, side)[i];
        melds += meld_points(R, m);
        bonuses += burraco_bonus(R, m);
        if (m->burraco == B_CLEAN)
            clean = 1;
    }
    if (R->no_canastra_penalty && !clean)
        melds = -melds;
    int closing =
        (S->end == E_CLOSED && S->closed_by >= 0 && SIDE_OF(S, S->closed_by) == side) ? R->closing_bonus : 0;
    int hand = 0, uncounted = 0;
    for (int s = 0; s < R->players; s++) {
        if (SIDE_OF(S, s) != side)
            continue;
        if (S->poz_pending[s] && !R->indirect_counts) {
            uncounted = 1;
            continue;
        }
        for (int c = 0; c < NT; c++)
            hand -= R->values[c] * HAND(S, s)[c];
    }
    int taken = S->poz_taken[side] > 0 && !uncounted;
    int pozz = taken ? 0 : -R->poz_penalty;
    out[0] = melds;
    out[1] = bonuses;
    out[2] = closing;
    out[3] = hand;
    out[4] = pozz;
    out[5] = melds + bonuses + closing + hand + pozz;
}

/* ----- random numbers (splitmix64: a playout's own stream, never Python's) ----------------------------------- */

static uint64_t rng_next(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static int rng_below(uint64_t *s, int n) { return (int)(((rng_next(s) >> 11) * (uint64_t)n) >> 53); }

/* Python's random.Random (MT19937, as Modules/_randommodule.c): a playout that draws exactly what
 * ``legal[rng.randrange(len(legal))]`` draws plays the very hand burraco.sim.play_hand plays */
typedef struct {
    uint32_t mt[624];
    int index;
} MT;

static uint32_t mt_next(MT *m) {
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t y, *mt = m->mt;
    if (m->index >= 624) {
        int kk;
        for (kk = 0; kk < 624 - 397; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + 397] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        for (; kk < 623; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + (397 - 624)] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        y = (mt[623] & 0x80000000U) | (mt[0] & 0x7fffffffU);
        mt[623] = mt[396] ^ (y >> 1) ^ mag01[y & 0x1U];
        m->index = 0;
    }
    y = mt[m->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* random.Random(n).seed(n) for 0 <= n < 2**64 (init_by_array on n's 32-bit words, as random_seed does) */
static void mt_seed(MT *m, uint64_t n) {
    uint32_t key[2] = {(uint32_t)n, (uint32_t)(n >> 32)};
    int klen = key[1] ? 2 : 1;
    uint32_t *mt = m->mt;
    mt[0] = 19650218U;
    for (int i = 1; i < 624; i++)
        mt[i] = (1812433253U * (mt[i - 1] ^ (mt[i - 1] >> 30)) + (uint32_t)i);
    int i = 1, j = 0;
    for (int k = 624 > klen ? 624 : klen; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= 624) {
            mt[0] = mt[623];
            i = 1;
        }
        if (j >= klen)
            j = 0;
    }
    for (int k = 623; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= 624) {
            mt[0] = mt[623];
            i = 1;
        }
    }
    mt[0] = 0x80000000U;
    m->index = 624;
}

/* random.Random._randbelow_with_getrandbits(n) for 0 < n < 2**31 */
static int mt_below(MT *m, int n) {
    int k = bitlen((unsigned)n);
    uint32_t r;
    do
        r = mt_next(m) >> (32 - k);
    while (r >= (uint32_t)n);
    return (int)r;
}

typedef struct {
    NAct a;
    int8_t seat;
} Rec;

typedef struct {
    Rec *r;
    long n, cap;
    int oom;
} RecBuf;

/* a playout drawing from Python's generator; the actions go to rec when it is not NULL */
static long mt_playout(const NRules *R, NState *S, MT *m, ABuf *b, ABuf *scratch, RecBuf *rec) {
    long k = 0;
    while (S->end == E_NONE) {
        legal(R, S, b, scratch);
        if (b->oom || scratch->oom || b->n == 0)
            return -1;
        NAct a = b->a[mt_below(m, b->n)];
        if (rec != NULL) {
            if (rec->n == rec->cap) {
                long cap = rec->cap ? rec->cap * 2 : 512;
                Rec *nr = (Rec *)realloc(rec->r, sizeof(Rec) * (size_t)cap);
                if (nr == NULL)
                    return -1;
                rec->r = nr;
                rec->cap = cap;
            }
            rec->r[rec->n].a = a;
            rec->r[rec->n].seat = S->turn;
            rec->n++;
        }
        apply_act(R, S, &a);
        k++;
    }
    return k;
}


/* ----- the heuristic player (burraco/bots/heuristic.py, every level), on the seat's view ------------------- */

enum { L_EASY, L_MEDIUM, L_HARD };

static uint8_t NEAR1[NT][14], NEAR2[NT][14], NEARANY[NT][14];
static uint8_t NNEAR1[NT], NNEAR2[NT], NNEARANY[NT];

static int rank_dist(int a, int b) {
    int ra = a % 13 + 1, rb = b % 13 + 1;
    int d = ra > rb ? ra - rb : rb - ra;
    if (ra == 1 || rb == 1) {
        int xa = ra == 1 ? 14 : ra, xb = rb == 1 ? 14 : rb;
        int d2 = xa > xb ? xa - xb : xb - xa;
        if (d2 < d)
            d = d2;
    }
    return d;
}

static void near_tables(void) {
    for (int c = 0; c < 52; c++) {
        int suit = c / 13;
        for (int x = suit * 13; x < suit * 13 + 13; x++) {
            if (x == c)
                continue;
            int d = rank_dist(c, x);
            int two = x % 13 == 1;
            if (!two && d == 1)
                NEAR1[c][NNEAR1[c]++] = (uint8_t)x;
            if (!two && d == 2)
                NEAR2[c][NNEAR2[c]++] = (uint8_t)x;
            if (d <= 2)
                NEARANY[c][NNEARANY[c]++] = (uint8_t)x;
        }
    }
}

static int is_wild(int c) { return c == JOKER || c % 13 == 1; }

typedef struct {
    const NRules *R;
    const NState *S;
    int level, seat, side, their_side, next_seat;
    int counts[NT];
    int hand[MAXCARDS], nhand, hidden_poz, n_hand;
    int pile[MAXCARDS], npile;
    int need_clean, own_poz, poz_left, own_can_close, opp_threat, opp_short, late;
    int safety;         /* the partner's safety (issue 22): feeds and dirty_cost from medium up */
    int next_discards;  /* bit r: the next opponent was seen to discard rank r + 1 */
    uint64_t own_singles[MAXMELDS], their_singles[MAXMELDS];
    uint8_t next_known[NT]; /* the cards the next opponent was seen to pick up */
    int their_done;
} HCtx;

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
static uint64_t meld_singles(const NRules *R, const NMeld *m) {
    if (!(m->singles >> 31))
        ((NMeld *)m)->singles = singles(R, m) | 1u << 31;
    return singles_cards(m, m->singles);
}

static int has_burraco_melds(const NMeld *ms, int n, int need_clean) {
    for (int i = 0; i < n; i++)
        if (ms[i].burraco != B_NONE && (!need_clean || ms[i].burraco == B_CLEAN))
            return 1;
    return 0;
}

static void hctx_init(HCtx *x, const NRules *R, const NState *S, int level) {
    x->R = R;
    x->S = S;
    x->level = level;
    int seat = S->turn, P = R->players;
    x->seat = seat;
    x->side = SIDE_OF(S, seat);
    x->hidden_poz = 0;
    x->nhand = 0;
    uint8_t hidden[NT];
    if (S->has_hidden[seat])
        pk_counts(HIDDEN(R, S, seat), hidden);
    for (int c = 0; c < NT; c++) {
        int hid = S->has_hidden[seat] ? hidden[c] : 0;
        int k = HAND(S, seat)[c] - hid;
        x->counts[c] = k;
        x->hidden_poz += hid;
        for (int i = 0; i < k; i++)
            x->hand[x->nhand++] = c;
    }
    x->n_hand = x->nhand + x->hidden_poz;
    x->npile = 0;
    if (R->discard_open)
        for (int i = 0; i < S->pile_n; i++)
            x->pile[x->npile++] = PILE(R, S)[i];
    else if (S->pile_n)
        x->pile[x->npile++] = PILE(R, S)[S->pile_n - 1];
    int nxt = ((seat + R->direction) % P + P) % P;
    while (SIDE_OF(S, nxt) == x->side && nxt != seat)
        nxt = ((nxt + R->direction) % P + P) % P;
    x->next_seat = nxt;
    pk_counts(KNOWN(R, S, nxt), x->next_known);
    x->their_side = SIDE_OF(S, nxt);
    x->safety = level != L_EASY;
    /* the visible pile's card k from the top came from the seat k + 1 turns back (every turn ends with a discard) */
    x->next_discards = 0;
    {
        int j0 = (((seat - nxt) * R->direction) % P + P) % P;
        if (j0)
            for (int k = j0 - 1; k < x->npile; k += P) {
                int c = x->pile[x->npile - 1 - k];
                if (c != JOKER)
                    x->next_discards |= 1 << (c % 13);
            }
    }
    x->need_clean = R->closing_clean;
    x->own_poz = S->poz_taken[x->side] > 0;
    x->poz_left = pozzetti_left(S) > 0;
    x->own_can_close = x->own_poz && has_burraco_melds(side_melds(R, S, x->side), S->nmelds[x->side], x->need_clean);
    x->opp_threat = 0;
    for (int k = 0; k < S->nsides; k++)
        if (k != x->side && S->poz_taken[k] > 0 && has_burraco_melds(side_melds(R, S, k), S->nmelds[k], x->need_clean))
            x->opp_threat = 1;
    int mn = 1 << 30;
    for (int s = 0; s < P; s++)
        if (SIDE_OF(S, s) != x->side && S->hand_n[s] < mn)
            mn = S->hand_n[s];
    x->opp_short = mn <= 3;
    x->late = x->opp_threat || S->stock_n < 12;
    for (int i = 0; i < S->nmelds[x->side]; i++)
        x->own_singles[i] = meld_singles(R, &side_melds(R, S, x->side)[i]);
    x->their_done = 0;
}

/* the first meld of a side (own: 1, theirs: 0) that card c fits, or NULL */
static const NMeld *fits(HCtx *x, int c, int own) {
    const NState *S = x->S;
    int side = own ? x->side : x->their_side;
    if (!own && !x->their_done) {
        for (int i = 0; i < S->nmelds[side]; i++)
            x->their_singles[i] = meld_singles(x->R, &side_melds(x->R, S, side)[i]);
        x->their_done = 1;
    }
    const uint64_t *ms = own ? x->own_singles : x->their_singles;
    uint64_t bit = 1ULL << c;
    for (int i = 0; i < S->nmelds[side]; i++)
        if (ms[i] & bit)
            return &side_melds(x->R, S, side)[i];
    return NULL;
}

static double h_use(HCtx *x, int c, const int *counts) {
    const NRules *R = x->R;
    if (is_wild(c))
        return 25.0;
    double u = 0.0;
    const NMeld *m = fits(x, c, 1);
    if (m != NULL)
        u += 15.0 + ((m->size >= 5 && m->size < R->min_len) ? 10.0 : 0.0);
    int rank = c % 13;
    if (R->set_ranks >> (rank + 1) & 1) {
        int same = counts[rank] + counts[rank + 13] + counts[rank + 26] + counts[rank + 39];
        u += 8.0 * (same < 2 ? same : 2);
    }
    int n1 = 0, n2 = 0;
    for (int i = 0; i < NNEAR1[c]; i++)
        n1 += counts[NEAR1[c][i]] != 0;
    for (int i = 0; i < NNEAR2[c]; i++)
        n2 += counts[NEAR2[c][i]] != 0;
    double near = 7.0 * n1 + 4.0 * n2;
    return u + (near < 16.0 ? near : 16.0);
}

/* _Ctx.feeds: what a natural c on the pile hands the next opponent's side */
static double h_feeds(HCtx *x, int c) {
    if (is_wild(c))
        return 0.0;
    const NRules *R = x->R;
    const NState *S = x->S;
    fits(x, c, 0); /* fills their_singles */
    uint64_t bit = 1ULL << c;
    double f = 0.0;
    for (int i = 0; i < S->nmelds[x->their_side]; i++) {
        if (!(x->their_singles[i] & bit))
            continue;
        const NMeld *m = &side_melds(R, S, x->their_side)[i];
        double w;
        if (m->burraco != B_NONE)
            w = 20.0;
        else {
            int gap = R->min_len - m->size;
            double bonus = (double)(m->wild < 0 ? R->bonus_clean : R->bonus_dirty);
            w = gap <= 1 ? 40.0 + 0.5 * bonus : (gap == 2 ? 30.0 + 0.2 * bonus : 30.0);
        }
        if (w > f)
            f = w;
    }
    if (f > 0.0)
        f *= 1.0 + (double)(S->pile_n < 20 ? S->pile_n : 20) / 20.0;
    if (x->next_discards >> (c % 13) & 1)
        f = f - 15.0 > 0.0 ? f - 15.0 : 0.0;
    return f;
}

/* _Ctx.dirty_cost: a wild put on a clean meld of the side that stays short of a burraco */
static double dirty_cost(HCtx *x, const NMeld *before, const NMeld *after, int left) {
    const NRules *R = x->R;
    if (!x->safety || before == NULL || before->wild >= 0 || after->wild < 0 || after->burraco != B_NONE)
        return 0.0;
    if (left <= 2 || (x->opp_threat && x->opp_short))
        return 0.0;
    double frac = (double)before->size / R->min_len;
    if (frac > 1.0)
        frac = 1.0;
    return 20.0 + 0.5 * (double)(R->bonus_clean - R->bonus_dirty) * frac;
}

static double h_danger(HCtx *x, int c) {
    if (x->level == L_EASY)
        return 0.0;
    const NRules *R = x->R;
    double d = 0.0;
    if (is_wild(c))
        d += 40.0;
    const uint8_t *kn = x->next_known;
    int any = 0;
    for (int i = 0; i < NT; i++)
        any |= kn[i];
    if (any) {
        if (kn[c])
            d += 30.0;
        int rank = c % 13 + 1;
        int seen = 0;
        for (int s = 0; s < 4; s++)
            seen |= kn[rank - 1 + 13 * s];
        if ((R->set_ranks >> rank & 1) && seen)
            d += 25.0;
        else if (c != JOKER) {
            int near = 0;
            for (int i = 0; i < NNEARANY[c]; i++)
                near |= kn[NEARANY[c][i]];
            if (near)
                d += 15.0;
        }
    }
    if (x->safety)
        d += h_feeds(x, c);
    return d;
}

static double side_points(HCtx *x, int side) {
    const NRules *R = x->R;
    const NState *S = x->S;
    long pts_i = 0;
    for (int i = 0; i < S->nmelds[side]; i++) {
        const NMeld *m = &side_melds(R, S, side)[i];
        pts_i += meld_points(R, m) + burraco_bonus(R, m);
    }
    double pts = (double)pts_i;
    if (S->poz_taken[side] == 0)
        pts -= R->poz_penalty;
    for (int s = 0; s < R->players; s++)
        if (SIDE_OF(S, s) == side) {
            if (s == x->seat) {
                long v = 0;
                for (int i = 0; i < x->nhand; i++)
                    v += R->values[x->hand[i]];
                pts -= v;
            } else
                pts -= 8.0 * S->hand_n[s];
        }
    return pts;
}

static double potential(const NRules *R, const NMeld *m) {
    if (m->burraco != B_NONE) {
        double b = (double)burraco_bonus(R, m);
        if (m->burraco == B_CLEAN)
            b += 40.0;
        return b + 5.0 * (m->size - R->min_len);
    }
    double expect = (double)(m->wild < 0 ? R->bonus_clean : R->bonus_dirty);
    if (m->kind == 0)
        expect *= 0.8;
    double frac = (double)m->size / R->min_len;
    return expect * frac * frac * 0.6;
}

static int want_close(HCtx *x) {
    if (x->opp_threat || x->late)
        return 1;
    double best = -1e300;
    for (int k = 0; k < x->S->nsides; k++)
        if (k != x->side) {
            double v = side_points(x, k);
            if (v > best)
                best = v;
        }
    return side_points(x, x->side) - best > -150.0;
}

static double pick_value(HCtx *x) {
    const NRules *R = x->R;
    const NState *S = x->S;
    if (!x->npile)
        return -1.0;
    if (x->level == L_EASY)
        return h_use(x, x->pile[x->npile - 1], x->counts) >= 8.0 ? 1.0 : -1.0;
    double late_w = (x->level == L_HARD && x->late) ? 1.0 : 0.35;
    double total = 0.0;
    int with_pile[NT];
    memcpy(with_pile, x->counts, sizeof(with_pile));
    for (int i = 0; i < x->npile; i++)
        with_pile[x->pile[i]]++;
    for (int i = 0; i < x->npile; i++) {
        int c = x->pile[i];
        with_pile[c]--;
        double u = h_use(x, c, with_pile);
        with_pile[c]++;
        if (u > 0)
            total += u + 0.3 * R->values[c];
        else
            total -= 3.0 + late_w * R->values[c];
    }
    int hidden = S->pile_n - x->npile;
    total += hidden * ((x->late && x->level == L_HARD) ? -4.0 : 1.5);
    if (x->level == L_HARD && x->opp_threat && x->opp_short)
        total -= 4.0 * S->pile_n;
    int opp_poz = 0;
    for (int k = 0; k < S->nsides; k++)
        if (k != x->side && S->poz_taken[k])
            opp_poz = 1;
    if (x->level == L_HARD && !x->late && S->stock_n > 10 && !opp_poz) {
        double ahead = (S->stock_n - 10) / 25.0;
        if (ahead > 1.0)
            ahead = 1.0;
        ahead *= x->opp_short ? 0.0 : 1.0;
        total += 14.0 * x->npile * ahead;
    }
    return total - 30.0;
}

static double meld_value(HCtx *x, const NAct *a) {
    const NRules *R = x->R;
    const NState *S = x->S;
    const NMeld *before = NULL;
    NMeld after;
    if (a->verb == V_MELD) {
        if (!make_meld(R, a->cards, a->n, &after))
            return -1.0;
    } else {
        if (a->meld < 1 || a->meld > S->nmelds[x->side])
            return -1.0;
        before = &side_melds(R, S, x->side)[a->meld - 1];
        if (!attach_meld(R, before, a->cards, a->n, &after))
            return -1.0;
    }
    int left = x->n_hand - a->n;
    long laid_i = 0;
    for (int i = 0; i < a->n; i++)
        laid_i += R->values[a->cards[i]];
    double laid = (double)laid_i;
    if (x->level == L_EASY)
        return 10.0 + laid + after.size;
    double gain = laid * (x->late ? 1.0 : 0.6);
    gain += potential(R, &after) - (before != NULL ? potential(R, before) : 0.0);
    int new_wild = after.wild >= 0 && (before == NULL || before->wild < 0);
    if (new_wild && after.burraco == B_NONE && left > 2) {
        double hold = x->level == L_HARD ? 45.0 : 25.0;
        gain -= R->set_ranks ? hold : 0.0;
    }
    if (new_wild && after.burraco != B_NONE && before != NULL && before->burraco == B_CLEAN)
        gain -= 60.0;
    gain -= dirty_cost(x, before, &after, left);
    if (left == 0 && !x->own_poz && x->poz_left)
        gain += 80.0;
    else if (left == 1 && !x->own_poz && x->poz_left)
        gain += 30.0;
    if (left == 1 && x->own_can_close && x->level == L_HARD && !want_close(x))
        gain -= 150.0;
    if (after.kind == 1 && after.wild < 0)
        gain += 2.0;
    return gain;
}

static double discard_value(HCtx *x, int c) {
    const NRules *R = x->R;
    int *counts = x->counts;
    counts[c]--;
    double keep = h_use(x, c, counts);
    if (counts[c] >= 1 && !is_wild(c))
        keep = (R->set_ranks >> (c % 13 + 1) & 1) ? 8.0 : 2.0;
    counts[c]++;
    if (is_wild(c))
        keep = x->level != L_EASY ? 200.0 : 60.0;
    double dump_w = x->level == L_EASY ? 0.6 : (x->late ? 1.2 : 0.4);
    keep -= dump_w * R->values[c];
    keep += h_danger(x, c);
    if (x->level != L_EASY && x->nhand == 2 && x->hidden_poz == 0) {
        int other = x->hand[1] == c ? x->hand[0] : x->hand[1];
        if (is_wild(other) && !is_wild(c) && x->own_poz)
            keep += 80.0;
    }
    return -keep;
}

static double h_evaluate(HCtx *x, const NAct *a) {
    switch (a->verb) {
    case V_DRAW:
        return 0.0;
    case V_PICK:
        return pick_value(x);
    case V_MELD:
    case V_ADD: {
        double m = meld_value(x, a);
        return m > 0 ? m : m - 5000.0;
    }
    case V_DISCARD:
        if (x->n_hand == 1)
            return 500.0;
        return discard_value(x, a->cards[0]) - 1000.0;
    case V_SWAP:
        return 60.0;
    default:
        return -1000.0;
    }
}

/* the order of Action tuples (verb strings "add" < "discard" < "draw" < "meld" < "pick", then cards, then meld) */
static const int VERB_ORDER[NVERBS] = {2, 4, 3, 0, 1, 5, 6}; /* draw pick meld add discard redraw swap */

static int act_cmp(const NAct *a, const NAct *b) {
    int va = VERB_ORDER[a->verb], vb = VERB_ORDER[b->verb];
    if (va != vb)
        return va < vb ? -1 : 1;
    int n = a->n < b->n ? a->n : b->n;
    for (int i = 0; i < n; i++)
        if (a->cards[i] != b->cards[i])
            return a->cards[i] < b->cards[i] ? -1 : 1;
    if (a->n != b->n)
        return a->n < b->n ? -1 : 1;
    return a->meld < b->meld ? -1 : (a->meld > b->meld);
}

/* heuristic.TIE and heuristic.CLUB_MARGIN: the moves within the level's margin of the best score are drawn from
 * (ties for easy and hard; medium errs like a club player, issue 22) */
#define H_TIE 1e-9
#define H_CLUB_MARGIN 14.0

/* HeuristicPlayer.choose: the index of the chosen action among b's (b->n >= 2), with the player's generator */
static int h_choose(const NRules *R, const NState *S, int level, const ABuf *b, MT *m, double *scores) {
    HCtx x;
    hctx_init(&x, R, S, level);
    const double margin = level == L_MEDIUM ? H_CLUB_MARGIN : H_TIE;
    double best = -1e300;
    for (int i = 0; i < b->n; i++) {
        scores[i] = h_evaluate(&x, &b->a[i]);
        if (scores[i] > best)
            best = scores[i];
    }
    int ties[64], nt = 0, over = 0;
    int *tie = ties;
    static __thread int *big = NULL;
    static __thread int bigcap = 0;
    for (int i = 0; i < b->n; i++)
        if (scores[i] >= best - margin) {
            if (nt == 64 && !over) {
                if (bigcap < b->n) {
                    free(big);
                    big = (int *)malloc(sizeof(int) * (size_t)b->n);
                    bigcap = big ? b->n : 0;
                }
                if (big == NULL)
                    return 0;
                memcpy(big, ties, sizeof(ties));
                tie = big;
                over = 1;
            }
            tie[nt++] = i;
        }
    /* sort the ties (insertion sort on indices) */
    for (int i = 1; i < nt; i++) {
        int v = tie[i], j = i - 1;
        while (j >= 0 && act_cmp(&b->a[tie[j]], &b->a[v]) > 0) {
            tie[j + 1] = tie[j];
            j--;
        }
        tie[j + 1] = v;
    }
    if (nt == 1)
        return tie[0];
    return tie[mt_below(m, nt)];
}

/* The log-likelihood of the discards the pile shows, with the heuristic of `level` as the model of a player: every
 * turn ends with a discard and a pick-up takes the whole pile (RULES.md §3.2, §6.2), so the card k from the top of
 * the pile (k < the players - 1, the pile not taken up since; only the top card where the pile is closed, §14.1)
 * was discarded by the seat k + 1 turns before `seat`'s; with that seat's hand as S holds it (a determinization) plus that card, and the pile as it
 * was then, the heuristic would have discarded each card type c in proportion to exp(discard_value(c) / tau). The
 * sum over those seats of log P(the card discarded), for weighting determinizations (ISMCTSPlayer, Inference
 * .discards). T: room for a copy of S (state_dup). Seats holding a pozzetto unseen or no card are left out. */
static double discard_loglik(const NRules *R, const NState *S, int seat, int level, double tau, NState *T) {
    int P = R->players, dir = R->direction;
    int limit = S->pile_n < S->turns ? S->pile_n : S->turns; /* an up card at the pile's bottom was no discard */
    if (limit > P - 1)
        limit = P - 1;
    if (!R->discard_open && limit > 1)
        limit = 1; /* a closed pile shows its top card only: the cards under it are the determinization's guess */
    double ll = 0.0;
    for (int k = 0; k < limit; k++) {
        int o = ((seat - (k + 1) * dir) % P + P) % P;
        if (o == seat || S->has_hidden[o] || S->hand_n[o] == 0)
            continue;
        int c = PILE(R, S)[S->pile_n - 1 - k];
        state_copy(R, T, S);
        T->turn = (int8_t)o;
        T->phase = PH_PLAY;
        HAND(T, o)[c]++;
        T->hand_n[o]++;
        T->pile_n = (int16_t)(S->pile_n - 1 - k);
        HCtx x;
        hctx_init(&x, R, T, level);
        if (x.n_hand < 2)
            continue;
        double v[NT], best = -1e300;
        int seen[NT] = {0};
        for (int i = 0; i < x.nhand; i++) {
            int d = x.hand[i];
            if (seen[d])
                continue;
            seen[d] = 1;
            v[d] = discard_value(&x, d) / tau;
            if (v[d] > best)
                best = v[d];
        }
        if (!seen[c])
            continue;
        double z = 0.0;
        for (int d = 0; d < NT; d++)
            if (seen[d])
                z += exp(v[d] - best);
        ll += v[c] - best - log(z);
    }
    return ll;
}

typedef struct {
    double *v;
    int cap;
} DBuf;

/* ISMCTSPlayer._rollout with HeuristicPlayer(level) at every seat (their generators in ms): to the end of the hand
 * or for depth decisions (depth < 0: no limit); the number of decisions */
static int rec_push(RecBuf *rec, const NAct *a, int seat) {
    if (rec->n == rec->cap) {
        long cap = rec->cap ? rec->cap * 2 : 512;
        Rec *nr = (Rec *)realloc(rec->r, sizeof(Rec) * (size_t)cap);
        if (nr == NULL)
            return -1;
        rec->r = nr;
        rec->cap = cap;
    }
    rec->r[rec->n].a = *a;
    rec->r[rec->n].seat = (int8_t)seat;
    rec->n++;
    return 0;
}

static long heuristic_playout(const NRules *R, NState *S, int level, MT *ms, long depth, ABuf *b, ABuf *scratch,
                              DBuf *sc, RecBuf *rec) {
    long k = 0;
    while (S->end == E_NONE && (depth < 0 || k < depth)) {
        legal(R, S, b, scratch);
        if (b->oom || scratch->oom || b->n == 0)
            return -1;
        int i = 0;
        if (b->n > 1) {
            if (sc->cap < b->n) {
                double *nv = (double *)realloc(sc->v, sizeof(double) * (size_t)b->n);
                if (nv == NULL)
                    return -1;
                sc->v = nv;
                sc->cap = b->n;
            }
            i = h_choose(R, S, level, b, &ms[S->turn], sc->v);
        }
        NAct a = b->a[i];
        if (rec != NULL && rec_push(rec, &a, S->turn) < 0)
            return -1;
        apply_act(R, S, &a);
        k++;
    }
    return k;
}

/* a random playout to the end of the hand: the number of decisions */
static long playout(const NRules *R, NState *S, uint64_t *seed, ABuf *b, ABuf *scratch) {
    long k = 0;
    while (S->end == E_NONE) {
        legal(R, S, b, scratch);
        if (b->oom || scratch->oom || b->n == 0)
            return -1;
        NAct a = b->a[rng_below(seed, b->n)];
        apply_act(R, S, &a);
        k++;
    }
    return k;
}

/* ----- Python objects ---------------------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD NRules r;
} RulesObject;

typedef struct {
    PyObject_HEAD RulesObject *rules;
    NState *s; /* room for s->mcap melds (hand_room makes more) */
    ABuf legal, scratch;
    long legal_at; /* nactions of the cached legal list, -1 none */
    PyObject *legal_list;
} HandObject;

static PyTypeObject RulesType, HandType;
static PyObject *G_Action, *G_VERBS[NVERBS], *G_SEATS[MAXP + 1][MAXP], *G_EMPTY;

static int dict_int(PyObject *d, const char *key, int *out) {
    PyObject *v = PyDict_GetItemString(d, key);
    if (v == NULL) {
        PyErr_Format(PyExc_KeyError, "native rules: missing %s", key);
        return -1;
    }
    long x = PyLong_AsLong(v);
    if (x == -1 && PyErr_Occurred())
        return -1;
    *out = (int)x;
    return 0;
}

static PyObject *Rules_new(PyTypeObject *tp, PyObject *args, PyObject *kw) {
    PyObject *d;
    if (!PyArg_ParseTuple(args, "O!", &PyDict_Type, &d))
        return NULL;
    RulesObject *self = (RulesObject *)tp->tp_alloc(tp, 0);
    if (self == NULL)
        return NULL;
    NRules *R = &self->r;
#define F(name) dict_int(d, #name, &R->name) < 0
    if (F(players) || F(direction) || F(max_set) || F(max_seq) || F(two_aces) || F(min_len) || F(semiclean) ||
        F(at_end_only) || F(set_ranks) || F(forbid_dup_set) || F(forbid_ident_seq) || F(discard_open) ||
        F(no_rediscard) || F(pickup_one_ok) || F(indirect_counts) || F(poz_penalty) || F(closing_clean) ||
        F(closing_requires_discard) || F(closing_wild_ok) || F(closing_bonus) || F(bonus_clean) || F(bonus_semi) ||
        F(bonus_dirty) || F(extra_honours) || F(bonus_ak) || F(bonus_aa) || F(no_canastra_penalty) ||
        F(stock_end_morto) || F(stalemate) || F(turn_cap) || F(three_morto) || F(hand_size) || F(poz_size) ||
        F(up_card) || F(decks) || F(jokers) || F(poz_requires_burraco) || F(solo_pair) || F(pickup_rule) ||
        F(min_first_meld) || F(min_meld_for_pickup) || F(redraw) || F(swap)) {
        Py_DECREF(self);
        return NULL;
    }
#undef F
    PyObject *vals = PyDict_GetItemString(d, "values");
    if (vals == NULL || !PyTuple_Check(vals) || PyTuple_GET_SIZE(vals) != NT) {
        Py_DECREF(self);
        PyErr_SetString(PyExc_ValueError, "native rules: values must be a tuple of 53 ints");
        return NULL;
    }
    for (int c = 0; c < NT; c++)
        R->values[c] = (int)PyLong_AsLong(PyTuple_GET_ITEM(vals, c));
    if (R->players < 2 || R->players > MAXP) {
        Py_DECREF(self);
        PyErr_SetString(PyExc_ValueError, "the native core plays 2 to 6 players");
        return NULL;
    }
    /* burraco/game.py initial_sides: NS and EW with 4, the partners opposite with 6, every seat alone otherwise */
    if (R->players == 4 || R->players == 6) {
        R->nsides = R->players / 2;
        R->ssize = 2;
        for (int s = 0; s < R->players; s++)
            R->side[s] = s % R->nsides;
    } else {
        R->nsides = R->players;
        R->ssize = 1;
        for (int s = 0; s < R->players; s++)
            R->side[s] = s;
    }
    /* rules.pozzetto_sizes */
    PyObject *ps = PyDict_GetItemString(d, "poz_sizes");
    if (ps == NULL || !PyTuple_Check(ps) || PyTuple_GET_SIZE(ps) < 1 || PyTuple_GET_SIZE(ps) > MAXPOZ) {
        Py_DECREF(self);
        PyErr_SetString(PyExc_ValueError, "native rules: poz_sizes must be a tuple of 1 to 6 sizes");
        return NULL;
    }
    R->npoz = (int)PyTuple_GET_SIZE(ps);
    for (int i = 0; i < R->npoz; i++) {
        R->poz_sizes[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(ps, i));
        if (R->poz_sizes[i] < 0 || R->poz_sizes[i] > 20) {
            Py_DECREF(self);
            PyErr_SetString(PyExc_ValueError, "native rules: pozzetti of 0 to 20 cards");
            return NULL;
        }
    }
    if (R->max_set > 14 || R->max_seq > 14) {
        Py_DECREF(self);
        PyErr_SetString(PyExc_ValueError, "the native core takes melds of at most 14 cards");
        return NULL;
    }
    if (R->decks < 1 || R->decks > 3 || R->jokers < 0 || 52 * R->decks + R->jokers > MAXCARDS) {
        Py_DECREF(self);
        PyErr_SetString(PyExc_ValueError, "the native core takes one to three packs and at most 170 cards");
        return NULL;
    }
    state_layout(R);
    return (PyObject *)self;
}

static PyTypeObject RulesType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "burraco._native.Rules",
    .tp_basicsize = sizeof(RulesObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The rule parameters of the native core (burraco.native builds them from a Rules).",
    .tp_new = Rules_new,
};

static void Hand_dealloc(HandObject *self) {
    Py_XDECREF(self->rules);
    free(self->s);
    Py_XDECREF(self->legal_list);
    free(self->legal.a);
    free(self->scratch.a);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* the melds of room a hand gets beyond those it holds (a clone's memory: state_used plus this many melds) */
#define MELD_SLACK 1

/* a new Hand of these rules, its state zeroed with room for k melds (at most the rules' mcap) */
static HandObject *hand_alloc(RulesObject *rules, int k) {
    HandObject *h = (HandObject *)HandType.tp_alloc(&HandType, 0);
    if (h == NULL)
        return NULL;
    Py_INCREF(rules);
    h->rules = rules;
    h->legal_at = -1;
    h->s = state_new(&rules->r, k < rules->r.mcap ? k : rules->r.mcap);
    if (h->s == NULL) {
        Py_DECREF(h);
        PyErr_NoMemory();
        return NULL;
    }
    return h;
}

/* room in self's state for k more melds (all the rules allow at most); -1 and MemoryError when there is none */
static int hand_room(HandObject *self, int k) {
    const NRules *R = &self->rules->r;
    int want = melds_used(self->s) + k;
    if (want > R->mcap)
        want = R->mcap;
    if (want <= self->s->mcap)
        return 0;
    NState *g = (NState *)realloc(self->s, state_size_for(R, want));
    if (g == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    g->mcap = (uint8_t)want;
    self->s = g;
    return 0;
}

/* ----- conversion: the fields tuple (burraco.native.fields_of documents its layout) -------------------------- */

static int seq_u8(PyObject *o, uint8_t *out, int cap, int *n) {
    PyObject *f = PySequence_Fast(o, "a sequence of cards");
    if (f == NULL)
        return -1;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(f);
    if (k > cap) {
        Py_DECREF(f);
        PyErr_SetString(PyExc_ValueError, "too many cards for the native core");
        return -1;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(f, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(f);
            return -1;
        }
        out[i] = (uint8_t)v;
    }
    *n = (int)k;
    Py_DECREF(f);
    return 0;
}

static int seq_i8(PyObject *o, int8_t *out, int cap, int *n) {
    uint8_t tmp[MAXCARDS];
    int k;
    if (seq_u8(o, tmp, cap, &k) < 0)
        return -1;
    for (int i = 0; i < k; i++)
        out[i] = (int8_t)tmp[i];
    *n = k;
    return 0;
}

/* fields: (hands, hand_n, stock, pile, pozzetti, poz_taken, poz_order, poz_by, hidden, poz_pending, melds, known,
 * table, ints) with melds a list per side of (kind, cards, suit, rank, mask, wild, wild_pos, naturals) and ints
 * the scalar fields in the order of INT_FIELDS below */
#define NINTS 24

/* a packed count vector from a sequence of 53 counts (at most 3 of a card, the jokers aside) */
static int seq_packed(PyObject *o, uint8_t *p) {
    uint8_t v[NT];
    int n;
    if (seq_u8(o, v, NT, &n) < 0)
        return -1;
    memset(p, 0, PKB);
    for (int c = 0; c < n; c++) {
        if (c < 52 && v[c] > 3) {
            PyErr_SetString(PyExc_ValueError, "the native core counts at most 3 of a card");
            return -1;
        }
        for (int k = 0; k < v[c]; k++)
            pk_inc(p, c);
    }
    return 0;
}

/* the cards on the table (Game.table): the melds' cards, counted */
static void table_counts(const NRules *R, const NState *S, uint8_t *out) {
    memset(out, 0, NT);
    const NMeld *pool = MELD_POOL(R, S);
    for (int i = melds_used(S) - 1; i >= 0; i--) {
        uint8_t cards[MAXMC];
        int n = meld_cards(&pool[i], cards);
        for (int k = 0; k < n; k++)
            out[cards[k]]++;
    }
}

/* S (room for the rules' mcap melds) from a fields tuple */
static int load_fields(const NRules *R, NState *S, PyObject *t) {
    state_clear(R, S);
    if (!PyTuple_Check(t) || (PyTuple_GET_SIZE(t) != 14 && PyTuple_GET_SIZE(t) != 15)) {
        PyErr_SetString(PyExc_ValueError, "native fields: a tuple of 14 or 15");
        return -1;
    }
    init_sides(R, S);
    if (PyTuple_GET_SIZE(t) == 15) { /* the sides: (side of each seat, the solo) */
        PyObject *sv = PyTuple_GET_ITEM(t, 14), *of;
        int solo, k;
        int8_t side[MAXP];
        if (!PyArg_ParseTuple(sv, "Oi", &of, &solo) || seq_i8(of, side, MAXP, &k) < 0 || k != R->players)
            return -1;
        memset(S->ssz, 0, sizeof(S->ssz));
        S->nsides = 0;
        for (int s = 0; s < k; s++) {
            if (side[s] < 0 || side[s] >= MAXSIDES) {
                PyErr_SetString(PyExc_ValueError, "native fields: a side out of range");
                return -1;
            }
            S->side[s] = side[s];
            S->ssz[side[s]]++;
            if (side[s] + 1 > S->nsides)
                S->nsides = (int8_t)(side[s] + 1);
        }
        S->solo = (int8_t)solo;
    }
    int n, P = R->players;
    PyObject *hands = PyTuple_GET_ITEM(t, 0);
    for (int s = 0; s < P; s++) {
        PyObject *hs = PySequence_GetItem(hands, s);
        if (hs == NULL || seq_u8(hs, HAND(S, s), NT, &n) < 0) {
            Py_XDECREF(hs);
            return -1;
        }
        Py_DECREF(hs);
    }
    uint8_t tmp[MAXCARDS];
    if (seq_u8(PyTuple_GET_ITEM(t, 1), S->hand_n, MAXP, &n) < 0)
        return -1;
    if (seq_u8(PyTuple_GET_ITEM(t, 2), tmp, MAXCARDS, &n) < 0)
        return -1;
    S->stock_n = (int16_t)n;
    int ns = n;
    if (seq_u8(PyTuple_GET_ITEM(t, 3), PILE(R, S), R->ncards, &n) < 0)
        return -1;
    S->pile_n = (int16_t)n;
    if (ns + n > R->ncards) {
        PyErr_SetString(PyExc_ValueError, "native fields: more cards in the stock and the pile than in the deck");
        return -1;
    }
    for (int i = 0; i < ns; i++)
        STOCK_AT(R, S, i) = tmp[i];
    PyObject *poz = PyTuple_GET_ITEM(t, 4);
    S->npoz = (int8_t)PySequence_Size(poz);
    if (S->npoz > R->npoz) {
        PyErr_SetString(PyExc_ValueError, "too many pozzetti");
        return -1;
    }
    for (int i = 0; i < S->npoz; i++) {
        PyObject *p = PySequence_GetItem(poz, i);
        if (p == Py_None)
            S->poz_n[i] = -1;
        else {
            if (seq_u8(p, POZ(R, S, i), R->poz_stride, &n) < 0) {
                Py_XDECREF(p);
                return -1;
            }
            S->poz_n[i] = (int8_t)n;
        }
        Py_XDECREF(p);
    }
    if (seq_i8(PyTuple_GET_ITEM(t, 5), S->poz_taken, MAXSIDES, &n) < 0)
        return -1;
    if (seq_i8(PyTuple_GET_ITEM(t, 6), S->poz_order, MAXPOZ, &n) < 0)
        return -1;
    S->npoz_order = (int8_t)n;
    if (seq_i8(PyTuple_GET_ITEM(t, 7), S->poz_by, MAXSIDES, &n) < 0)
        return -1;
    PyObject *hidden = PyTuple_GET_ITEM(t, 8);
    for (int s = 0; s < P; s++) {
        PyObject *hs = PySequence_GetItem(hidden, s);
        if (hs == NULL)
            return -1;
        if (hs != Py_None) {
            if (seq_packed(hs, HIDDEN(R, S, s)) < 0) {
                Py_DECREF(hs);
                return -1;
            }
            S->has_hidden[s] = 1;
        }
        Py_DECREF(hs);
    }
    if (seq_i8(PyTuple_GET_ITEM(t, 9), S->poz_pending, MAXP, &n) < 0)
        return -1;
    PyObject *melds = PyTuple_GET_ITEM(t, 10);
    for (int side = 0; side < S->nsides; side++) {
        PyObject *ms = PySequence_GetItem(melds, side);
        if (ms == NULL)
            return -1;
        Py_ssize_t k = PySequence_Size(ms);
        if (k < 0 || k + melds_used(S) > S->mcap) {
            Py_DECREF(ms);
            PyErr_SetString(PyExc_ValueError, "too many melds for the native core");
            return -1;
        }
        for (Py_ssize_t i = 0; i < k; i++) {
            PyObject *m = PySequence_GetItem(ms, i);
            int kind, suit, rank, mask, wild, wild_pos, naturals, nc, burraco = 0;
            PyObject *cards;
            if (!PyArg_ParseTuple(m, "iOiiiiii|i", &kind, &cards, &suit, &rank, &mask, &wild, &wild_pos, &naturals,
                                  &burraco) ||
                seq_u8(cards, tmp, MAXMC, &nc) < 0) {
                Py_XDECREF(m);
                Py_DECREF(ms);
                return -1;
            }
            NMeld *to = meld_append(R, S, side);
            meld_fill(R, to, kind, kind == 0 ? set_suits(tmp, nc, wild) : 0, nc, suit, rank, (unsigned)mask, wild,
                      wild_pos, naturals);
            uint8_t back[MAXMC];
            if (meld_cards(to, back) != nc || memcmp(back, tmp, (size_t)nc) != 0) {
                Py_DECREF(m);
                Py_DECREF(ms);
                PyErr_SetString(PyExc_ValueError, "native fields: a meld whose cards are not sorted or not its own");
                return -1;
            }
            Py_DECREF(m);
        }
        Py_DECREF(ms);
    }
    PyObject *known = PyTuple_GET_ITEM(t, 11);
    for (int s = 0; s < P; s++) {
        PyObject *ks = PySequence_GetItem(known, s);
        if (ks == NULL || seq_packed(ks, KNOWN(R, S, s)) < 0) {
            Py_XDECREF(ks);
            return -1;
        }
        Py_DECREF(ks);
    }
    (void)PyTuple_GET_ITEM(t, 12); /* the table: the melds' cards (table_counts) */
    int iv[NINTS];
    PyObject *ints = PySequence_Fast(PyTuple_GET_ITEM(t, 13), "ints");
    if (ints == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(ints) != NINTS) {
        Py_DECREF(ints);
        PyErr_SetString(PyExc_ValueError, "native fields: wrong number of ints");
        return -1;
    }
    for (int i = 0; i < NINTS; i++)
        iv[i] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(ints, i));
    Py_DECREF(ints);
    if (PyErr_Occurred())
        return -1;
    int8_t *b8[] = {&S->turn,      &S->phase,    &S->picked,     &S->drew,    &S->lone,   &S->lone_gone,
                    &S->top,       &S->top_used, &S->melded,     &S->opening, &S->must_open, &S->drawn,
                    &S->redrawn,   &S->last_turn, &S->timeout_called, &S->end, &S->closed_by, &S->first};
    for (int i = 0; i < 18; i++)
        *b8[i] = (int8_t)iv[i];
    S->laid = (int16_t)iv[18];
    S->stalemate_run = (int16_t)iv[19];
    S->turns = (int16_t)iv[20];
    S->timeout_left = (int16_t)iv[21];
    S->nactions = iv[22];
    (void)iv[23];
    return 0;
}

static PyObject *bytes_of(const uint8_t *p, int n) { return PyBytes_FromStringAndSize((const char *)p, n); }

static PyObject *tuple_u8(const uint8_t *p, int n) {
    PyObject *t = PyTuple_New(n);
    if (t == NULL)
        return NULL;
    for (int i = 0; i < n; i++)
        PyTuple_SET_ITEM(t, i, PyLong_FromLong(p[i]));
    return t;
}

static PyObject *tuple_i8(const int8_t *p, int n) {
    PyObject *t = PyTuple_New(n);
    if (t == NULL)
        return NULL;
    for (int i = 0; i < n; i++)
        PyTuple_SET_ITEM(t, i, PyLong_FromLong(p[i]));
    return t;
}

static PyObject *dump_fields(const NRules *R, const NState *S) {
    int P = R->players;
    PyObject *hands = PyTuple_New(P), *known = PyTuple_New(P), *hidden = PyTuple_New(P);
    uint8_t cnt[NT];
    for (int s = 0; s < P; s++) {
        PyTuple_SET_ITEM(hands, s, bytes_of(HAND(S, s), NT));
        pk_counts(KNOWN(R, S, s), cnt);
        PyTuple_SET_ITEM(known, s, bytes_of(cnt, NT));
        pk_counts(HIDDEN(R, S, s), cnt);
        if (S->has_hidden[s])
            PyTuple_SET_ITEM(hidden, s, bytes_of(cnt, NT));
        else {
            Py_INCREF(Py_None);
            PyTuple_SET_ITEM(hidden, s, Py_None);
        }
    }
    PyObject *poz = PyTuple_New(S->npoz);
    for (int i = 0; i < S->npoz; i++) {
        if (S->poz_n[i] < 0) {
            Py_INCREF(Py_None);
            PyTuple_SET_ITEM(poz, i, Py_None);
        } else
            PyTuple_SET_ITEM(poz, i, tuple_u8(POZ(R, S, i), S->poz_n[i]));
    }
    PyObject *melds = PyTuple_New(S->nsides);
    for (int side = 0; side < S->nsides; side++) {
        PyObject *ms = PyTuple_New(S->nmelds[side]);
        for (int i = 0; i < S->nmelds[side]; i++) {
            const NMeld *m = &side_melds(R, S, side)[i];
            uint8_t cards[MAXMC];
            meld_cards(m, cards);
            PyTuple_SET_ITEM(ms, i,
                             Py_BuildValue("(iNiiiiiii)", m->kind, tuple_u8(cards, m->size), m->suit, m->rank,
                                           m->mask, m->wild, m->wild_pos, m->naturals, m->burraco));
        }
        PyTuple_SET_ITEM(melds, side, ms);
    }
    PyObject *ints = Py_BuildValue("(iiiiiiiiiiiiiiiiiiiiiiii)", S->turn, S->phase, S->picked, S->drew, S->lone,
                                   S->lone_gone, S->top, S->top_used, S->melded, S->opening, S->must_open, S->drawn,
                                   S->redrawn, S->last_turn, S->timeout_called, S->end, S->closed_by, S->first,
                                   S->laid, S->stalemate_run, S->turns, S->timeout_left, S->nactions, 0);
    PyObject *sides = Py_BuildValue("(Ni)", tuple_i8(S->side, P), S->solo);
    uint8_t stock[MAXCARDS], table[NT];
    for (int i = 0; i < S->stock_n; i++)
        stock[i] = STOCK_AT(R, S, i);
    table_counts(R, S, table);
    return Py_BuildValue("(NNNNNNNNNNNNNNN)", hands, tuple_u8(S->hand_n, P), tuple_u8(stock, S->stock_n),
                         tuple_u8(PILE(R, S), S->pile_n), poz, tuple_i8(S->poz_taken, S->nsides),
                         tuple_i8(S->poz_order, S->npoz_order), tuple_i8(S->poz_by, S->nsides), hidden,
                         tuple_i8(S->poz_pending, P), melds, known, bytes_of(table, NT), ints, sides);
}

static PyObject *Hand_new(PyTypeObject *tp, PyObject *args, PyObject *kw) {
    RulesObject *rules;
    PyObject *fields;
    if (!PyArg_ParseTuple(args, "O!O", &RulesType, &rules, &fields))
        return NULL;
    HandObject *h = hand_alloc(rules, rules->r.mcap);
    if (h == NULL)
        return NULL;
    if (load_fields(&rules->r, h->s, fields) < 0) {
        Py_DECREF(h);
        return NULL;
    }
    return (PyObject *)h;
}

static PyObject *Hand_fields(HandObject *self, PyObject *unused) { return dump_fields(&self->rules->r, self->s); }

/* a new Hand holding a copy of S (its melds and MELD_SLACK more of room) */
static HandObject *hand_of(RulesObject *rules, const NState *S) {
    HandObject *h = hand_alloc(rules, melds_used(S) + MELD_SLACK);
    if (h != NULL)
        state_copy(&rules->r, h->s, S);
    return h;
}

static PyObject *Hand_clone(HandObject *self, PyObject *unused) { return (PyObject *)hand_of(self->rules, self->s); }

/* the bytes of this hand's state that a clone copies (and holds, with room for MELD_SLACK more melds) */
static PyObject *Hand_state_bytes(HandObject *self, PyObject *unused) {
    return PyLong_FromSize_t(state_used(&self->rules->r, self->s));
}

static PyObject *new_action(PyObject *name, PyObject *verb, PyObject *cards, PyObject *k) {
    PyTypeObject *tp = (PyTypeObject *)G_Action;
    PyObject *a = tp->tp_alloc(tp, 4);
    if (a == NULL)
        return NULL;
    Py_INCREF(name);
    Py_INCREF(verb);
    Py_INCREF(k);
    PyTuple_SET_ITEM(a, 0, name);
    PyTuple_SET_ITEM(a, 1, verb);
    PyTuple_SET_ITEM(a, 2, cards); /* steals */
    PyTuple_SET_ITEM(a, 3, k);
    return a;
}

static int ensure_legal(HandObject *self) {
    if (self->legal_at == self->s->nactions)
        return 0;
    legal(&self->rules->r, self->s, &self->legal, &self->scratch);
    if (self->legal.oom || self->scratch.oom) {
        PyErr_NoMemory();
        return -1;
    }
    self->legal_at = self->s->nactions;
    Py_CLEAR(self->legal_list);
    return 0;
}

static PyObject *Hand_legal_actions(HandObject *self, PyObject *unused) {
    if (G_Action == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "burraco._native.configure was not called");
        return NULL;
    }
    if (ensure_legal(self) < 0)
        return NULL;
    if (self->legal_list == NULL) {
        int seat = self->s->turn;
        PyObject *name = G_SEATS[self->rules->r.players][seat];
        PyObject *out = PyList_New(self->legal.n);
        if (out == NULL)
            return NULL;
        for (int i = 0; i < self->legal.n; i++) {
            const NAct *a = &self->legal.a[i];
            PyObject *cards = a->n ? tuple_u8(a->cards, a->n) : (Py_INCREF(G_EMPTY), G_EMPTY);
            PyObject *k = PyLong_FromLong(a->meld);
            PyObject *act = new_action(name, G_VERBS[a->verb], cards, k);
            Py_DECREF(k);
            if (act == NULL) {
                Py_DECREF(out);
                return NULL;
            }
            PyList_SET_ITEM(out, i, act);
        }
        self->legal_list = out;
    }
    return PyList_GetSlice(self->legal_list, 0, self->legal.n);
}

/* the index of the action among the legal ones, or -1 */
static int find_action(HandObject *self, PyObject *action) {
    if (self->legal_list != NULL)
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(self->legal_list); i++)
            if (PyList_GET_ITEM(self->legal_list, i) == action)
                return (int)i;
    if (!PyTuple_Check(action) || PyTuple_GET_SIZE(action) < 4)
        return -1;
    PyObject *verb = PyTuple_GET_ITEM(action, 1);
    int v = -1;
    for (int i = 0; i < NVERBS; i++)
        if (PyUnicode_Check(verb) && PyUnicode_Compare(verb, G_VERBS[i]) == 0)
            v = i;
    if (v < 0)
        return -1;
    int seat = self->s->turn;
    PyObject *name = G_SEATS[self->rules->r.players][seat];
    if (!PyUnicode_Check(PyTuple_GET_ITEM(action, 0)) || PyUnicode_Compare(PyTuple_GET_ITEM(action, 0), name) != 0)
        return -1;
    uint8_t cards[MAXMC];
    int n;
    if (seq_u8(PyTuple_GET_ITEM(action, 2), cards, MAXMC, &n) < 0) {
        PyErr_Clear();
        return -1;
    }
    long meld = PyLong_AsLong(PyTuple_GET_ITEM(action, 3));
    if (meld == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return -1;
    }
    for (int i = 0; i < self->legal.n; i++) {
        const NAct *a = &self->legal.a[i];
        if (a->verb == v && a->n == n && a->meld == meld && memcmp(a->cards, cards, (size_t)n) == 0)
            return i;
    }
    return -1;
}

static PyObject *Hand_apply(HandObject *self, PyObject *action) {
    if (ensure_legal(self) < 0)
        return NULL;
    int i = find_action(self, action);
    if (i < 0)
        Py_RETURN_FALSE;
    NAct a = self->legal.a[i];
    if (hand_room(self, 1) < 0)
        return NULL;
    apply_act(&self->rules->r, self->s, &a);
    Py_RETURN_TRUE;
}

static PyObject *Hand_apply_index(HandObject *self, PyObject *arg) {
    long i = PyLong_AsLong(arg);
    if (i == -1 && PyErr_Occurred())
        return NULL;
    if (ensure_legal(self) < 0)
        return NULL;
    if (i < 0 || i >= self->legal.n) {
        PyErr_SetString(PyExc_IndexError, "no legal action with that index");
        return NULL;
    }
    NAct a = self->legal.a[i];
    if (hand_room(self, 1) < 0)
        return NULL;
    apply_act(&self->rules->r, self->s, &a);
    Py_RETURN_NONE;
}

static PyObject *Hand_num_legal(HandObject *self, PyObject *unused) {
    if (ensure_legal(self) < 0)
        return NULL;
    return PyLong_FromLong(self->legal.n);
}

static PyObject *Hand_scores(HandObject *self, PyObject *unused) {
    const NRules *R = &self->rules->r;
    PyObject *out = PyTuple_New(self->s->nsides);
    for (int side = 0; side < self->s->nsides; side++) {
        int v[6];
        side_score(R, self->s, side, v);
        PyTuple_SET_ITEM(out, side, Py_BuildValue("(iiiiii)", v[0], v[1], v[2], v[3], v[4], v[5]));
    }
    return out;
}

static PyObject *Hand_random_playout(HandObject *self, PyObject *arg) {
    unsigned long long seed = PyLong_AsUnsignedLongLongMask(arg);
    if (seed == (unsigned long long)-1 && PyErr_Occurred())
        return NULL;
    uint64_t s = seed;
    long k;
    if (hand_room(self, self->rules->r.mcap) < 0)
        return NULL;
    self->legal_at = -1;
    Py_CLEAR(self->legal_list);
    Py_BEGIN_ALLOW_THREADS
    k = playout(&self->rules->r, self->s, &s, &self->legal, &self->scratch);
    Py_END_ALLOW_THREADS
    if (k < 0) {
        PyErr_SetString(PyExc_RuntimeError, "native playout failed (out of memory)");
        return NULL;
    }
    return PyLong_FromLong(k);
}

static PyObject *act_object(const NRules *R, int seat, const NAct *a) {
    PyObject *name = G_SEATS[R->players][seat];
    PyObject *cards = a->n ? tuple_u8(a->cards, a->n) : (Py_INCREF(G_EMPTY), G_EMPTY);
    PyObject *k = PyLong_FromLong(a->meld);
    PyObject *act = new_action(name, G_VERBS[a->verb], cards, k);
    Py_DECREF(k);
    return act;
}

/* python_playout(state, record): play ``legal[rng.randrange(len(legal))]`` to the end of the hand with rng a
 * random.Random in ``state`` (its getstate()); returns (decisions, the generator's new state, the actions or None) */
static PyObject *Hand_python_playout(HandObject *self, PyObject *args) {
    PyObject *state;
    int record;
    if (G_Action == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "burraco._native.configure was not called");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "Op", &state, &record))
        return NULL;
    PyObject *words;
    int version;
    PyObject *gauss;
    if (!PyArg_ParseTuple(state, "iO!O", &version, &PyTuple_Type, &words, &gauss) || PyTuple_GET_SIZE(words) != 625) {
        PyErr_SetString(PyExc_ValueError, "python_playout needs a random.Random state (getstate())");
        return NULL;
    }
    MT m;
    for (int i = 0; i < 624; i++)
        m.mt[i] = (uint32_t)PyLong_AsUnsignedLong(PyTuple_GET_ITEM(words, i));
    m.index = (int)PyLong_AsLong(PyTuple_GET_ITEM(words, 624));
    if (PyErr_Occurred())
        return NULL;
    RecBuf rec = {0};
    long k;
    if (hand_room(self, self->rules->r.mcap) < 0)
        return NULL;
    self->legal_at = -1;
    Py_CLEAR(self->legal_list);
    Py_BEGIN_ALLOW_THREADS
    k = mt_playout(&self->rules->r, self->s, &m, &self->legal, &self->scratch, record ? &rec : NULL);
    Py_END_ALLOW_THREADS
    if (k < 0) {
        free(rec.r);
        return PyErr_NoMemory();
    }
    PyObject *nw = PyTuple_New(625);
    for (int i = 0; i < 624; i++)
        PyTuple_SET_ITEM(nw, i, PyLong_FromUnsignedLong(m.mt[i]));
    PyTuple_SET_ITEM(nw, 624, PyLong_FromLong(m.index));
    PyObject *acts = Py_None;
    Py_INCREF(Py_None);
    if (record) {
        Py_DECREF(Py_None);
        acts = PyList_New(rec.n);
        for (long i = 0; acts != NULL && i < rec.n; i++) {
            PyObject *a = act_object(&self->rules->r, rec.r[i].seat, &rec.r[i].a);
            if (a == NULL) {
                Py_CLEAR(acts);
                break;
            }
            PyList_SET_ITEM(acts, i, a);
        }
    }
    free(rec.r);
    if (acts == NULL) {
        Py_DECREF(nw);
        return NULL;
    }
    return Py_BuildValue("(l(iNO)N)", k, version, nw, gauss, acts);
}

static int mt_from_state(PyObject *state, MT *m) {
    PyObject *words, *gauss;
    int version;
    if (!PyTuple_Check(state) || !PyArg_ParseTuple(state, "iO!O", &version, &PyTuple_Type, &words, &gauss) ||
        PyTuple_GET_SIZE(words) != 625) {
        PyErr_SetString(PyExc_ValueError, "a random.Random state (getstate()) is needed");
        return -1;
    }
    for (int i = 0; i < 624; i++)
        m->mt[i] = (uint32_t)PyLong_AsUnsignedLong(PyTuple_GET_ITEM(words, i));
    m->index = (int)PyLong_AsLong(PyTuple_GET_ITEM(words, 624));
    return PyErr_Occurred() ? -1 : 0;
}

static PyObject *mt_to_state(const MT *m) {
    PyObject *nw = PyTuple_New(625);
    if (nw == NULL)
        return NULL;
    for (int i = 0; i < 624; i++)
        PyTuple_SET_ITEM(nw, i, PyLong_FromUnsignedLong(m->mt[i]));
    PyTuple_SET_ITEM(nw, 624, PyLong_FromLong(m->index));
    return Py_BuildValue("(iNO)", 3, nw, Py_None);
}

/* heuristic_playout(level, states, depth): the heuristic of `level` (0 easy, 1 medium, 2 hard) at every seat, the
 * seats' random.Random states in `states`; returns (decisions, the new states) */
static PyObject *Hand_heuristic_playout(HandObject *self, PyObject *args) {
    int level, record = 0;
    long depth;
    PyObject *states;
    RecBuf rec = {0};
    if (G_Action == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "burraco._native.configure was not called");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "iOl|p", &level, &states, &depth, &record))
        return NULL;
    const NRules *R = &self->rules->r;
    if (!PySequence_Check(states) || PySequence_Size(states) != R->players) {
        PyErr_SetString(PyExc_ValueError, "one random state per seat");
        return NULL;
    }
    MT ms[MAXP];
    for (int s = 0; s < R->players; s++) {
        PyObject *st = PySequence_GetItem(states, s);
        int rc = st == NULL ? -1 : mt_from_state(st, &ms[s]);
        Py_XDECREF(st);
        if (rc < 0)
            return NULL;
    }
    DBuf sc = {0};
    long k;
    if (hand_room(self, self->rules->r.mcap) < 0)
        return NULL;
    self->legal_at = -1;
    Py_CLEAR(self->legal_list);
    Py_BEGIN_ALLOW_THREADS
    k = heuristic_playout(R, self->s, level, ms, depth, &self->legal, &self->scratch, &sc, record ? &rec : NULL);
    Py_END_ALLOW_THREADS
    free(sc.v);
    if (k < 0) {
        free(rec.r);
        return PyErr_NoMemory();
    }
    PyObject *out = PyTuple_New(R->players);
    for (int s = 0; s < R->players; s++)
        PyTuple_SET_ITEM(out, s, mt_to_state(&ms[s]));
    PyObject *acts = Py_None;
    Py_INCREF(Py_None);
    if (record) {
        Py_DECREF(Py_None);
        acts = PyList_New(rec.n);
        for (long i = 0; acts != NULL && i < rec.n; i++) {
            PyObject *a = act_object(R, rec.r[i].seat, &rec.r[i].a);
            if (a == NULL) {
                Py_CLEAR(acts);
                break;
            }
            PyList_SET_ITEM(acts, i, a);
        }
    }
    free(rec.r);
    if (acts == NULL) {
        Py_DECREF(out);
        return NULL;
    }
    return Py_BuildValue("(lNN)", k, out, acts);
}

/* seeded_heuristic_playout(level, seed, depth): heuristic_playout with seat k's generator random.Random(seed + k)
 * (the search player's rollouts, which seed their players so); returns the number of decisions */
static PyObject *Hand_seeded_heuristic_playout(HandObject *self, PyObject *args) {
    int level;
    long depth;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "iKl", &level, &seed, &depth))
        return NULL;
    const NRules *R = &self->rules->r;
    MT ms[MAXP];
    DBuf sc = {0};
    long k;
    if (hand_room(self, self->rules->r.mcap) < 0)
        return NULL;
    self->legal_at = -1;
    Py_CLEAR(self->legal_list);
    Py_BEGIN_ALLOW_THREADS
    for (int s = 0; s < R->players; s++)
        mt_seed(&ms[s], seed + (unsigned long long)s);
    k = heuristic_playout(R, self->s, level, ms, depth, &self->legal, &self->scratch, &sc, NULL);
    Py_END_ALLOW_THREADS
    free(sc.v);
    if (k < 0)
        return PyErr_NoMemory();
    return PyLong_FromLong(k);
}

/* heuristic_choice(level, state): the index (in legal_actions()) of the heuristic's choice with a random.Random
 * in `state`, and that generator's new state */
static PyObject *Hand_heuristic_choice(HandObject *self, PyObject *args) {
    int level;
    PyObject *state;
    if (!PyArg_ParseTuple(args, "iO", &level, &state))
        return NULL;
    MT m;
    if (mt_from_state(state, &m) < 0 || ensure_legal(self) < 0)
        return NULL;
    if (self->legal.n == 0) {
        PyErr_SetString(PyExc_ValueError, "the hand is over");
        return NULL;
    }
    int i = 0;
    if (self->legal.n > 1) {
        double *sc = (double *)malloc(sizeof(double) * (size_t)self->legal.n);
        if (sc == NULL)
            return PyErr_NoMemory();
        i = h_choose(&self->rules->r, self->s, level, &self->legal, &m, sc);
        free(sc);
    }
    return Py_BuildValue("(iN)", i, mt_to_state(&m));
}

static PyObject *Hand_discard_loglik(HandObject *self, PyObject *args) {
    int seat, level;
    double tau;
    if (!PyArg_ParseTuple(args, "iid", &seat, &level, &tau))
        return NULL;
    const NRules *R = &self->rules->r;
    if (seat < 0 || seat >= R->players || !(tau > 0.0)) {
        PyErr_SetString(PyExc_ValueError, "discard_loglik: a seat of the hand and tau > 0");
        return NULL;
    }
    NState *T = state_dup(R, self->s);
    if (T == NULL)
        return PyErr_NoMemory();
    double ll = discard_loglik(R, self->s, seat, level, tau, T);
    free(T);
    return PyFloat_FromDouble(ll);
}

static PyObject *Hand_side_of(HandObject *self, PyObject *arg) {
    long s = PyLong_AsLong(arg);
    if (s == -1 && PyErr_Occurred())
        return NULL;
    if (s < 0 || s >= self->rules->r.players) {
        PyErr_SetString(PyExc_IndexError, "no such seat");
        return NULL;
    }
    return PyLong_FromLong(self->s->side[s]);
}

static PyObject *Hand_get_end(HandObject *self, void *c) { return PyLong_FromLong(self->s->end); }
static PyObject *Hand_get_turn(HandObject *self, void *c) { return PyLong_FromLong(self->s->turn); }
static PyObject *Hand_get_phase(HandObject *self, void *c) { return PyLong_FromLong(self->s->phase); }
static PyObject *Hand_get_nactions(HandObject *self, void *c) { return PyLong_FromLong(self->s->nactions); }

static PyGetSetDef Hand_getset[] = {
    {"end", (getter)Hand_get_end, NULL, "0 while the hand runs, else the end code (burraco.native.ENDS)", NULL},
    {"turn", (getter)Hand_get_turn, NULL, "the seat in turn", NULL},
    {"phase", (getter)Hand_get_phase, NULL, "0 draw, 1 play, 2 end", NULL},
    {"nactions", (getter)Hand_get_nactions, NULL, "actions applied since the deal", NULL},
    {NULL}};

static PyMethodDef Hand_methods[] = {
    {"fields", (PyCFunction)Hand_fields, METH_NOARGS, "The state as the fields tuple of burraco.native."},
    {"clone", (PyCFunction)Hand_clone, METH_NOARGS, "An independent copy."},
    {"state_bytes", (PyCFunction)Hand_state_bytes, METH_NOARGS,
     "The bytes of this state that a clone copies: the scalars, the cards and the melds in use."},
    {"side_of", (PyCFunction)Hand_side_of, METH_O, "The side of a seat now (3 and 5 players: pairs form in a hand)."},
    {"legal_actions", (PyCFunction)Hand_legal_actions, METH_NOARGS, "The legal actions, as the engine lists them."},
    {"num_legal", (PyCFunction)Hand_num_legal, METH_NOARGS, "The number of legal actions."},
    {"apply", (PyCFunction)Hand_apply, METH_O, "Apply a legal Action: True, or False (not legal, state unchanged)."},
    {"apply_index", (PyCFunction)Hand_apply_index, METH_O, "Apply the i-th legal action."},
    {"scores", (PyCFunction)Hand_scores, METH_NOARGS,
     "Per side (melds, bonuses, closing, hand, pozzetto, total) as things stand."},
    {"python_playout", (PyCFunction)Hand_python_playout, METH_VARARGS,
     "Play legal[rng.randrange(len(legal))] to the end with a random.Random state: (decisions, new state, actions)."},
    {"heuristic_playout", (PyCFunction)Hand_heuristic_playout, METH_VARARGS,
     "The heuristic (level 0-2) at every seat, with the seats' random states, for depth decisions (-1: to the end)."},
    {"seeded_heuristic_playout", (PyCFunction)Hand_seeded_heuristic_playout, METH_VARARGS,
     "heuristic_playout with seat k's generator random.Random(seed + k); the number of decisions."},
    {"heuristic_choice", (PyCFunction)Hand_heuristic_choice, METH_VARARGS,
     "The heuristic's choice (an index of legal_actions()) with a random state, and the state after it."},
    {"discard_loglik", (PyCFunction)Hand_discard_loglik, METH_VARARGS,
     "The log-likelihood of the other seats' latest discards the pile shows, the heuristic (level 0-2, softmax at "
     "tau) as the model of a player holding these hands (seat: the searcher)."},
    {"random_playout", (PyCFunction)Hand_random_playout, METH_O,
     "Play uniform random legal actions to the end of the hand (the GIL released); the number of decisions."},
    {NULL}};

static PyTypeObject HandType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "burraco._native.Hand",
    .tp_basicsize = sizeof(HandObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One hand in native form (burraco.native.NativeHand wraps it).",
    .tp_new = Hand_new,
    .tp_dealloc = (destructor)Hand_dealloc,
    .tp_methods = Hand_methods,
    .tp_getset = Hand_getset,
};


/* ----- determinization (burraco/view.py: determinize, _weighted_sample, _shuffle) ------------------------------- */

/* random.Random.random() */
static double mt_random(MT *m) {
    uint32_t a = mt_next(m) >> 5, b = mt_next(m) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

#define BIGW 40 /* 32-bit words of a bignum: 1280 bits, more than 160! needs */

typedef struct {
    uint32_t w[BIGW];
    int n; /* words in use */
} Big;

static void big_set(Big *b, uint32_t v) {
    memset(b->w, 0, sizeof(b->w));
    b->w[0] = v;
    b->n = 1;
}

static void big_mul(Big *b, uint32_t v) {
    uint64_t carry = 0;
    for (int i = 0; i < b->n; i++) {
        uint64_t x = (uint64_t)b->w[i] * v + carry;
        b->w[i] = (uint32_t)x;
        carry = x >> 32;
    }
    if (carry && b->n < BIGW)
        b->w[b->n++] = (uint32_t)carry;
}

static uint32_t big_divmod(Big *b, uint32_t v) { /* b //= v, returns b % v */
    uint64_t rem = 0;
    for (int i = b->n - 1; i >= 0; i--) {
        uint64_t x = (rem << 32) | b->w[i];
        b->w[i] = (uint32_t)(x / v);
        rem = x % v;
    }
    while (b->n > 1 && b->w[b->n - 1] == 0)
        b->n--;
    return (uint32_t)rem;
}

static int big_cmp(const Big *a, const Big *b) {
    int n = a->n > b->n ? a->n : b->n;
    for (int i = n - 1; i >= 0; i--) {
        uint32_t x = i < a->n ? a->w[i] : 0, y = i < b->n ? b->w[i] : 0;
        if (x != y)
            return x < y ? -1 : 1;
    }
    return 0;
}

static int big_bits(const Big *b) {
    for (int i = b->n - 1; i >= 0; i--)
        if (b->w[i])
            return 32 * i + bitlen(b->w[i]);
    return 0;
}

/* random.Random.getrandbits(k) for k > 0 (words from the least significant, the last one shifted) */
static void mt_getrandbits(MT *m, int k, Big *out) {
    int words = (k - 1) / 32 + 1;
    memset(out->w, 0, sizeof(out->w));
    for (int i = 0; i < words; i++, k -= 32) {
        uint32_t r = mt_next(m);
        if (k < 32)
            r >>= (32 - k);
        out->w[i] = r;
    }
    out->n = words;
    while (out->n > 1 && out->w[out->n - 1] == 0)
        out->n--;
}

/* view._shuffle: Fisher-Yates on the digits of one uniform integer below n! */
static void det_shuffle(uint8_t *x, int n, MT *m) {
    if (n < 2)
        return;
    Big f, r;
    big_set(&f, 1);
    for (int i = 2; i <= n; i++)
        big_mul(&f, (uint32_t)i);
    int bits = big_bits(&f);
    do
        mt_getrandbits(m, bits, &r);
    while (big_cmp(&r, &f) >= 0);
    for (int i = n - 1; i > 0; i--) {
        int j = (int)big_divmod(&r, (uint32_t)(i + 1));
        uint8_t t = x[i];
        x[i] = x[j];
        x[j] = t;
    }
}

typedef struct {
    double key;
    int i;
} Keyed;

static int keyed_cmp(const void *pa, const void *pb) {
    const Keyed *a = (const Keyed *)pa, *b = (const Keyed *)pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->i - b->i;
}

static int int_desc(const void *pa, const void *pb) { return *(const int *)pb - *(const int *)pa; }

/* view._weighted_sample: k cards of pool (n cards) by the keys u ** (1 / w); they leave the pool */
static void det_weighted(uint8_t *pool, int *n, const double *w, int k, MT *m, uint8_t *out) {
    Keyed keyed[MAXCARDS];
    for (int i = 0; i < *n; i++) {
        double wc = w[pool[i]];
        keyed[i].key = wc > 0 ? pow(mt_random(m), 1.0 / wc) : 0.0;
        keyed[i].i = i;
    }
    qsort(keyed, (size_t)*n, sizeof(Keyed), keyed_cmp);
    if (k > *n)
        k = *n;
    int chosen[MAXCARDS];
    for (int j = 0; j < k; j++)
        chosen[j] = keyed[*n - k + j].i;
    qsort(chosen, (size_t)k, sizeof(int), int_desc);
    for (int j = 0; j < k; j++)
        out[j] = pool[chosen[j]];
    for (int j = 0; j < k; j++) {
        pool[chosen[j]] = pool[*n - 1];
        (*n)--;
    }
}

typedef struct {
    PyObject_HEAD RulesObject *rules;
    NState *base; /* room for every meld */
    uint8_t pool[MAXCARDS];
    int npool, seat, hidden_poz, pile_size, stock_size, fix_drawn;
    int need[MAXP], hidden_seat[MAXP], has_w[MAXP], avoid[MAXP];
    int poz_present[MAXPOZ], poz_size[MAXPOZ], npoz;
    double w[MAXP][NT];
} DetObject;

static PyTypeObject DetType;

/* view.holds_natural_meld: the hand h (53 counts) holds three naturals making a meld of the kinds in avoid (bit 0 a
 * run of three in a suit over 3 ... K, Q K A; bit r a set of three of rank r) */
static int holds_natural_meld(const uint8_t *h, int avoid) {
    if (avoid & 1)
        for (int base = 0; base < 52; base += 13) {
            int run = 0;
            for (int i = 0; i < 12; i++) {
                int r = i < 11 ? i + 2 : 0;
                run = h[base + r] ? run + 1 : 0;
                if (run == 3)
                    return 1;
            }
        }
    for (int r = 0; r < 13; r++)
        if ((avoid >> (r + 1) & 1) && h[r] + h[13 + r] + h[26 + r] + h[39 + r] >= 3)
            return 1;
    return 0;
}

#define AVOID_TRIES 8 /* view.AVOID_TRIES */

/* Determinizer(rules, base, pool, seat, need, weights, hidden_poz, hidden_seats, pile_size, stock_size, pozzetti,
 * sizes, fix_drawn, avoid): burraco.native.Determinizer builds the arguments from a view */
static PyObject *Det_new(PyTypeObject *tp, PyObject *args, PyObject *kw) {
    RulesObject *rules;
    PyObject *base, *pool, *need, *weights, *hseats, *pozz, *sizes, *avoid;
    int seat, hidden_poz, pile_size, stock_size, fix_drawn;
    if (!PyArg_ParseTuple(args, "O!OOiOOiOiiOOpO", &RulesType, &rules, &base, &pool, &seat, &need, &weights,
                          &hidden_poz, &hseats, &pile_size, &stock_size, &pozz, &sizes, &fix_drawn, &avoid))
        return NULL;
    DetObject *d = (DetObject *)tp->tp_alloc(tp, 0);
    if (d == NULL)
        return NULL;
    Py_INCREF(rules);
    d->rules = rules;
    const NRules *R = &rules->r;
    int n;
    uint8_t tmp[MAXCARDS];
    d->base = state_new(R, R->mcap);
    if (d->base == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    if (load_fields(R, d->base, base) < 0 || seq_u8(pool, d->pool, MAXCARDS, &d->npool) < 0)
        goto fail;
    d->seat = seat;
    d->hidden_poz = hidden_poz;
    d->pile_size = pile_size;
    d->stock_size = stock_size;
    d->fix_drawn = fix_drawn;
    if (seq_u8(need, tmp, MAXP, &n) < 0 || n != R->players)
        goto fail;
    for (int s = 0; s < n; s++)
        d->need[s] = tmp[s];
    if (seq_u8(hseats, tmp, MAXP, &n) < 0 || n != R->players)
        goto fail;
    for (int s = 0; s < n; s++)
        d->hidden_seat[s] = tmp[s];
    if (seq_u8(pozz, tmp, MAXPOZ, &d->npoz) < 0)
        goto fail;
    for (int i = 0; i < d->npoz; i++)
        d->poz_present[i] = tmp[i];
    if (seq_u8(sizes, tmp, MAXPOZ, &n) < 0 || n != d->npoz)
        goto fail;
    for (int i = 0; i < n; i++) {
        d->poz_size[i] = tmp[i];
        if (tmp[i] > 20) {
            PyErr_SetString(PyExc_ValueError, "pozzetti of more than 20 cards");
            goto fail;
        }
    }
    if (!PySequence_Check(weights) || PySequence_Size(weights) != R->players) {
        PyErr_SetString(PyExc_ValueError, "one weight list (or None) per seat");
        goto fail;
    }
    if (!PySequence_Check(avoid) || PySequence_Size(avoid) != R->players) {
        PyErr_SetString(PyExc_ValueError, "one avoid mask per seat");
        goto fail;
    }
    for (int s = 0; s < R->players; s++) {
        PyObject *a = PySequence_GetItem(avoid, s);
        if (a == NULL)
            goto fail;
        d->avoid[s] = (int)PyLong_AsLong(a);
        Py_DECREF(a);
        if (d->avoid[s] == -1 && PyErr_Occurred())
            goto fail;
    }
    for (int s = 0; s < R->players; s++) {
        PyObject *ws = PySequence_GetItem(weights, s);
        if (ws == NULL)
            goto fail;
        d->has_w[s] = ws != Py_None;
        if (ws != Py_None) {
            PyObject *f = PySequence_Fast(ws, "weights");
            if (f == NULL || PySequence_Fast_GET_SIZE(f) != NT) {
                Py_XDECREF(f);
                Py_DECREF(ws);
                PyErr_SetString(PyExc_ValueError, "53 weights per seat");
                goto fail;
            }
            for (int c = 0; c < NT; c++)
                d->w[s][c] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(f, c));
            Py_DECREF(f);
        }
        Py_DECREF(ws);
    }
    if (PyErr_Occurred())
        goto fail;
    return (PyObject *)d;
fail:
    Py_DECREF(d);
    return NULL;
}

static void Det_dealloc(DetObject *self) {
    Py_XDECREF(self->rules);
    free(self->base);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* determinize() after its pool: the state of one sample into S */
static void det_sample(const DetObject *d, NState *S, MT *m) {
    const NRules *R = &d->rules->r;
    state_copy(R, S, d->base);
    uint8_t pool[MAXCARDS];
    int n = d->npool;
    memcpy(pool, d->pool, (size_t)n);
    int drawn[MAXP] = {0};
    uint8_t got[MAXCARDS];
    double ones[NT];
    for (int c = 0; c < NT; c++)
        ones[c] = 1.0;
    for (int s = 0; s < R->players; s++) {
        int a = d->avoid[s];
        if ((!d->has_w[s] && !a) || s == d->seat)
            continue;
        int k = d->need[s];
        if (k > 0) {
            const double *w = d->has_w[s] ? d->w[s] : ones;
            uint8_t saved[MAXCARDS];
            int nsaved = n;
            if (a)
                memcpy(saved, pool, (size_t)n);
            /* HAND(S, s) holds the seat's known cards here (the base's hand row) */
            for (int tries = 1;; tries++) {
                det_weighted(pool, &n, w, k, m, got);
                if (!a || tries == AVOID_TRIES)
                    break;
                uint8_t h[NT];
                memcpy(h, HAND(S, s), NT);
                for (int j = 0; j < k; j++)
                    h[got[j]]++;
                if (!holds_natural_meld(h, a))
                    break;
                memcpy(pool, saved, (size_t)nsaved);
                n = nsaved;
            }
            for (int j = 0; j < k; j++)
                HAND(S, s)[got[j]]++;
            drawn[s] = 1;
        }
    }
    det_shuffle(pool, n, m);
    int pos = 0;
    for (int s = 0; s < R->players; s++) {
        if (s == d->seat) {
            if (d->hidden_poz) {
                uint8_t *hid = HIDDEN(R, S, s);
                memset(hid, 0, PKB);
                for (int j = 0; j < d->hidden_poz; j++) {
                    int c = pool[pos++];
                    HAND(S, s)[c]++;
                    pk_inc(hid, c);
                }
                S->has_hidden[s] = 1;
            }
        } else {
            if (!drawn[s])
                for (int j = 0; j < d->need[s]; j++)
                    HAND(S, s)[pool[pos++]]++;
            if (d->hidden_seat[s]) {
                memset(HIDDEN(R, S, s), 0, PKB);
                S->has_hidden[s] = 1;
            }
        }
    }
    if (!R->discard_open && d->pile_size > 0) {
        int top = PILE(R, d->base)[d->base->pile_n - 1];
        S->pile_n = 0;
        for (int j = 0; j < d->pile_size - 1; j++)
            PILE(R, S)[S->pile_n++] = pool[pos++];
        PILE(R, S)[S->pile_n++] = (uint8_t)top;
    }
    S->stock_n = 0;
    for (int j = 0; j < d->stock_size; j++)
        STOCK_AT(R, S, S->stock_n++) = pool[pos++];
    S->npoz = (int8_t)d->npoz;
    for (int i = 0; i < d->npoz; i++) {
        if (d->poz_present[i]) {
            for (int j = 0; j < d->poz_size[i]; j++)
                POZ(R, S, i)[j] = pool[pos++];
            S->poz_n[i] = (int8_t)d->poz_size[i];
        } else
            S->poz_n[i] = -1;
    }
    if (d->fix_drawn) {
        S->drawn = -1;
        for (int c = 0; c < NT; c++)
            if (HAND(S, S->turn)[c]) {
                S->drawn = (int8_t)c;
                break;
            }
    }
}

/* sample(state): (a Hand, the generator's new state) */
static PyObject *Det_sample(DetObject *self, PyObject *state) {
    MT m;
    if (mt_from_state(state, &m) < 0)
        return NULL;
    HandObject *h = hand_alloc(self->rules, melds_used(self->base) + MELD_SLACK);
    if (h == NULL)
        return NULL;
    det_sample(self, h->s, &m);
    return Py_BuildValue("(NN)", (PyObject *)h, mt_to_state(&m));
}

/* a copy of a random.Random's generator held in the core (Twister(state)): a search draws from it without
 * converting the state at every call, and gives it back at the end (getstate()) */
typedef struct {
    PyObject_HEAD MT m;
} TwisterObject;

static PyTypeObject TwisterType;

static PyObject *Twister_new(PyTypeObject *tp, PyObject *args, PyObject *kw) {
    PyObject *state;
    if (!PyArg_ParseTuple(args, "O", &state))
        return NULL;
    TwisterObject *t = (TwisterObject *)tp->tp_alloc(tp, 0);
    if (t != NULL && mt_from_state(state, &t->m) < 0) {
        Py_DECREF(t);
        return NULL;
    }
    return (PyObject *)t;
}

static PyObject *Twister_getrandbits(TwisterObject *self, PyObject *arg) {
    long k = PyLong_AsLong(arg);
    if (k == -1 && PyErr_Occurred())
        return NULL;
    if (k < 1 || k > 32) {
        PyErr_SetString(PyExc_ValueError, "Twister.getrandbits takes 1 to 32 bits");
        return NULL;
    }
    return PyLong_FromUnsignedLong(mt_next(&self->m) >> (32 - k));
}

static PyObject *Twister_getstate(TwisterObject *self, PyObject *unused) { return mt_to_state(&self->m); }

static PyMethodDef Twister_methods[] = {
    {"getrandbits", (PyCFunction)Twister_getrandbits, METH_O, "random.Random.getrandbits(k), 1 <= k <= 32."},
    {"getstate", (PyCFunction)Twister_getstate, METH_NOARGS, "The state, as random.Random.getstate() gives it."},
    {NULL}};

static PyTypeObject TwisterType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "burraco._native.Twister",
    .tp_basicsize = sizeof(TwisterObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Python's Mersenne Twister, in the core (from a random.Random state).",
    .tp_new = Twister_new,
    .tp_methods = Twister_methods,
};

/* sample_from(twister): a Hand, drawn from the twister */
static PyObject *Det_sample_from(DetObject *self, PyObject *tw) {
    if (!PyObject_TypeCheck(tw, &TwisterType)) {
        PyErr_SetString(PyExc_TypeError, "sample_from needs a Twister");
        return NULL;
    }
    HandObject *h = hand_alloc(self->rules, melds_used(self->base) + MELD_SLACK);
    if (h == NULL)
        return NULL;
    det_sample(self, h->s, &((TwisterObject *)tw)->m);
    return (PyObject *)h;
}

static PyMethodDef Det_methods[] = {
    {"sample", (PyCFunction)Det_sample, METH_O, "One determinization with a random.Random state: (Hand, new state)."},
    {"sample_from", (PyCFunction)Det_sample_from, METH_O, "One determinization drawn from a Twister: a Hand."},
    {NULL}};

static PyTypeObject DetType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "burraco._native.Determinizer",
    .tp_basicsize = sizeof(DetObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The determinizations of one view (burraco.native.Determinizer wraps it).",
    .tp_new = Det_new,
    .tp_dealloc = (destructor)Det_dealloc,
    .tp_methods = Det_methods,
};

/* configure(Action, verbs, seats): the Action type, the five verb strings, the seat letters for 2 … 6 players
 * (seats[n] the letters of n players) */
static PyObject *configure(PyObject *mod, PyObject *args) {
    PyObject *action, *verbs, *seats;
    if (!PyArg_ParseTuple(args, "OOO", &action, &verbs, &seats))
        return NULL;
    if (!PyType_Check(action) || !PyType_IsSubtype((PyTypeObject *)action, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "Action must be a tuple type");
        return NULL;
    }
    Py_INCREF(action);
    Py_XSETREF(G_Action, action);
    for (int i = 0; i < NVERBS; i++) {
        PyObject *v = PySequence_GetItem(verbs, i);
        if (v == NULL)
            return NULL;
        Py_XSETREF(G_VERBS[i], v);
    }
    for (int n = 2; n <= MAXP; n++) {
        PyObject *names = PySequence_GetItem(seats, n);
        if (names == NULL)
            return NULL;
        for (int i = 0; i < n; i++) {
            PyObject *v = PySequence_GetItem(names, i);
            if (v == NULL) {
                Py_DECREF(names);
                return NULL;
            }
            Py_XSETREF(G_SEATS[n][i], v);
        }
        Py_DECREF(names);
    }
    Py_RETURN_NONE;
}

/* Game.new(rules, seed) with deal_from_seed: random.Random(seed).shuffle of the deck, cut into the pozzetti, the
 * hands, the up-card and the stock (burraco/deal.py), then the state Game.__init__ makes of it */
static int deal_state(const NRules *R, NState *S, uint64_t seed, int first) {
    MT m;
    mt_seed(&m, seed);
    uint8_t deck[MAXCARDS];
    int n = 0;
    for (int c = 0; c < 52; c++)
        for (int k = 0; k < R->decks; k++)
            deck[n++] = (uint8_t)c;
    for (int k = 0; k < R->jokers; k++)
        deck[n++] = JOKER;
    for (int i = n - 1; i > 0; i--) {
        int j = mt_below(&m, i + 1);
        uint8_t t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
    }
    state_clear(R, S);
    int npoz = R->npoz, at = 0;
    int total = 0;
    for (int i = 0; i < npoz; i++)
        total += R->poz_sizes[i];
    if (n - total - R->players * R->hand_size - R->up_card < 3)
        return -1;
    S->npoz = (int8_t)npoz;
    for (int i = 0; i < npoz; i++) {
        memcpy(POZ(R, S, i), deck + at, (size_t)R->poz_sizes[i]);
        S->poz_n[i] = (int8_t)R->poz_sizes[i];
        at += R->poz_sizes[i];
    }
    for (int s = 0; s < R->players; s++) {
        for (int k = 0; k < R->hand_size; k++)
            HAND(S, s)[deck[at + k]]++;
        S->hand_n[s] = (uint8_t)R->hand_size;
        at += R->hand_size;
    }
    if (R->up_card)
        PILE(R, S)[S->pile_n++] = deck[at++];
    for (int k = n - 1; k >= at; k--)
        STOCK_AT(R, S, S->stock_n++) = deck[k];
    for (int i = 0; i < MAXSIDES; i++)
        S->poz_by[i] = -1;
    init_sides(R, S);
    S->turn = S->first = (int8_t)first;
    S->phase = PH_DRAW;
    S->lone = S->top = S->drawn = -1;
    S->top_used = 1;
    S->timeout_left = -1;
    S->closed_by = -1;
    return 0;
}

/* new_hand(rules, seed, first): the hand Game.new(rules, seed) deals (0 <= seed < 2**64) */
static PyObject *new_hand(PyObject *mod, PyObject *args) {
    RulesObject *rules;
    unsigned long long seed;
    int first;
    if (!PyArg_ParseTuple(args, "O!Ki", &RulesType, &rules, &seed, &first))
        return NULL;
    HandObject *h = hand_alloc(rules, MELD_SLACK);
    if (h == NULL)
        return NULL;
    if (deal_state(&rules->r, h->s, seed, first) < 0) {
        Py_DECREF(h);
        PyErr_SetString(PyExc_ValueError, "the native core cannot deal these rules");
        return NULL;
    }
    return (PyObject *)h;
}

/* random_deals(rules, seeds, first): deal and play one random hand (Game.new(rules, s), then random_playout(s))
 * per seed with the GIL released; returns the total number of decisions */
static PyObject *random_deals(PyObject *mod, PyObject *args) {
    RulesObject *rules;
    PyObject *seeds;
    int first;
    if (!PyArg_ParseTuple(args, "O!Oi", &RulesType, &rules, &seeds, &first))
        return NULL;
    PyObject *f = PySequence_Fast(seeds, "seeds");
    if (f == NULL)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(f);
    uint64_t *sv = (uint64_t *)malloc(sizeof(uint64_t) * (size_t)(n ? n : 1));
    if (sv == NULL) {
        Py_DECREF(f);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; i++)
        sv[i] = PyLong_AsUnsignedLongLongMask(PySequence_Fast_GET_ITEM(f, i));
    Py_DECREF(f);
    if (PyErr_Occurred()) {
        free(sv);
        return NULL;
    }
    long total = 0;
    int bad = 0;
    ABuf b = {0}, sc = {0};
    const NRules *R = &rules->r;
    Py_BEGIN_ALLOW_THREADS
    NState *g = state_new(R, R->mcap);
    if (g == NULL)
        bad = 1;
    for (Py_ssize_t i = 0; i < n && !bad; i++) {
        if (deal_state(R, g, sv[i], first) < 0) {
            bad = 2;
            break;
        }
        uint64_t s = sv[i];
        long k = playout(R, g, &s, &b, &sc);
        if (k < 0)
            bad = 1;
        total += k;
    }
    free(g);
    Py_END_ALLOW_THREADS
    free(sv);
    free(b.a);
    free(sc.a);
    if (bad == 1)
        return PyErr_NoMemory();
    if (bad == 2) {
        PyErr_SetString(PyExc_ValueError, "the native core cannot deal these rules");
        return NULL;
    }
    return PyLong_FromLong(total);
}

/* state_size(rules=None): the bytes a clone copies under these rules (None: the largest state) */
static PyObject *state_size(PyObject *mod, PyObject *args) {
    PyObject *rules = Py_None;
    int melds = 0;
    if (!PyArg_ParseTuple(args, "|Oi", &rules, &melds))
        return NULL;
    if (rules == Py_None) { /* the largest: 6 players, every card the core can hold, 6 pozzetti of 20 */
        NRules big;
        memset(&big, 0, sizeof(big));
        big.players = MAXP;
        big.decks = 3;
        big.jokers = MAXCARDS - 156;
        big.npoz = MAXPOZ;
        for (int i = 0; i < MAXPOZ; i++)
            big.poz_sizes[i] = 20;
        state_layout(&big);
        return PyLong_FromSize_t(state_size_for(&big, melds < 0 || melds > big.mcap ? big.mcap : melds));
    }
    if (!PyObject_TypeCheck(rules, &RulesType)) {
        PyErr_SetString(PyExc_TypeError, "state_size takes native Rules");
        return NULL;
    }
    const NRules *R = &((RulesObject *)rules)->r;
    return PyLong_FromSize_t(state_size_for(R, melds < 0 || melds > R->mcap ? R->mcap : melds));
}

/* random_hands(hands, count, seed): play `count` random playouts from copies of `hands` (a Hand) with the GIL
 * released; returns the total number of decisions */
static PyObject *random_hands(PyObject *mod, PyObject *args) {
    HandObject *start;
    long count;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "O!lK", &HandType, &start, &count, &seed))
        return NULL;
    long total = 0, bad = 0;
    ABuf b = {0}, sc = {0};
    const NRules *R = &start->rules->r;
    NState *base = state_dup(R, start->s), *g = state_new(R, R->mcap);
    if (base == NULL || g == NULL) {
        free(base);
        free(g);
        return PyErr_NoMemory();
    }
    Py_BEGIN_ALLOW_THREADS
    uint64_t s = seed;
    for (long i = 0; i < count; i++) {
        state_copy(R, g, base);
        long k = playout(R, g, &s, &b, &sc);
        if (k < 0) {
            bad = 1;
            break;
        }
        total += k;
    }
    free(base);
    free(g);
    Py_END_ALLOW_THREADS
    free(b.a);
    free(sc.a);
    if (bad)
        return PyErr_NoMemory();
    return PyLong_FromLong(total);
}

/* ----- the research environments (burraco/envs): observations, action indices, N tables in one call ----------- */
/* An Encoding is the observation layout and the action space of burraco/envs/encoding.py (a Layout) written from a
 * native hand's state, from one seat's view only (the seat's visible hand, what it saw the others take, the melds,
 * the visible pile, the counts), and the indices of the legal actions of the seat to act. VecTables holds N hands
 * with one learner seat each and random or heuristic opponents (burraco.bots.RandomPlayer:
 * legal[rng.randrange(len(legal))]; HeuristicPlayer.choose: h_choose; each generator seeded as random.Random(seed)),
 * stepped in one call from an array of action indices into the
 * caller's numpy buffers, with the same-step auto-reset of burraco/envs/vector.py. burraco/envs/native_env.py
 * wraps both; tests/test_native_envs.py compares them with the Python encoder and environments. */

/* the offsets of encoding.Layout.c_offsets, in this order (as burraco/_speedups.c reads them) */
enum {
    EL_OBS, EL_HAND, EL_KNOWN1, EL_PILE, EL_TOP, EL_UNSEEN, EL_TABLE0, EL_MELDS0, EL_LONE, EL_TOPUSE, EL_SIZES,
    EL_TOACT, EL_PHASE, EL_FLAGS, EL_COUNT, EL_POZ, EL_POZT, EL_POZBY, EL_HIDDEN, EL_PENDING, EL_SEATSIDE, EL_SOLO,
    EL_MT, EL_TP, EL_BUR, EL_CLEAN, EL_RULES, EL_PLACES, EL_K, EL_P, EL_SLOTS, EL_ROWB, EL_COUNT_OF
};
#define ENC_GROUPS 17
#define ENC_SEQ_KEYS (3 * 3 * 2048 * 5)
#define ENC_ROW 50

typedef struct {
    PyObject_HEAD RulesObject *rules;
    int o[EL_COUNT_OF];
    float rules_row[16];
    int nrules_row, pile_open, copies, b4, scorers_are_seats, round_up;
    uint8_t deck[NT];
    int num_actions, add_offset, add_block, max_slots, swap_offset;
    int group_offset[ENC_GROUPS];
    int32_t *seq_index; /* (aces, twos, bits of 3…K, other wild) -> template, -1 none */
    int32_t *set_index; /* (rank, counts per suit in base copies+1, wild) -> template, -1 none */
} EncObject;

static PyTypeObject EncType, VecType;

#define MELD_OFFSET_ 56 /* encoding.MELD_OFFSET: draw, pick, redraw, 53 discards */

static int get_buffer(PyObject *o, Py_buffer *v, Py_ssize_t itemsize, Py_ssize_t items, const char *what) {
    if (PyObject_GetBuffer(o, v, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0)
        return -1;
    if (v->len != itemsize * items || (v->itemsize != itemsize && v->itemsize != 1)) {
        PyBuffer_Release(v);
        PyErr_Format(PyExc_ValueError, "%s: a writable C-contiguous buffer of %zd items of %zd bytes expected", what,
                     items, itemsize);
        return -1;
    }
    return 0;
}

static int int_tuple(PyObject *t, int *out, int n, const char *what) {
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != n) {
        PyErr_Format(PyExc_ValueError, "Encoding: %s must be a tuple of %d ints", what, n);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        long x = PyLong_AsLong(PyTuple_GET_ITEM(t, i));
        if (x == -1 && PyErr_Occurred())
            return -1;
        out[i] = (int)x;
    }
    return 0;
}

static void Enc_dealloc(EncObject *self) {
    Py_XDECREF(self->rules);
    free(self->seq_index);
    free(self->set_index);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Encoding(rules, c_offsets, rules_row, deck, pile_open, actions, group_offsets, seq_index, set_index, copies,
 * scorers_are_seats, round_up): actions = (num_actions, add_offset, add_block, max_slots, swap_offset); seq_index
 * and set_index int32 bytes (burraco/envs/native_env.py builds them from encoding's templates) */
static PyObject *Enc_new(PyTypeObject *tp, PyObject *args, PyObject *kw) {
    RulesObject *rules;
    PyObject *offs, *row, *acts, *groups;
    Py_buffer deck, seq, set;
    int pile_open, copies, seats, round_up;
    if (!PyArg_ParseTuple(args, "O!O!O!y*pO!O!y*y*ipp", &RulesType, &rules, &PyTuple_Type, &offs, &PyTuple_Type,
                          &row, &deck, &pile_open, &PyTuple_Type, &acts, &PyTuple_Type, &groups, &seq, &set,
                          &copies, &seats, &round_up))
        return NULL;
    EncObject *self = NULL;
    int b = copies + 1, b4 = b * b * b * b;
    if (deck.len != NT || seq.len != (Py_ssize_t)sizeof(int32_t) * ENC_SEQ_KEYS ||
        set.len != (Py_ssize_t)sizeof(int32_t) * 13 * b4 * 6 || copies < 1 || copies > 3 ||
        PyTuple_GET_SIZE(row) > 16) {
        PyErr_SetString(PyExc_ValueError, "Encoding: bad deck, template tables or rules row");
        goto fail;
    }
    self = (EncObject *)tp->tp_alloc(tp, 0);
    if (self == NULL)
        goto fail;
    Py_INCREF(rules);
    self->rules = rules;
    int a[5];
    if (int_tuple(offs, self->o, EL_COUNT_OF, "c_offsets") < 0 || int_tuple(acts, a, 5, "actions") < 0 ||
        int_tuple(groups, self->group_offset, ENC_GROUPS, "group offsets") < 0)
        goto fail;
    if (self->o[EL_PLACES] > MAXP + 2 || self->o[EL_K] > MAXSIDES || self->o[EL_ROWB] != ENC_ROW * 4 ||
        self->o[EL_RULES] + PyTuple_GET_SIZE(row) > self->o[EL_OBS] || rules->r.players > self->o[EL_PLACES]) {
        PyErr_SetString(PyExc_ValueError, "Encoding: a layout the native encoder does not take");
        goto fail;
    }
    self->num_actions = a[0];
    self->add_offset = a[1];
    self->add_block = a[2];
    self->max_slots = a[3];
    self->swap_offset = a[4];
    self->nrules_row = (int)PyTuple_GET_SIZE(row);
    for (int i = 0; i < self->nrules_row; i++) {
        double x = PyFloat_AsDouble(PyTuple_GET_ITEM(row, i));
        if (x == -1.0 && PyErr_Occurred())
            goto fail;
        self->rules_row[i] = (float)x;
    }
    memcpy(self->deck, deck.buf, NT);
    self->pile_open = pile_open;
    self->copies = copies;
    self->b4 = b4;
    self->scorers_are_seats = seats;
    self->round_up = round_up;
    self->seq_index = (int32_t *)malloc((size_t)seq.len);
    self->set_index = (int32_t *)malloc((size_t)set.len);
    if (self->seq_index == NULL || self->set_index == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    memcpy(self->seq_index, seq.buf, (size_t)seq.len);
    memcpy(self->set_index, set.buf, (size_t)set.len);
    PyBuffer_Release(&deck);
    PyBuffer_Release(&seq);
    PyBuffer_Release(&set);
    return (PyObject *)self;
fail:
    Py_XDECREF(self);
    PyBuffer_Release(&deck);
    PyBuffer_Release(&seq);
    PyBuffer_Release(&set);
    return NULL;
}

/* encoding._template: the template of these cards within group, -1 none */
static int enc_template(const EncObject *E, int group, const uint8_t *cards, int n) {
    if (group < 4) {
        int s = group, aces = 0, twos = 0, bits = 0, other = 0;
        for (int i = 0; i < n; i++) {
            int c = cards[i];
            if (c == JOKER) {
                if (other)
                    return -1;
                other = 1;
            } else if (c / 13 == s) {
                int r = c % 13;
                if (r == 0)
                    aces++;
                else if (r == 1)
                    twos++;
                else {
                    if (bits >> (r - 2) & 1)
                        return -1;
                    bits |= 1 << (r - 2);
                }
            } else if (c % 13 == 1) {
                if (other)
                    return -1;
                other = 1 + ((c / 13 - s) % 4 + 4) % 4;
            } else
                return -1;
        }
        if (aces > 2 || twos > 2)
            return -1;
        return E->seq_index[((aces * 3 + twos) * 2048 + bits) * 5 + other];
    }
    int rank = group - 3, cnt[4] = {0, 0, 0, 0}, wild = 0;
    for (int i = 0; i < n; i++) {
        int c = cards[i];
        if (c == JOKER) {
            if (wild)
                return -1;
            wild = 1;
        } else if (c % 13 == rank - 1)
            cnt[c / 13]++;
        else if (c % 13 == 1 && rank != 2) {
            if (wild)
                return -1;
            wild = 2 + c / 13;
        } else
            return -1;
    }
    int b = E->copies + 1;
    for (int k = 0; k < 4; k++)
        if (cnt[k] > E->copies)
            return -1;
    int code = ((cnt[0] * b + cnt[1]) * b + cnt[2]) * b + cnt[3];
    return E->set_index[((rank - 1) * E->b4 + code) * 6 + wild];
}

/* encoding._group_of_cards */
static int enc_group_of_cards(const uint8_t *cards, int n) {
    int first = -1, same = 1, count = 0, suit = -1;
    for (int i = 0; i < n; i++) {
        int c = cards[i];
        if (c == JOKER || c % 13 == 1)
            continue;
        count++;
        if (first < 0) {
            first = c % 13;
            suit = c / 13;
        } else if (c % 13 != first)
            same = 0;
    }
    if (count == 0)
        return 5;
    if (count >= 2 && same)
        return 4 + first;
    return suit;
}

/* encoding.encode_action of a legal action of the seat in turn, -1 when the space has no index for it */
static int enc_index(const EncObject *E, const NState *S, const NAct *a) {
    switch (a->verb) {
    case V_DRAW:
        return 0;
    case V_PICK:
        return 1;
    case V_REDRAW:
        return 2;
    case V_DISCARD:
        return 3 + a->cards[0];
    case V_MELD: {
        int g = enc_group_of_cards(a->cards, a->n);
        int t = enc_template(E, g, a->cards, a->n);
        return t < 0 ? -1 : MELD_OFFSET_ + E->group_offset[g] + t;
    }
    case V_ADD: {
        int k = a->meld, side = S->side[S->turn];
        if (k < 1 || k > S->nmelds[side] || k > E->max_slots)
            return -1;
        const NMeld *m = &side_melds(&E->rules->r, S, side)[k - 1];
        uint8_t all[2 * MAXMC];
        meld_cards(m, all);
        memcpy(all + m->size, a->cards, a->n);
        int g = m->kind ? m->suit : 4 + m->rank - 1;
        int t = enc_template(E, g, all, m->size + a->n);
        return t < 0 ? -1 : E->add_offset + (k - 1) * E->add_block + t;
    }
    case V_SWAP:
        if (a->meld < 1 || a->meld > E->max_slots)
            return -1;
        return E->swap_offset + (a->meld - 1) * 13 + a->cards[0] % 13;
    }
    return -1;
}

/* the indices of b's actions into out (b->n of them); -1 and a Python error when one has none */
static int enc_indices(const EncObject *E, const NState *S, const ABuf *b, int32_t *out) {
    for (int i = 0; i < b->n; i++) {
        int x = enc_index(E, S, &b->a[i]);
        if (x < 0 || x >= E->num_actions) {
            PyErr_SetString(PyExc_ValueError, "a legal action outside the research environments' action space");
            return -1;
        }
        out[i] = x;
    }
    return 0;
}

/* encoding._meld_row of m into row (zeroed) */
static void enc_meld_row(const NRules *R, const NMeld *m, float *row, int *pts_out) {
    int pts = meld_points(R, m);
    row[0] = 1.0f;
    if (m->kind) {
        row[1] = 1.0f;
        row[2 + m->suit] = 1.0f;
        for (int p = 1; p < 15; p++)
            if (m->mask >> p & 1)
                row[18 + p] = 1.0f;
    } else {
        row[6 + m->rank - 1] = 1.0f;
        for (int s = 0; s < 4; s++)
            row[33 + s] = (float)((m->suits >> (2 * s)) & 3);
    }
    if (m->wild >= 0) {
        row[37] = 1.0f;
        row[m->wild == JOKER ? 38 : 39 + m->wild / 13] = 1.0f;
        if (m->kind) {
            row[43] = m->wild_pos ? 1.0f : 0.0f;
            int wp = m->wild_pos;
            if (!wp) {
                unsigned mk = m->mask;
                int lo = lowbit(mk), hi = bitlen(mk) - 1;
                wp = lo > 1 ? lo - 1 : hi + 1;
            }
            row[44] = (float)wp;
        }
    }
    row[45] = (float)m->size;
    if (m->burraco != B_NONE)
        row[m->burraco == B_CLEAN ? 46 : m->burraco == B_SEMI ? 47 : 48] = 1.0f;
    row[49] = (float)pts;
    *pts_out = pts;
}

/* encoding.Encoder.encode of seat in S into buf (the layout's size), from the seat's view only; totals: the match
 * totals before this hand per scorer (NULL: none) */
/* what one observation buffer holds from its last write: the meld rows of each side slot and the melds they were
 * written from (rows[0] == 0xFF: unknown) */
typedef struct {
    uint8_t rows[MAXSIDES];
    int16_t pts[MAXSIDES][MAXMELDS];
    NMeld m[MAXSIDES][MAXMELDS];
} EncCache;


static void enc_write(const EncObject *E, const NState *S, int seat, const double *totals, float *buf,
                      EncCache *cache) {
    const NRules *R = &E->rules->r;
    const int *o = E->o;
    int n = R->players, d = R->direction, places = o[EL_PLACES], K = o[EL_K];
    /* cache: what buf holds from the last write (only the meld rows that changed are written, the others cleared),
     * or NULL: buf holds anything, all of it is written */
    uint8_t *rows = cache == NULL ? NULL : cache->rows;
    size_t m0 = (size_t)o[EL_MELDS0], m1 = m0 + (size_t)K * (size_t)o[EL_SLOTS] * ENC_ROW;
    if (rows == NULL || rows[0] == 0xFF) {
        memset(buf, 0, sizeof(float) * (size_t)o[EL_OBS]);
        if (rows != NULL)
            memset(rows, 0, MAXSIDES);
    } else {
        memset(buf, 0, sizeof(float) * m0);
        memset(buf + m1, 0, sizeof(float) * ((size_t)o[EL_OBS] - m1));
    }
    memcpy(buf + o[EL_RULES], E->rules_row, sizeof(float) * (size_t)E->nrules_row);
    int rel[MAXP];
    for (int s = 0; s < n; s++)
        rel[s] = (((s - seat) * d) % n + n) % n;
    /* the sides in slot order: own, then the others by their nearest seat in playing order */
    int nsides = S->nsides, order[MAXSIDES], slot_of[MAXSIDES], near[MAXSIDES];
    for (int k = 0; k < nsides; k++)
        near[k] = 1 << 20;
    for (int s = 0; s < n; s++)
        if (rel[s] < near[S->side[s]])
            near[S->side[s]] = rel[s];
    int my = S->side[seat], no = 0;
    order[no++] = my;
    for (int k = 0; k < nsides; k++) {
        if (k == my)
            continue;
        int j = no++;
        while (j > 1 && near[order[j - 1]] > near[k]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = k;
    }
    for (int j = 0; j < nsides; j++)
        slot_of[order[j]] = j;
    int turn = S->end != E_NONE ? -1 : S->turn;
    int h[NT], u[NT], hidden_poz = 0;
    uint8_t hid[NT], table[NT], kn[NT];
    pk_counts(HIDDEN(R, S, seat), hid);
    table_counts(R, S, table);
    for (int c = 0; c < NT; c++) {
        int x = HAND(S, seat)[c];
        if (S->has_hidden[seat]) {
            hidden_poz += hid[c];
            x -= hid[c];
            if (x < 0)
                x = 0;
        }
        h[c] = x;
        u[c] = (int)E->deck[c] - x - (int)table[c];
    }
    for (int s = 0; s < n; s++) {
        int k = rel[s];
        buf[o[EL_SIZES] + k] = (float)S->hand_n[s];
        if (S->has_hidden[s])
            buf[o[EL_HIDDEN] + k] = 1.0f;
        if (S->poz_pending[s])
            buf[o[EL_PENDING] + k] = 1.0f;
        if (o[EL_SEATSIDE] >= 0)
            buf[o[EL_SEATSIDE] + k * K + slot_of[S->side[s]]] = 1.0f;
        if (s == seat)
            continue;
        float *kb = buf + o[EL_KNOWN1] + (k - 1) * NT;
        pk_counts(KNOWN(R, S, s), kn);
        for (int c = 0; c < NT; c++) {
            u[c] -= kn[c];
            kb[c] = (float)kn[c];
        }
    }
    int from = E->pile_open ? 0 : (S->pile_n > 0 ? S->pile_n - 1 : 0);
    for (int i = from; i < S->pile_n; i++) {
        int c = PILE(R, S)[i];
        buf[o[EL_PILE] + c] += 1.0f;
        u[c]--;
    }
    if (S->pile_n > 0)
        buf[o[EL_TOP] + PILE(R, S)[S->pile_n - 1]] = 1.0f;
    for (int c = 0; c < NT; c++) {
        buf[o[EL_HAND] + c] = (float)h[c];
        buf[o[EL_UNSEEN] + c] = (float)u[c];
    }
    uint8_t old[MAXSIDES];
    for (int j = 0; j < K && rows != NULL; j++) { /* the rows no meld fills now */
        int now = j < nsides ? S->nmelds[order[j]] : 0;
        if (now > o[EL_SLOTS])
            now = o[EL_SLOTS];
        float *mb = buf + o[EL_MELDS0] + j * o[EL_SLOTS] * ENC_ROW;
        old[j] = rows[j];
        if (rows[j] > now)
            memset(mb + now * ENC_ROW, 0, sizeof(float) * ENC_ROW * (size_t)(rows[j] - now));
        rows[j] = (uint8_t)now;
    }
    for (int j = 0; j < nsides && j < K; j++) {
        int side = order[j], pts = 0, bur = 0, clean = 0;
        float *tb = buf + o[EL_TABLE0] + j * NT;
        float *mb = buf + o[EL_MELDS0] + j * o[EL_SLOTS] * ENC_ROW;
        for (int i = 0; i < S->nmelds[side] && i < o[EL_SLOTS]; i++) {
            const NMeld *m = &side_melds(R, S, side)[i];
            int p;
            if (cache == NULL)
                enc_meld_row(R, m, mb + i * ENC_ROW, &p);
            else if (i < old[j] && same_meld(&cache->m[j][i], m))
                p = cache->pts[j][i]; /* the row is there already */
            else {
                memset(mb + i * ENC_ROW, 0, sizeof(float) * ENC_ROW);
                enc_meld_row(R, m, mb + i * ENC_ROW, &p);
                cache->m[j][i] = *m;
                cache->pts[j][i] = (int16_t)p;
            }
            pts += p;
            uint8_t cards[MAXMC];
            meld_cards(m, cards);
            for (int k = 0; k < m->size; k++)
                tb[cards[k]] += 1.0f;
            bur |= m->burraco != B_NONE;
            clean |= m->burraco == B_CLEAN;
        }
        buf[o[EL_TP] + j] = (float)pts;
        buf[o[EL_BUR] + j] = (float)bur;
        buf[o[EL_CLEAN] + j] = (float)clean;
        buf[o[EL_POZT] + j] = (float)S->poz_taken[side];
        int by = S->poz_by[side];
        if (by >= 0 && by < n)
            buf[o[EL_POZBY] + j * places + rel[by]] = 1.0f;
    }
    if (S->lone >= 0 && S->lone < NT && turn >= 0)
        buf[o[EL_LONE] + S->lone] = 1.0f;
    if (S->top >= 0 && S->top < NT && !S->top_used)
        buf[o[EL_TOPUSE] + S->top] = 1.0f;
    if (turn >= 0)
        buf[o[EL_TOACT] + rel[turn]] = 1.0f;
    if (o[EL_SOLO] >= 0 && S->solo >= 0)
        buf[o[EL_SOLO] + rel[S->solo]] = 1.0f;
    buf[o[EL_PHASE] + (S->phase == PH_DRAW ? 0 : S->phase == PH_PLAY ? 1 : 2)] = 1.0f;
    float *f = buf + o[EL_FLAGS];
    f[0] = (float)(S->picked != 0);
    f[1] = (float)(S->drew != 0);
    f[2] = (float)(S->melded != 0);
    f[3] = (float)(S->opening != 0);
    f[4] = (float)(S->must_open != 0);
    f[5] = (float)(S->last_turn != 0);
    f[6] = (float)(S->timeout_called != 0);
    f[7] = (float)(S->redrawn != 0);
    f[8] = hidden_poz > 0 ? 1.0f : 0.0f;
    f[9] = turn == seat ? 1.0f : 0.0f;
    float *cnt = buf + o[EL_COUNT];
    cnt[0] = (float)hidden_poz;
    cnt[1] = (float)S->stock_n;
    cnt[2] = (float)S->pile_n;
    cnt[3] = (float)S->laid;
    cnt[4] = (float)S->stalemate_run;
    cnt[5] = (float)S->turns;
    cnt[6] = (float)S->timeout_left;
    for (int k = 0; k < S->npoz && k < o[EL_P]; k++)
        if (S->poz_n[k] >= 0)
            buf[o[EL_POZ] + k] = 1.0f;
    if (totals != NULL) {
        if (E->scorers_are_seats)
            for (int s = 0; s < n; s++)
                buf[o[EL_MT] + rel[s]] = (float)totals[s];
        else
            for (int j = 0; j < nsides && j < K; j++)
                buf[o[EL_MT] + j] = (float)totals[order[j]];
    }
}

static HandObject *enc_hand(EncObject *self, PyObject *h) {
    if (!PyObject_TypeCheck(h, &HandType)) {
        PyErr_SetString(PyExc_TypeError, "Encoding: a burraco._native.Hand expected");
        return NULL;
    }
    HandObject *hand = (HandObject *)h;
    if (memcmp(&hand->rules->r, &self->rules->r, sizeof(NRules)) != 0) {
        PyErr_SetString(PyExc_ValueError, "Encoding: the hand plays other rules");
        return NULL;
    }
    return hand;
}

/* encode(hand, seat, out, totals=None): the observation of seat into out (float32, the layout's size) */
static PyObject *Enc_encode(EncObject *self, PyObject *args) {
    PyObject *h, *out, *tot = Py_None;
    int seat;
    if (!PyArg_ParseTuple(args, "OiO|O", &h, &seat, &out, &tot))
        return NULL;
    HandObject *hand = enc_hand(self, h);
    if (hand == NULL)
        return NULL;
    if (seat < 0 || seat >= self->rules->r.players) {
        PyErr_SetString(PyExc_ValueError, "Encoding.encode: no such seat");
        return NULL;
    }
    double totals[MAXP + 1];
    const double *tp = NULL;
    if (tot != Py_None) {
        PyObject *f = PySequence_Fast(tot, "the match totals");
        if (f == NULL)
            return NULL;
        Py_ssize_t k = PySequence_Fast_GET_SIZE(f);
        for (Py_ssize_t i = 0; i < k && i <= MAXP; i++)
            totals[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(f, i));
        Py_DECREF(f);
        if (PyErr_Occurred())
            return NULL;
        if (k > 0)
            tp = totals;
    }
    Py_buffer v;
    if (get_buffer(out, &v, 4, self->o[EL_OBS], "Encoding.encode") < 0)
        return NULL;
    enc_write(self, hand->s, seat, tp, (float *)v.buf, NULL);
    PyBuffer_Release(&v);
    Py_RETURN_NONE;
}

/* legal_indices(hand): the indices of hand.legal_actions(), in their order */
static PyObject *Enc_legal_indices(EncObject *self, PyObject *h) {
    HandObject *hand = enc_hand(self, h);
    if (hand == NULL || ensure_legal(hand) < 0)
        return NULL;
    int n = hand->legal.n;
    int32_t small[256], *codes = n <= 256 ? small : (int32_t *)malloc(sizeof(int32_t) * (size_t)n);
    if (codes == NULL)
        return PyErr_NoMemory();
    PyObject *out = NULL;
    if (enc_indices(self, hand->s, &hand->legal, codes) == 0 && (out = PyList_New(n)) != NULL)
        for (int i = 0; i < n; i++)
            PyList_SET_ITEM(out, i, PyLong_FromLong(codes[i]));
    if (codes != small)
        free(codes);
    return out;
}

/* mask(hand, out): out (one byte per index: int8 or bool, zeroed by the caller) set to 1 at the legal indices */
static PyObject *Enc_mask(EncObject *self, PyObject *args) {
    PyObject *h, *out;
    if (!PyArg_ParseTuple(args, "OO", &h, &out))
        return NULL;
    HandObject *hand = enc_hand(self, h);
    if (hand == NULL || ensure_legal(hand) < 0)
        return NULL;
    Py_buffer v;
    if (get_buffer(out, &v, 1, self->num_actions, "Encoding.mask") < 0)
        return NULL;
    uint8_t *m = (uint8_t *)v.buf;
    for (int i = 0; i < hand->legal.n; i++) {
        int x = enc_index(self, hand->s, &hand->legal.a[i]);
        if (x < 0 || x >= self->num_actions) {
            PyBuffer_Release(&v);
            PyErr_SetString(PyExc_ValueError, "a legal action outside the research environments' action space");
            return NULL;
        }
        m[x] = 1;
    }
    PyBuffer_Release(&v);
    Py_RETURN_NONE;
}

static PyMethodDef Enc_methods[] = {
    {"encode", (PyCFunction)Enc_encode, METH_VARARGS, "The observation of a seat into a float32 buffer."},
    {"legal_indices", (PyCFunction)Enc_legal_indices, METH_O, "The indices of the hand's legal actions."},
    {"mask", (PyCFunction)Enc_mask, METH_VARARGS, "Set the legal indices to 1 in a zeroed one-byte buffer."},
    {NULL}};

static PyTypeObject EncType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "burraco._native.Encoding",
    .tp_basicsize = sizeof(EncObject),
    .tp_dealloc = (destructor)Enc_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The research environments' observation layout and action space on native hands.",
    .tp_methods = Enc_methods,
    .tp_new = Enc_new,
};

/* ---- VecTables ---- */
typedef struct {
    ABuf acts;      /* the learner's legal actions (when it is to act) */
    int32_t *codes; /* their indices: the mask entries set in the table's row */
    int ncodes, capcodes;
    MT mt[MAXP];    /* the random opponents' generators */
    EncCache cache; /* what the table's observation row holds (enc_write) */
} VecSlot;

typedef struct {
    PyObject_HEAD EncObject *enc;
    int n, seat, win;
    double scale, illegal;
    int8_t opp[MAXP]; /* each opponent seat's player: -1 random, else the heuristic's level (L_EASY ...) */
    uint8_t *S;       /* the n states, stride bytes apart, each with room for every meld */
    size_t stride;
    VecSlot *t;
    ABuf legal, scratch;
    DBuf sc; /* the heuristic's scores */
} VecObject;

#define VSTATE(V, i) ((NState *)((V)->S + (size_t)(i) * (V)->stride))

static void Vec_dealloc(VecObject *self) {
    if (self->t != NULL)
        for (int i = 0; i < self->n; i++) {
            free(self->t[i].acts.a);
            free(self->t[i].codes);
        }
    free(self->t);
    free(self->S);
    free(self->legal.a);
    free(self->scratch.a);
    free(self->sc.v);
    Py_XDECREF(self->enc);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* VecTables(encoding, n, seat, win, reward_scale, illegal_reward, opponents=None): opponents, one entry per seat
 * (the learner's ignored), -1 for the random player, 0, 1 or 2 for the heuristic of that level (easy, medium,
 * hard); None: every opponent random */
static PyObject *Vec_new(PyTypeObject *tp, PyObject *args, PyObject *kw) {
    EncObject *enc;
    int n, seat, win;
    double scale, illegal;
    PyObject *opps = Py_None;
    int8_t opp[MAXP];
    if (!PyArg_ParseTuple(args, "O!iipdd|O", &EncType, &enc, &n, &seat, &win, &scale, &illegal, &opps))
        return NULL;
    int P = enc->rules->r.players;
    if (n < 1 || n > 1 << 20 || seat < 0 || seat >= P) {
        PyErr_SetString(PyExc_ValueError, "VecTables: 1 or more tables, and a seat of the rules");
        return NULL;
    }
    memset(opp, -1, sizeof(opp));
    if (opps != Py_None) {
        PyObject *fast = PySequence_Fast(opps, "VecTables: opponents is a sequence of one player per seat");
        if (fast == NULL)
            return NULL;
        if (PySequence_Fast_GET_SIZE(fast) != P) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "VecTables: opponents needs one entry per seat (%d)", P);
            return NULL;
        }
        for (int x = 0; x < P; x++) {
            long k = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, x));
            if (k == -1 && PyErr_Occurred()) {
                Py_DECREF(fast);
                return NULL;
            }
            if (k < -1 || k > L_HARD) {
                Py_DECREF(fast);
                PyErr_SetString(PyExc_ValueError,
                                "VecTables: an opponent is -1 (random) or a heuristic level 0, 1 or 2");
                return NULL;
            }
            opp[x] = (int8_t)k;
        }
        Py_DECREF(fast);
    }
    VecObject *self = (VecObject *)tp->tp_alloc(tp, 0);
    if (self == NULL)
        return NULL;
    Py_INCREF(enc);
    self->enc = enc;
    self->n = n;
    self->seat = seat;
    self->win = win;
    self->scale = scale;
    self->illegal = illegal;
    memcpy(self->opp, opp, sizeof(opp));
    const NRules *R = &enc->rules->r;
    self->stride = (state_size_for(R, R->mcap) + 7) & ~(size_t)7;
    self->S = (uint8_t *)calloc((size_t)n, self->stride);
    self->t = (VecSlot *)calloc((size_t)n, sizeof(VecSlot));
    if (self->S == NULL || self->t == NULL) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    for (int i = 0; i < n; i++)
        VSTATE(self, i)->mcap = (uint8_t)R->mcap;
    return (PyObject *)self;
}

/* _core.hand_rewards for seat (scaled, or its sign for the win reward) */
static double vec_reward(const VecObject *V, const NState *S) {
    const EncObject *E = V->enc;
    const NRules *R = &E->rules->r;
    int P = R->players, tot[MAXSIDES], v[6], k;
    double pts[MAXP] = {0}, own, total = 0;
    for (int side = 0; side < S->nsides; side++) {
        side_score(R, S, side, v);
        tot[side] = v[5];
    }
    if (E->scorers_are_seats) {
        for (int s = 0; s < P; s++) {
            int members = 0, t = tot[S->side[s]];
            for (int x = 0; x < P; x++)
                members += S->side[x] == S->side[s];
            int q;
            if (members == 1)
                q = t;
            else if (E->round_up)
                q = -(int)floor((double)-t / members);
            else
                q = (int)floor((double)t / members);
            pts[s] = q;
        }
        k = P;
        own = pts[V->seat];
    } else {
        k = S->nsides;
        for (int side = 0; side < k; side++)
            pts[side] = tot[side];
        own = pts[S->side[V->seat]];
    }
    for (int i = 0; i < k; i++)
        total += pts[i];
    double w = k - 1 > 1 ? own - (total - own) / (k - 1) : own - (total - own);
    if (V->win)
        return w > 0 ? 1.0 : w < 0 ? -1.0 : 0.0;
    return w * V->scale;
}

/* the opponents act until the learner is to act or the hand is over; the rewards due to the learner */
static int vec_others(VecObject *V, int i, double *reward) {
    NState *S = VSTATE(V, i);
    const NRules *R = &V->enc->rules->r;
    while (S->end == E_NONE && S->turn != V->seat) {
        legal(R, S, &V->legal, &V->scratch);
        if (V->legal.oom || V->scratch.oom || V->legal.n == 0)
            return -1;
        MT *m = &V->t[i].mt[S->turn];
        int level = V->opp[S->turn], k = 0;
        if (level < 0)
            k = (int)mt_below(m, V->legal.n); /* RandomPlayer: rng.randrange(len(legal)) */
        else if (V->legal.n > 1) {            /* HeuristicPlayer.choose, from the seat's view */
            if (V->sc.cap < V->legal.n) {
                double *nv = (double *)realloc(V->sc.v, sizeof(double) * (size_t)V->legal.n);
                if (nv == NULL)
                    return -1;
                V->sc.v = nv;
                V->sc.cap = V->legal.n;
            }
            k = h_choose(R, S, level, &V->legal, m, V->sc.v);
        }
        NAct a = V->legal.a[k];
        apply_act(R, S, &a);
        if (S->end != E_NONE)
            *reward += vec_reward(V, S);
    }
    return 0;
}

/* mt_seed(m, n) for n < 2**32 (the opponents' seeds), with init_genrand(19650218), the same for every seed, done
 * once */
static uint32_t VEC_MT0[624];
static int vec_mt0_ready = 0;

static void vec_mt_seed(MT *m, uint64_t n) {
    if (n >> 32) {
        mt_seed(m, n);
        return;
    }
    if (!vec_mt0_ready) {
        VEC_MT0[0] = 19650218U;
        for (int i = 1; i < 624; i++)
            VEC_MT0[i] = (1812433253U * (VEC_MT0[i - 1] ^ (VEC_MT0[i - 1] >> 30)) + (uint32_t)i);
        vec_mt0_ready = 1;
    }
    uint32_t *mt = m->mt, key = (uint32_t)n;
    memcpy(mt, VEC_MT0, sizeof(VEC_MT0));
    int i = 1;
    for (int k = 624; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key;
        i++;
        if (i >= 624) {
            mt[0] = mt[623];
            i = 1;
        }
    }
    for (int k = 623; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= 624) {
            mt[0] = mt[623];
            i = 1;
        }
    }
    mt[0] = 0x80000000U;
    m->index = 624;
}

/* deal table i from seed (Match(rules, seed).start_hand(), the opponents' generators as BurracoGymEnv.reset seeds
 * them) and let the opponents act */
static int vec_deal(VecObject *V, int i, uint64_t seed) {
    const NRules *R = &V->enc->rules->r;
    if (deal_state(R, VSTATE(V, i), seed, (R->players - 1 + R->direction + R->players) % R->players) < 0)
        return -1;
    for (int x = 0; x < R->players; x++)
        if (x != V->seat)
            vec_mt_seed(&V->t[i].mt[x], seed % 1000003ULL * 8ULL + (uint64_t)x);
    double ignored = 0;
    return vec_others(V, i, &ignored);
}

/* table i's observation into obs and its mask row (the entries set before cleared, the learner's legal set) */
static int vec_write(VecObject *V, int i, float *obs, uint8_t *mask) {
    EncObject *E = V->enc;
    NState *S = VSTATE(V, i);
    VecSlot *t = &V->t[i];
    enc_write(E, S, V->seat, NULL, obs + (size_t)i * (size_t)E->o[EL_OBS], &t->cache);
    uint8_t *row = mask + (size_t)i * (size_t)E->num_actions;
    for (int k = 0; k < t->ncodes; k++)
        row[t->codes[k]] = 0;
    t->ncodes = 0;
    t->acts.n = 0;
    if (S->end != E_NONE || S->turn != V->seat)
        return 0;
    legal(&E->rules->r, S, &t->acts, &V->scratch);
    if (t->acts.oom || V->scratch.oom)
        return -1;
    if (t->acts.n > t->capcodes) {
        int32_t *nc = (int32_t *)realloc(t->codes, sizeof(int32_t) * (size_t)t->acts.n);
        if (nc == NULL)
            return -1;
        t->codes = nc;
        t->capcodes = t->acts.n;
    }
    if (enc_indices(E, S, &t->acts, t->codes) < 0)
        return -2;
    t->ncodes = t->acts.n;
    for (int k = 0; k < t->ncodes; k++)
        row[t->codes[k]] = 1;
    return 0;
}

static int vec_fail(int rc) {
    if (rc == -1)
        PyErr_SetString(PyExc_RuntimeError, "VecTables: out of memory, or a hand the core cannot deal");
    return -1;
}

/* reset(seeds, obs, masks): table i dealt from seeds[i] (int64), its observation and mask written (the buffers
 * written whole; step() then rewrites only what changes in them: pass step() the same buffers) */
static PyObject *Vec_reset(VecObject *self, PyObject *args) {
    PyObject *so, *oo, *mo;
    if (!PyArg_ParseTuple(args, "OOO", &so, &oo, &mo))
        return NULL;
    Py_buffer sv, ov, mv;
    int n = self->n;
    if (get_buffer(so, &sv, 8, n, "VecTables.reset seeds") < 0)
        return NULL;
    if (get_buffer(oo, &ov, 4, (Py_ssize_t)n * self->enc->o[EL_OBS], "VecTables.reset obs") < 0) {
        PyBuffer_Release(&sv);
        return NULL;
    }
    if (get_buffer(mo, &mv, 1, (Py_ssize_t)n * self->enc->num_actions, "VecTables.reset masks") < 0) {
        PyBuffer_Release(&sv);
        PyBuffer_Release(&ov);
        return NULL;
    }
    int rc = 0;
    memset(mv.buf, 0, (size_t)mv.len);
    for (int i = 0; i < n; i++)
        self->t[i].ncodes = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        self->t[i].cache.rows[0] = 0xFF; /* the buffers may be new: written whole */
        rc = vec_deal(self, i, (uint64_t)((int64_t *)sv.buf)[i]);
        if (rc == 0)
            rc = vec_write(self, i, (float *)ov.buf, (uint8_t *)mv.buf);
    }
    PyBuffer_Release(&sv);
    PyBuffer_Release(&ov);
    PyBuffer_Release(&mv);
    if (rc < 0)
        return vec_fail(rc), NULL;
    Py_RETURN_NONE;
}

/* step(actions, next_seeds, obs, masks, rewards, terminated, final_obs): one action index per table (int64); a
 * table whose hand ended writes its last observation into final_obs and is dealt again from next_seeds[i] (int64)
 * in the same call; returns the number of tables reset */
static PyObject *Vec_step(VecObject *self, PyObject *args) {
    PyObject *o[7];
    if (!PyArg_ParseTuple(args, "OOOOOOO", &o[0], &o[1], &o[2], &o[3], &o[4], &o[5], &o[6]))
        return NULL;
    int n = self->n;
    Py_ssize_t ob = (Py_ssize_t)n * self->enc->o[EL_OBS];
    const Py_ssize_t isz[7] = {8, 8, 4, 1, 4, 1, 4};
    const Py_ssize_t cnt[7] = {n, n, ob, (Py_ssize_t)n * self->enc->num_actions, n, n, ob};
    const char *what[7] = {"actions", "next_seeds", "obs", "masks", "rewards", "terminated", "final_obs"};
    Py_buffer v[7];
    int got = 0;
    for (; got < 7; got++)
        if (get_buffer(o[got], &v[got], isz[got], cnt[got], what[got]) < 0)
            break;
    int rc = 0, resets = 0;
    if (got == 7) {
        const int64_t *acts = (const int64_t *)v[0].buf, *seeds = (const int64_t *)v[1].buf;
        float *obs = (float *)v[2].buf, *rewards = (float *)v[4].buf, *fin = (float *)v[6].buf;
        uint8_t *masks = (uint8_t *)v[3].buf, *term = (uint8_t *)v[5].buf;
        const NRules *R = &self->enc->rules->r;
        for (int i = 0; i < n && rc == 0; i++) {
            NState *S = VSTATE(self, i);
            VecSlot *t = &self->t[i];
            double reward = 0;
            int j = -1, over;
            if (S->end == E_NONE && S->turn == self->seat)
                for (int k = 0; k < t->ncodes; k++)
                    if (t->codes[k] == acts[i]) {
                        j = k;
                        break;
                    }
            if (j < 0) { /* Table.penalize: the episode ends with the illegal reward */
                reward = self->illegal;
                over = 1;
            } else {
                NAct a = t->acts.a[j];
                apply_act(R, S, &a);
                if (S->end != E_NONE)
                    reward += vec_reward(self, S);
                rc = vec_others(self, i, &reward);
                over = S->end != E_NONE;
            }
            rewards[i] = (float)reward;
            term[i] = (uint8_t)over;
            if (rc == 0 && over) {
                /* the finished episode's last observation (its mask is all zeros: nobody is to act) */
                enc_write(self->enc, S, self->seat, NULL, fin + (size_t)i * (size_t)self->enc->o[EL_OBS], NULL);
                rc = vec_deal(self, i, (uint64_t)seeds[i]);
                resets++;
            }
            if (rc == 0)
                rc = vec_write(self, i, obs, masks);
        }
    }
    for (int k = 0; k < got; k++)
        PyBuffer_Release(&v[k]);
    if (got < 7)
        return NULL;
    if (rc < 0)
        return vec_fail(rc), NULL;
    return PyLong_FromLong(resets);
}

/* legal_indices(i): table i's learner's legal indices (empty when it is not to act) */
static PyObject *Vec_legal_indices(VecObject *self, PyObject *arg) {
    long i = PyLong_AsLong(arg);
    if (i == -1 && PyErr_Occurred())
        return NULL;
    if (i < 0 || i >= self->n) {
        PyErr_SetString(PyExc_IndexError, "VecTables: no such table");
        return NULL;
    }
    VecSlot *t = &self->t[i];
    PyObject *out = PyList_New(t->ncodes);
    if (out != NULL)
        for (int k = 0; k < t->ncodes; k++)
            PyList_SET_ITEM(out, k, PyLong_FromLong(t->codes[k]));
    return out;
}

/* hand(i): a copy of table i's hand (a Hand) */
static PyObject *Vec_hand(VecObject *self, PyObject *arg) {
    long i = PyLong_AsLong(arg);
    if (i == -1 && PyErr_Occurred())
        return NULL;
    if (i < 0 || i >= self->n) {
        PyErr_SetString(PyExc_IndexError, "VecTables: no such table");
        return NULL;
    }
    return (PyObject *)hand_of(self->enc->rules, VSTATE(self, i));
}

static PyMethodDef Vec_methods[] = {
    {"reset", (PyCFunction)Vec_reset, METH_VARARGS, "Deal every table from its seed; write observations and masks."},
    {"step", (PyCFunction)Vec_step, METH_VARARGS, "One action index per table, with the same-step auto-reset."},
    {"legal_indices", (PyCFunction)Vec_legal_indices, METH_O, "Table i's learner's legal indices."},
    {"hand", (PyCFunction)Vec_hand, METH_O, "A copy of table i's hand."},
    {NULL}};

static PyTypeObject VecType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "burraco._native.VecTables",
    .tp_basicsize = sizeof(VecObject),
    .tp_dealloc = (destructor)Vec_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "N native hands, one learner seat each, random or heuristic opponents, stepped in one call.",
    .tp_methods = Vec_methods,
    .tp_new = Vec_new,
};

static PyMethodDef module_methods[] = {
    {"configure", configure, METH_VARARGS, "Set the Action type, the verbs and the seat letters."},
    {"state_size", state_size, METH_VARARGS,
     "state_size(rules=None, melds=0): the bytes of a state of these native Rules holding that many melds, what a "
     "clone copies (None: the largest rules the core takes; melds=-1: as many as the rules allow)."},
    {"new_hand", new_hand, METH_VARARGS, "The hand Game.new(rules, seed) deals, in native form."},
    {"random_deals", random_deals, METH_VARARGS, "Deal and play one random hand per seed; the decisions played."},
    {"random_hands", random_hands, METH_VARARGS, "Random playouts from copies of a hand; the decisions played."},
    {NULL}};

static struct PyModuleDef native_module = {
    PyModuleDef_HEAD_INIT, "burraco._native", "One hand of Burraco in native form (see burraco.native).", -1,
    module_methods};

PyMODINIT_FUNC PyInit__native(void) {
    if (PyType_Ready(&RulesType) < 0 || PyType_Ready(&HandType) < 0 || PyType_Ready(&DetType) < 0 ||
        PyType_Ready(&TwisterType) < 0 || PyType_Ready(&EncType) < 0 || PyType_Ready(&VecType) < 0)
        return NULL;
    near_tables();
    PyObject *m = PyModule_Create(&native_module);
    if (m == NULL)
        return NULL;
    G_EMPTY = PyTuple_New(0);
    Py_INCREF(&RulesType);
    PyModule_AddObject(m, "Rules", (PyObject *)&RulesType);
    Py_INCREF(&HandType);
    PyModule_AddObject(m, "Hand", (PyObject *)&HandType);
    Py_INCREF(&DetType);
    PyModule_AddObject(m, "Determinizer", (PyObject *)&DetType);
    Py_INCREF(&TwisterType);
    PyModule_AddObject(m, "Twister", (PyObject *)&TwisterType);
    Py_INCREF(&EncType);
    PyModule_AddObject(m, "Encoding", (PyObject *)&EncType);
    Py_INCREF(&VecType);
    PyModule_AddObject(m, "VecTables", (PyObject *)&VecType);
    return m;
}

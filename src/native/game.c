/* burraco._native: the hand and its actions (burraco/game.py and the parts of a Game: state.py, pozzetto.py,
 * turns.py, legality.py, scoring.py; burraco/deal.py): the state's layout, the deal, apply, the legal actions with
 * the dead-end search of Game._completable, the scores and the playouts. Each function names the method it mirrors,
 * and the module that holds it. */
#include "native.h"

/* the layout of a state's variable part under R (NRules.o_*) */
void state_layout(NRules *R) {
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

/* a new state of R with room for k melds (zeroed), or NULL */
NState *state_new(const NRules *R, int k) {
    NState *S = (NState *)calloc(1, state_size_for(R, k));
    if (S != NULL)
        S->mcap = (uint8_t)k;
    return S;
}

/* dst (room for dst->mcap melds, at least those src uses) = src */
void state_copy(const NRules *R, NState *dst, const NState *src) {
    uint8_t cap = dst->mcap;
    memcpy(dst, src, state_used(R, src));
    dst->mcap = cap;
}

/* a copy of S with room for every meld the rules allow, or NULL */
NState *state_dup(const NRules *R, const NState *S) {
    NState *g = (NState *)malloc(state_size_for(R, R->mcap));
    if (g != NULL) {
        g->mcap = (uint8_t)R->mcap;
        state_copy(R, g, S);
    }
    return g;
}

/* S zeroed, keeping its room */
void state_clear(const NRules *R, NState *S) {
    uint8_t cap = S->mcap;
    memset(S, 0, state_size_for(R, cap));
    S->mcap = cap;
}

/* a new last meld of side (room for it is there: S->mcap > melds_used(S)) */
NMeld *meld_append(const NRules *R, NState *S, int side) {
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

/* the sides at the start of a hand (burraco/seats.py initial_sides) into S */
void init_sides(const NRules *R, NState *S) {
    memset(S->ssz, 0, sizeof(S->ssz));
    for (int s = 0; s < R->players; s++) {
        S->side[s] = (int8_t)R->side[s];
        S->ssz[R->side[s]]++;
    }
    S->nsides = (int8_t)R->nsides;
    S->solo = -1;
}

/* ----- the hand (burraco/state.py, pozzetto.py, turns.py, legality.py) ------------------------------------- */

/* one of these n melds is a burraco (a clean one with need_clean) */
int has_burraco_melds(const NMeld *ms, int n, int need_clean) {
    for (int i = 0; i < n; i++)
        if (ms[i].burraco != B_NONE && (!need_clean || ms[i].burraco == B_CLEAN))
            return 1;
    return 0;
}

/* Game._has_burraco (state.py) */
static int has_burraco(const NRules *R, const NState *S, int side, int clean_only) {
    return has_burraco_melds(side_melds(R, S, side), S->nmelds[side], clean_only);
}

/* Game._pozzetto_for (pozzetto.py): the pozzetto the side would take on emptying its hand now, or -1; made: the
   meld that empties the hand (NULL: none), counted as on the table (6 players: its burraco lets the pair take it,
   §14.4, §7.2) */
static int pozzetto_after(const NRules *R, const NState *S, int side, const NMeld *made) {
    if (R->poz_requires_burraco && !has_burraco(R, S, side, 0) && (made == NULL || made->burraco == B_NONE))
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

static int pozzetto_for(const NRules *R, const NState *S, int side) { return pozzetto_after(R, S, side, NULL); }

int pozzetti_left(const NState *S) {
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

/* Game._closing_error (legality.py): 1 when the side may not close with card c (c<0: without a discard) */
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

/* Game._pending (legality.py): a condition that must be met before the turn may end */
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

/* Game._form_pairs (pozzetto.py): 3 and 5 players, `solo` went out first: he plays alone, the others in pairs of
 * alternating seats (seats.py pairs_after); a pair's melds are its first seat's then its partner's, its pozzetti
 * taken summed */
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

/* ----- the house rules redraw and swap (turns.py: Game._redraw, Game._swap) ----- */

static void do_redraw(const NRules *R, NState *S, int seat) {
    int c = S->drawn;
    HAND(S, seat)[c]--;
    S->hand_n[seat]--;
    PILE(R, S)[S->pile_n++] = (uint8_t)c;
    S->redrawn = 1;
    do_draw(R, S, seat);
}

/* Game._swap_target (turns.py): where natural c would replace m's wild, or 0 */
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

/* apply a legal action (no checks): Game._apply (turns.py) */
void apply_act(const NRules *R, NState *S, const NAct *a) {
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

/* Game._completable (legality.py): can the player in turn still end his turn legally, with his hand and the table? */
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
        if (left == 0 && pozzetto_after(R, S, side, &m) < 0) {
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

/* Game._after_meld_error (legality.py): 1 when the meld or attachment is not legal (a dead end, §0.1) */
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
    if (left == 0 && pozzetto_after(R, g, side, &m) < 0) {
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

/* Game._house_actions (legality.py): the legal redraw and swaps */
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

/* Game.legal_actions (legality.py: Game._py_legal_actions) into b (b->n = 0 first); scratch for the dead-end checks */
void legal(const NRules *R, const NState *S, ABuf *b, ABuf *scratch) {
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

/* Game.side_score (scoring.py): the score breakdown of one side: melds, bonuses, closing, hand, pozzetto, total */
void side_score(const NRules *R, const NState *S, int side, int out[6]) {
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

/* the cards on the table (Game.table): the melds' cards, counted */
void table_counts(const NRules *R, const NState *S, uint8_t *out) {
    memset(out, 0, NT);
    const NMeld *pool = MELD_POOL(R, S);
    for (int i = melds_used(S) - 1; i >= 0; i--)
        meld_count(&pool[i], out);
}

/* Game.new(rules, seed) with deal_from_seed: the shuffle of the deck drawn from m (random.Random(seed)'s generator,
 * advanced), cut into the pozzetti, the hands, the up-card and the stock (burraco/deal.py), then the state
 * Game.__init__ makes of it; -1 where the rules leave fewer than three cards to the stock */
int deal_state(const NRules *R, NState *S, MT *m, int first) {
    uint8_t deck[MAXCARDS];
    int n = 0;
    for (int c = 0; c < 52; c++)
        for (int k = 0; k < R->decks; k++)
            deck[n++] = (uint8_t)c;
    for (int k = 0; k < R->jokers; k++)
        deck[n++] = JOKER;
    for (int i = n - 1; i > 0; i--) {
        int j = mt_below(m, i + 1);
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

/* ----- playouts ------------------------------------------------------------------------------------------------ */

/* action a, played by seat, to the record of a playout; -1 out of memory */
int rec_push(RecBuf *rec, const NAct *a, int seat) {
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

/* play on for depth decisions or to the end of the hand (depth < 0), `choose` picking the action to play among
 * b's at every decision (its index, or -1 out of memory); the actions go to rec when it is not NULL. The number of
 * decisions, or -1 out of memory */
long play(const NRules *R, NState *S, long depth, Chooser choose, void *ctx, ABuf *b, ABuf *scratch, RecBuf *rec) {
    long k = 0;
    while (S->end == E_NONE && (depth < 0 || k < depth)) {
        legal(R, S, b, scratch);
        if (b->oom || scratch->oom || b->n == 0)
            return -1;
        int i = choose(ctx, R, S, b);
        if (i < 0)
            return -1;
        NAct a = b->a[i];
        if (rec != NULL && rec_push(rec, &a, S->turn) < 0)
            return -1;
        apply_act(R, S, &a);
        k++;
    }
    return k;
}

static int choose_mt(void *m, const NRules *R, const NState *S, const ABuf *b) { return mt_below((MT *)m, b->n); }

static int choose_splitmix(void *seed, const NRules *R, const NState *S, const ABuf *b) {
    return rng_below((uint64_t *)seed, b->n);
}

/* a playout drawing ``legal[rng.randrange(len(legal))]`` from Python's generator; the actions go to rec when it is
 * not NULL */
long mt_playout(const NRules *R, NState *S, MT *m, ABuf *b, ABuf *scratch, RecBuf *rec) {
    return play(R, S, -1, choose_mt, m, b, scratch, rec);
}

/* a random playout to the end of the hand on the core's own stream: the number of decisions */
long playout(const NRules *R, NState *S, uint64_t *seed, ABuf *b, ABuf *scratch) {
    return play(R, S, -1, choose_splitmix, seed, b, scratch, NULL);
}

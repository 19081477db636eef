/* burraco._native: the heuristic player (burraco/bots/heuristic.py, every level), on the seat's view: its choice, its
 * playouts (the search player's rollouts) and the likelihood of the discards the pile shows. */
#include "native.h"

/* the cards of a natural's suit one rank away (no 2), two ranks away (no 2), and up to two away (any) */
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

/* NEAR1, NEAR2, NEARANY (once, at the module's start) */
void near_tables(void) {
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

typedef struct {
    const NRules *R;
    const NState *S;
    int level, seat, side, their_side, next_seat;
    int counts[NT];     /* the seat's hand it may look at (an unseen pozzetto aside), per card */
    int nhand, hidden_poz, n_hand;
    long hand_value;    /* the points of those cards */
    int two[2];         /* with two of them: the two, in order */
    const uint8_t *pile; /* the pile the seat sees (the top card only where it is closed), npile cards */
    int npile;
    int need_clean, own_poz, poz_left, own_can_close, opp_threat, opp_short, late;
    int safety;         /* the partner's safety (issue 22): feeds and dirty_cost from medium up */
    int next_discards;  /* bit r: the next opponent was seen to discard rank r + 1 */
    uint64_t own_singles[MAXMELDS], their_singles[MAXMELDS];
    uint8_t next_known[NT]; /* the cards the next opponent was seen to pick up (once known_done) */
    int next_any;           /* ... whether there is any */
    int their_done, known_done;
} HCtx;

/* _Ctx: what the heuristic knows of the seat in turn's position, from its view */
static void hctx_init(HCtx *x, const NRules *R, const NState *S, int level) {
    x->R = R;
    x->S = S;
    x->level = level;
    int seat = S->turn, P = R->players;
    x->seat = seat;
    x->side = SIDE_OF(S, seat);
    x->hidden_poz = 0;
    x->nhand = 0;
    x->hand_value = 0;
    const uint8_t *h = HAND(S, seat);
    uint8_t hidden[NT];
    if (S->has_hidden[seat])
        pk_counts(HIDDEN(R, S, seat), hidden);
    else
        memset(hidden, 0, NT);
    for (int c = 0; c < NT; c++) {
        int k = h[c] - hidden[c];
        x->counts[c] = k;
        x->hidden_poz += hidden[c];
        if (k <= 0)
            continue;
        if (x->nhand == 0)
            x->two[0] = x->two[1] = c;
        else if (x->nhand == 1)
            x->two[1] = c;
        x->nhand += k;
        x->hand_value += (long)k * R->values[c];
    }
    x->n_hand = x->nhand + x->hidden_poz;
    x->pile = R->discard_open ? PILE(R, S) : PILE(R, S) + (S->pile_n ? S->pile_n - 1 : 0);
    x->npile = R->discard_open ? S->pile_n : S->pile_n > 0;
    int nxt = ((seat + R->direction) % P + P) % P;
    while (SIDE_OF(S, nxt) == x->side && nxt != seat)
        nxt = ((nxt + R->direction) % P + P) % P;
    x->next_seat = nxt;
    x->known_done = 0;
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
    if (!x->known_done) { /* what the next opponent was seen to pick up: once per decision */
        pk_counts(KNOWN(R, x->S, x->next_seat), x->next_known);
        x->next_any = 0;
        for (int i = 0; i < NT; i++)
            x->next_any |= x->next_known[i];
        x->known_done = 1;
    }
    const uint8_t *kn = x->next_known;
    if (x->next_any) {
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
            if (s == x->seat)
                pts -= x->hand_value;
            else
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
        int other = x->two[1] == c ? x->two[0] : x->two[1];
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

/* HeuristicPlayer.near_best: the indices of b's actions the player may play, those scored within the level's margin
 * of the best, in the canonical order of actions (the draw picks an index into this list), into sc->near: their
 * number, or -1 out of memory; sc->v holds the scores */
static int h_near(const NRules *R, const NState *S, int level, const ABuf *b, DBuf *sc) {
    if (sc->cap < b->n) {
        double *nv = (double *)realloc(sc->v, sizeof(double) * (size_t)b->n);
        if (nv != NULL)
            sc->v = nv;
        int *nn = (int *)realloc(sc->near, sizeof(int) * (size_t)b->n);
        if (nn != NULL)
            sc->near = nn;
        if (nv == NULL || nn == NULL)
            return -1;
        sc->cap = b->n;
    }
    double *scores = sc->v;
    int *near = sc->near, nt = 0;
    HCtx x;
    hctx_init(&x, R, S, level);
    const double margin = level == L_MEDIUM ? H_CLUB_MARGIN : H_TIE;
    double best = -1e300;
    for (int i = 0; i < b->n; i++) {
        scores[i] = h_evaluate(&x, &b->a[i]);
        if (scores[i] > best)
            best = scores[i];
    }
    for (int i = 0; i < b->n; i++)
        if (scores[i] >= best - margin) {
            int j = nt++; /* in order (insertion sort on indices) */
            while (j > 0 && act_cmp(&b->a[near[j - 1]], &b->a[i]) > 0) {
                near[j] = near[j - 1];
                j--;
            }
            near[j] = i;
        }
    return nt;
}

/* HeuristicPlayer.choose: the index of the chosen action among b's, with the player's generator m (drawn from only
 * where several actions are near the best), sc its work space; -1 out of memory */
int h_choose(const NRules *R, const NState *S, int level, const ABuf *b, MT *m, DBuf *sc) {
    if (b->n < 2)
        return 0;
    int nt = h_near(R, S, level, b, sc);
    if (nt < 2)
        return nt < 1 ? -1 : sc->near[0];
    return sc->near[mt_below(m, nt)];
}

/* The log-likelihood of the discards the pile shows, with the heuristic of `level` as the model of a player: every
 * turn ends with a discard and a pick-up takes the whole pile (RULES.md §3.2, §6.2), so the card k from the top of
 * the pile (k < the players - 1, the pile not taken up since; only the top card where the pile is closed, §14.1)
 * was discarded by the seat k + 1 turns before `seat`'s; with that seat's hand as S holds it (a determinization)
 * plus that card, and the pile as it was then, the heuristic would have discarded each card type c in proportion to
 * exp(discard_value(c) / tau). The sum over those seats of log P(the card discarded), for weighting determinizations
 * (ISMCTSPlayer, Inference.discards). T: room for a copy of S (state_dup). Seats holding a pozzetto unseen or no
 * card are left out. */
double discard_loglik(const NRules *R, const NState *S, int seat, int level, double tau, NState *T) {
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
        for (int d = 0; d < NT; d++) { /* the hand's cards, once each */
            if (!x.counts[d])
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
    int level;
    MT *ms;
    DBuf *sc;
} HPlayers;

static int choose_heuristic(void *ctx, const NRules *R, const NState *S, const ABuf *b) {
    HPlayers *p = (HPlayers *)ctx;
    return h_choose(R, S, p->level, b, &p->ms[S->turn], p->sc);
}

/* ISMCTSPlayer._rollout with HeuristicPlayer(level) at every seat (their generators in ms): to the end of the hand
 * or for depth decisions (depth < 0: no limit); the number of decisions, or -1 out of memory */
long heuristic_playout(const NRules *R, NState *S, int level, MT *ms, long depth, ABuf *b, ABuf *scratch, DBuf *sc,
                       RecBuf *rec) {
    HPlayers p = {level, ms, sc};
    return play(R, S, depth, choose_heuristic, &p, b, scratch, rec);
}

/* the players of a seeded playout: seat k's generator is random.Random(seed + k), copied from the thread's seeded
 * generators (mt_seeded) when the seat first draws (a seat that never draws costs nothing) */
typedef struct {
    int level;
    uint64_t seed;
    unsigned ready; /* bit k: ms[k] is seat k's generator */
    MT ms[MAXP];
    DBuf *sc;
} Seeded;

static int choose_seeded(void *ctx, const NRules *R, const NState *S, const ABuf *b) {
    Seeded *p = (Seeded *)ctx;
    if (b->n < 2)
        return 0;
    int nt = h_near(R, S, p->level, b, p->sc), k = S->turn;
    if (nt < 2)
        return nt < 1 ? -1 : p->sc->near[0];
    if (!(p->ready >> k & 1)) {
        p->ms[k] = *mt_seeded(p->seed + (uint64_t)k);
        p->ready |= 1u << k;
    }
    return p->sc->near[mt_below(&p->ms[k], nt)];
}

/* heuristic_playout with seat k drawing from random.Random(seed + k) (the search player's rollouts, which seed their
 * players so and never use them afterwards), 0 <= seed + k < 2**64: the same decisions, at a fraction of the cost
 * of seeding every seat's generator for every rollout */
long seeded_playout(const NRules *R, NState *S, int level, uint64_t seed, long depth, ABuf *b, ABuf *scratch,
                    DBuf *sc) {
    Seeded p;
    p.level = level;
    p.seed = seed;
    p.ready = 0;
    p.sc = sc;
    return play(R, S, depth, choose_seeded, &p, b, scratch, NULL);
}

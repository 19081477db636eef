/* burraco._native: one hand of Burraco in compact native form (the engine's inner loop in C): the types every
 * translation unit of the core shares, and what each unit offers the others.
 *
 * The pure-Python engine (burraco/game.py and its parts, melds.py, gen.py) is the reference: the core holds the
 * same state in a compact C form laid out per rule set (NState, state_layout: a 4-player state is about 700 bytes)
 * and implements the same legal actions (the same list, in the same order), the same apply, clone and scoring, and
 * playouts to the end of the hand that release the GIL. burraco/native.py wraps it (conversion from and to a Game,
 * the rule sets it supports); tests/test_native.py compares both engines on every state of random hands.
 *
 * Supported: 2 to 6 players (the solo and the pairs of 3 and 5 players included), every rule parameter but those
 * burraco/_accel.py: supported() refuses; those rule sets run on the Python engine.
 *
 * The units, each named for the Python module it mirrors (setup.py compiles every .c file of src/native into the
 * one module burraco._native):
 *
 *   melds.c      cards and melds (burraco/melds.py): a meld from cards, attachments, points, burraco classes
 *   gen.c        generation (burraco/gen.py, legality.py Game._raw_meld_actions): the candidate melds and attachments
 *   game.c       the hand and its actions (burraco/game.py and its parts: state.py, pozzetto.py, turns.py,
 *                legality.py, scoring.py; deal.py): the state's layout, apply, the legal actions with their
 *                dead-end search, the scores, the deal, the random playouts
 *   random.c     the random generators: splitmix64 (the core's own stream) and Python's Mersenne Twister
 *                (random.Random: seeding, draws, its state to and from Python, the Twister type); numpy's bounded
 *                draw (Generator.integers(0, n), for the environments' action spaces)
 *   heuristic.c  the heuristic player (burraco/bots/heuristic.py, every level), its playouts, the discards' likelihood
 *   view.c       views and determinization (burraco/view.py: determinize): the Determinizer type
 *   envs.c       the research environments (burraco/envs): observations, action indices, N tables in one call
 *   module.c     the module glue: the Rules and Hand types, the fields tuple, the module's functions
 */
#ifndef BURRACO_NATIVE_H
#define BURRACO_NATIVE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

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
enum { L_EASY, L_MEDIUM, L_HARD }; /* the heuristic's levels */

/* ----- the rules, a meld, an action, a state ------------------------------------------------------------------ */

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
#define SIDE_OF(S, seat) ((S)->side[seat])

static inline int melds_used(const NState *S) {
    int k = 0;
    for (int i = 0; i < S->nsides; i++)
        k += S->nmelds[i];
    return k;
}

/* the bytes of a state holding k melds */
static inline size_t state_size_for(const NRules *R, int k) {
    return offsetof(NState, d) + (size_t)R->o_melds + (size_t)k * sizeof(NMeld);
}

/* the bytes of S in use (what a copy takes) */
static inline size_t state_used(const NRules *R, const NState *S) { return state_size_for(R, melds_used(S)); }

/* the first meld of side in the pool */
static inline NMeld *side_melds(const NRules *R, const NState *S, int side) {
    int k = 0;
    for (int i = 0; i < side; i++)
        k += S->nmelds[i];
    return MELD_POOL(R, S) + k;
}

/* packed counts (KNOWN, HIDDEN): 2 bits a card for the 52 (two or three packs: at most 3 of a card), a byte for the
 * jokers */
static inline int pk_get(const uint8_t *p, int c) { return c == JOKER ? p[13] : (p[c >> 2] >> ((c & 3) * 2)) & 3; }
static inline void pk_inc(uint8_t *p, int c) {
    if (c == JOKER)
        p[13]++;
    else
        p[c >> 2] = (uint8_t)(p[c >> 2] + (1 << ((c & 3) * 2)));
}
static inline void pk_dec(uint8_t *p, int c) {
    if (c == JOKER)
        p[13]--;
    else
        p[c >> 2] = (uint8_t)(p[c >> 2] - (1 << ((c & 3) * 2)));
}
/* unpack into 53 counts */
static inline void pk_counts(const uint8_t *p, uint8_t *out) {
    for (int i = 0; i < 13; i++) { /* a byte holds four cards */
        unsigned v = p[i];
        out[4 * i] = (uint8_t)(v & 3);
        out[4 * i + 1] = (uint8_t)(v >> 2 & 3);
        out[4 * i + 2] = (uint8_t)(v >> 4 & 3);
        out[4 * i + 3] = (uint8_t)(v >> 6);
    }
    out[JOKER] = p[13];
}

/* the bits set in x (without -mpopcnt, __builtin_popcount calls a library function, ~1.5 % of a heuristic playout) */
static inline int popc(unsigned x) {
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}
static inline int bitlen(unsigned x) { return x ? 32 - __builtin_clz(x) : 0; }
static inline int lowbit(unsigned x) { return x ? __builtin_ctz(x) : -1; }
static inline int is_wild(int c) { return c == JOKER || c % 13 == 1; }

/* ----- buffers ------------------------------------------------------------------------------------------------ */

/* a growing list of actions (oom: a push failed for want of memory) */
typedef struct {
    NAct *a;
    int n, cap, oom;
} ABuf;

/* room for one more action at the end of b, or NULL (b->oom set) */
static inline NAct *abuf_push(ABuf *b) {
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

/* the action verb (cards, meld) at the end of b */
static inline void push_act(ABuf *b, int verb, const uint8_t *cards, int n, int meld) {
    NAct *a = abuf_push(b);
    if (a == NULL)
        return;
    a->verb = (uint8_t)verb;
    a->n = (uint8_t)n;
    a->meld = (uint8_t)meld;
    if (n)
        memcpy(a->cards, cards, (size_t)n);
}

/* the actions of a playout and the seats that played them */
typedef struct {
    NAct a;
    int8_t seat;
} Rec;

typedef struct {
    Rec *r;
    long n, cap;
} RecBuf;

/* the heuristic's work space for a decision: the scores of its actions, the indices of those near the best */
typedef struct {
    double *v;
    int *near;
    int cap;
} DBuf;

static inline void dbuf_free(DBuf *d) {
    free(d->v);
    free(d->near);
}

/* Python's random.Random (MT19937, as Modules/_randommodule.c) */
typedef struct {
    uint32_t mt[624];
    int index;
} MT;

#define BIGW 40 /* 32-bit words of a bignum: 1280 bits, more than 160! needs */

/* a non-negative integer of up to BIGW 32-bit words, the least significant first */
typedef struct {
    uint32_t w[BIGW];
    int n; /* words in use */
} Big;

/* ----- the Python objects ------------------------------------------------------------------------------------- */

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

/* a copy of a random.Random's generator held in the core (Twister(state)) */
typedef struct {
    PyObject_HEAD MT m;
} TwisterObject;

/* the melds of room a hand gets beyond those it holds (a clone's memory: state_used plus this many melds) */
#define MELD_SLACK 1

extern PyTypeObject RulesType, HandType, TwisterType, DetType, EncType, VecType;
/* configure(): the engine's Action type, its verbs, the seats' letters of 2 … 6 players, the empty tuple */
extern PyObject *G_Action, *G_VERBS[NVERBS], *G_SEATS[MAXP + 1][MAXP], *G_EMPTY;

/* ----- melds.c ------------------------------------------------------------------------------------------------ */

uint8_t set_suits(const uint8_t *cards, int n, int w);
void meld_fill(const NRules *R, NMeld *m, int kind, int suits, int n, int suit, int rank, unsigned mask, int wild,
               int wild_pos, int naturals);
int meld_cards(const NMeld *m, uint8_t *out);
void meld_count(const NMeld *m, uint8_t *counts);
int meld_points(const NRules *R, const NMeld *m);
int same_meld(const NMeld *a, const NMeld *b);
int make_meld(const NRules *R, const uint8_t *cards, int n, NMeld *out);
int attach_meld(const NRules *R, const NMeld *m, const uint8_t *added, int na, NMeld *out);
int burraco_bonus(const NRules *R, const NMeld *m);
uint64_t meld_singles(const NRules *R, const NMeld *m);

/* ----- gen.c -------------------------------------------------------------------------------------------------- */

void raw_melds(const NRules *R, const NState *S, int seat, ABuf *b);

/* ----- game.c ------------------------------------------------------------------------------------------------- */

void state_layout(NRules *R);
NState *state_new(const NRules *R, int k);
void state_copy(const NRules *R, NState *dst, const NState *src);
NState *state_dup(const NRules *R, const NState *S);
void state_clear(const NRules *R, NState *S);
NMeld *meld_append(const NRules *R, NState *S, int side);
void init_sides(const NRules *R, NState *S);
int has_burraco_melds(const NMeld *ms, int n, int need_clean);
int pozzetti_left(const NState *S);
void apply_act(const NRules *R, NState *S, const NAct *a);
void legal(const NRules *R, const NState *S, ABuf *b, ABuf *scratch);
void side_score(const NRules *R, const NState *S, int side, int out[6]);
void table_counts(const NRules *R, const NState *S, uint8_t *out);
int deal_state(const NRules *R, NState *S, MT *m, int first);
int rec_push(RecBuf *rec, const NAct *a, int seat);
/* a player of a playout: the index of the action to play among b's, or -1 out of memory */
typedef int (*Chooser)(void *ctx, const NRules *R, const NState *S, const ABuf *b);
long play(const NRules *R, NState *S, long depth, Chooser choose, void *ctx, ABuf *b, ABuf *scratch, RecBuf *rec);
long playout(const NRules *R, NState *S, uint64_t *seed, ABuf *b, ABuf *scratch);
long mt_playout(const NRules *R, NState *S, MT *m, ABuf *b, ABuf *scratch, RecBuf *rec);

/* ----- random.c ----------------------------------------------------------------------------------------------- */

void random_init(void);
int rng_below(uint64_t *s, int n);
uint32_t mt_next(MT *m);
void mt_seed(MT *m, uint64_t n);
void mt_seed_many(MT *const *ms, const uint64_t *seeds, int k);
void mt_seed_words(MT *m, const uint32_t *key, int klen);
int int_words(PyObject *x, int n, uint32_t *out);
int seed_words(PyObject *seed, uint32_t small[2], uint32_t **key);
int mt_seed_int(MT *m, PyObject *seed);
const MT *mt_seeded(uint64_t n);
int mt_below(MT *m, int n);
double mt_random(MT *m);
void mt_getrandbits(MT *m, int k, Big *out);
int mt_from_state(PyObject *state, MT *m);
PyObject *mt_words(const MT *m);
PyObject *mt_to_state(const MT *m);
PyObject *numpy_draw_below(PyObject *module, PyObject *args);

/* ----- heuristic.c -------------------------------------------------------------------------------------------- */

void near_tables(void);
int h_choose(const NRules *R, const NState *S, int level, const ABuf *b, MT *m, DBuf *sc);
double discard_loglik(const NRules *R, const NState *S, int seat, int level, double tau, NState *T);
long heuristic_playout(const NRules *R, NState *S, int level, MT *ms, long depth, ABuf *b, ABuf *scratch, DBuf *sc,
                       RecBuf *rec);
long seeded_playout(const NRules *R, NState *S, int level, uint64_t seed, long depth, ABuf *b, ABuf *scratch,
                    DBuf *sc);

/* ----- module.c ----------------------------------------------------------------------------------------------- */

HandObject *hand_alloc(RulesObject *rules, int k);
HandObject *hand_of(RulesObject *rules, const NState *S);
int ensure_legal(HandObject *self);
int seq_u8(PyObject *o, uint8_t *out, int cap, int *n);
int load_fields(const NRules *R, NState *S, PyObject *t);

#endif

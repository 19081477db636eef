/* burraco._native: the research environments (burraco/envs): observations, action indices, N tables in one call. */
#include "native.h"

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
        uint8_t sc[NT] = {0}; /* the side's cards on the table, counted */
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
            meld_count(m, sc);
            bur |= m->burraco != B_NONE;
            clean |= m->burraco == B_CLEAN;
        }
        for (int c = 0; c < NT; c++)
            tb[c] = (float)sc[c]; /* the sum of sc[c] ones (tb is cleared above: +0.0 where none) */
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

/* mask_of(codes): a new bytes object of one byte per index, 1 at the indices of the list codes, 0 elsewhere (one
 * allocation and one clearing: the environments' read-only masks, without a bytearray and its copy) */
static PyObject *Enc_mask_of(EncObject *self, PyObject *codes) {
    if (!PyList_Check(codes)) {
        PyErr_SetString(PyExc_TypeError, "Encoding.mask_of: a list of indices expected");
        return NULL;
    }
    PyObject *out = PyBytes_FromStringAndSize(NULL, self->num_actions);
    if (out == NULL)
        return NULL;
    char *m = PyBytes_AS_STRING(out);
    memset(m, 0, (size_t)self->num_actions);
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(codes); i++) {
        long x = PyLong_AsLong(PyList_GET_ITEM(codes, i));
        if (x < 0 || x >= self->num_actions) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "Encoding.mask_of: an index outside the action space");
            Py_DECREF(out);
            return NULL;
        }
        m[x] = 1;
    }
    return out;
}

static PyMethodDef Enc_methods[] = {
    {"encode", (PyCFunction)Enc_encode, METH_VARARGS, "The observation of a seat into a float32 buffer."},
    {"legal_indices", (PyCFunction)Enc_legal_indices, METH_O, "The indices of the hand's legal actions."},
    {"mask", (PyCFunction)Enc_mask, METH_VARARGS, "Set the legal indices to 1 in a zeroed one-byte buffer."},
    {"mask_of", (PyCFunction)Enc_mask_of, METH_O, "A new bytes mask: 1 at the listed indices, 0 elsewhere."},
    {NULL}};

PyTypeObject EncType = {
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
    dbuf_free(&self->sc);
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
        else if ((k = h_choose(R, S, level, &V->legal, m, &V->sc)) < 0) /* HeuristicPlayer.choose, its view */
            return -1;
        NAct a = V->legal.a[k];
        apply_act(R, S, &a);
        if (S->end != E_NONE)
            *reward += vec_reward(V, S);
    }
    return 0;
}

/* deal table i from seed (Match(rules, seed).start_hand(), the opponents' generators as BurracoGymEnv.reset seeds
 * them) and let the opponents act */
static int vec_deal(VecObject *V, int i, uint64_t seed) {
    const NRules *R = &V->enc->rules->r;
    MT m, *ms[MAXP + 1] = {&m};
    uint64_t seeds[MAXP + 1] = {seed};
    int k = 1;
    for (int x = 0; x < R->players; x++)
        if (x != V->seat) {
            ms[k] = &V->t[i].mt[x];
            seeds[k++] = seed % 1000003ULL * 8ULL + (uint64_t)x;
        }
    mt_seed_many(ms, seeds, k); /* the deal's generator and the opponents' (mt_seed of each, together) */
#ifdef CHECK_SEED_MANY
    for (int t = 0; t < k; t++) {
        MT ref;
        mt_seed(&ref, seeds[t]);
        if (memcmp(&ref, ms[t], sizeof(MT)) != 0)
            abort();
    }
#endif
    if (deal_state(R, VSTATE(V, i), &m, (R->players - 1 + R->direction + R->players) % R->players) < 0)
        return -1;
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

/* the table numbered arg, or -1 and an IndexError where there is none */
static long vec_table(VecObject *self, PyObject *arg) {
    long i = PyLong_AsLong(arg);
    if (i == -1 && PyErr_Occurred())
        return -1;
    if (i < 0 || i >= self->n) {
        PyErr_SetString(PyExc_IndexError, "VecTables: no such table");
        return -1;
    }
    return i;
}

/* legal_indices(i): table i's learner's legal indices (empty when it is not to act) */
static PyObject *Vec_legal_indices(VecObject *self, PyObject *arg) {
    long i = vec_table(self, arg);
    if (i < 0)
        return NULL;
    VecSlot *t = &self->t[i];
    PyObject *out = PyList_New(t->ncodes);
    if (out != NULL)
        for (int k = 0; k < t->ncodes; k++)
            PyList_SET_ITEM(out, k, PyLong_FromLong(t->codes[k]));
    return out;
}

/* legal_into(out, counts): every table's learner's legal indices into the rows of out (int32, n x k: the indices,
 * then -1 up to what the row held before, counts[i] of them) and counts (int32, n); returns the largest count, and
 * writes nothing where it exceeds k (the caller widens out and calls again) */
static PyObject *Vec_legal_into(VecObject *self, PyObject *args) {
    PyObject *oo, *co;
    if (!PyArg_ParseTuple(args, "OO", &oo, &co))
        return NULL;
    int n = self->n, most = 0;
    for (int i = 0; i < n; i++)
        if (self->t[i].ncodes > most)
            most = self->t[i].ncodes;
    Py_buffer ov, cv;
    if (get_buffer(co, &cv, 4, n, "VecTables.legal_into counts") < 0)
        return NULL;
    if (PyObject_GetBuffer(oo, &ov, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&cv);
        return NULL;
    }
    Py_ssize_t k = ov.len / 4 / n;
    if (ov.len != (Py_ssize_t)4 * n * k || k < 1) {
        PyBuffer_Release(&ov);
        PyBuffer_Release(&cv);
        PyErr_SetString(PyExc_ValueError, "VecTables.legal_into: out is an int32 buffer of n x k items");
        return NULL;
    }
    if (most <= k) {
        int32_t *out = (int32_t *)ov.buf, *cnt = (int32_t *)cv.buf;
        for (int i = 0; i < n; i++) {
            const VecSlot *t = &self->t[i];
            int32_t *row = out + (size_t)i * (size_t)k;
            memcpy(row, t->codes, sizeof(int32_t) * (size_t)t->ncodes);
            for (int j = t->ncodes; j < cnt[i] && j < k; j++)
                row[j] = -1;
            cnt[i] = t->ncodes;
        }
    }
    PyBuffer_Release(&ov);
    PyBuffer_Release(&cv);
    return PyLong_FromLong(most);
}

/* hand(i): a copy of table i's hand (a Hand) */
static PyObject *Vec_hand(VecObject *self, PyObject *arg) {
    long i = vec_table(self, arg);
    if (i < 0)
        return NULL;
    return (PyObject *)hand_of(self->enc->rules, VSTATE(self, i));
}

static PyMethodDef Vec_methods[] = {
    {"reset", (PyCFunction)Vec_reset, METH_VARARGS, "Deal every table from its seed; write observations and masks."},
    {"step", (PyCFunction)Vec_step, METH_VARARGS, "One action index per table, with the same-step auto-reset."},
    {"legal_indices", (PyCFunction)Vec_legal_indices, METH_O, "Table i's learner's legal indices."},
    {"legal_into", (PyCFunction)Vec_legal_into, METH_VARARGS, "Every table's legal indices into an n x k buffer."},
    {"hand", (PyCFunction)Vec_hand, METH_O, "A copy of table i's hand."},
    {NULL}};

PyTypeObject VecType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "burraco._native.VecTables",
    .tp_basicsize = sizeof(VecObject),
    .tp_dealloc = (destructor)Vec_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "N native hands, one learner seat each, random or heuristic opponents, stepped in one call.",
    .tp_methods = Vec_methods,
    .tp_new = Vec_new,
};

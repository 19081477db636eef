/* burraco._native: the module glue: the Rules and Hand types, the fields tuple (burraco.state.fields_of),
 * configure and the module's functions and types. */
#include "native.h"

PyObject *G_Action, *G_VERBS[NVERBS], *G_SEATS[MAXP + 1][MAXP], *G_EMPTY;

/* 0, or -1 and a RuntimeError before configure() has given the Action type */
static int configured(void) {
    if (G_Action != NULL)
        return 0;
    PyErr_SetString(PyExc_RuntimeError, "burraco._native.configure was not called");
    return -1;
}

/* ----- Rules(spec): the rule parameters (burraco._accel.native_rules builds the spec) ------------------------- */

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
    /* burraco/seats.py initial_sides: NS and EW with 4, the partners opposite with 6, every seat alone otherwise */
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

PyTypeObject RulesType = {
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
HandObject *hand_alloc(RulesObject *rules, int k) {
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

int seq_u8(PyObject *o, uint8_t *out, int cap, int *n) {
    if (PyBytes_Check(o) || PyByteArray_Check(o)) { /* counts or cards as bytes (the fields tuple's hands, known) */
        Py_ssize_t k = PyBytes_Check(o) ? PyBytes_GET_SIZE(o) : PyByteArray_GET_SIZE(o);
        if (k > cap) {
            PyErr_SetString(PyExc_ValueError, "too many cards for the native core");
            return -1;
        }
        memcpy(out, PyBytes_Check(o) ? PyBytes_AS_STRING(o) : PyByteArray_AS_STRING(o), (size_t)k);
        *n = (int)k;
        return 0;
    }
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
/* S (room for the rules' mcap melds) from a fields tuple */
int load_fields(const NRules *R, NState *S, PyObject *t) {
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

/* a tuple of n small ints: p's bytes, read as signed bytes where is_signed */
static PyObject *tuple_bytes(const void *p, int n, int is_signed) {
    PyObject *t = PyTuple_New(n);
    if (t == NULL)
        return NULL;
    for (int i = 0; i < n; i++)
        PyTuple_SET_ITEM(t, i, PyLong_FromLong(is_signed ? ((const int8_t *)p)[i] : ((const uint8_t *)p)[i]));
    return t;
}

static PyObject *tuple_u8(const uint8_t *p, int n) { return tuple_bytes(p, n, 0); }
static PyObject *tuple_i8(const int8_t *p, int n) { return tuple_bytes(p, n, 1); }

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
HandObject *hand_of(RulesObject *rules, const NState *S) {
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

/* the engine's Action of a, played by seat */
static PyObject *act_object(const NRules *R, int seat, const NAct *a) {
    PyObject *name = G_SEATS[R->players][seat];
    PyObject *cards = a->n ? tuple_u8(a->cards, a->n) : (Py_INCREF(G_EMPTY), G_EMPTY);
    PyObject *k = PyLong_FromLong(a->meld);
    PyObject *act = new_action(name, G_VERBS[a->verb], cards, k);
    Py_DECREF(k);
    return act;
}

/* the actions of a playout's record as a list of Actions, or None without a record (rec NULL); rec is freed */
static PyObject *rec_actions(const NRules *R, RecBuf *rec) {
    if (rec == NULL)
        Py_RETURN_NONE;
    PyObject *acts = PyList_New(rec->n);
    for (long i = 0; acts != NULL && i < rec->n; i++) {
        PyObject *a = act_object(R, rec->r[i].seat, &rec->r[i].a);
        if (a == NULL) {
            Py_CLEAR(acts);
            break;
        }
        PyList_SET_ITEM(acts, i, a);
    }
    free(rec->r);
    rec->r = NULL;
    return acts;
}

/* the legal actions of self's state worked out (kept until the state changes); -1 and MemoryError */
int ensure_legal(HandObject *self) {
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
    if (configured() < 0 || ensure_legal(self) < 0)
        return NULL;
    if (self->legal_list == NULL) {
        PyObject *out = PyList_New(self->legal.n);
        if (out == NULL)
            return NULL;
        for (int i = 0; i < self->legal.n; i++) {
            PyObject *act = act_object(&self->rules->r, self->s->turn, &self->legal.a[i]);
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

/* apply the i-th legal action (ensure_legal done); -1 and MemoryError */
static int apply_legal(HandObject *self, int i) {
    NAct a = self->legal.a[i];
    if (hand_room(self, 1) < 0)
        return -1;
    apply_act(&self->rules->r, self->s, &a);
    return 0;
}

static PyObject *Hand_apply(HandObject *self, PyObject *action) {
    if (ensure_legal(self) < 0)
        return NULL;
    int i = find_action(self, action);
    if (i < 0)
        Py_RETURN_FALSE;
    if (apply_legal(self, i) < 0)
        return NULL;
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
    /* the Action applied: the one legal_actions() handed out where it made the list, else made now (before the
     * state moves on: it names the seat in turn) */
    PyObject *act;
    if (self->legal_list != NULL) {
        act = PyList_GET_ITEM(self->legal_list, i);
        Py_INCREF(act);
    } else if (configured() < 0 || (act = act_object(&self->rules->r, self->s->turn, &self->legal.a[i])) == NULL) {
        return NULL;
    }
    if (apply_legal(self, (int)i) < 0) {
        Py_DECREF(act);
        return NULL;
    }
    return act;
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

/* ready for a playout in place: room for every meld, the cached legal actions forgotten; -1 and MemoryError */
static int before_playout(HandObject *self) {
    if (hand_room(self, self->rules->r.mcap) < 0)
        return -1;
    self->legal_at = -1;
    Py_CLEAR(self->legal_list);
    return 0;
}

static PyObject *Hand_random_playout(HandObject *self, PyObject *arg) {
    unsigned long long seed = PyLong_AsUnsignedLongLongMask(arg);
    if (seed == (unsigned long long)-1 && PyErr_Occurred())
        return NULL;
    uint64_t s = seed;
    long k;
    if (before_playout(self) < 0)
        return NULL;
    Py_BEGIN_ALLOW_THREADS
    k = playout(&self->rules->r, self->s, &s, &self->legal, &self->scratch);
    Py_END_ALLOW_THREADS
    if (k < 0) {
        PyErr_SetString(PyExc_RuntimeError, "native playout failed (out of memory)");
        return NULL;
    }
    return PyLong_FromLong(k);
}

/* python_playout(state, record): play ``legal[rng.randrange(len(legal))]`` to the end of the hand with rng a
 * random.Random in ``state`` (its getstate()); returns (decisions, the generator's new state, the actions or None) */
static PyObject *Hand_python_playout(HandObject *self, PyObject *args) {
    PyObject *state;
    int record;
    MT m;
    if (configured() < 0 || !PyArg_ParseTuple(args, "Op", &state, &record) || mt_from_state(state, &m) < 0)
        return NULL;
    RecBuf rec = {0};
    long k;
    if (before_playout(self) < 0)
        return NULL;
    Py_BEGIN_ALLOW_THREADS
    k = mt_playout(&self->rules->r, self->s, &m, &self->legal, &self->scratch, record ? &rec : NULL);
    Py_END_ALLOW_THREADS
    if (k < 0) {
        free(rec.r);
        return PyErr_NoMemory();
    }
    PyObject *acts = rec_actions(&self->rules->r, record ? &rec : NULL);
    if (acts == NULL)
        return NULL;
    /* the state given, its generator's words replaced (the version and gauss_next kept) */
    return Py_BuildValue("(l(iNO)N)", k, (int)PyLong_AsLong(PyTuple_GET_ITEM(state, 0)), mt_words(&m),
                         PyTuple_GET_ITEM(state, 2), acts);
}

/* the heuristic of `level` at every seat, playing self's state on in place with the GIL released: the seats'
 * generators ms, or (ms NULL) random.Random(seed + k) for seat k (seeded_playout); the decisions, or -1 and an
 * exception */
static long hand_heuristic(HandObject *self, int level, MT *ms, uint64_t seed, long depth, RecBuf *rec) {
    const NRules *R = &self->rules->r;
    DBuf sc = {0};
    long k;
    if (before_playout(self) < 0)
        return -1;
    Py_BEGIN_ALLOW_THREADS
    if (ms == NULL)
        k = seeded_playout(R, self->s, level, seed, depth, &self->legal, &self->scratch, &sc);
    else
        k = heuristic_playout(R, self->s, level, ms, depth, &self->legal, &self->scratch, &sc, rec);
    Py_END_ALLOW_THREADS
    dbuf_free(&sc);
    if (k < 0)
        PyErr_NoMemory();
    return k;
}

/* heuristic_playout(level, states, depth): the heuristic of `level` (0 easy, 1 medium, 2 hard) at every seat, the
 * seats' random.Random states in `states`; returns (decisions, the new states) */
static PyObject *Hand_heuristic_playout(HandObject *self, PyObject *args) {
    int level, record = 0;
    long depth;
    PyObject *states;
    RecBuf rec = {0};
    if (configured() < 0 || !PyArg_ParseTuple(args, "iOl|p", &level, &states, &depth, &record))
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
    long k = hand_heuristic(self, level, ms, 0, depth, record ? &rec : NULL);
    if (k < 0) {
        free(rec.r);
        return NULL;
    }
    PyObject *acts = rec_actions(R, record ? &rec : NULL);
    if (acts == NULL)
        return NULL;
    PyObject *out = PyTuple_New(R->players);
    for (int s = 0; s < R->players; s++)
        PyTuple_SET_ITEM(out, s, mt_to_state(&ms[s]));
    return Py_BuildValue("(lNN)", k, out, acts);
}

/* seeded_heuristic_playout(level, seed, depth): heuristic_playout with seat k's generator random.Random(seed + k)
 * for any int seed (the search player's rollouts, which seed their players so); returns the number of decisions */
static PyObject *Hand_seeded_heuristic_playout(HandObject *self, PyObject *args) {
    int level;
    long depth;
    PyObject *seed;
    if (!PyArg_ParseTuple(args, "iO!l", &level, &PyLong_Type, &seed, &depth))
        return NULL;
    const NRules *R = &self->rules->r;
    unsigned long long first = PyLong_AsUnsignedLongLong(seed);
    int fast = !(first == (unsigned long long)-1 && PyErr_Occurred()) && first <= UINT64_MAX - MAXP;
    PyErr_Clear();
    MT ms[MAXP];
    for (int s = 0; s < R->players && !fast; s++) { /* a seed beyond 0 ... 2**64: each seat's seed in Python */
        PyObject *k = PyLong_FromLong(s), *sk = k == NULL ? NULL : PyNumber_Add(seed, k);
        int rc = sk == NULL ? -1 : mt_seed_int(&ms[s], sk);
        Py_XDECREF(k);
        Py_XDECREF(sk);
        if (rc < 0)
            return NULL;
    }
    long k = hand_heuristic(self, level, fast ? NULL : ms, first, depth, NULL);
    return k < 0 ? NULL : PyLong_FromLong(k);
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
    DBuf sc = {0};
    int i = h_choose(&self->rules->r, self->s, level, &self->legal, &m, &sc);
    dbuf_free(&sc);
    if (i < 0)
        return PyErr_NoMemory();
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
    {"apply_index", (PyCFunction)Hand_apply_index, METH_O, "Apply the i-th legal action; returns it (an Action)."},
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

PyTypeObject HandType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "burraco._native.Hand",
    .tp_basicsize = sizeof(HandObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One hand in native form (burraco.native.NativeHand wraps it).",
    .tp_new = Hand_new,
    .tp_dealloc = (destructor)Hand_dealloc,
    .tp_methods = Hand_methods,
    .tp_getset = Hand_getset,
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

/* new_hand(rules, seed, first): the hand Game.new(rules, seed) deals (any int seed, as random.Random takes it) */
static PyObject *new_hand(PyObject *mod, PyObject *args) {
    RulesObject *rules;
    PyObject *seed;
    int first;
    MT m;
    if (!PyArg_ParseTuple(args, "O!Oi", &RulesType, &rules, &seed, &first) || mt_seed_int(&m, seed) < 0)
        return NULL;
    HandObject *h = hand_alloc(rules, MELD_SLACK);
    if (h == NULL)
        return NULL;
    if (deal_state(&rules->r, h->s, &m, first) < 0) {
        Py_DECREF(h);
        PyErr_SetString(PyExc_ValueError, "the native core cannot deal these rules");
        return NULL;
    }
    return (PyObject *)h;
}

/* the seeds of random_deals: per seed, the words random.Random seeds its generator from (words[at[i]] on, len[i]
 * of them) and the low 64 bits that seed the playout's own stream */
typedef struct {
    uint32_t *words;
    Py_ssize_t *at;
    int *len;
    uint64_t *stream;
} Seeds;

static void seeds_free(Seeds *s) {
    free(s->words);
    free(s->at);
    free(s->len);
    free(s->stream);
}

/* sd from the n ints of the sequence f; -1 and an exception */
static int seeds_of(PyObject *f, Py_ssize_t n, Seeds *sd) {
    Py_ssize_t cap = 2 * n + 2, used = 0;
    sd->words = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)cap);
    sd->at = (Py_ssize_t *)malloc(sizeof(Py_ssize_t) * (size_t)(n + 1));
    sd->len = (int *)malloc(sizeof(int) * (size_t)(n + 1));
    sd->stream = (uint64_t *)malloc(sizeof(uint64_t) * (size_t)(n + 1));
    if (sd->words == NULL || sd->at == NULL || sd->len == NULL || sd->stream == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *seed = PySequence_Fast_GET_ITEM(f, i);
        uint32_t small[2], *key;
        int k = seed_words(seed, small, &key);
        if (k < 0)
            return -1;
        if (used + k > cap) {
            cap = 2 * (used + k);
            uint32_t *w = (uint32_t *)realloc(sd->words, sizeof(uint32_t) * (size_t)cap);
            if (w == NULL) {
                if (key != small)
                    free(key);
                PyErr_NoMemory();
                return -1;
            }
            sd->words = w;
        }
        memcpy(sd->words + used, key, sizeof(uint32_t) * (size_t)k);
        if (key != small)
            free(key);
        sd->at[i] = used;
        sd->len[i] = k;
        used += k;
        sd->stream[i] = PyLong_AsUnsignedLongLongMask(seed); /* the seed mod 2**64 */
        if (PyErr_Occurred())
            return -1;
    }
    return 0;
}

/* random_deals(rules, seeds, first): deal and play one random hand (Game.new(rules, s), then random_playout(s))
 * per int seed with the GIL released; returns the total number of decisions */
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
    Seeds sd = {0};
    int rc = seeds_of(f, n, &sd);
    Py_DECREF(f);
    if (rc < 0) {
        seeds_free(&sd);
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
        MT m;
        mt_seed_words(&m, sd.words + sd.at[i], sd.len[i]);
        if (deal_state(R, g, &m, first) < 0) {
            bad = 2;
            break;
        }
        uint64_t s = sd.stream[i];
        long k = playout(R, g, &s, &b, &sc);
        if (k < 0)
            bad = 1;
        total += k;
    }
    free(g);
    Py_END_ALLOW_THREADS
    seeds_free(&sd);
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

static PyMethodDef module_methods[] = {
    {"configure", configure, METH_VARARGS, "Set the Action type, the verbs and the seat letters."},
    {"state_size", state_size, METH_VARARGS,
     "state_size(rules=None, melds=0): the bytes of a state of these native Rules holding that many melds, what a "
     "clone copies (None: the largest rules the core takes; melds=-1: as many as the rules allow)."},
    {"new_hand", new_hand, METH_VARARGS, "The hand Game.new(rules, seed) deals, in native form."},
    {"random_deals", random_deals, METH_VARARGS, "Deal and play one random hand per seed; the decisions played."},
    {"random_hands", random_hands, METH_VARARGS, "Random playouts from copies of a hand; the decisions played."},
    {"draw_below", numpy_draw_below, METH_VARARGS,
     "draw_below(capsule, n): numpy's Generator.integers(0, n) from the BitGenerator whose capsule this is "
     "(1 <= n <= 2**32; hold its lock)."},
    {NULL}};

static struct PyModuleDef native_module = {
    PyModuleDef_HEAD_INIT, "burraco._native", "One hand of Burraco in native form (see burraco.native).", -1,
    module_methods};

/* the module's types, by their names in it */
static const struct {
    const char *name;
    PyTypeObject *type;
} TYPES[] = {{"Rules", &RulesType},         {"Hand", &HandType},         {"Determinizer", &DetType},
             {"Twister", &TwisterType},     {"Encoding", &EncType},      {"VecTables", &VecType}};
#define NTYPES ((int)(sizeof(TYPES) / sizeof(TYPES[0])))

PyMODINIT_FUNC PyInit__native(void) {
    for (int i = 0; i < NTYPES; i++)
        if (PyType_Ready(TYPES[i].type) < 0)
            return NULL;
    near_tables();
    random_init();
    PyObject *m = PyModule_Create(&native_module);
    if (m == NULL)
        return NULL;
    G_EMPTY = PyTuple_New(0);
    for (int i = 0; i < NTYPES; i++) {
        Py_INCREF(TYPES[i].type);
        PyModule_AddObject(m, TYPES[i].name, (PyObject *)TYPES[i].type);
    }
    return m;
}

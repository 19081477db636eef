/* burraco._native: views and determinization (burraco/view.py, burraco/determinize.py: determinize, _weighted_sample, _shuffle): the
 * Determinizer type, a view's fixed part held once and sampled many times. */
#include "native.h"

/* ----- the big integers of view._shuffle (one uniform integer below n!) ---------------------------------------- */

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

/* ----- where a determinization draws its numbers ------------------------------------------------------------- */

/* Python's generator held in the core (m), or a random.Random's own methods (rng: random() and getrandbits(), as
 * burraco.view.determinize calls them; their bound methods, got when first needed) */
typedef struct {
    MT *m;
    PyObject *rng, *random, *getrandbits;
} Source;

static void src_done(Source *s) {
    Py_XDECREF(s->random);
    Py_XDECREF(s->getrandbits);
}

/* rng.random() into *out; -1 and an exception */
static int src_random(Source *s, double *out) {
    if (s->m != NULL) {
        *out = mt_random(s->m);
        return 0;
    }
    if (s->random == NULL && (s->random = PyObject_GetAttrString(s->rng, "random")) == NULL)
        return -1;
    PyObject *r = PyObject_CallNoArgs(s->random);
    if (r == NULL)
        return -1;
    *out = PyFloat_AsDouble(r);
    Py_DECREF(r);
    return *out == -1.0 && PyErr_Occurred() ? -1 : 0;
}

/* rng.getrandbits(k) into out (k > 0, at most BIGW words); -1 and an exception */
static int src_bits(Source *s, int k, Big *out) {
    if (s->m != NULL) {
        mt_getrandbits(s->m, k, out);
        return 0;
    }
    if (s->getrandbits == NULL && (s->getrandbits = PyObject_GetAttrString(s->rng, "getrandbits")) == NULL)
        return -1;
    PyObject *r = PyObject_CallFunction(s->getrandbits, "i", k);
    if (r == NULL)
        return -1;
    memset(out->w, 0, sizeof(out->w));
    out->n = (k - 1) / 32 + 1;
    int rc = int_words(r, out->n, out->w);
    Py_DECREF(r);
    while (out->n > 1 && out->w[out->n - 1] == 0)
        out->n--;
    return rc;
}

/* ----- determinize() ------------------------------------------------------------------------------------------ */

/* view._shuffle: Fisher-Yates on the digits of one uniform integer below n!; -1 and an exception */
static int det_shuffle(uint8_t *x, int n, Source *src) {
    if (n < 2)
        return 0;
    Big f, r;
    big_set(&f, 1);
    for (int i = 2; i <= n; i++)
        big_mul(&f, (uint32_t)i);
    int bits = big_bits(&f);
    do
        if (src_bits(src, bits, &r) < 0)
            return -1;
    while (big_cmp(&r, &f) >= 0);
    for (int i = n - 1; i > 0; i--) {
        int j = (int)big_divmod(&r, (uint32_t)(i + 1));
        uint8_t t = x[i];
        x[i] = x[j];
        x[j] = t;
    }
    return 0;
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

/* view._weighted_sample: k cards of pool (n cards) by the keys u ** (1 / w); they leave the pool; -1 and an
 * exception */
static int det_weighted(uint8_t *pool, int *n, const double *w, int k, Source *src, uint8_t *out) {
    Keyed keyed[MAXCARDS];
    for (int i = 0; i < *n; i++) {
        double wc = w[pool[i]], u = 0.0;
        if (wc > 0 && src_random(src, &u) < 0)
            return -1;
        keyed[i].key = wc > 0 ? pow(u, 1.0 / wc) : 0.0;
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
    return 0;
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

/* Determinizer(rules, base, unseen, seat, need, weights, hidden_poz, hidden_seats, pile_size, stock_size, pozzetti,
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
    uint8_t unseen[NT];
    if (load_fields(R, d->base, base) < 0 || seq_u8(pool, unseen, NT, &n) < 0)
        goto fail;
    d->npool = 0; /* the cards of the view's unseen counts, in order (burraco.view.determinize's pool) */
    for (int c = 0; c < n; c++)
        for (int k = 0; k < unseen[c] && d->npool < MAXCARDS; k++)
            d->pool[d->npool++] = (uint8_t)c;
    /* the heuristic's cache of the single cards each meld takes, made once here: every sample copies it */
    for (int i = melds_used(d->base) - 1; i >= 0; i--)
        meld_singles(R, &MELD_POOL(R, d->base)[i]);
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

/* determinize() after its pool: the state of one sample into S, drawn from src; -1 and an exception */
static int det_sample(const DetObject *d, NState *S, Source *src) {
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
                if (det_weighted(pool, &n, w, k, src, got) < 0)
                    return -1;
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
    if (det_shuffle(pool, n, src) < 0)
        return -1;
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
    return 0;
}

/* a new Hand holding one sample drawn from src (the source's bound methods let go); NULL and an exception */
static HandObject *det_hand(DetObject *self, Source *src) {
    HandObject *h = hand_alloc(self->rules, melds_used(self->base) + MELD_SLACK);
    if (h != NULL && det_sample(self, h->s, src) < 0)
        Py_CLEAR(h);
    src_done(src);
    return h;
}

/* sample(state): (a Hand, the generator's new state) */
static PyObject *Det_sample(DetObject *self, PyObject *state) {
    MT m;
    if (mt_from_state(state, &m) < 0)
        return NULL;
    Source src = {&m, NULL, NULL, NULL};
    HandObject *h = det_hand(self, &src);
    return h == NULL ? NULL : Py_BuildValue("(NN)", (PyObject *)h, mt_to_state(&m));
}

/* sample_from(twister): a Hand, drawn from the twister */
static PyObject *Det_sample_from(DetObject *self, PyObject *tw) {
    if (!PyObject_TypeCheck(tw, &TwisterType)) {
        PyErr_SetString(PyExc_TypeError, "sample_from needs a Twister");
        return NULL;
    }
    Source src = {&((TwisterObject *)tw)->m, NULL, NULL, NULL};
    return (PyObject *)det_hand(self, &src);
}

/* draw(rng): a Hand, drawn by calling rng.random() and rng.getrandbits(k) as burraco.view.determinize calls them
 * (the same numbers, in the same order: any random.Random, subclasses included, ends where determinize leaves it) */
static PyObject *Det_draw(DetObject *self, PyObject *rng) {
    Source src = {NULL, rng, NULL, NULL};
    return (PyObject *)det_hand(self, &src);
}

static PyMethodDef Det_methods[] = {
    {"sample", (PyCFunction)Det_sample, METH_O, "One determinization with a random.Random state: (Hand, new state)."},
    {"sample_from", (PyCFunction)Det_sample_from, METH_O, "One determinization drawn from a Twister: a Hand."},
    {"draw", (PyCFunction)Det_draw, METH_O,
     "One determinization drawn through a random.Random's own random() and getrandbits(): a Hand."},
    {NULL}};

PyTypeObject DetType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "burraco._native.Determinizer",
    .tp_basicsize = sizeof(DetObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The determinizations of one view (burraco.native.Determinizer wraps it).",
    .tp_new = Det_new,
    .tp_dealloc = (destructor)Det_dealloc,
    .tp_methods = Det_methods,
};

/* burraco._native: the random generators: splitmix64 (a playout's own stream, never Python's) and Python's Mersenne
 * Twister (random.Random: its seeding, draws and state, and the Twister type that holds one for a search). */
#include "native.h"

/* ----- splitmix64: a playout's own stream, never Python's ----------------------------------------------------- */

static uint64_t rng_next(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* a uniform integer below n */
int rng_below(uint64_t *s, int n) { return (int)(((rng_next(s) >> 11) * (uint64_t)n) >> 53); }

/* ----- Python's random.Random (MT19937, as Modules/_randommodule.c) --------------------------------------------- */
/* a playout that draws exactly what ``legal[rng.randrange(len(legal))]`` draws plays the very hand
 * burraco.sim.play_hand plays; a determinization draws what burraco.view.determinize draws */

/* the next 624 words of the generator (genrand_uint32's twist), drawn from the first */
static void mt_twist(MT *m) {
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t y, *mt = m->mt;
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

/* random.Random.getrandbits(32) */
uint32_t mt_next(MT *m) {
    if (m->index >= 624)
        mt_twist(m);
    uint32_t y = m->mt[m->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* init_genrand(19650218): the state every seeding of random.Random starts from (init_by_array), made once */
static uint32_t MT_INIT[624];

void random_init(void) {
    MT_INIT[0] = 19650218U;
    for (int i = 1; i < 624; i++)
        MT_INIT[i] = (1812433253U * (MT_INIT[i - 1] ^ (MT_INIT[i - 1] >> 30)) + (uint32_t)i);
}

/* init_by_array of Modules/_randommodule.c: m seeded from the klen 32-bit words of key (klen >= 1) */
void mt_seed_words(MT *m, const uint32_t *key, int klen) {
    uint32_t *mt = m->mt;
    memcpy(mt, MT_INIT, sizeof(MT_INIT));
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

/* mt_seed(ms[t], seeds[t]) for the k generators together (k <= 8): their init_by_array chains interleaved, each
 * step of one independent of the others' (a deal's generator and its opponents' at once) */
void mt_seed_many(MT *const *ms, const uint64_t *seeds, int k) {
    uint32_t add[8][2]; /* what step s adds: key[s % klen] + s % klen (klen 1 or 2, 624 steps >= klen) */
    for (int t = 0; t < k; t++) {
        uint32_t lo = (uint32_t)seeds[t], hi = (uint32_t)(seeds[t] >> 32);
        add[t][0] = lo;
        add[t][1] = hi ? hi + 1U : lo;
        memcpy(ms[t]->mt, MT_INIT, sizeof(MT_INIT));
    }
    int i = 1;
    for (int s = 0; s < 624; s++) {
        for (int t = 0; t < k; t++) {
            uint32_t *mt = ms[t]->mt;
            mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + add[t][s & 1];
        }
        if (++i >= 624) {
            for (int t = 0; t < k; t++)
                ms[t]->mt[0] = ms[t]->mt[623];
            i = 1;
        }
    }
    for (int s = 623; s; s--) {
        for (int t = 0; t < k; t++) {
            uint32_t *mt = ms[t]->mt;
            mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        }
        if (++i >= 624) {
            for (int t = 0; t < k; t++)
                ms[t]->mt[0] = ms[t]->mt[623];
            i = 1;
        }
    }
    for (int t = 0; t < k; t++) {
        ms[t]->mt[0] = 0x80000000U;
        ms[t]->index = 624;
    }
}

/* random.Random(n).seed(n) for 0 <= n < 2**64 (init_by_array on n's 32-bit words, as random_seed does) */
void mt_seed(MT *m, uint64_t n) {
    uint32_t key[2] = {(uint32_t)n, (uint32_t)(n >> 32)};
    mt_seed_words(m, key, key[1] ? 2 : 1);
}

/* the n 32-bit words of a non-negative int x, the least significant first, into out; -1 and an exception
 * (OverflowError where x is negative or needs more words) */
int int_words(PyObject *x, int n, uint32_t *out) {
    PyObject *bytes = PyObject_CallMethod(x, "to_bytes", "ns", (Py_ssize_t)4 * n, "little");
    if (bytes == NULL)
        return -1;
    const unsigned char *b = (const unsigned char *)PyBytes_AS_STRING(bytes);
    for (int i = 0; i < n; i++)
        out[i] = (uint32_t)b[4 * i] | (uint32_t)b[4 * i + 1] << 8 | (uint32_t)b[4 * i + 2] << 16 |
                 (uint32_t)b[4 * i + 3] << 24;
    Py_DECREF(bytes);
    return 0;
}

/* the 32-bit words random_seed makes of an int seed: abs(seed)'s, the least significant first, at least one, into
 * *key: small where two are enough, else an array the caller frees (*key != small); their number, or -1 and a
 * TypeError (no int) or MemoryError */
int seed_words(PyObject *seed, uint32_t small[2], uint32_t **key) {
    if (!PyLong_Check(seed)) {
        PyErr_Format(PyExc_TypeError, "a seed is an int, not %.100s", Py_TYPE(seed)->tp_name);
        return -1;
    }
    PyObject *a = PyLong_Type.tp_as_number->nb_absolute(seed); /* int.__abs__, as random_seed calls it */
    if (a == NULL)
        return -1;
    *key = small;
    unsigned long long v = PyLong_AsUnsignedLongLong(a);
    if (!(v == (unsigned long long)-1 && PyErr_Occurred())) {
        Py_DECREF(a);
        small[0] = (uint32_t)v;
        small[1] = (uint32_t)(v >> 32);
        return small[1] ? 2 : 1;
    }
    PyErr_Clear(); /* more than 64 bits */
    int klen = -1;
    PyObject *bits = PyObject_CallMethod(a, "bit_length", NULL);
    long nbits = bits == NULL ? -1 : PyLong_AsLong(bits);
    Py_XDECREF(bits);
    if (nbits > 0) {
        klen = (int)((nbits + 31) / 32);
        *key = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)klen);
        if (*key == NULL) {
            *key = small;
            PyErr_NoMemory();
            klen = -1;
        } else if (int_words(a, klen, *key) < 0) {
            free(*key);
            *key = small;
            klen = -1;
        }
    }
    Py_DECREF(a);
    return klen;
}

/* random.Random(seed) for an int seed of any size, as random_seed seeds it; -1 and an exception (seed_words) */
int mt_seed_int(MT *m, PyObject *seed) {
    uint32_t small[2], *key;
    int klen = seed_words(seed, small, &key);
    if (klen < 0)
        return -1;
    mt_seed_words(m, key, klen);
    if (key != small)
        free(key);
    return 0;
}

/* the generators of the last few seeds (per thread, by the seed's lowest bits): seeding costs some four thousand
 * operations and the first draw as many again, and the search player's rollouts seed random.Random(seed + k) for
 * every seat k and every candidate move of one determinization with the same seed */
#define SEEDED 8
static __thread struct {
    uint64_t n;
    int made;
    MT m;
} seeded[SEEDED];

/* random.Random(n)'s generator for 0 <= n < 2**64, its first 624 words made (as its first draw makes them): a
 * copy draws what random.Random(n) draws. Kept per thread (the pointer holds until this thread's next call) */
const MT *mt_seeded(uint64_t n) {
    int i = (int)(n % SEEDED);
    if (!seeded[i].made || seeded[i].n != n) {
        mt_seed(&seeded[i].m, n);
        mt_twist(&seeded[i].m);
        seeded[i].n = n;
        seeded[i].made = 1;
    }
    return &seeded[i].m;
}

/* random.Random._randbelow_with_getrandbits(n) for 0 < n < 2**31 */
int mt_below(MT *m, int n) {
    int k = bitlen((unsigned)n);
    uint32_t r;
    do
        r = mt_next(m) >> (32 - k);
    while (r >= (uint32_t)n);
    return (int)r;
}

/* random.Random.random() */
double mt_random(MT *m) {
    uint32_t a = mt_next(m) >> 5, b = mt_next(m) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* random.Random.getrandbits(k) for k > 0 (words from the least significant, the last one shifted) */
void mt_getrandbits(MT *m, int k, Big *out) {
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

/* ----- the generator's state to and from Python ------------------------------------------------------------- */

/* m from a random.Random state (getstate()); -1 and a ValueError when it is none */
int mt_from_state(PyObject *state, MT *m) {
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

/* the words of m's state (the 625 of random.Random.getstate()'s second item) */
PyObject *mt_words(const MT *m) {
    PyObject *nw = PyTuple_New(625);
    if (nw == NULL)
        return NULL;
    for (int i = 0; i < 624; i++)
        PyTuple_SET_ITEM(nw, i, PyLong_FromUnsignedLong(m->mt[i]));
    PyTuple_SET_ITEM(nw, 624, PyLong_FromLong(m->index));
    return nw;
}

/* m's state as random.Random.getstate() gives it */
PyObject *mt_to_state(const MT *m) { return Py_BuildValue("(iNO)", 3, mt_words(m), Py_None); }

/* ----- Twister(state): a copy of a random.Random's generator held in the core ------------------------------------ */
/* a search draws from it without converting the state at every call, and gives it back at the end (getstate()) */

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

PyTypeObject TwisterType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "burraco._native.Twister",
    .tp_basicsize = sizeof(TwisterObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Python's Mersenne Twister, in the core (from a random.Random state).",
    .tp_new = Twister_new,
    .tp_methods = Twister_methods,
};

/* ----- numpy's bounded draw: what Generator.integers(0, n) draws, without its Python overhead ------------------- */

/* numpy's bitgen_t (numpy/random/bitgen.h), what a BitGenerator's ``capsule`` ("BitGenerator") points to */
typedef struct {
    void *state;
    uint64_t (*next_uint64)(void *st);
    uint32_t (*next_uint32)(void *st);
    double (*next_double)(void *st);
    uint64_t (*next_raw)(void *st);
} NumpyBitgen;

/* draw_below(capsule, n), 1 <= n <= 2**32: Generator.integers(0, n) of the generator whose bit generator's capsule
 * this is, draw for draw: numpy's random_bounded_uint64_fill for a range below 2**32 -- no draw for n == 1, the
 * generator's 32-bit outputs (its own buffered half-words included) and Lemire's multiply-and-reject. The caller
 * holds the bit generator's lock, as Generator.integers does. */
PyObject *numpy_draw_below(PyObject *module, PyObject *args) {
    PyObject *cap;
    unsigned long long n;
    if (!PyArg_ParseTuple(args, "OK", &cap, &n))
        return NULL;
    if (n < 1 || n > 0x100000000ULL) {
        PyErr_SetString(PyExc_ValueError, "draw_below: n from 1 to 2**32");
        return NULL;
    }
    NumpyBitgen *bg = (NumpyBitgen *)PyCapsule_GetPointer(cap, "BitGenerator");
    if (bg == NULL)
        return NULL;
    const uint32_t rng = (uint32_t)(n - 1);
    if (rng == 0)
        return PyLong_FromLong(0);
    if (rng == 0xFFFFFFFFUL)
        return PyLong_FromUnsignedLong(bg->next_uint32(bg->state));
    const uint32_t rng_excl = rng + 1;
    uint64_t m = (uint64_t)bg->next_uint32(bg->state) * rng_excl;
    uint32_t leftover = (uint32_t)(m & 0xFFFFFFFFUL);
    if (leftover < rng_excl) {
        const uint32_t threshold = (UINT32_MAX - rng) % rng_excl;
        while (leftover < threshold) {
            m = (uint64_t)bg->next_uint32(bg->state) * rng_excl;
            leftover = (uint32_t)(m & 0xFFFFFFFFUL);
        }
    }
    return PyLong_FromUnsignedLong((unsigned long)(m >> 32));
}

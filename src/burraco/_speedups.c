/* burraco._speedups: optional C versions of the research environments' inner loop (the engine's legal actions
 * come from the native core, src/native/native.c, where it is built).
 *
 * The Python implementations in burraco/envs/encoding.py and burraco/envs/_core.py are the reference; this module
 * computes exactly the same values (tests/test_speedups.py compares both on every state of random matches) and is
 * used when it was built (setup.py builds it where a C compiler is present; BURRACO_PURE=1 turns it off).
 *
 *   configure(layout)             the observation layout's offsets, from encoding.py (the one place they live)
 *   encode(raw, game, seat, rel, my_side, deck, pile_open, own, other, match_totals)
 *                                 writes a seat's observation into raw (a bytearray of float32); everything but
 *                                 the rules block, which stays as the encoder set it
 *   encode_layout(raw, game, seat, rel, seat_slot, order, sides, offsets, deck, pile_open, match_totals, solo)
 *                                 the same for the other layouts (3, 5, 6 players, three packs: encoding.Layout),
 *                                 whose offsets come with every call
 *   indices(legal, melds, meld_cache, add_cache, slow[, space])
 *                                 the action indices of engine actions (encoding.legal_indices); space: another
 *                                 layout's (add offset, add block, meld slots), the three-pack one
 *   mask(codes, size)             a bytearray of size zeros with 1 at every code
 *
 * No numpy C API: buffers are bytearrays that numpy views with frombuffer.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define NT 53      /* card types */
#define MAXT 128   /* the observation's tail is shorter */

/* ---- layout (configure) -------------------------------------------------------------------------------------- */
static int configured = 0;
static Py_ssize_t OBS_SIZE, O_HAND, O_KNOWN[3], O_PILE, O_TOP, O_UNSEEN, O_TABLE[2], O_MELDS[2], O_LONE,
    O_TOPUSE, O_SIZES, O_TOACT, O_PHASE, O_FLAGS, O_COUNT, O_POZ, O_POZT, O_POZBY, O_HIDDEN, O_PENDING, O_SCORES,
    O_RULES, MAX_SLOTS, ROW_BYTES, DRAW_INDEX, PICK_INDEX, DISCARD_OFFSET, ADD_OFFSET, ADD_BLOCK;
static PyObject *V_DRAW, *V_PICK, *V_MELD, *V_ADD, *V_DISCARD; /* the verbs (strings) */

/* attribute names of burraco.game.Game, interned once */
static PyObject *A_hands, *A_hidden, *A_known, *A_table, *A_pile, *A_hand_n, *A_poz_pending, *A_end, *A_turn,
    *A_lone, *A_top, *A_top_used, *A_phase, *A_picked, *A_drew, *A_melded, *A_opening, *A_must_open, *A_last_turn,
    *A_timeout_called, *A_redrawn, *A_stock, *A_laid, *A_stalemate_run, *A_turns, *A_timeout_left, *A_pozzetti,
    *A_poz_taken, *A_poz_by, *A_uid, *S_draw, *S_play;

static int layout_int(PyObject *d, const char *key, Py_ssize_t *out) {
    PyObject *v = PyDict_GetItemString(d, key); /* borrowed */
    if (v == NULL) {
        PyErr_Format(PyExc_KeyError, "layout has no %s", key);
        return -1;
    }
    *out = PyLong_AsSsize_t(v);
    return (*out == -1 && PyErr_Occurred()) ? -1 : 0;
}

static int layout_obj(PyObject *d, const char *key, PyObject **out) {
    PyObject *v = PyDict_GetItemString(d, key);
    if (v == NULL) {
        PyErr_Format(PyExc_KeyError, "layout has no %s", key);
        return -1;
    }
    Py_INCREF(v);
    Py_XSETREF(*out, v);
    return 0;
}

static PyObject *configure(PyObject *self, PyObject *d) {
    if (!PyDict_Check(d)) {
        PyErr_SetString(PyExc_TypeError, "configure() takes the layout as a dict");
        return NULL;
    }
    struct {
        const char *key;
        Py_ssize_t *p;
    } ints[] = {{"OBS_SIZE", &OBS_SIZE},   {"hand", &O_HAND},
                {"known_next", &O_KNOWN[0]}, {"known_partner", &O_KNOWN[1]},
                {"known_previous", &O_KNOWN[2]}, {"pile", &O_PILE},
                {"pile_top", &O_TOP},     {"unseen", &O_UNSEEN},
                {"table_own", &O_TABLE[0]}, {"table_other", &O_TABLE[1]},
                {"melds_own", &O_MELDS[0]}, {"melds_other", &O_MELDS[1]},
                {"lone", &O_LONE},        {"top_to_use", &O_TOPUSE},
                {"hand_sizes", &O_SIZES}, {"to_act", &O_TOACT},
                {"phase", &O_PHASE},      {"flags", &O_FLAGS},
                {"counters", &O_COUNT},   {"pozzetti", &O_POZ},
                {"poz_taken", &O_POZT},   {"poz_by", &O_POZBY},
                {"hidden_seats", &O_HIDDEN}, {"poz_pending", &O_PENDING},
                {"scores", &O_SCORES},    {"rules", &O_RULES},
                {"MAX_SLOTS", &MAX_SLOTS}, {"ROW_BYTES", &ROW_BYTES},
                {"DRAW_INDEX", &DRAW_INDEX}, {"PICK_INDEX", &PICK_INDEX},
                {"DISCARD_OFFSET", &DISCARD_OFFSET}, {"ADD_OFFSET", &ADD_OFFSET},
                {"ADD_BLOCK", &ADD_BLOCK}};
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        if (layout_int(d, ints[i].key, ints[i].p) < 0)
            return NULL;
    if (layout_obj(d, "DRAW", &V_DRAW) < 0 || layout_obj(d, "PICK", &V_PICK) < 0 ||
        layout_obj(d, "MELD", &V_MELD) < 0 || layout_obj(d, "ADD", &V_ADD) < 0 ||
        layout_obj(d, "DISCARD", &V_DISCARD) < 0)
        return NULL;
    /* the tail (hand_sizes ... scores) is one run of values right before the rules block, and the count blocks
     * (hand ... table_other) come first: encode() relies on both */
    if (O_RULES - O_SIZES <= 0 || O_RULES - O_SIZES > MAXT || O_SCORES + 8 != O_RULES || MAX_SLOTS <= 0 ||
        ROW_BYTES <= 0) {
        PyErr_SetString(PyExc_ValueError, "unexpected observation layout");
        return NULL;
    }
    configured = 1;
    Py_RETURN_NONE;
}

/* ---- small helpers ------------------------------------------------------------------------------------------- */
static int get_long(PyObject *o, PyObject *name, long *out) {
    PyObject *v = PyObject_GetAttr(o, name);
    if (v == NULL)
        return -1;
    *out = PyLong_AsLong(v); /* bools are ints */
    Py_DECREF(v);
    return (*out == -1 && PyErr_Occurred()) ? -1 : 0;
}

static int get_truth(PyObject *o, PyObject *name, int *out) {
    PyObject *v = PyObject_GetAttr(o, name);
    if (v == NULL)
        return -1;
    *out = PyObject_IsTrue(v);
    Py_DECREF(v);
    return *out < 0 ? -1 : 0;
}

/* a list attribute (new reference), refused when it is not a list */
static PyObject *get_list(PyObject *o, PyObject *name) {
    PyObject *v = PyObject_GetAttr(o, name);
    if (v != NULL && !PyList_Check(v)) {
        PyErr_Format(PyExc_TypeError, "Game.%U is not a list", name);
        Py_CLEAR(v);
    }
    return v;
}

/* 53 card counts from bytes or a bytearray (borrowed pointer) */
static const unsigned char *counts_of(PyObject *o) {
    if (PyByteArray_Check(o) && PyByteArray_GET_SIZE(o) >= NT)
        return (const unsigned char *)PyByteArray_AS_STRING(o);
    if (PyBytes_Check(o) && PyBytes_GET_SIZE(o) >= NT)
        return (const unsigned char *)PyBytes_AS_STRING(o);
    PyErr_SetString(PyExc_TypeError, "card counts must be bytes or a bytearray of 53");
    return NULL;
}

static long item_long(PyObject *seq, Py_ssize_t i) {
    return PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
}

static void put_counts(float *buf, Py_ssize_t off, const unsigned char *c) {
    for (int i = 0; i < NT; i++)
        buf[off + i] = (float)c[i];
}

/* ---- encode -------------------------------------------------------------------------------------------------- */
static PyObject *encode(PyObject *self, PyObject *args) {
    PyObject *raw, *g, *rel, *deck_o, *own, *other, *mt;
    Py_ssize_t seat, my_side;
    int pile_open;
    if (!PyArg_ParseTuple(args, "O!OnO!nSpO!O!O", &PyByteArray_Type, &raw, &g, &seat, &PyTuple_Type, &rel,
                          &my_side, &deck_o, &pile_open, &PyTuple_Type, &own, &PyTuple_Type, &other, &mt))
        return NULL;
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "burraco._speedups is not configured");
        return NULL;
    }
    if (PyByteArray_GET_SIZE(raw) != OBS_SIZE * 4 || PyBytes_GET_SIZE(deck_o) < NT || PyTuple_GET_SIZE(own) < 6 ||
        PyTuple_GET_SIZE(other) < 6 || (my_side != 0 && my_side != 1)) {
        PyErr_SetString(PyExc_ValueError, "encode(): bad buffer, deck or side summaries");
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(rel);
    if (seat < 0 || seat >= n || n > 4) {
        PyErr_SetString(PyExc_ValueError, "encode(): bad seat");
        return NULL;
    }
    long relv[4];
    for (Py_ssize_t s = 0; s < n; s++) {
        relv[s] = PyLong_AsLong(PyTuple_GET_ITEM(rel, s));
        if (relv[s] < 0 || relv[s] > 3) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "encode(): relative seats are 0...3");
            return NULL;
        }
    }
    float *buf = (float *)PyByteArray_AS_STRING(raw);
    const unsigned char *deck = (const unsigned char *)PyBytes_AS_STRING(deck_o);
    float t[MAXT];
    const Py_ssize_t tail_len = O_RULES - O_SIZES;
    memset(t, 0, sizeof t);
#define T(off) t[(off) - O_SIZES]
    PyObject *hands = NULL, *hidden = NULL, *known = NULL, *table = NULL, *gp = NULL, *hand_n = NULL,
             *pending = NULL, *end = NULL, *phase = NULL, *stock = NULL, *pozzetti = NULL, *poz_taken = NULL,
             *poz_by = NULL, *result = NULL;
    int h[NT], u[NT], pile_c[NT];
    long hidden_poz = 0;

    if (!(hands = get_list(g, A_hands)) || !(hidden = get_list(g, A_hidden)) || !(known = get_list(g, A_known)) ||
        !(hand_n = get_list(g, A_hand_n)) || !(pending = get_list(g, A_poz_pending)) ||
        !(gp = get_list(g, A_pile)) || !(table = PyObject_GetAttr(g, A_table)))
        goto done;
    if (PyList_GET_SIZE(hands) != n || PyList_GET_SIZE(hidden) != n || PyList_GET_SIZE(known) != n ||
        PyList_GET_SIZE(hand_n) != n || PyList_GET_SIZE(pending) != n) {
        PyErr_SetString(PyExc_ValueError, "encode(): the game's seats and rel differ");
        goto done;
    }
    /* the own hand, less a pozzetto taken with the discard that the seat has not seen yet */
    const unsigned char *hb = counts_of(PyList_GET_ITEM(hands, seat));
    const unsigned char *tb = counts_of(table);
    if (hb == NULL || tb == NULL)
        goto done;
    PyObject *hid = PyList_GET_ITEM(hidden, seat);
    for (int c = 0; c < NT; c++)
        h[c] = hb[c];
    if (hid != Py_None) {
        if (!PyList_Check(hid) || PyList_GET_SIZE(hid) < NT) {
            PyErr_SetString(PyExc_TypeError, "encode(): a hidden pozzetto is a list of 53 counts");
            goto done;
        }
        for (int c = 0; c < NT; c++) {
            long x = item_long(hid, c);
            if (x == -1 && PyErr_Occurred())
                goto done;
            hidden_poz += x;
            h[c] = h[c] - x > 0 ? (int)(h[c] - x) : 0;
        }
    }
    /* unseen = deck - own visible hand - melds - visible pile - cards others were seen to take */
    for (int c = 0; c < NT; c++)
        u[c] = (int)deck[c] - h[c] - (int)tb[c];
    {
        long x = item_long(hand_n, seat);
        if (x == -1 && PyErr_Occurred())
            goto done;
        T(O_SIZES) = (float)x;
    }
    if (hid != Py_None)
        T(O_HIDDEN) = 1.0f;
    {
        int p = PyObject_IsTrue(PyList_GET_ITEM(pending, seat));
        if (p < 0)
            goto done;
        if (p)
            T(O_PENDING) = 1.0f;
    }
    const unsigned char *kn[3] = {NULL, NULL, NULL};
    for (Py_ssize_t s = 0; s < n; s++) {
        if (s == seat)
            continue;
        long k = relv[s];
        if (k == 0) {
            PyErr_SetString(PyExc_ValueError, "encode(): another seat at relative place 0");
            goto done;
        }
        const unsigned char *kb = counts_of(PyList_GET_ITEM(known, s));
        if (kb == NULL)
            goto done;
        kn[k - 1] = kb;
        for (int c = 0; c < NT; c++)
            u[c] -= kb[c];
        long x = item_long(hand_n, s);
        if (x == -1 && PyErr_Occurred())
            goto done;
        T(O_SIZES + k) = (float)x;
        if (PyList_GET_ITEM(hidden, s) != Py_None)
            T(O_HIDDEN + k) = 1.0f;
        int p = PyObject_IsTrue(PyList_GET_ITEM(pending, s));
        if (p < 0)
            goto done;
        if (p)
            T(O_PENDING + k) = 1.0f;
    }
    /* the visible pile: all of it where the pile is open, else its top card */
    memset(pile_c, 0, sizeof pile_c);
    Py_ssize_t np_ = PyList_GET_SIZE(gp);
    long top_card = -1;
    for (Py_ssize_t i = pile_open ? 0 : (np_ > 0 ? np_ - 1 : 0); i < np_; i++) {
        long c = PyLong_AsLong(PyList_GET_ITEM(gp, i));
        if (c < 0 || c >= NT) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "encode(): a pile card outside 0...52");
            goto done;
        }
        pile_c[c]++;
        u[c]--;
        top_card = c;
    }
    /* the nine count blocks */
    for (int c = 0; c < NT; c++) {
        buf[O_HAND + c] = (float)h[c];
        buf[O_PILE + c] = (float)pile_c[c];
        buf[O_TOP + c] = 0.0f;
        buf[O_UNSEEN + c] = (float)u[c];
    }
    if (top_card >= 0)
        buf[O_TOP + top_card] = 1.0f;
    for (int k = 0; k < 3; k++) {
        if (kn[k] != NULL)
            put_counts(buf, O_KNOWN[k], kn[k]);
        else
            memset(buf + O_KNOWN[k], 0, NT * sizeof(float));
    }
    /* the meld blocks and the side's table counts, from the side summaries (encoding._Side) */
    for (int j = 0; j < 2; j++) {
        PyObject *sd = j == 0 ? own : other;
        const unsigned char *cb = counts_of(PyTuple_GET_ITEM(sd, 2));
        PyObject *slots = PyTuple_GET_ITEM(sd, 1);
        if (cb == NULL)
            goto done;
        if (!PyList_Check(slots)) {
            PyErr_SetString(PyExc_TypeError, "encode(): a side summary's rows must be a list");
            goto done;
        }
        put_counts(buf, O_TABLE[j], cb);
        Py_ssize_t ns = PyList_GET_SIZE(slots);
        if (ns > MAX_SLOTS)
            ns = MAX_SLOTS;
        char *base = (char *)(buf + O_MELDS[j]);
        for (Py_ssize_t k = 0; k < ns; k++) {
            PyObject *sl = PyList_GET_ITEM(slots, k);
            PyObject *row = PyTuple_Check(sl) && PyTuple_GET_SIZE(sl) > 0 ? PyTuple_GET_ITEM(sl, 0) : NULL;
            if (row == NULL || !PyBytes_Check(row) || PyBytes_GET_SIZE(row) != ROW_BYTES) {
                PyErr_SetString(PyExc_TypeError, "encode(): a meld row must be bytes of one row");
                goto done;
            }
            memcpy(base + k * ROW_BYTES, PyBytes_AS_STRING(row), (size_t)ROW_BYTES);
        }
        memset(base + ns * ROW_BYTES, 0, (size_t)((MAX_SLOTS - ns) * ROW_BYTES));
        for (int f = 3; f < 6; f++) {
            PyObject *v = PyTuple_GET_ITEM(sd, f);
            double x = PyFloat_AsDouble(v); /* ints and bools too */
            if (x == -1.0 && PyErr_Occurred())
                goto done;
            /* scores block: match totals (2), points (2), has a burraco (2), a clean one (2) */
            T(O_SCORES + 2 + 2 * (f - 3) + j) = (float)x;
        }
    }
    /* the seat to act, the one-hot lone and top-to-use cards */
    long turn, lone, top;
    int top_used;
    if (!(end = PyObject_GetAttr(g, A_end)) || get_long(g, A_turn, &turn) < 0 || get_long(g, A_lone, &lone) < 0 ||
        get_long(g, A_top, &top) < 0 || get_truth(g, A_top_used, &top_used) < 0)
        goto done;
    if (end != Py_None)
        turn = -1;
    memset(buf + O_LONE, 0, NT * sizeof(float));
    memset(buf + O_TOPUSE, 0, NT * sizeof(float));
    if (lone >= 0 && lone < NT && turn >= 0)
        buf[O_LONE + lone] = 1.0f;
    if (top >= 0 && top < NT && !top_used)
        buf[O_TOPUSE + top] = 1.0f;
    if (turn >= 0) {
        if (turn >= n) {
            PyErr_SetString(PyExc_ValueError, "encode(): the seat to act is out of range");
            goto done;
        }
        T(O_TOACT + relv[turn]) = 1.0f;
    }
    if (!(phase = PyObject_GetAttr(g, A_phase)))
        goto done;
    {
        int is_draw = PyUnicode_Check(phase) && PyUnicode_Compare(phase, S_draw) == 0;
        int is_play = !is_draw && PyUnicode_Check(phase) && PyUnicode_Compare(phase, S_play) == 0;
        T(O_PHASE + (is_draw ? 0 : is_play ? 1 : 2)) = 1.0f;
    }
    /* flags: picked, drew, melded, opening, must_open, last_turn, timeout_called, redrawn, hidden pozzetto, own
     * turn; counters: hidden pozzetto cards, stock, pile, points laid, stalemate run, turns, turns left */
    {
        PyObject *const fl[8] = {A_picked, A_drew, A_melded, A_opening, A_must_open, A_last_turn, A_timeout_called,
                                 A_redrawn};
        for (int i = 0; i < 8; i++) {
            int b;
            if (get_truth(g, fl[i], &b) < 0)
                goto done;
            T(O_FLAGS + i) = (float)b;
        }
        T(O_FLAGS + 8) = hidden_poz > 0 ? 1.0f : 0.0f;
        T(O_FLAGS + 9) = turn == seat ? 1.0f : 0.0f;
        long laid, stalemate, turns, left;
        if (!(stock = PyObject_GetAttr(g, A_stock)) || get_long(g, A_laid, &laid) < 0 ||
            get_long(g, A_stalemate_run, &stalemate) < 0 || get_long(g, A_turns, &turns) < 0 ||
            get_long(g, A_timeout_left, &left) < 0)
            goto done;
        Py_ssize_t ns = PyObject_Length(stock);
        if (ns < 0)
            goto done;
        T(O_COUNT + 0) = (float)hidden_poz;
        T(O_COUNT + 1) = (float)ns;
        T(O_COUNT + 2) = (float)np_;
        T(O_COUNT + 3) = (float)laid;
        T(O_COUNT + 4) = (float)stalemate;
        T(O_COUNT + 5) = (float)turns;
        T(O_COUNT + 6) = (float)left;
    }
    /* pozzetti on the table, taken, by whom */
    if (!(pozzetti = get_list(g, A_pozzetti)) || !(poz_taken = get_list(g, A_poz_taken)) ||
        !(poz_by = get_list(g, A_poz_by)))
        goto done;
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(pozzetti) && k < 3; k++)
        if (PyList_GET_ITEM(pozzetti, k) != Py_None)
            T(O_POZ + k) = 1.0f;
    if (PyList_GET_SIZE(poz_taken) < 2 || PyList_GET_SIZE(poz_by) < 2) {
        PyErr_SetString(PyExc_ValueError, "encode(): poz_taken and poz_by hold one value per side");
        goto done;
    }
    for (int j = 0; j < 2; j++) {
        Py_ssize_t side = j == 0 ? my_side : 1 - my_side;
        long taken = item_long(poz_taken, side);
        long by = item_long(poz_by, side);
        if (PyErr_Occurred())
            goto done;
        T(O_POZT + j) = (float)taken;
        if (by >= 0 && by < n)
            T(O_POZBY + 4 * j + relv[by]) = 1.0f;
    }
    if (mt != Py_None) {
        PyObject *m0 = PySequence_GetItem(mt, my_side), *m1 = m0 ? PySequence_GetItem(mt, 1 - my_side) : NULL;
        double a = m0 ? PyFloat_AsDouble(m0) : -1.0, b = m1 ? PyFloat_AsDouble(m1) : -1.0;
        Py_XDECREF(m0);
        Py_XDECREF(m1);
        if (PyErr_Occurred())
            goto done;
        T(O_SCORES + 0) = (float)a;
        T(O_SCORES + 1) = (float)b;
    }
    memcpy(buf + O_SIZES, t, (size_t)tail_len * sizeof(float));
#undef T
    result = Py_None;
    Py_INCREF(result);
done:
    Py_XDECREF(hands);
    Py_XDECREF(hidden);
    Py_XDECREF(known);
    Py_XDECREF(table);
    Py_XDECREF(gp);
    Py_XDECREF(hand_n);
    Py_XDECREF(pending);
    Py_XDECREF(end);
    Py_XDECREF(phase);
    Py_XDECREF(stock);
    Py_XDECREF(pozzetti);
    Py_XDECREF(poz_taken);
    Py_XDECREF(poz_by);
    return result;
}

/* ---- encode_layout: the layouts of 3, 5 and 6 players (and three packs) ------------------------------------ */
/* the offsets tuple of encoding.Layout.c_offsets, in this order */
enum {
    L_OBS, L_HAND, L_KNOWN1, L_PILE, L_TOP, L_UNSEEN, L_TABLE0, L_MELDS0, L_LONE, L_TOPUSE, L_SIZES, L_TOACT,
    L_PHASE, L_FLAGS, L_COUNT, L_POZ, L_POZT, L_POZBY, L_HIDDEN, L_PENDING, L_SEATSIDE, L_SOLO, L_MT, L_TP, L_BUR,
    L_CLEAN, L_RULES, L_PLACES, L_K, L_P, L_SLOTS, L_ROWB, L_COUNT_OF
};

/* encoding._fill for a Layout other than the 2/4-player one, straight from the game: the seat's relative places
 * (rel), the slot of each seat's side (seat_slot), the side in each slot (order) and its summary (sides: the
 * encoding._Side tuples), the match totals in the layout's order (or None) and the solo's relative place (-1:
 * none). Everything before the rules block is rewritten; the rules block is the caller's. */
static PyObject *encode_layout(PyObject *self, PyObject *args) {
    PyObject *raw, *g, *rel, *seat_slot, *order, *sides, *offs, *deck_o, *mt;
    Py_ssize_t seat, solo_rel;
    int pile_open;
    if (!PyArg_ParseTuple(args, "O!OnO!O!O!O!O!SpOn", &PyByteArray_Type, &raw, &g, &seat, &PyTuple_Type, &rel,
                          &PyTuple_Type, &seat_slot, &PyTuple_Type, &order, &PyTuple_Type, &sides, &PyTuple_Type,
                          &offs, &deck_o, &pile_open, &mt, &solo_rel))
        return NULL;
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "burraco._speedups is not configured");
        return NULL;
    }
    Py_ssize_t o[L_COUNT_OF];
    if (PyTuple_GET_SIZE(offs) != L_COUNT_OF) {
        PyErr_SetString(PyExc_ValueError, "encode_layout(): the layout's offsets tuple has the wrong size");
        return NULL;
    }
    for (int i = 0; i < L_COUNT_OF; i++) {
        o[i] = PyLong_AsSsize_t(PyTuple_GET_ITEM(offs, i));
        if (o[i] == -1 && PyErr_Occurred())
            return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(rel), places = o[L_PLACES], K = o[L_K];
    Py_ssize_t nsides = PyTuple_GET_SIZE(order);
    if (PyByteArray_GET_SIZE(raw) != o[L_OBS] * 4 || PyBytes_GET_SIZE(deck_o) < NT || n > 8 || n > places ||
        seat < 0 || seat >= n || PyTuple_GET_SIZE(seat_slot) != n || nsides > K ||
        PyTuple_GET_SIZE(sides) != nsides || o[L_ROWB] <= 0 || o[L_RULES] > o[L_OBS]) {
        PyErr_SetString(PyExc_ValueError, "encode_layout(): bad buffer, deck, seats or sides");
        return NULL;
    }
    long relv[8], slotv[8];
    for (Py_ssize_t s = 0; s < n; s++) {
        relv[s] = PyLong_AsLong(PyTuple_GET_ITEM(rel, s));
        slotv[s] = PyLong_AsLong(PyTuple_GET_ITEM(seat_slot, s));
        if (relv[s] < 0 || relv[s] >= places || slotv[s] < 0 || slotv[s] >= K) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "encode_layout(): a relative place or side slot out of range");
            return NULL;
        }
    }
    float *buf = (float *)PyByteArray_AS_STRING(raw);
    const unsigned char *deck = (const unsigned char *)PyBytes_AS_STRING(deck_o);
    memset(buf, 0, (size_t)o[L_RULES] * sizeof(float));
    PyObject *hands = NULL, *hidden = NULL, *known = NULL, *table = NULL, *gp = NULL, *hand_n = NULL,
             *pending = NULL, *end = NULL, *phase = NULL, *stock = NULL, *pozzetti = NULL, *poz_taken = NULL,
             *poz_by = NULL, *result = NULL;
    int h[NT], u[NT];
    long hidden_poz = 0;
    if (!(hands = get_list(g, A_hands)) || !(hidden = get_list(g, A_hidden)) || !(known = get_list(g, A_known)) ||
        !(hand_n = get_list(g, A_hand_n)) || !(pending = get_list(g, A_poz_pending)) ||
        !(gp = get_list(g, A_pile)) || !(table = PyObject_GetAttr(g, A_table)))
        goto done;
    if (PyList_GET_SIZE(hands) != n || PyList_GET_SIZE(hidden) != n || PyList_GET_SIZE(known) != n ||
        PyList_GET_SIZE(hand_n) != n || PyList_GET_SIZE(pending) != n) {
        PyErr_SetString(PyExc_ValueError, "encode_layout(): the game's seats and rel differ");
        goto done;
    }
    const unsigned char *hb = counts_of(PyList_GET_ITEM(hands, seat));
    const unsigned char *tb = counts_of(table);
    if (hb == NULL || tb == NULL)
        goto done;
    PyObject *hid = PyList_GET_ITEM(hidden, seat);
    for (int c = 0; c < NT; c++)
        h[c] = hb[c];
    if (hid != Py_None) {
        if (!PyList_Check(hid) || PyList_GET_SIZE(hid) < NT) {
            PyErr_SetString(PyExc_TypeError, "encode_layout(): a hidden pozzetto is a list of 53 counts");
            goto done;
        }
        for (int c = 0; c < NT; c++) {
            long x = item_long(hid, c);
            if (x == -1 && PyErr_Occurred())
                goto done;
            hidden_poz += x;
            h[c] = h[c] - x > 0 ? (int)(h[c] - x) : 0;
        }
    }
    for (int c = 0; c < NT; c++)
        u[c] = (int)deck[c] - h[c] - (int)tb[c];
    /* every seat: hand size, hidden pozzetto, pending pozzetto, side slot; the others' known cards */
    for (Py_ssize_t s = 0; s < n; s++) {
        long k = relv[s];
        long x = item_long(hand_n, s);
        if (x == -1 && PyErr_Occurred())
            goto done;
        buf[o[L_SIZES] + k] = (float)x;
        if (PyList_GET_ITEM(hidden, s) != Py_None)
            buf[o[L_HIDDEN] + k] = 1.0f;
        int p = PyObject_IsTrue(PyList_GET_ITEM(pending, s));
        if (p < 0)
            goto done;
        if (p)
            buf[o[L_PENDING] + k] = 1.0f;
        if (o[L_SEATSIDE] >= 0)
            buf[o[L_SEATSIDE] + k * K + slotv[s]] = 1.0f;
        if (s == seat)
            continue;
        if (k == 0) {
            PyErr_SetString(PyExc_ValueError, "encode_layout(): another seat at relative place 0");
            goto done;
        }
        const unsigned char *kb = counts_of(PyList_GET_ITEM(known, s));
        if (kb == NULL)
            goto done;
        for (int c = 0; c < NT; c++)
            u[c] -= kb[c];
        put_counts(buf, o[L_KNOWN1] + (k - 1) * NT, kb);
    }
    /* the visible pile */
    Py_ssize_t np_ = PyList_GET_SIZE(gp);
    long top_card = -1;
    for (Py_ssize_t i = pile_open ? 0 : (np_ > 0 ? np_ - 1 : 0); i < np_; i++) {
        long c = PyLong_AsLong(PyList_GET_ITEM(gp, i));
        if (c < 0 || c >= NT) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "encode_layout(): a pile card outside 0...52");
            goto done;
        }
        buf[o[L_PILE] + c] += 1.0f;
        u[c]--;
        top_card = c;
    }
    if (top_card >= 0)
        buf[o[L_TOP] + top_card] = 1.0f;
    for (int c = 0; c < NT; c++) {
        buf[o[L_HAND] + c] = (float)h[c];
        buf[o[L_UNSEEN] + c] = (float)u[c];
    }
    /* the sides, slot by slot: table counts, meld rows, points, burraco, clean */
    Py_ssize_t row_floats = o[L_ROWB] / 4;
    for (Py_ssize_t j = 0; j < nsides; j++) {
        PyObject *sd = PyTuple_GET_ITEM(sides, j);
        if (!PyTuple_Check(sd) || PyTuple_GET_SIZE(sd) < 6) {
            PyErr_SetString(PyExc_TypeError, "encode_layout(): a side summary is a tuple of six");
            goto done;
        }
        const unsigned char *cb = counts_of(PyTuple_GET_ITEM(sd, 2));
        PyObject *slots = PyTuple_GET_ITEM(sd, 1);
        if (cb == NULL)
            goto done;
        if (!PyList_Check(slots)) {
            PyErr_SetString(PyExc_TypeError, "encode_layout(): a side summary's rows must be a list");
            goto done;
        }
        put_counts(buf, o[L_TABLE0] + j * NT, cb);
        Py_ssize_t ns = PyList_GET_SIZE(slots);
        if (ns > o[L_SLOTS])
            ns = o[L_SLOTS];
        char *base = (char *)(buf + o[L_MELDS0] + j * o[L_SLOTS] * row_floats);
        for (Py_ssize_t k = 0; k < ns; k++) {
            PyObject *sl = PyList_GET_ITEM(slots, k);
            PyObject *row = PyTuple_Check(sl) && PyTuple_GET_SIZE(sl) > 0 ? PyTuple_GET_ITEM(sl, 0) : NULL;
            if (row == NULL || !PyBytes_Check(row) || PyBytes_GET_SIZE(row) != o[L_ROWB]) {
                PyErr_SetString(PyExc_TypeError, "encode_layout(): a meld row must be bytes of one row");
                goto done;
            }
            memcpy(base + k * o[L_ROWB], PyBytes_AS_STRING(row), (size_t)o[L_ROWB]);
        }
        const Py_ssize_t at[3] = {o[L_TP], o[L_BUR], o[L_CLEAN]};
        for (int f = 0; f < 3; f++) {
            double x = PyFloat_AsDouble(PyTuple_GET_ITEM(sd, 3 + f)); /* ints and bools too */
            if (x == -1.0 && PyErr_Occurred())
                goto done;
            buf[at[f] + j] = (float)x;
        }
    }
    /* the seat to act, lone and top-to-use cards, phase, flags, counters */
    long turn, lone, top;
    int top_used;
    if (!(end = PyObject_GetAttr(g, A_end)) || get_long(g, A_turn, &turn) < 0 || get_long(g, A_lone, &lone) < 0 ||
        get_long(g, A_top, &top) < 0 || get_truth(g, A_top_used, &top_used) < 0)
        goto done;
    if (end != Py_None)
        turn = -1;
    if (lone >= 0 && lone < NT && turn >= 0)
        buf[o[L_LONE] + lone] = 1.0f;
    if (top >= 0 && top < NT && !top_used)
        buf[o[L_TOPUSE] + top] = 1.0f;
    if (turn >= 0) {
        if (turn >= n) {
            PyErr_SetString(PyExc_ValueError, "encode_layout(): the seat to act is out of range");
            goto done;
        }
        buf[o[L_TOACT] + relv[turn]] = 1.0f;
    }
    if (o[L_SOLO] >= 0 && solo_rel >= 0 && solo_rel < places)
        buf[o[L_SOLO] + solo_rel] = 1.0f;
    if (!(phase = PyObject_GetAttr(g, A_phase)))
        goto done;
    {
        int is_draw = PyUnicode_Check(phase) && PyUnicode_Compare(phase, S_draw) == 0;
        int is_play = !is_draw && PyUnicode_Check(phase) && PyUnicode_Compare(phase, S_play) == 0;
        buf[o[L_PHASE] + (is_draw ? 0 : is_play ? 1 : 2)] = 1.0f;
    }
    {
        PyObject *const fl[8] = {A_picked, A_drew, A_melded, A_opening, A_must_open, A_last_turn, A_timeout_called,
                                 A_redrawn};
        for (int i = 0; i < 8; i++) {
            int b;
            if (get_truth(g, fl[i], &b) < 0)
                goto done;
            buf[o[L_FLAGS] + i] = (float)b;
        }
        buf[o[L_FLAGS] + 8] = hidden_poz > 0 ? 1.0f : 0.0f;
        buf[o[L_FLAGS] + 9] = turn == seat ? 1.0f : 0.0f;
        long laid, stalemate, turns, left;
        if (!(stock = PyObject_GetAttr(g, A_stock)) || get_long(g, A_laid, &laid) < 0 ||
            get_long(g, A_stalemate_run, &stalemate) < 0 || get_long(g, A_turns, &turns) < 0 ||
            get_long(g, A_timeout_left, &left) < 0)
            goto done;
        Py_ssize_t nst = PyObject_Length(stock);
        if (nst < 0)
            goto done;
        float *cnt = buf + o[L_COUNT];
        cnt[0] = (float)hidden_poz;
        cnt[1] = (float)nst;
        cnt[2] = (float)np_;
        cnt[3] = (float)laid;
        cnt[4] = (float)stalemate;
        cnt[5] = (float)turns;
        cnt[6] = (float)left;
    }
    /* pozzetti on the table, and per side slot taken and by whom */
    if (!(pozzetti = get_list(g, A_pozzetti)) || !(poz_taken = get_list(g, A_poz_taken)) ||
        !(poz_by = get_list(g, A_poz_by)))
        goto done;
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(pozzetti) && k < o[L_P]; k++)
        if (PyList_GET_ITEM(pozzetti, k) != Py_None)
            buf[o[L_POZ] + k] = 1.0f;
    for (Py_ssize_t j = 0; j < nsides; j++) {
        Py_ssize_t side = PyLong_AsSsize_t(PyTuple_GET_ITEM(order, j));
        if (side < 0 || side >= PyList_GET_SIZE(poz_taken) || side >= PyList_GET_SIZE(poz_by)) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "encode_layout(): a side outside poz_taken / poz_by");
            goto done;
        }
        long taken = item_long(poz_taken, side);
        long by = item_long(poz_by, side);
        if (PyErr_Occurred())
            goto done;
        buf[o[L_POZT] + j] = (float)taken;
        if (by >= 0 && by < n)
            buf[o[L_POZBY] + j * places + relv[by]] = 1.0f;
    }
    if (mt != Py_None) {
        if (!PyTuple_Check(mt) || PyTuple_GET_SIZE(mt) > o[L_TP] - o[L_MT]) {
            PyErr_SetString(PyExc_ValueError, "encode_layout(): the match totals are a tuple of the layout's size");
            goto done;
        }
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(mt); i++) {
            double x = PyFloat_AsDouble(PyTuple_GET_ITEM(mt, i));
            if (x == -1.0 && PyErr_Occurred())
                goto done;
            buf[o[L_MT] + i] = (float)x;
        }
    }
    result = Py_None;
    Py_INCREF(result);
done:
    Py_XDECREF(hands);
    Py_XDECREF(hidden);
    Py_XDECREF(known);
    Py_XDECREF(table);
    Py_XDECREF(gp);
    Py_XDECREF(hand_n);
    Py_XDECREF(pending);
    Py_XDECREF(end);
    Py_XDECREF(phase);
    Py_XDECREF(stock);
    Py_XDECREF(pozzetti);
    Py_XDECREF(poz_taken);
    Py_XDECREF(poz_by);
    return result;
}

/* ---- action indices ------------------------------------------------------------------------------------------ */
static int verb_is(PyObject *v, PyObject *want) {
    if (v == want)
        return 1;
    return PyUnicode_Check(v) && PyUnicode_Compare(v, want) == 0;
}

/* append the index slow(a, melds) computes (it fills the caches) */
static int append_slow(PyObject *out, PyObject *slow, PyObject *a, PyObject *melds) {
    Py_INCREF(a); /* borrowed from the list, and Python code runs */
    PyObject *r = PyObject_CallFunctionObjArgs(slow, a, melds, NULL);
    Py_DECREF(a);
    if (r == NULL)
        return -1;
    int rc = PyList_Append(out, r);
    Py_DECREF(r);
    return rc;
}

static int append_index(PyObject *out, Py_ssize_t i) {
    PyObject *r = PyLong_FromSsize_t(i);
    if (r == NULL)
        return -1;
    int rc = PyList_Append(out, r);
    Py_DECREF(r);
    return rc;
}

static PyObject *indices(PyObject *self, PyObject *args) {
    PyObject *legal, *melds, *mc, *ac, *slow, *space = NULL;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O|O!", &PyList_Type, &legal, &PyList_Type, &melds, &PyDict_Type, &mc,
                          &PyDict_Type, &ac, &slow, &PyTuple_Type, &space))
        return NULL;
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "burraco._speedups is not configured");
        return NULL;
    }
    /* the configured (two-pack) action space, or another one's (add offset, add block, meld slots) */
    Py_ssize_t add_offset = ADD_OFFSET, add_block = ADD_BLOCK, max_slots = MAX_SLOTS;
    if (space != NULL) {
        if (PyTuple_GET_SIZE(space) != 3) {
            PyErr_SetString(PyExc_ValueError, "indices(): the action space is (add offset, add block, meld slots)");
            return NULL;
        }
        add_offset = PyLong_AsSsize_t(PyTuple_GET_ITEM(space, 0));
        add_block = PyLong_AsSsize_t(PyTuple_GET_ITEM(space, 1));
        max_slots = PyLong_AsSsize_t(PyTuple_GET_ITEM(space, 2));
        if (PyErr_Occurred())
            return NULL;
    }
    Py_ssize_t na = PyList_GET_SIZE(legal), nm = PyList_GET_SIZE(melds);
    PyObject *out = PyList_New(0);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < na; i++) {
        PyObject *a = PyList_GET_ITEM(legal, i);
        if (!PyTuple_Check(a) || PyTuple_GET_SIZE(a) < 4) { /* not an Action: the Python code says why */
            if (append_slow(out, slow, a, melds) < 0)
                goto fail;
            continue;
        }
        PyObject *v = PyTuple_GET_ITEM(a, 1), *cards = PyTuple_GET_ITEM(a, 2);
        if (verb_is(v, V_DISCARD) && PyTuple_Check(cards) && PyTuple_GET_SIZE(cards) == 1) {
            long c = PyLong_AsLong(PyTuple_GET_ITEM(cards, 0));
            if (c == -1 && PyErr_Occurred())
                goto fail;
            if (append_index(out, DISCARD_OFFSET + c) < 0)
                goto fail;
        } else if (verb_is(v, V_DRAW)) {
            if (append_index(out, DRAW_INDEX) < 0)
                goto fail;
        } else if (verb_is(v, V_PICK)) {
            if (append_index(out, PICK_INDEX) < 0)
                goto fail;
        } else if (verb_is(v, V_MELD)) {
            PyObject *got = PyDict_GetItemWithError(mc, cards); /* borrowed */
            if (got != NULL) {
                if (PyList_Append(out, got) < 0)
                    goto fail;
            } else if (PyErr_Occurred() || append_slow(out, slow, a, melds) < 0)
                goto fail;
        } else if (verb_is(v, V_ADD)) {
            long k = PyLong_AsLong(PyTuple_GET_ITEM(a, 3));
            if (k == -1 && PyErr_Occurred())
                goto fail;
            PyObject *got = NULL;
            if (k >= 1 && k <= nm && k <= max_slots) {
                PyObject *uid = PyObject_GetAttr(PyList_GET_ITEM(melds, k - 1), A_uid);
                if (uid == NULL)
                    goto fail;
                PyObject *key = PyTuple_Pack(2, uid, cards);
                Py_DECREF(uid);
                if (key == NULL)
                    goto fail;
                got = PyDict_GetItemWithError(ac, key); /* the template number within the slot's block */
                Py_DECREF(key);
                if (got == NULL && PyErr_Occurred())
                    goto fail;
            }
            if (got != NULL) {
                long tpl = PyLong_AsLong(got);
                if (tpl == -1 && PyErr_Occurred())
                    goto fail;
                if (append_index(out, add_offset + (k - 1) * add_block + tpl) < 0)
                    goto fail;
            } else if (append_slow(out, slow, a, melds) < 0)
                goto fail;
        } else if (append_slow(out, slow, a, melds) < 0)
            goto fail;
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

static PyObject *mask(PyObject *self, PyObject *args) {
    PyObject *codes;
    Py_ssize_t size;
    if (!PyArg_ParseTuple(args, "O!n", &PyList_Type, &codes, &size))
        return NULL;
    if (size < 0) {
        PyErr_SetString(PyExc_ValueError, "mask(): negative size");
        return NULL;
    }
    PyObject *ba = PyByteArray_FromStringAndSize(NULL, size);
    if (ba == NULL)
        return NULL;
    char *p = PyByteArray_AS_STRING(ba);
    memset(p, 0, (size_t)size);
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(codes); i++) {
        Py_ssize_t c = PyLong_AsSsize_t(PyList_GET_ITEM(codes, i));
        if (c < 0 || c >= size) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_IndexError, "mask(): index %zd outside 0...%zd", c, size - 1);
            Py_DECREF(ba);
            return NULL;
        }
        p[c] = 1;
    }
    return ba;
}

/* ---- module -------------------------------------------------------------------------------------------------- */
static PyMethodDef methods[] = {
    {"configure", configure, METH_O, "Set the observation layout and the action space's offsets."},
    {"encode", encode, METH_VARARGS, "Write a seat's observation into a float32 bytearray (Encoder.encode)."},
    {"encode_layout", encode_layout, METH_VARARGS,
     "The same for the layouts of 3, 5 and 6 players and of three packs (Encoder.encode)."},
    {"indices", indices, METH_VARARGS, "The action indices of engine actions (encoding.legal_indices)."},
    {"mask", mask, METH_VARARGS, "A bytearray of zeros with 1 at every code."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "burraco._speedups",
                                    "C versions of the research environments' inner loop (optional).", -1,
                                    methods};

PyMODINIT_FUNC PyInit__speedups(void) {
    struct {
        PyObject **p;
        const char *s;
    } names[] = {{&A_hands, "hands"},
                 {&A_hidden, "hidden"},
                 {&A_known, "known"},
                 {&A_table, "table"},
                 {&A_pile, "pile"},
                 {&A_hand_n, "hand_n"},
                 {&A_poz_pending, "poz_pending"},
                 {&A_end, "end"},
                 {&A_turn, "turn"},
                 {&A_lone, "lone"},
                 {&A_top, "top"},
                 {&A_top_used, "top_used"},
                 {&A_phase, "phase"},
                 {&A_picked, "picked"},
                 {&A_drew, "drew"},
                 {&A_melded, "melded"},
                 {&A_opening, "opening"},
                 {&A_must_open, "must_open"},
                 {&A_last_turn, "last_turn"},
                 {&A_timeout_called, "timeout_called"},
                 {&A_redrawn, "redrawn"},
                 {&A_stock, "stock"},
                 {&A_laid, "laid"},
                 {&A_stalemate_run, "stalemate_run"},
                 {&A_turns, "turns"},
                 {&A_timeout_left, "timeout_left"},
                 {&A_pozzetti, "pozzetti"},
                 {&A_poz_taken, "poz_taken"},
                 {&A_poz_by, "poz_by"},
                 {&A_uid, "uid"},
                 {&S_draw, "draw"},
                 {&S_play, "play"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if ((*names[i].p = PyUnicode_InternFromString(names[i].s)) == NULL)
            return NULL;
    return PyModule_Create(&module);
}

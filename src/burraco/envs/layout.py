"""The layouts of the research environments per number of players and of packs: where each part of the action
space and each block of the observation sits (:class:`Layout`, :func:`layout_for`).

The 2- and 4-player layout of two packs is the constants: the observation's blocks :data:`OBS_LAYOUT`
(name, offset, size), described by :data:`OBS_DESCRIPTION` and docs/research.md, of :data:`OBS_SIZE` values in all,
and the action space of :mod:`burraco.envs.action_space`. Seats are relative to the observer in playing order
(self, next, partner, previous; in a two-player game the opponent is "next"), sides are own then other. With 3, 5
and 6 players (and three packs) the rules' :class:`Layout` has a block per other seat and per side slot (the own
side first, then the others in playing order), and says who plays with whom now (the pairs of 3 and 5 players form
during the hand). :attr:`Layout.c_offsets` are the offsets the native core's encoder reads
(``burraco._native.Encoding``, :mod:`burraco.envs.native_env`).
"""

from __future__ import annotations

from ..cards import NUM_TYPES
from ..rules import Rules
from ..seats import initial_sides  # the engine's sides at the start of a hand
from .action_space import (
    _ADD_BY_UID,
    _ADD_CACHE,
    _MELD_CACHE,
    _TP2,
    DISCARD_OFFSET,
    DRAW_INDEX,
    MAX_SLOTS,
    MELD_OFFSET,
    PICK_INDEX,
    REDRAW_INDEX,
    _Templates,
    check_rules,
)

#: features of one meld row (see docs/research.md)
MELD_FEATURES = 50

_LAYOUT_SPEC: list[tuple[str, int, str]] = [
    ("hand", NUM_TYPES, "own hand: count of each card type it may look at"),
    ("known_next", NUM_TYPES, "cards the next seat was seen to pick up and still holds"),
    ("known_partner", NUM_TYPES, "the same for the partner (zeros with 2 players)"),
    ("known_previous", NUM_TYPES, "the same for the previous seat (zeros with 2 players)"),
    ("pile", NUM_TYPES, "counts of the visible discard pile (only the top card where the pile is closed)"),
    ("pile_top", NUM_TYPES, "one-hot top card of the pile"),
    ("unseen", NUM_TYPES, "counts of the cards this seat cannot locate"),
    ("table_own", NUM_TYPES, "counts of the cards in the own side's melds"),
    ("table_other", NUM_TYPES, "counts of the cards in the other side's melds"),
    ("melds_own", MAX_SLOTS * MELD_FEATURES, "own side's melds by slot, MELD_FEATURES each"),
    ("melds_other", MAX_SLOTS * MELD_FEATURES, "other side's melds by slot"),
    ("lone", NUM_TYPES, "one-hot card taken from a one-card pile this turn (may not be discarded back)"),
    ("top_to_use", NUM_TYPES, "one-hot top card of a picked-up pile that must still be used this turn"),
    ("hand_sizes", 4, "cards held: self, next, partner, previous"),
    ("to_act", 4, "one-hot seat to act (relative), all zero once the hand is over"),
    ("phase", 3, "one-hot draw, play, end"),
    (
        "flags",
        10,
        "picked, drew, melded, opening, must_open, last_turn, timeout_called, redrawn, "
        "hidden_pozzetto>0, is own turn",
    ),
    (
        "counters",
        7,
        "hidden pozzetto cards, stock size, pile size, points laid this turn, stalemate run, turns, "
        "turns left after a time-out (-1 none)",
    ),
    ("pozzetti", 3, "which dealt pozzetti are still on the table"),
    ("poz_taken", 2, "pozzetti taken: own side, other side"),
    ("poz_by", 8, "one-hot relative seat that took each side's first pozzetto (own side then other)"),
    ("hidden_seats", 4, "seats holding a pozzetto they have not seen yet (relative)"),
    ("poz_pending", 4, "seats whose pozzetto taken with the discard is not yet played (relative)"),
    (
        "scores",
        8,
        "match totals before this hand (own, other), card points on the table (own, other), "
        "side has a burraco (own, other), a clean one (own, other)",
    ),
    (
        "rules",
        10,
        "players==4, pile open, pick-up rule none / must open or attach / must use top card, clean "
        "burraco needed to close, closing needs a discard, first-meld minimum, up-card, sets allowed",
    ),
]

OBS_LAYOUT: tuple[tuple[str, int, int], ...]
_offs: list[tuple[str, int, int]] = []
_acc = 0
for _name, _size, _ in _LAYOUT_SPEC:
    _offs.append((_name, _acc, _size))
    _acc += _size
OBS_LAYOUT = tuple(_offs)
#: the length of the observation vector
OBS_SIZE = _acc
_O = {name: off for name, off, _ in OBS_LAYOUT}
#: one line per block: ``(name, size, meaning)``
OBS_DESCRIPTION: tuple[tuple[str, int, str], ...] = tuple(_LAYOUT_SPEC)

_O_HAND = _O["hand"]
_O_KNOWN = (_O["known_next"], _O["known_partner"], _O["known_previous"])
_O_PILE = _O["pile"]
_O_TOP = _O["pile_top"]
_O_UNSEEN = _O["unseen"]
_O_TABLE = (_O["table_own"], _O["table_other"])
_O_MELDS = (_O["melds_own"], _O["melds_other"])
_O_LONE = _O["lone"]
_O_TOPUSE = _O["top_to_use"]
_O_SIZES = _O["hand_sizes"]
_O_TOACT = _O["to_act"]
_O_PHASE = _O["phase"]
_O_FLAGS = _O["flags"]
_O_COUNT = _O["counters"]
_O_POZ = _O["pozzetti"]
_O_POZT = _O["poz_taken"]
_O_POZBY = _O["poz_by"]
_O_HIDDEN = _O["hidden_seats"]
_O_PENDING = _O["poz_pending"]
_O_SCORES = _O["scores"]
_O_RULES = _O["rules"]

_ROW_BYTES = MELD_FEATURES * 4


class Layout:
    """The action space and the observation layout for one number of players and of packs
    (:func:`layout_for`). The 2- and 4-player layout of at most two packs is the constants
    (:data:`~burraco.envs.action_space.NUM_ACTIONS`, :data:`OBS_SIZE`, :data:`OBS_LAYOUT` …); the others (3, 5
    and 6 players, three packs) have one block per other seat (relative, in playing order), one per side slot (the
    own side first, then the others in playing order of their nearest seat) and
    :data:`~burraco.envs.action_space.MAX_SLOTS` grown with the deck
    (a pack's 54 cards make 18 melds at most). See docs/research.md."""

    def __init__(self, players: int, decks: int) -> None:
        copies = max(2, decks)
        #: the number of players and of packs this layout is for
        self.players = players
        self.decks = copies
        #: True for the 2- and 4-player layout of two packs (the constants)
        self.default = players in (2, 4) and copies == 2
        #: True when the action space is the two-pack one
        self.default_actions = copies == 2
        self.tp = _TP2 if copies == 2 else _Templates(copies)
        #: meld slots per side: one side can hold at most a third of the deck's cards as melds
        self.max_slots = 18 * copies
        self.meld_templates = self.tp.total
        self.add_offset = MELD_OFFSET + self.tp.total
        self.add_block = max(self.tp.group_size)
        self.swap_offset = self.add_offset + self.max_slots * self.add_block
        #: the size of the action space
        self.num_actions = self.swap_offset + self.max_slots * 13
        self.action_layout: tuple[tuple[str, int, int], ...] = (
            ("draw", DRAW_INDEX, 1),
            ("pick", PICK_INDEX, 1),
            ("redraw", REDRAW_INDEX, 1),
            ("discard", DISCARD_OFFSET, NUM_TYPES),
            ("meld", MELD_OFFSET, self.tp.total),
            ("add", self.add_offset, self.max_slots * self.add_block),
            ("swap", self.swap_offset, self.max_slots * 13),
        )
        if self.default_actions:  # action_space's caches, shared by every two-pack layout
            self.meld_cache: dict[tuple[int, ...], int] = _MELD_CACHE
            self.add_cache: dict[tuple[tuple[int, ...], int, tuple[int, ...]], int] = _ADD_CACHE
            self.add_by_uid: dict[tuple[int, tuple[int, ...]], int] = _ADD_BY_UID
        else:
            self.meld_cache, self.add_cache, self.add_by_uid = {}, {}, {}
        if self.default:
            #: relative seat places, side slots, pozzetto flags, match totals
            self.seats, self.side_slots, self.pozzetti, self.scorers = 4, 2, 3, 2
            #: one line per block: ``(name, size, meaning)``
            self.obs_description: tuple[tuple[str, int, str], ...] = OBS_DESCRIPTION
        else:
            n = players
            k = max(2, len(initial_sides(players)))
            self.seats, self.side_slots, self.pozzetti = n, k, max(3, k)
            self.scorers = n if players in (3, 5) else k
            self.obs_description = _generic_spec(n, k, self.pozzetti, self.scorers, self.max_slots)
        offs: list[tuple[str, int, int]] = []
        acc = 0
        for name, size, _ in self.obs_description:
            offs.append((name, acc, size))
            acc += size
        #: ``(name, offset, size)`` of every block, and the length of the observation vector
        self.obs_layout: tuple[tuple[str, int, int], ...] = tuple(offs)
        self.obs_size = acc
        self.offsets: dict[str, int] = {name: off for name, off, _ in offs}
        #: every player keeps a match total (3 and 5 players), else every side
        self.scorers_are_seats = players in (3, 5)
        # the blocks by the names the encoder writes them under (the 2/4-player layout names some differently)
        at = dict(self.offsets)
        at["OBS"] = self.obs_size
        if self.default:
            o = self.offsets
            at.update(
                {
                    "known_1": o["known_next"],
                    "known_2": o["known_partner"],
                    "known_3": o["known_previous"],
                    "table_0": o["table_own"],
                    "table_1": o["table_other"],
                    "melds_0": o["melds_own"],
                    "melds_1": o["melds_other"],
                    "match_totals": o["scores"],
                    "table_points": o["scores"] + 2,
                    "burraco": o["scores"] + 4,
                    "clean": o["scores"] + 6,
                }
            )
        self._at = at
        #: the offsets the native core's encoder takes (``burraco._native.Encoding``; -1 for a block the layout
        #: does not have)
        self.c_offsets: tuple[int, ...] = (
            *(at.get(k, -1) for k in _C_BLOCKS),
            self.seats,
            self.side_slots,
            self.pozzetti,
            self.max_slots,
            _ROW_BYTES,
        )

    def __repr__(self) -> str:
        return (
            f"Layout(players={self.players}, decks={self.decks}, obs_size={self.obs_size}, "
            f"num_actions={self.num_actions})"
        )


#: the blocks of :attr:`Layout.c_offsets`, in the order src/native/envs.c reads them (then the relative places, the
#: side slots, the pozzetto flags, the meld slots and the bytes of a meld row)
_C_BLOCKS = (
    "OBS",
    "hand",
    "known_1",
    "pile",
    "pile_top",
    "unseen",
    "table_0",
    "melds_0",
    "lone",
    "top_to_use",
    "hand_sizes",
    "to_act",
    "phase",
    "flags",
    "counters",
    "pozzetti",
    "poz_taken",
    "poz_by",
    "hidden_seats",
    "poz_pending",
    "seat_side",
    "solo",
    "match_totals",
    "table_points",
    "burraco",
    "clean",
    "rules",
)


def _generic_spec(n: int, k: int, poz: int, scorers: int, slots: int) -> tuple[tuple[str, int, str], ...]:
    """The observation blocks of a layout for ``n`` players and ``k`` side slots (not the 2- and 4-player one)."""
    who = "relative seat (self, next … previous in playing order)"
    spec: list[tuple[str, int, str]] = [("hand", NUM_TYPES, "own hand: count of each card type it may look at")]
    spec += [
        (f"known_{i}", NUM_TYPES, f"cards the seat {i} places after in playing order was seen to pick up and holds")
        for i in range(1, n)
    ]
    spec += [
        ("pile", NUM_TYPES, "counts of the visible discard pile (only the top card where the pile is closed)"),
        ("pile_top", NUM_TYPES, "one-hot top card of the pile"),
        ("unseen", NUM_TYPES, "counts of the cards this seat cannot locate"),
    ]
    spec += [
        (f"table_{j}", NUM_TYPES, f"counts of the cards in side slot {j}'s melds (0 own side, then the others)")
        for j in range(k)
    ]
    spec += [(f"melds_{j}", slots * MELD_FEATURES, f"side slot {j}'s melds by slot") for j in range(k)]
    spec += [
        ("lone", NUM_TYPES, "one-hot card taken from a one-card pile this turn (may not be discarded back)"),
        ("top_to_use", NUM_TYPES, "one-hot top card of a picked-up pile that must still be used this turn"),
        ("hand_sizes", n, f"cards held, by {who}"),
        ("to_act", n, "one-hot relative seat to act, all zero once the hand is over"),
        ("phase", 3, "one-hot draw, play, end"),
        ("flags", 10, dict((x[0], x[2]) for x in _LAYOUT_SPEC)["flags"]),
        ("counters", 7, dict((x[0], x[2]) for x in _LAYOUT_SPEC)["counters"]),
        ("pozzetti", poz, "which dealt pozzetti are still on the table"),
        ("poz_taken", k, "pozzetti taken, by side slot"),
        ("poz_by", k * n, "per side slot, one-hot relative seat that took its first pozzetto"),
        ("hidden_seats", n, "seats holding a pozzetto they have not seen yet (relative)"),
        ("poz_pending", n, "seats whose pozzetto taken with the discard is not yet played (relative)"),
        ("seat_side", n * k, "per relative seat, one-hot side slot it plays in now (3, 5: pairs form in the hand)"),
        ("solo", n, "one-hot relative seat playing solo against the pairs (3 and 5 players), else zeros"),
        (
            "match_totals",
            scorers,
            "match totals before this hand: per relative seat with 3 and 5 players, per side slot otherwise",
        ),
        ("table_points", k, "card points on the table, by side slot"),
        ("burraco", k, "side has a burraco, by side slot"),
        ("clean", k, "side has a clean burraco, by side slot"),
        ("rules", 11, "the ten rule features of the 2- and 4-player layout, then the solo against pairs"),
    ]
    return tuple(spec)


_LAYOUTS: dict[tuple[int, int], Layout] = {}
#: the 2- and 4-player layout of two packs: the constants
_DEFAULT = Layout(4, 2)


def _layout(layout: Layout | Rules) -> Layout:
    """The layout given, or the rules' (:func:`layout_for`)."""
    if isinstance(layout, Layout):
        return layout
    if isinstance(layout, Rules):
        return layout_for(layout)
    raise TypeError(f"the action space's layout is a Layout or the Rules (layout_for), not {layout!r}")


def layout_for(rules: Rules) -> Layout:
    """The :class:`Layout` of these rules (by their number of players and of packs); :class:`EncodingError` for
    rules the spaces do not cover (:func:`check_rules`)."""
    check_rules(rules)
    got = _LAYOUTS.get((rules.players, rules.decks))
    if got is None:
        got = _LAYOUTS[(rules.players, rules.decks)] = Layout(rules.players, rules.decks)
    return got


__all__ = [
    "Layout",
    "MELD_FEATURES",
    "OBS_DESCRIPTION",
    "OBS_LAYOUT",
    "OBS_SIZE",
    "layout_for",
]

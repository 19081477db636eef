"""Rule sets as data (RULES.md §14, §17 and the decisions of §0.1).

A :class:`Rules` value is a frozen dataclass; the engine branches on its fields, never on a preset's name.
:func:`preset` builds one of the named presets of RECORDS.md §3, with overrides::

    >>> r = preset("italian", target=1005)
    >>> r.target, r.players, r.bonus_clean
    (1005, 4, 200)
    >>> preset("brazilian").value_joker
    20
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from importlib import resources
from types import MappingProxyType
from typing import Any


class RulesError(ValueError):
    """An unknown preset, an unknown override key or a value that does not fit the rules."""


#: the enums whose members are made: :class:`_Choice` refuses every change to their members
_SEALED: set[type] = set()


class _Choice(str, Enum):
    """A rule's choice among named values. Its members, shared by every rule set (and reachable from every view),
    refuse to be changed once their enum is made (an Enum member takes new attributes otherwise, even ``_value_``)."""

    def __setattr__(self, name: str, value: object) -> None:
        if type(self) in _SEALED:
            raise AttributeError(f"{type(self).__name__}.{self.name} is an immutable value: {name!r} cannot be set")
        super().__setattr__(name, value)

    def __delattr__(self, name: str) -> None:
        if type(self) in _SEALED:
            raise AttributeError(f"{type(self).__name__}.{self.name} is an immutable value: {name!r} cannot be deleted")
        super().__delattr__(name)


class PickupRule(_Choice):
    """What a player must do in a turn in which he picked up the discard pile (§6.3, §14.1 row 17)."""

    NONE = "none"
    MUST_OPEN_OR_ATTACH = "must_open_or_attach"
    MUST_USE_TOP_CARD = "must_use_top_card"


class StockEnd(_Choice):
    """What happens when the stock runs low (§9.2, §0.1 Brazilian stock end)."""

    END_AFTER_THIRD_LAST = "end_after_third_last"
    MORTO_BECOMES_STOCK = "morto_becomes_stock"


class TimeoutPolicy(_Choice):
    """Who plays the final round after a time-out (§9.4.2, C-29)."""

    NONE = "none"
    ROUND_FROM_CURRENT = "round_from_current"
    FIBUR_PARTNER_OF_NEXT_DRAWER = "fibur_partner_of_next_drawer"


class BurracoNeeded(_Choice):
    """The burraco class a side needs on the table to close (§8.1, §14.1 row 25)."""

    ANY = "any"
    CLEAN = "clean"


_SEALED.update((PickupRule, StockEnd, TimeoutPolicy, BurracoNeeded))

ALL_SET_RANKS = frozenset({1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13})


@dataclass(frozen=True)
class Rules:
    """Every parameter of a rule set. Defaults are ``IT_FIBUR`` played as a free game to 2005 (``italian``)."""

    name: str = "italian"
    #: number of players: 2 (1 v 1), 4 (2 v 2), 6 (three pairs); 3 and 5 (the solo and the pairs, §14.3–§14.4)
    players: int = 4
    #: 52-card packs in the deck (2; 3 is for the 5- and 6-player games of §14.4)
    decks: int = 2
    #: jokers in the deck (4; 0 for the Brazilian no-joker option, C-43)
    jokers: int = 4
    #: suit order for the dealer draw, highest first (§1.4; pagat uses bridge order "shdc", C-2)
    suit_order: str = "hdcs"
    # card values (§1.3, §10.3)
    value_joker: int = 30
    value_two: int = 20
    value_ace: int = 15
    value_high: int = 10  # K Q J 10 9 8
    value_low: int = 5  # 7 6 5 4 3
    hand_size: int = 11
    pozzetto_size: int = 11
    #: a three-morto game (§14.6, option B): three pozzetti, the third for the side second to take its first
    three_morto: bool = False
    #: 3 and 5 players (§14.3, §14.4): everybody plays alone until the first player goes out; he takes the big
    #: pozzetto and plays solo, the others form pairs (alternating seats) for the rest of the hand. False with 3 or
    #: 5 players: every player is his own side for the whole hand and takes his own pozzetto (the phase after 1000)
    solo_pair: bool = False
    #: the solo's pozzetto (§14.3: 18 cards, dealt first)
    solo_pozzetto_size: int = 18
    #: how a pair's hand score is split between its two players (§14.3 [PROPOSED]): "up" rounds each half up
    #: (305 -> 153 each, -305 -> -152 each; STENO), "down" rounds it down
    pair_split_rounding: str = "up"
    #: 3 and 5 players: once a player's match total reaches this, the following hands are played individually
    #: (solo_pair off, one 11-card pozzetto each; §14.3, §14.4); None = never
    individual_from: int | None = None
    up_card: bool = True
    #: +1 clockwise (N E S W), -1 counter-clockwise
    direction: int = 1
    #: ranks (1 = Ace … 13 = King) of which sets may be made; empty = sequences only
    allowed_set_ranks: frozenset[int] = ALL_SET_RANKS
    allow_set_of_twos: bool = False
    max_wilds: int = 1
    max_set_size: int = 9
    two_natural_aces: bool = False
    max_sequence_len: int = 14
    forbid_duplicate_set_rank: bool = True
    forbid_identical_sequences: bool = True
    discard_pile_open: bool = True
    pickup_rule: PickupRule = PickupRule.NONE
    single_card_pile_no_rediscard: bool = True
    pickup_with_one_card_allowed: bool = True
    #: an indirect pozzetto not yet played when the hand ends counts as taken (Italian) or not (Brazilian)
    indirect_pozzetto_counts_if_unplayed: bool = True
    pozzetto_penalty: int = 100
    #: 6-player house rule: a side may take its pozzetto only once it has a burraco
    pozzetto_requires_burraco: bool = False
    closing_burraco: BurracoNeeded = BurracoNeeded.ANY
    closing_requires_discard: bool = True
    closing_discard_may_be_wild: bool = False
    closing_bonus: int = 100
    burraco_min_len: int = 7
    bonus_clean: int = 200
    #: False = no semipulito class: such a burraco counts as dirty
    semiclean: bool = True
    bonus_semiclean: int = 150
    semipulito_wild_at_end_only: bool = False
    bonus_dirty: int = 100
    #: Brazilian honours: a natural 13-card run (canastra de 500) and A…A (canastra real, 1000)
    extra_honours: bool = False
    bonus_ace_to_king: int = 500
    bonus_ace_to_ace: int = 1000
    #: Brazilian option: a side without a clean canastra scores its melds negative
    no_canastra_penalty: bool = False
    #: first-meld minimum in card points (§14.7); 0 = none
    min_first_meld: int = 0
    min_meld_required_for_pickup: bool = False
    stock_end: StockEnd = StockEnd.END_AFTER_THIRD_LAST
    timeout_policy: TimeoutPolicy = TimeoutPolicy.ROUND_FROM_CURRENT
    #: free game target; None with a fixed number of hands
    target: int | None = 2005
    #: fixed number of hands (the tournament form, with VP and time-outs)
    hands_per_match: int | None = None
    #: "auto" = the FIBUR 3-hand / 4-hand table by ``hands_per_match``; a file name in data/vp_tables; or None
    vp_table: str | None = "auto"
    #: a hand reaching this many turns ends, scored as stock exhaustion (§0.1)
    turn_cap: int = 500
    #: stalemate detection of §9.3.2
    stalemate: bool = True
    #: house rule (C-18, SEED2): a player may give a sequence the natural card its wild stands for and take the wild
    #: into his hand (action ``swap``); off in every preset (§5.1: wilds never leave their meld)
    wild_may_return_to_hand: bool = False
    #: house rule (§14.1 row 36, C-45): the first player may put his first stock card face up on the pile and draw
    #: another, once (action ``redraw``)
    first_player_redraw: bool = False
    #: free-form data carried with the rules (not a rule): kept as a read-only copy (:func:`frozen_data`), so that
    #: nobody holding the rules (a computer player through its view) can change them for every game that shares them
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "extra", frozen_data(self.extra))
        if self.players not in (2, 3, 4, 5, 6):
            raise RulesError(f"players must be 2 to 6, not {self.players!r}")
        if self.players in (3, 5, 6) and (
            self.stock_end is not StockEnd.END_AFTER_THIRD_LAST or not self.indirect_pozzetto_counts_if_unplayed
        ):
            raise RulesError(
                f"{self.players} players are Italian variants (RULES.md §14.3–§14.4); Brazilian rule sets are "
                "played by 2 or 4"
            )
        if self.solo_pair and self.players not in (3, 5):
            raise RulesError("solo_pair (the solo against pairs) is for 3 and 5 players (RULES.md §14.3–§14.4)")
        if self.pair_split_rounding not in ("up", "down"):
            raise RulesError(f"pair_split_rounding must be 'up' or 'down', not {self.pair_split_rounding!r}")
        if self.individual_from is not None and (self.players not in (3, 5) or self.individual_from <= 0):
            raise RulesError("individual_from is a positive total, for 3 and 5 players")
        if self.solo_pozzetto_size < 1:
            raise RulesError("solo_pozzetto_size must be at least 1")
        if self.three_morto and (self.players != 4 or self.stock_end is not StockEnd.END_AFTER_THIRD_LAST):
            raise RulesError(
                "three_morto is a house rule for 4-player Italian rule sets only (RULES.md §0.1)"
            )
        if self.target is None and self.hands_per_match is None:
            raise RulesError("a match needs a target or a fixed number of hands")
        if self.hands_per_match is not None and self.hands_per_match < 1:
            raise RulesError("hands_per_match must be at least 1")
        if self.max_wilds < 1:
            raise RulesError("max_wilds must be at least 1")
        if self.direction not in (1, -1):
            raise RulesError("direction must be 1 (clockwise) or -1 (counter-clockwise)")
        if self.turn_cap < 1 or self.hand_size < 1 or self.pozzetto_size < 1:
            raise RulesError("turn_cap, hand_size and pozzetto_size must be at least 1")
        if self.target is not None and self.target <= 0:
            raise RulesError("target must be a positive score")
        if self.burraco_min_len < 3 or self.max_set_size < 3 or self.max_sequence_len < 3:
            raise RulesError("burraco_min_len, max_set_size and max_sequence_len must be at least 3")
        if min(self.value_joker, self.value_two, self.value_ace, self.value_high, self.value_low) < 0:
            raise RulesError("card values may not be negative")
        if self.vp_table not in (None, "auto"):
            load_vp_table(self.vp_table)
        if not 1 <= self.decks <= 3 or not 0 <= self.jokers <= 12:
            raise RulesError("decks must be 1 to 3 and jokers 0 to 12")
        if sorted(self.suit_order) != sorted("hdcs"):
            raise RulesError("suit_order must name the four suits h d c s once each")
        if self.stock_size < 3:
            raise RulesError("the deck is too small for this deal")

    def __hash__(self) -> int:
        # rule sets are dictionary keys in the engine's caches: hash the fields once
        h: int | None = self.__dict__.get("_hash_cache")
        if h is None:
            h = hash(tuple(getattr(self, f.name) for f in dataclasses.fields(self) if f.compare))
            object.__setattr__(self, "_hash_cache", h)
        return h

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.pop("_hash_cache", None)  # string hashes differ between processes
        state["extra"] = _thawed(self.extra)  # a read-only mapping does not pickle
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state, extra=frozen_data(state.get("extra", {})))

    # ----- derived values -------------------------------------------------------------------------------------
    @property
    def pozzetto_sizes(self) -> tuple[int, ...]:
        """The sizes of the pozzetti dealt, in the order they are taken (RECORDS.md §3: the big one first): one per
        side that can take one — two for 2 and 4 players (three with three mortos), three for the three pairs of
        6 players, the solo's and one per pair with ``solo_pair``, one per player otherwise."""
        p = self.players
        if p in (2, 4):
            return (self.pozzetto_size,) * (3 if self.three_morto else 2)
        if p == 6:
            return (self.pozzetto_size,) * 3
        if self.solo_pair:
            return (self.solo_pozzetto_size,) + (self.pozzetto_size,) * ((p - 1) // 2)
        return (self.pozzetto_size,) * p

    @property
    def num_pozzetti(self) -> int:
        """Pozzetti dealt (:attr:`pozzetto_sizes`)."""
        return len(self.pozzetto_sizes)

    @property
    def deck_size(self) -> int:
        return 52 * self.decks + self.jokers

    def deck_counts(self) -> bytes:
        """Copies of each of the 53 card types in the deck."""
        return bytes([self.decks] * 52 + [self.jokers])

    @property
    def stock_size(self) -> int:
        """Cards in the stock after the deal."""
        return (
            self.deck_size
            - self.players * self.hand_size
            - sum(self.pozzetto_sizes)
            - (1 if self.up_card else 0)
        )

    @property
    def has_timeouts(self) -> bool:
        """Time-outs exist only with a fixed number of hands (§0.1)."""
        return self.hands_per_match is not None and self.timeout_policy is not TimeoutPolicy.NONE

    def card_values(self) -> tuple[int, ...]:
        """Point value of each of the 53 card types."""
        got = _VALUES.get(self)
        if got is None:
            got = _VALUES[self] = self._card_values()
        return got

    def _card_values(self) -> tuple[int, ...]:
        vals = []
        for c in range(52):
            r = c % 13 + 1
            if r == 1:
                vals.append(self.value_ace)
            elif r == 2:
                vals.append(self.value_two)
            elif r >= 8:
                vals.append(self.value_high)
            else:
                vals.append(self.value_low)
        vals.append(self.value_joker)
        return tuple(vals)

    def vp_table_rows(self) -> list[tuple[int, int, int]] | None:
        """The VP table in force as rows ``(upper bound of the MP difference, winner VP, loser VP)``."""
        name = self.vp_table
        if name is None:
            return None
        if name == "auto":
            if self.hands_per_match == 3:
                name = "fibur_3_hands"
            elif self.hands_per_match == 4:
                name = "fibur_4_hands"
            else:
                return None
        return load_vp_table(name)

    def replace(self, **changes: Any) -> Rules:
        """A copy with some parameters changed (values are checked like record overrides; another number of
        players brings that count's parameters as in :func:`preset`)."""
        ch = {k: _coerce(k, v) for k, v in changes.items()}
        players = ch.get("players", self.players)
        if players != self.players:
            for k, v in _count_defaults(self, players).items():
                ch.setdefault(k, v)
        return dataclasses.replace(self, **ch)

    def to_json(self) -> dict[str, Any]:
        """The parameters as a JSON-friendly dict."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            if f.name == "extra":
                continue
            v = getattr(self, f.name)
            if isinstance(v, Enum):
                v = v.value
            elif isinstance(v, frozenset):
                v = sorted(v)
            out[f.name] = v
        return out


def frozen_data(value: Any) -> Any:
    """A read-only copy of free-form data: every mapping a read-only mapping (``types.MappingProxyType`` of a copy),
    every list and tuple a tuple, every set a frozenset, recursively; other values as they are.

    >>> d = frozen_data({"a": [1, {"b": 2}]})
    >>> d["a"], type(d).__name__
    ((1, mappingproxy({'b': 2})), 'mappingproxy')
    """
    if isinstance(value, Mapping):
        return MappingProxyType({k: frozen_data(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(frozen_data(v) for v in value)
    if isinstance(value, set | frozenset):
        return frozenset(frozen_data(v) for v in value)
    return value


def _thawed(value: Any) -> Any:
    """:func:`frozen_data`'s mappings as plain dicts again (to pickle them)."""
    if isinstance(value, Mapping):
        return {k: _thawed(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return tuple(_thawed(v) for v in value)
    return value


_VALUES: dict[Rules, tuple[int, ...]] = {}
_VP_CACHE: dict[str, list[tuple[int, int, int]]] = {}


def register_vp_table(name: str, rows: list[tuple[int, int, int]]) -> None:
    """Make a VP table available under ``name`` (rows: upper bound of the MP difference, winner VP, loser VP;
    ascending bounds, the last one standing for "and above"). Tournament organisers load their own this way."""
    clean = [(int(b), int(w), int(lo)) for b, w, lo in rows]
    if not clean or any(b2 <= b1 for (b1, _, _), (b2, _, _) in zip(clean, clean[1:], strict=False)):
        raise RulesError("a VP table needs rows with strictly ascending bounds")
    _VP_CACHE[name] = clean


def load_vp_table(name: str) -> list[tuple[int, int, int]]:
    """Load a VP table shipped in ``burraco/data/vp_tables/<name>.json`` (RULES.md §12.3)."""
    if name in _VP_CACHE:
        return _VP_CACHE[name]
    try:
        text = resources.files("burraco").joinpath("data", "vp_tables", f"{name}.json").read_text()
    except FileNotFoundError as e:
        raise RulesError(f"unknown VP table {name!r}") from e
    data = json.loads(text)
    rows = [(int(r["max_diff"]), int(r["winner"]), int(r["loser"])) for r in data["rows"]]
    _VP_CACHE[name] = rows
    return rows


def victory_points(rows: list[tuple[int, int, int]], diff: int) -> tuple[int, int]:
    """(winner VP, loser VP) for an absolute MP difference ``diff`` (first row with ``diff`` ≤ its bound)."""
    d = abs(diff)
    for bound, w, lo in rows:
        if d <= bound:
            return w, lo
    return rows[-1][1], rows[-1][2]


_ITALIAN = Rules()

_BRAZILIAN = Rules(
    name="brazilian",
    value_joker=20,
    value_two=10,
    up_card=False,
    allowed_set_ranks=frozenset(),
    two_natural_aces=True,
    closing_burraco=BurracoNeeded.CLEAN,
    closing_requires_discard=False,
    indirect_pozzetto_counts_if_unplayed=False,
    stock_end=StockEnd.MORTO_BECOMES_STOCK,
    semiclean=False,
    target=3000,
)

PRESETS: dict[str, Rules] = {
    "italian": _ITALIAN,
    "italian-tournament": dataclasses.replace(
        _ITALIAN, name="italian-tournament", target=None, hands_per_match=3
    ),
    "italian-2p": dataclasses.replace(_ITALIAN, name="italian-2p", players=2),
    "international": dataclasses.replace(
        _ITALIAN,
        name="international",
        allowed_set_ranks=frozenset({1, 3}),
        pickup_rule=PickupRule.MUST_OPEN_OR_ATTACH,
        closing_burraco=BurracoNeeded.CLEAN,
        semiclean=False,
    ),
    # RULES.md §14.3: three players, two decks, the 18-card pozzetto for the solo, the pair's score split; from a
    # total of 1000 individual play with three 11-card pozzetti; won at 1505 (EB-x)
    "italian-3p": dataclasses.replace(_ITALIAN, name="italian-3p", players=3, solo_pair=True, individual_from=1000,
                                      target=1505),
    # RULES.md §14.4: five players, three decks (six jokers), pozzetti 18 + 11 + 11, two pairs by alternating seats
    "italian-5p": dataclasses.replace(_ITALIAN, name="italian-5p", players=5, decks=3, jokers=6, max_set_size=13,
                                      solo_pair=True, individual_from=1000),
    # RULES.md §14.4: six players in three fixed pairs (partners opposite), three decks, three 11-card pozzetti, a
    # pozzetto only after a burraco
    "italian-6p": dataclasses.replace(_ITALIAN, name="italian-6p", players=6, decks=3, jokers=6, max_set_size=13,
                                      pozzetto_requires_burraco=True),
    "brazilian": _BRAZILIAN,
    "brazilian-2p": dataclasses.replace(_BRAZILIAN, name="brazilian-2p", players=2),
    "brazilian-fechado": dataclasses.replace(
        _BRAZILIAN,
        name="brazilian-fechado",
        discard_pile_open=False,
        pickup_rule=PickupRule.MUST_USE_TOP_CARD,
        allowed_set_ranks=ALL_SET_RANKS,
        closing_burraco=BurracoNeeded.ANY,
    ),
    "brazilian-stbl": dataclasses.replace(
        _BRAZILIAN,
        name="brazilian-stbl",
        discard_pile_open=False,
        pickup_rule=PickupRule.MUST_USE_TOP_CARD,
    ),
}

#: The override keys named in RECORDS.md §3 (every other field of :class:`Rules` is accepted too).
CONTRACT_OVERRIDES = (
    "players",
    "target",
    "hands_per_match",
    "min_first_meld",
    "three_morto",
    "semiclean",
    "extra_honours",
)

_FIELDS = {f.name: f for f in dataclasses.fields(Rules) if f.name not in ("name", "extra")}


def _coerce(key: str, value: Any) -> Any:
    if key not in _FIELDS:
        raise RulesError(f"unknown rule override {key!r} (known: {', '.join(sorted(_FIELDS))})")
    default = getattr(_ITALIAN, key)
    try:
        if isinstance(default, Enum):
            return type(default)(value)
        if isinstance(default, frozenset):
            return frozenset(int(v) for v in value)
        if isinstance(default, bool):
            if not isinstance(value, bool):
                raise TypeError
            return value
        if isinstance(default, str):
            if not isinstance(value, str):
                raise TypeError
            return value
        if key in ("target", "hands_per_match", "vp_table"):
            if value is None:
                return None
            return str(value) if key == "vp_table" else _int(value)
        if isinstance(default, int):
            return _int(value)
    except (TypeError, ValueError) as e:
        raise RulesError(f"rule override {key!r}: {value!r} is not a valid value") from e
    return value


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError
    return value


#: what changes with the number of players (RULES.md §14.2–§14.4): decks, jokers, the largest set, the solo and
#: the pairs of 3 and 5 players, the 6-player pozzetto rule, and the free game's target
_BY_COUNT: dict[int, dict[str, Any]] = {
    2: {"decks": 2, "jokers": 4, "max_set_size": 9, "solo_pair": False, "individual_from": None,
        "pozzetto_requires_burraco": False, "target": 2005},
    3: {"decks": 2, "jokers": 4, "max_set_size": 9, "solo_pair": True, "individual_from": 1000,
        "pozzetto_requires_burraco": False, "target": 1505},
    4: {"decks": 2, "jokers": 4, "max_set_size": 9, "solo_pair": False, "individual_from": None,
        "pozzetto_requires_burraco": False, "target": 2005},
    5: {"decks": 3, "jokers": 6, "max_set_size": 13, "solo_pair": True, "individual_from": 1000,
        "pozzetto_requires_burraco": False, "target": 2005},
    6: {"decks": 3, "jokers": 6, "max_set_size": 13, "solo_pair": False, "individual_from": None,
        "pozzetto_requires_burraco": True, "target": 2005},
}


def _count_defaults(base: Rules, players: int) -> dict[str, Any]:
    """The parameters a ``players`` override brings: those of the new count where the preset has its own count's
    values (a preset's own choices stay: a custom target, a tournament's fixed hands)."""
    new = _BY_COUNT.get(players)
    old = _BY_COUNT.get(base.players)
    if new is None or old is None:
        return {}
    out: dict[str, Any] = {}
    for k, v in new.items():
        if getattr(base, k) == old[k]:
            out[k] = v
    return out


#: presets that 3, 5 and 6 players may not play (RULES.md §0.1 "Player count": Italian FIBUR presets only)
_TWO_AND_FOUR_ONLY = frozenset(n for n in PRESETS if n == "international" or n.startswith("brazilian"))


def preset(name: str = "italian", /, **overrides: Any) -> Rules:
    """A named preset (RECORDS.md §3) with optional overrides of single parameters."""
    if name not in PRESETS:
        raise RulesError(f"unknown preset {name!r} (known: {', '.join(PRESETS)})")
    base = PRESETS[name]
    if not overrides:
        return base
    changes = {k: _coerce(k, v) for k, v in overrides.items()}
    players = changes.get("players", base.players)
    if players in (3, 5, 6) and name in _TWO_AND_FOUR_ONLY:
        raise RulesError(
            f"{name} is played by 2 or 4, not {players}: 3, 5 and 6 players are Italian FIBUR variants "
            "(RULES.md §0.1 'Player count', §14.3, §14.4): use italian-3p, italian-5p or italian-6p"
        )
    if players != base.players:
        # another number of players brings that count's parameters (RULES.md §14.3–§14.4) unless given
        for k, v in _count_defaults(base, players).items():
            changes.setdefault(k, v)
    # a fixed number of hands without an explicit target turns a free game into the tournament form
    if changes.get("hands_per_match") is not None and "target" not in changes:
        changes["target"] = None
    try:
        return dataclasses.replace(base, **changes)
    except RulesError:
        raise
    except (TypeError, ValueError) as e:
        raise RulesError(str(e)) from e


def rules_from_json(spec: Any) -> Rules:
    """Rules from a record's ``rules`` value: a preset name or ``{"preset": name, override: value, …}``."""
    if isinstance(spec, str):
        return preset(spec)
    if isinstance(spec, dict):
        spec = dict(spec)
        name = spec.pop("preset", "italian")
        if not isinstance(name, str):
            raise RulesError("rules.preset must be a preset name")
        return preset(name, **spec)
    raise RulesError("rules must be a preset name or an object with a 'preset' and overrides")


def rules_to_json(rules: Rules) -> Any:
    """The shortest record form of ``rules``: the preset name, or the preset plus overrides."""
    base = PRESETS.get(rules.name, _ITALIAN)
    diff: dict[str, Any] = {}
    for key in _FIELDS:
        v = getattr(rules, key)
        if v != getattr(base, key):
            if isinstance(v, Enum):
                v = v.value
            elif isinstance(v, frozenset):
                v = sorted(v)
            diff[key] = v
    if not diff:
        return rules.name
    return {"preset": rules.name if rules.name in PRESETS else "italian", **diff}

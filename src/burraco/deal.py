"""Deals: uniform from a seed, given explicitly, or by the physical procedure of RULES.md §2.3; the dealer draw of §2.2.

A deal lists every card once: the seats' hands, the pozzetti (``pozzetti[0]`` is taken first), the up-card and the
stock (top card first), exactly as a record writes it (RECORDS.md §3).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from .cards import JOKER, cards_str, parse_cards
from .rules import Rules


class DealError(ValueError):
    """A deal whose shape does not match the rules or that does not use the deck exactly."""


@dataclass(frozen=True)
class Deal:
    """The cards of one hand before the first action."""

    hands: tuple[tuple[int, ...], ...]
    pozzetti: tuple[tuple[int, ...], ...]
    upcard: int | None
    stock: tuple[int, ...]  # top card first

    def check(self, rules: Rules) -> None:
        """Raise :class:`DealError` unless the deal has the shape of ``rules`` and uses the deck exactly."""
        if len(self.hands) != rules.players:
            raise DealError(f"the deal has {len(self.hands)} hands; these rules have {rules.players} players")
        for i, h in enumerate(self.hands):
            if len(h) != rules.hand_size:
                raise DealError(f"hand {i + 1} of the deal has {len(h)} cards, not {rules.hand_size}")
        sizes = rules.pozzetto_sizes
        if len(self.pozzetti) != len(sizes):
            raise DealError(f"the deal has {len(self.pozzetti)} pozzetti, not {len(sizes)}")
        for i, (p, size) in enumerate(zip(self.pozzetti, sizes, strict=True)):
            if len(p) != size:
                why = " (the solo's pozzetto is dealt first, RULES.md §14.3)" if i == 0 and rules.solo_pair else ""
                raise DealError(f"pozzetto {i + 1} has {len(p)} cards, not {size}{why}")
        if rules.up_card and self.upcard is None:
            raise DealError("these rules turn an up-card, and the deal has none")
        if not rules.up_card and self.upcard is not None:
            raise DealError("these rules have no up-card, and the deal has one")
        if len(self.stock) != rules.stock_size:
            raise DealError(f"the stock has {len(self.stock)} cards, not {rules.stock_size}")
        used = Counter(self.all_cards())
        want = Counter({c: rules.decks for c in range(52)})
        if rules.jokers:
            want[JOKER] = rules.jokers
        if used != want:
            extra = used - want
            missing = want - used
            parts = []
            if extra:
                parts.append("too many " + cards_str(sorted(extra.elements())))
            if missing:
                parts.append("missing " + cards_str(sorted(missing.elements())))
            raise DealError("the deal does not use the deck exactly: " + "; ".join(parts))

    def all_cards(self) -> list[int]:
        out: list[int] = []
        for h in self.hands:
            out.extend(h)
        for p in self.pozzetti:
            out.extend(p)
        if self.upcard is not None:
            out.append(self.upcard)
        out.extend(self.stock)
        return out

    def to_json(self, seats: tuple[str, ...]) -> dict[str, object]:
        return {
            "hands": {s: cards_str(h) for s, h in zip(seats, self.hands, strict=True)},
            "pozzetti": [cards_str(p) for p in self.pozzetti],
            "upcard": None if self.upcard is None else cards_str([self.upcard]),
            "stock": cards_str(self.stock),
        }

    @staticmethod
    def from_json(data: object, seats: tuple[str, ...]) -> Deal:
        """Read a record's ``deal`` object (card strings as in RECORDS.md §1)."""
        if not isinstance(data, dict):
            raise DealError("a deal must be an object with hands, pozzetti, upcard and stock")
        try:
            hands_d = data["hands"]
            if not isinstance(hands_d, dict):
                raise DealError("deal.hands must map seats to cards")
            unknown = set(hands_d) - set(seats)
            if unknown:
                raise DealError(
                    f"deal.hands names unknown seats {sorted(unknown)} (seats are {' '.join(seats)})"
                )
            hands = tuple(tuple(parse_cards(_s(hands_d.get(s, "")))) for s in seats)
            pozz = data.get("pozzetti", [])
            if not isinstance(pozz, list):
                raise DealError("deal.pozzetti must be a list")
            pozzetti = tuple(tuple(parse_cards(_s(p))) for p in pozz)
            up = data.get("upcard")
            upcard = None
            if up is not None:
                ups = parse_cards(_s(up))
                if len(ups) != 1:
                    raise DealError("deal.upcard must be one card or null")
                upcard = ups[0]
            stock = tuple(parse_cards(_s(data.get("stock", ""))))
        except KeyError as e:
            raise DealError(f"the deal has no {e.args[0]!r}") from e
        except ValueError as e:
            if isinstance(e, DealError):
                raise
            raise DealError(f"the deal: {e}") from e
        return Deal(hands, pozzetti, upcard, stock)


def _s(v: object) -> str:
    if not isinstance(v, str):
        raise DealError(f"cards must be written as a string, not {v!r}")
    return v


def _deck(rules: Rules) -> list[int]:
    return [c for c in range(52) for _ in range(rules.decks)] + [JOKER] * rules.jokers


def deal_from_seed(rules: Rules, seed: int | random.Random) -> Deal:
    """A uniformly random deal (RULES.md §2.3 implementation note)."""
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    deck = _deck(rules)
    rng.shuffle(deck)
    return deal_from_order(rules, deck)


def deal_from_order(rules: Rules, deck: list[int]) -> Deal:
    """Cut a shuffled deck into a deal: pozzetti, hands, up-card, then the stock (top card first)."""
    i = 0
    pozzetti = []
    for size in rules.pozzetto_sizes:
        pozzetti.append(tuple(deck[i : i + size]))
        i += size
    hands = []
    for _ in range(rules.players):
        hands.append(tuple(deck[i : i + rules.hand_size]))
        i += rules.hand_size
    upcard = None
    if rules.up_card:
        upcard = deck[i]
        i += 1
    return Deal(tuple(hands), tuple(pozzetti), upcard, tuple(deck[i:]))


def deal_physical(rules: Rules, seed: int | random.Random, dealer: int) -> Deal:
    """Deal as at the table (RULES.md §2.3): shuffle, cut, pozzetti from the bottom of the cut, one card at a time.

    The player on the dealer's right lifts the top part of the pack (at least enough for the pozzetti plus a
    margin), forms the pozzetti one card at a time from the bottom of his packet (the pile that got the first card
    goes on top), while the dealer deals one card at a time clockwise from his left, turns the up-card and puts the
    rest of his packet on the cutter's remainder to form the stock. ``dealer`` is a seat index.
    """
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    deck = _deck(rules)
    rng.shuffle(deck)  # deck[0] is the top card
    sizes = rules.pozzetto_sizes
    n_pozz = sum(sizes)
    dealt = rules.players * rules.hand_size + (1 if rules.up_card else 0)
    lo = n_pozz
    hi = max(lo, len(deck) - dealt)
    cut = rng.randint(lo, min(hi, lo + len(deck) // 3))
    lifted, lower = deck[:cut], deck[cut:]
    piles: list[list[int]] = [[] for _ in sizes]
    from_bottom = list(reversed(lifted))
    k = 0
    while k < n_pozz:  # one card to each pile in turn; a full pile (the 11 beside the 18) is skipped
        for i, size in enumerate(sizes):
            if len(piles[i]) < size and k < n_pozz:
                piles[i].append(from_bottom[k])
                k += 1
    cutter_rest = list(reversed(from_bottom[n_pozz:]))  # back in top-first order
    hands: list[list[int]] = [[] for _ in range(rules.players)]
    j = 0
    for _ in range(rules.hand_size):
        for k in range(rules.players):
            seat = (dealer + (k + 1) * rules.direction) % rules.players
            hands[seat].append(lower[j])
            j += 1
    upcard = None
    if rules.up_card:
        upcard = lower[j]
        j += 1
    stock = lower[j:] + cutter_rest
    return Deal(tuple(tuple(h) for h in hands), tuple(tuple(p) for p in piles), upcard, tuple(stock))


# rank order for the dealer draw (§1.4): Joker > 2 > A > K > … > 3; suits hearts > diamonds > clubs > spades
def _draw_strength(c: int, suit_order: str = "hdcs") -> tuple[int, int]:
    if c == JOKER:
        return (100, 0)
    r = c % 13 + 1
    rank_score = {2: 99, 1: 98}.get(r, r)
    return (rank_score, 3 - suit_order.index("hdcs"[c // 13]))


def draw_for_dealer(rules: Rules, seed: int | random.Random) -> tuple[int, list[tuple[int, int]]]:
    """The dealer draw of §2.2: every seat draws a card; the highest is served (plays first), so the dealer is the
    seat on his right. Identical cards (two jokers, twins) draw again. Returns the dealer and the draws made."""
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    deck = _deck(rules)
    rng.shuffle(deck)
    draws: list[tuple[int, int]] = []
    contenders = list(range(rules.players))
    pos = 1  # not the top card (§2.2.1)
    while True:
        got = {}
        for s in contenders:
            got[s] = deck[pos]
            draws.append((s, deck[pos]))
            pos += 1
        best = max(_draw_strength(c, rules.suit_order) for c in got.values())
        top = [s for s, c in got.items() if _draw_strength(c, rules.suit_order) == best]
        if len(top) == 1:
            served = top[0]
            break
        contenders = top
        if pos + len(contenders) >= len(deck) - 1:
            rng.shuffle(deck)
            pos = 1
    dealer = (served - rules.direction) % rules.players
    return dealer, draws

"""Cards, the 108-card deck and the card notation of RECORDS.md §1.

A card *type* is a small integer: ``suit * 13 + rank - 1`` for the 52 suited cards (rank 1 = Ace … 13 = King,
suits in the order hearts, diamonds, clubs, spades) and 52 for the joker. The two decks are indistinguishable, so a
hand is a vector of 53 counts and a list of cards is a list of types. Everything here is pure and fast.
"""

from __future__ import annotations

from collections.abc import Iterable

from .messages import MessageError, msg

RANKS = "A23456789TJQK"
SUITS = "hdcs"
SUIT_NAMES = ("hearts", "diamonds", "clubs", "spades")
SUIT_SINGULAR = ("heart", "diamond", "club", "spade")
RANK_NAMES = ("ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")
JOKER = 52
#: the wild cards' types: the joker and the four 2s
WILD_TYPES = (JOKER, 1, 14, 27, 40)
NUM_TYPES = 53
DECK_SIZE = 108

HEARTS, DIAMONDS, CLUBS, SPADES = range(4)

_UNICODE_SUITS = {"♥": "h", "♡": "h", "♦": "d", "♢": "d", "♣": "c", "♧": "c", "♠": "s", "♤": "s"}


class CardError(MessageError):
    """A string that is not a card in the notation of RECORDS.md §1 (``msg``: the message, ``str``: English)."""


def card(rank: int, suit: int) -> int:
    """The card type of ``rank`` (1 = Ace … 13 = King) in ``suit`` (0 = hearts … 3 = spades)."""
    return suit * 13 + rank - 1


def rank_of(c: int) -> int:
    """Rank 1…13 of a suited card; 0 for the joker."""
    return 0 if c == JOKER else c % 13 + 1


def suit_of(c: int) -> int:
    """Suit 0…3 of a suited card; -1 for the joker."""
    return -1 if c == JOKER else c // 13


def is_two(c: int) -> bool:
    """True for the eight 2s (pinelle)."""
    return c != JOKER and c % 13 == 1


def is_wild_card(c: int) -> bool:
    """True for jokers and 2s: the cards that *can* be wild (a 2 may also be natural in its own sequence)."""
    return c == JOKER or c % 13 == 1


def rank_distance(a: int, b: int) -> int:
    """The distance between the ranks of two cards of one suit, the ace counting low and high
    (``rank_distance(card("Ah"), card("Kh")) == 1``)."""
    ra, rb = a % 13 + 1, b % 13 + 1
    d = abs(ra - rb)
    if ra == 1 or rb == 1:
        d = min(d, abs((14 if ra == 1 else ra) - (14 if rb == 1 else rb)))
    return d


def same_suit_near(c: int, dist: int, skip_twos: bool) -> tuple[int, ...]:
    """The card types of ``c``'s suit at rank distance ``dist`` from it (``<= -dist`` when ``dist`` < 0), in
    ascending order; ``skip_twos``: without the suit's 2 (a wild). None for the joker."""
    if c == JOKER:
        return ()
    suit = c // 13
    out = []
    for x in range(suit * 13, suit * 13 + 13):
        if x == c or (skip_twos and x % 13 == 1):
            continue
        d = rank_distance(c, x)
        if d == dist or (dist < 0 and d <= -dist):
            out.append(x)
    return tuple(out)


def to_str(c: int) -> str:
    """Canonical two-character form: ``Th``, ``As``, ``JK``."""
    if c == JOKER:
        return "JK"
    return RANKS[c % 13] + SUITS[c // 13]


CARD_STR = tuple(to_str(c) for c in range(NUM_TYPES))


def parse_card(text: str) -> int:
    """Parse one card (case-insensitive; ``10`` for ``T``; ``JK``/``*``/``🃏`` for the joker; unicode suits)."""
    t = text.strip()
    low = t.lower()
    if low in ("jk", "*", "🃏", "joker"):
        return JOKER
    if low.startswith("10"):
        t = "T" + t[2:]
    if len(t) == 2:
        r, s = t[0].upper(), t[1]
        s = _UNICODE_SUITS.get(s, s.lower())
        ri = RANKS.find(r)
        si = SUITS.find(s)
        if ri >= 0 and si >= 0:
            return si * 13 + ri
    raise CardError(msg("not_a_card", text=text))


def parse_cards(text: str) -> list[int]:
    """Parse a space-separated list of cards (``"3h 4h 5h JK"``)."""
    return [parse_card(t) for t in text.split()]


def cards_str(cards: Iterable[int]) -> str:
    """Space-separated canonical form of a list of cards, in the given order."""
    return " ".join(CARD_STR[c] for c in cards)


def sort_key(c: int) -> tuple[int, int]:
    """Display order of a hand: by suit (hearts, diamonds, clubs, spades), then rank; jokers last."""
    return (4, 0) if c == JOKER else (c // 13, c % 13)


def counts_of(cards: Iterable[int]) -> list[int]:
    """Count vector (length 53) of a list of cards."""
    v = [0] * NUM_TYPES
    for c in cards:
        v[c] += 1
    return v


def describe(c: int) -> str:
    """A card in words, for messages: ``"7c"``."""
    return CARD_STR[c]

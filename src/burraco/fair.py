"""Provably fair deals (commit–reveal): the one procedure that turns a secret seed, the players' contributions, the
table and the hand number into a deal, and the check of a record's deals against it (docs/fairness.md).

Before a hand the server draws a 256-bit secret seed and publishes its SHA-256 (:func:`commitment`); each seated
person's browser then sends a random contribution; the deal is :func:`fair_deal` of all of them, and the seed is
revealed when the hand ends. Anyone holding the record can then check that the cards were exactly those the
committed seed gives (:func:`verify_record`, ``burraco verify``): the server could not choose the cards after
seeing the contributions, and nobody could predict them before the last contribution was in.

The procedure ``burraco-deal/1``, byte for byte (docs/fairness.md has test vectors):

1. ``M`` is the ASCII text of these lines joined by a line feed (no final one)::

       burraco-deal/1
       table <the table's label>
       hand <the hand's number, decimal>
       contribution <seat> <hex>      (one line per contribution, in seat order)

2. ``K = HMAC-SHA256(key=seed, msg=M)`` (the seed's 32 bytes).
3. The stream is ``HMAC-SHA256(key=K, msg=i)`` for ``i = 0, 1, 2 …`` (``i`` as 8 bytes, big-endian), the blocks
   one after the other, read as 32-bit big-endian unsigned words.
4. A number below ``n`` is the next word ``x`` for which ``x < 2**32 - 2**32 % n``, taken modulo ``n`` (the words
   past that limit are skipped: no modulo bias).
5. The deck in its fixed order (``Ah 2h … Kh Ad … Ks``, each card as many times in a row as there are packs,
   then the jokers) is shuffled by Fisher–Yates: for ``i`` from the last position down to 1, swap the cards at
   ``i`` and at a number below ``i + 1``.
6. The shuffled deck, first card on top, is cut as a record lists a deal: the pozzetti (the first one taken
   first), each seat's hand in seat order, the up-card where the rules turn one, the rest is the stock, top first.

>>> from burraco import preset
>>> seed = bytes(range(32))
>>> commitment(seed)
'630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd'
>>> d = fair_deal(preset("italian"), seed, "example", 0, {"N": "00" * 16})
>>> check_deal(d, FairInputs("example", 0, {"N": "00" * 16}, commitment(seed), seed.hex()), ("N", "E", "S", "W"))
Message(code='fair_ok', params={'hand': 1})
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .cards import JOKER, cards_str
from .deal import Deal, deal_from_order
from .messages import Message, MessageError, msg
from .rules import Rules
from .seats import seat_names

#: the name of the procedure, written in every record it dealt (a later procedure gets a new name)
PROCEDURE = "burraco-deal/1"
#: the server's secret seed of a hand, in bytes (256 bits)
SEED_BYTES = 32
#: a contribution is 16 to 64 random bytes, written as lower-case hexadecimal digits
CONTRIBUTION_MIN_HEX = 32
CONTRIBUTION_MAX_HEX = 128
#: the longest table label the procedure accepts
MAX_LABEL = 200

_HEX = re.compile(r"[0-9a-f]*")
_LABEL = re.compile(r"[\x20-\x7e]+")


class FairError(MessageError):
    """Fairness data that the procedure cannot take: a seed, commitment, contribution or label of the wrong form."""


def _hex(value: Any, what: str, lo: int, hi: int) -> str:
    if not isinstance(value, str) or not lo <= len(value) <= hi or len(value) % 2 or not _HEX.fullmatch(value):
        size = f"{lo}" if lo == hi else f"{lo} to {hi} (an even number)"
        raise FairError(msg("fair_bad_hex", field=what, digits=size))
    return value


def check_contribution(value: Any) -> str:
    """A contribution as the procedure takes it: 32 to 128 lower-case hexadecimal digits (16 to 64 random bytes);
    raises :class:`FairError`."""
    return _hex(value, "contribution", CONTRIBUTION_MIN_HEX, CONTRIBUTION_MAX_HEX)


def check_label(label: Any) -> str:
    """A table label as the procedure takes it: 1 to 200 printable ASCII characters; raises :class:`FairError`."""
    if not isinstance(label, str) or len(label) > MAX_LABEL or not _LABEL.fullmatch(label):
        raise FairError(msg("fair_bad_label", most=MAX_LABEL))
    return label


def commitment(seed: bytes) -> str:
    """The commitment to a seed: its SHA-256, 64 lower-case hexadecimal digits."""
    return hashlib.sha256(seed).hexdigest()


def key_message(table: str, hand: int, contributions: Mapping[str, str], seats: Sequence[str]) -> bytes:
    """``M`` of step 1: the procedure's name, the table's label, the hand's number and the contributions in seat
    order (``seats``; every key of ``contributions`` must be one of them)."""
    check_label(table)
    if not isinstance(hand, int) or isinstance(hand, bool) or hand < 0:
        raise FairError(msg("fair_bad_hand"))
    unknown = sorted(set(contributions) - set(seats))
    if unknown:
        raise FairError(msg("fair_bad_seat", seats=unknown))
    lines = [PROCEDURE, f"table {table}", f"hand {hand}"]
    lines += [f"contribution {s} {check_contribution(contributions[s])}" for s in seats if s in contributions]
    return "\n".join(lines).encode("ascii")


def deal_key(seed: bytes, message: bytes) -> bytes:
    """``K`` of step 2."""
    if len(seed) != SEED_BYTES:
        raise FairError(msg("fair_bad_hex", field="seed", digits=str(2 * SEED_BYTES)))
    return hmac.digest(seed, message, "sha256")


def words(key: bytes) -> Iterator[int]:
    """The stream of step 3 as 32-bit words."""
    i = 0
    while True:
        block = hmac.digest(key, i.to_bytes(8, "big"), "sha256")
        for k in range(0, 32, 4):
            yield int.from_bytes(block[k : k + 4], "big")
        i += 1


def shuffle(cards: Sequence[int], key: bytes) -> list[int]:
    """Steps 4 and 5: ``cards`` shuffled by Fisher–Yates from the stream of ``key``, without modulo bias."""
    return fisher_yates(cards, words(key))


def fisher_yates(cards: Sequence[int], stream: Iterator[int]) -> list[int]:
    """Steps 4 and 5 over any stream of 32-bit words: for ``i`` from the last position down to 1, swap the cards at
    ``i`` and ``j``, the first word below ``2**32 - 2**32 % (i + 1)`` taken modulo ``i + 1``.

    >>> fisher_yates([10, 20, 30], iter([0xFFFFFFFF, 4, 1]))  # i=2: 0xFFFFFFFF is skipped, 4 % 3 = 1; i=1: 1 % 2
    [10, 30, 20]
    """
    deck = list(cards)
    for i in range(len(deck) - 1, 0, -1):
        n = i + 1
        limit = (1 << 32) - (1 << 32) % n
        x = next(stream)
        while x >= limit:
            x = next(stream)
        j = x % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deck_order(rules: Rules) -> list[int]:
    """The deck in the procedure's fixed order: ``Ah`` … ``Ks``, each card ``rules.decks`` times in a row, then
    the jokers."""
    return [c for c in range(52) for _ in range(rules.decks)] + [JOKER] * rules.jokers


def fair_deal(rules: Rules, seed: bytes, table: str, hand: int, contributions: Mapping[str, str]) -> Deal:
    """The deal of ``burraco-deal/1`` for these inputs (``rules``: the hand's rules, which give the deck and the
    cut)."""
    key = deal_key(seed, key_message(table, hand, contributions, seat_names(rules.players)))
    return deal_from_order(rules, shuffle(deck_order(rules), key))


# ----- checking a record ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class FairInputs:
    """What a record keeps of how one hand was dealt (its ``fair`` object, docs/fairness.md): the table's label,
    the hand's number, the contributions by seat, the commitment published before the deal and the seed (hex)
    once it is revealed (None before)."""

    table: str
    hand: int
    contributions: Mapping[str, str] = field(default_factory=dict)
    commitment: str = ""
    seed: str | None = None
    procedure: str = PROCEDURE

    def to_json(self, seats: Sequence[str]) -> dict[str, Any]:
        """The record's ``fair`` object (contributions in seat order; ``seed`` only once revealed)."""
        out: dict[str, Any] = {
            "procedure": self.procedure,
            "table": self.table,
            "hand": self.hand,
            "commitment": self.commitment,
            "contributions": {s: self.contributions[s] for s in seats if s in self.contributions},
        }
        if self.seed is not None:
            out["seed"] = self.seed
        return out

    @staticmethod
    def from_json(data: Any) -> FairInputs:
        """Read a record's ``fair`` object (raises :class:`FairError` naming what is wrong)."""
        if not isinstance(data, dict):
            raise FairError(msg("fair_not_object"))
        procedure = data.get("procedure", PROCEDURE)
        if not isinstance(procedure, str):
            raise FairError(msg("fair_bad_procedure"))
        contributions = data.get("contributions", {})
        if not isinstance(contributions, dict):
            raise FairError(msg("fair_bad_contributions"))
        hand = data.get("hand")
        if not isinstance(hand, int) or isinstance(hand, bool) or hand < 0:
            raise FairError(msg("fair_bad_hand"))
        seed = data.get("seed")
        return FairInputs(
            table=check_label(data.get("table")),
            hand=hand,
            contributions={str(k): check_contribution(v) for k, v in contributions.items()},
            commitment=_hex(data.get("commitment"), "commitment", 64, 64),
            seed=None if seed is None else _hex(seed, "seed", 2 * SEED_BYTES, 2 * SEED_BYTES),
            procedure=procedure,
        )


def _first_difference(got: Deal, want: Deal, seats: Sequence[str]) -> Message:
    """Where a recorded deal first differs from the committed one, and the two cards' lists there."""
    parts: list[tuple[Message, tuple[int, ...], tuple[int, ...]]] = []
    parts += [(msg("fair_place_pozzetto", i=i + 1), g, w) for i, (g, w) in enumerate(zip(got.pozzetti,
                                                                                         want.pozzetti, strict=True))]
    parts += [(msg("fair_place_hand", seat=s), g, w) for s, g, w in zip(seats, got.hands, want.hands, strict=True)]
    up_g = () if got.upcard is None else (got.upcard,)
    up_w = () if want.upcard is None else (want.upcard,)
    parts += [(msg("fair_place_upcard"), up_g, up_w), (msg("fair_place_stock"), got.stock, want.stock)]
    for place, g, w in parts:
        if g != w:
            return msg("fair_where", place=place, cards=cards_str(w) or "-", other=cards_str(g) or "-")
    raise AssertionError("the deals differ nowhere")


def check_deal(deal: Deal, inputs: FairInputs, seats: Sequence[str], number: int | None = None) -> Message:
    """Whether ``deal`` is exactly the deal committed by ``inputs``: ``fair_ok``, or a message saying why not
    (``number``: the hand's place in its record, 0-based, for the message; default ``inputs.hand``). The deck and
    the cut are the recorded deal's own (a deal that does not use the rules' deck is a bad record already)."""
    hand = (inputs.hand if number is None else number) + 1
    if inputs.procedure != PROCEDURE:
        return msg("fair_unknown_procedure", hand=hand, procedure=inputs.procedure, known=PROCEDURE)
    if inputs.seed is None:
        return msg("fair_not_revealed", hand=hand)
    seed = bytes.fromhex(inputs.seed)
    if commitment(seed) != inputs.commitment:
        return msg("fair_seed_mismatch", hand=hand)
    try:
        key = deal_key(seed, key_message(inputs.table, inputs.hand, inputs.contributions, seats))
    except FairError as e:
        return msg("fair_bad_data", hand=hand, why=e.msg)
    order = shuffle(sorted(deal.all_cards()), key)
    want = _cut_like(deal, order)
    if want != deal:
        return msg("fair_deal_mismatch", hand=hand, where=_first_difference(deal, want, seats))
    return msg("fair_ok", hand=hand)


def _cut_like(deal: Deal, order: list[int]) -> Deal:
    """``order`` cut in the shape of ``deal`` (step 6)."""
    i = 0
    pozzetti = []
    for p in deal.pozzetti:
        pozzetti.append(tuple(order[i : i + len(p)]))
        i += len(p)
    hands = []
    for h in deal.hands:
        hands.append(tuple(order[i : i + len(h)]))
        i += len(h)
    upcard = None
    if deal.upcard is not None:
        upcard = order[i]
        i += 1
    return Deal(tuple(hands), tuple(pozzetti), upcard, tuple(order[i:]))


class HandCheck(NamedTuple):
    """The check of one hand of a record: its number (0-based), ``ok`` (True: dealt exactly as committed before the
    deal; False: it was not; None: it cannot be checked, no commitment or no seed yet) and why, as a message."""

    hand: int
    ok: bool | None
    why: Message

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        """``{"hand", "ok", "text", "msg"}``: the check, its text in ``lang`` and its message code."""
        from .messages import message_to_json, render

        return {"hand": self.hand, "ok": self.ok, "text": render(self.why, lang), "msg": message_to_json(self.why)}


#: the messages that mean "cannot be checked" rather than "not as committed"
UNCHECKED = frozenset({"fair_no_data", "fair_not_revealed", "fair_unknown_procedure"})


def verify_record(record: Any) -> list[HandCheck]:
    """Check every hand of a record against its ``fair`` data (raises ``RecordError`` for a record that is not
    valid, as ``burraco replay`` would say)."""
    from .record import parse_record  # record.py builds on the engine; this module is below it

    rules, _dealer, hands = parse_record(record)
    seats = seat_names(rules.players)
    out: list[HandCheck] = []
    raw = record["hands"]
    for i, (deal, _actions) in enumerate(hands):
        data = raw[i].get("fair")
        if data is None:
            out.append(HandCheck(i, None, msg("fair_no_data", hand=i + 1)))
            continue
        try:
            inputs = FairInputs.from_json(data)
        except FairError as e:
            out.append(HandCheck(i, False, msg("fair_bad_data", hand=i + 1, why=e.msg)))
            continue
        why = check_deal(deal, inputs, seats, i)
        out.append(HandCheck(i, True if why.code == "fair_ok" else None if why.code in UNCHECKED else False, why))
    return out


__all__ = [
    "PROCEDURE",
    "SEED_BYTES",
    "FairError",
    "FairInputs",
    "HandCheck",
    "check_contribution",
    "check_deal",
    "check_label",
    "commitment",
    "deal_key",
    "deck_order",
    "fair_deal",
    "fisher_yates",
    "key_message",
    "shuffle",
    "verify_record",
    "words",
]

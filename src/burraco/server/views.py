"""What the server sends about a hand: a seat's view (``game.view(seat)``) or the public view of a spectator, as
JSON. Nothing here reads a hidden card: seat payloads are built from :class:`burraco.View` only, and the public
payload from a seat's view with everything private to that seat removed."""

from __future__ import annotations

from typing import Any

from ..cards import CARD_STR, NUM_TYPES
from ..game import Game
from ..match import Match, hand_points
from ..melds import burraco_bonus, meld_json, meld_points
from ..seats import scorer_names, seat_names
from ..view import SIDES_KEYS, View, sides_json


def _cards(cs: tuple[int, ...] | list[int]) -> list[str]:
    return [CARD_STR[c] for c in cs]


def _counts(b: bytes) -> list[str]:
    if not any(b):
        return []
    out: list[str] = []
    for c in range(NUM_TYPES):
        out.extend([CARD_STR[c]] * b[c])
    return out


#: the keys of the protocol's ``view`` payload (docs/protocol.md), taken from :meth:`burraco.View.to_json`
VIEW_KEYS = (
    "seat", "turn", "phase", "hand", "hidden_pozzetto", "drawn", "hand_sizes", "melds", "pile", "pile_size",
    "pile_open", "stock", "pozzetti_left", "pozzetto_taken", "hidden_pozzetto_seats", "known", "must_open",
    "last_turn", "turns", "end", "closed_by",
)


def seat_view_json(v: View) -> dict[str, Any]:
    """A seat's own view: its hand (without an unrevealed pozzetto) and the public table (the protocol's keys of
    the view's one JSON form, :meth:`burraco.View.to_json`), and the sides as they stand (:func:`sides_json`)."""
    d = v.to_json()
    return {k: d[k] for k in (*VIEW_KEYS, *SIDES_KEYS)}


def public_view_json(g: Game) -> dict[str, Any]:
    """What a spectator may see while the hand is in play: the table, no hand. The cards a seat was seen to pick
    up are taken from another seat's view (what every other player knows anyway)."""
    n = g.rules.players
    seats = seat_names(n)
    out = seat_view_json(g.view(0))
    known = {seats[s]: _counts(g.view((s + 1) % n).known[s]) for s in range(n)}
    out.update(seat=None, hand=[], hidden_pozzetto=0, drawn=None, known=known)
    return out


def hand_end_json(m: Match, hand_no: int) -> dict[str, Any]:
    """The end of a hand: how it ended, the score breakdown (RECORDS.md §5), the cards left in every hand (shown
    face up at the count), and the match totals."""
    g = m.games[hand_no]
    seats = g.seats
    return {
        "hand_no": hand_no,
        "end": g.end,
        "closed_by": seats[g.closed_by] if g.closed_by >= 0 else None,
        "scores": g.scores(),
        "hands": {seats[s]: _cards(g.hand_cards(s)) for s in range(g.n)},
        "melds": {g.sides[s]: [meld_json(x) for x in g.melds[s]] for s in range(g.num_sides)},
        "totals": {m.sides[s]: m.totals[s] for s in range(len(m.sides))},
        "points": dict(zip(scorer_names(m.rules), hand_points(g), strict=True)),
        **sides_json(g.side_seats, g.sides, g.solo, g.n),
    }


def scoreboard_json(m: Match) -> dict[str, Any]:
    """The match scoreboard: every finished hand's totals, the running totals, target or number of hands."""
    rows = []
    for i, g in enumerate(m.games):
        sc = g.scores()
        if sc is None:
            continue
        rows.append({"hand_no": i, "end": g.end, "scores": dict(zip(m.sides, hand_points(g), strict=True))})
    return {
        "scorers": list(m.sides),
        "hands": rows,
        "target": m.rules.target,
        "hands_per_match": m.rules.hands_per_match,
        "over": m.is_over,
        "timed_out": m.timed_out,  # the time-out ended the match with its hand (RULES.md §0.1)
        **m.summary_json(),
    }


def points_json(g: Game) -> dict[str, Any]:
    """Each side's running points on the table during the hand (public: the melds are): the card points of its
    melds (``melds``), its burraco bonuses (``bonuses``) and every meld's card points in order (``each``), from
    the engine's :func:`~burraco.melds.meld_points` and :func:`~burraco.melds.burraco_bonus`."""
    values = g.rules.card_values()
    out: dict[str, Any] = {}
    for s in range(g.num_sides):
        each = [meld_points(m, values) for m in g.melds[s]]
        out[g.sides[s]] = {"melds": sum(each), "bonuses": sum(burraco_bonus(m, g.rules) for m in g.melds[s]),
                           "each": each}
    return out

"""What the server sends about a hand: a seat's view (``game.view(seat)``) or the public view of a spectator, as
JSON. Nothing here reads a hidden card: seat payloads are built from :class:`burraco.View` only, and the public
payload from a seat's view with everything private to that seat removed."""

from __future__ import annotations

from typing import Any

from ..cards import CARD_STR, NUM_TYPES
from ..game import Game, meld_json, seat_names, side_names
from ..match import Match
from ..view import View


def _cards(cs: tuple[int, ...] | list[int]) -> list[str]:
    return [CARD_STR[c] for c in cs]


def _counts(b: bytes) -> list[str]:
    if not any(b):
        return []
    out: list[str] = []
    for c in range(NUM_TYPES):
        out.extend([CARD_STR[c]] * b[c])
    return out


def _public(v: View, known: list[list[str]]) -> dict[str, Any]:
    seats = seat_names(v.players)
    sides = side_names(v.players)
    return {
        "turn": None if v.turn < 0 else seats[v.turn],
        "phase": v.phase,
        "hand_sizes": {seats[s]: v.hand_sizes[s] for s in range(v.players)},
        "melds": {sides[s]: [meld_json(m) for m in v.melds[s]] for s in (0, 1)},
        "pile": _cards(v.pile),
        "pile_size": v.pile_size,
        "pile_open": v.rules.discard_pile_open,
        "stock": v.stock_size,
        "pozzetti_left": sum(1 for p in v.pozzetti if p),
        "pozzetto_taken": {sides[s]: v.poz_taken[s] > 0 for s in (0, 1)},
        "hidden_pozzetto_seats": [seats[s] for s in range(v.players) if v.hidden_seats[s]],
        "known": {seats[s]: known[s] for s in range(v.players)},
        "must_open": v.must_open,
        "last_turn": v.last_turn,
        "turns": v.turns,
        "end": v.end,
        "closed_by": None if v.closed_by < 0 else seats[v.closed_by],
    }


def seat_view_json(v: View) -> dict[str, Any]:
    """A seat's own view: its hand (without an unrevealed pozzetto) and the public table."""
    seats = seat_names(v.players)
    out = _public(v, [_counts(v.known[s]) if s != v.seat else [] for s in range(v.players)])
    out.update(
        seat=seats[v.seat],
        hand=_cards(v.hand),
        hidden_pozzetto=v.hidden_pozzetto,
        drawn=None if v.drawn < 0 else CARD_STR[v.drawn],
    )
    return out


def public_view_json(g: Game) -> dict[str, Any]:
    """What a spectator may see while the hand is in play: the table, no hand. The cards a seat was seen to pick
    up are taken from another seat's view (what every other player knows anyway)."""
    n = g.rules.players
    views = [g.view(s) for s in range(n)]
    v = views[0]
    known = [_counts(views[(s + 1) % n].known[s]) for s in range(n)]
    out = _public(v, known)
    out.update(seat=None, hand=[], hidden_pozzetto=0, drawn=None)
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
        "melds": {g.sides[s]: [meld_json(x) for x in g.melds[s]] for s in (0, 1)},
        "totals": {m.sides[s]: m.totals[s] for s in (0, 1)},
    }


def scoreboard_json(m: Match) -> dict[str, Any]:
    """The match scoreboard: every finished hand's totals, the running totals, target or number of hands."""
    rows = []
    for i, g in enumerate(m.games):
        sc = g.scores()
        if sc is None:
            continue
        rows.append({"hand_no": i, "end": g.end, "scores": {s: sc[s]["total"] for s in m.sides}})
    return {
        "hands": rows,
        "target": m.rules.target,
        "hands_per_match": m.rules.hands_per_match,
        "over": m.is_over,
        **m.summary_json(),
    }

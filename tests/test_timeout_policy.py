"""§9.4.2 time-out readings (C-29): how many turns are played after the announcement."""

from __future__ import annotations

import pytest

from burraco import Game, preset
from burraco.cards import CARD_STR


def _turns_after_timeout(policy: str, before: list[str], players: int = 4) -> int:
    """Announce time-out after the actions ``before`` (each seat draws its top stock card and discards it), then
    count the turns played until the hand ends."""
    r = preset("italian-tournament", timeout_policy=policy, players=players)
    g = Game.new(r, seed=3)
    for a in before:
        g.apply(a)
    g.apply("timeout")
    turns = 0
    while not g.is_over:
        seat = g.seat_name(g.current_seat)
        if g.phase == "draw":
            g.apply(f"{seat} draw")
        g.apply(f"{seat} discard {CARD_STR[g.drawn]}")  # the card just drawn: always a legal discard
        turns += 1
    assert g.end == "timeout"
    return turns


def test_9_4_2_round_from_current_in_draw_phase() -> None:
    assert _turns_after_timeout("round_from_current", []) == 4


def test_9_4_2_round_from_current_mid_turn() -> None:
    assert _turns_after_timeout("round_from_current", ["N draw"]) == 4


def test_9_4_2_fibur_partner_of_next_drawer_before_the_first_draw_is_a_full_round() -> None:
    assert _turns_after_timeout("fibur_partner_of_next_drawer", []) == 4


@pytest.mark.parametrize(("mid_turn", "expected"), [(False, 6), (True, 7)])
def test_9_4_2_fibur_partner_of_next_drawer(mid_turn: bool, expected: int) -> None:
    # after N's first turn E is due to draw (X = E): E and S play on until W, E's partner, is due; then the round
    # W, N, E, S: 6 turns. Announced while E is mid-turn, X = S: E finishes, S and W play, then N, E, S, W: 7 turns
    g = Game.new(preset("italian-tournament"), seed=3)
    g.apply("N draw")
    first = ["N draw", f"N discard {CARD_STR[g.drawn]}"]
    if mid_turn:
        first.append("E draw")
    assert _turns_after_timeout("fibur_partner_of_next_drawer", first) == expected


def test_9_4_2_two_players_fibur_reading() -> None:
    assert _turns_after_timeout("fibur_partner_of_next_drawer", ["N draw"], players=2) == 3

"""Rules of play through :class:`burraco.Game`, :class:`burraco.Match` and :func:`burraco.replay`, one test (or a
few) per section of RULES.md. Positions are built from explicit deals (tests/helpers.py) and action scripts."""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter

import pytest

import burraco
from burraco import Game, Match, parse_card, parse_cards, preset, replay
from burraco.rules import PickupRule, StockEnd, TimeoutPolicy, load_vp_table, victory_points
from helpers import (
    all_cards,
    build_deal,
    deck_counter,
    expected_scores,
    hand_of,
    hand_str,
    new_game,
    play,
    snapshot,
)

# ----------------------------------------------------------------------------------------------------------------
# reusable positions
# ----------------------------------------------------------------------------------------------------------------
# N closes in his first turn: draws Th, melds 3h..Th (clean burraco) and Kc Kd Ks JK, takes the pozzetto in diretta,
# melds Ac Ad As, 4c..7c, Qd Qs Qh from it and discards 9s. The other hands are given in full so that every score
# below can be worked out by hand.
CLOSER = "3h 4h 5h 6h 7h 8h 9h Kc Kd Ks JK"
CLOSER_PARTNER = "Ah 7d 3s 4s 8c 9c Tc Jc Qc Kh 5d"  # 15+5+5+5+10+10+10+10+10+10+5 = 95
LEFT_OPP = "2d Qh 4d 6s 9d Td Jd 3c 2h 8s JK"  # 20+10+5+5+10+10+10+5+20+10+30 = 135
RIGHT_OPP = "5h 5s 6h 7s 8d 9h Jh Js 3d 4h Ah"  # 5+5+5+5+10+10+10+10+5+5+15 = 85
CLOSER_POZZETTO = "Ac Ad As 4c 5c 6c 7c Qd Qs Qh 9s"
CLOSE_ACTIONS = [
    "{s} draw",
    "{s} meld 3h 4h 5h 6h 7h 8h 9h Th",
    "{s} meld Kc Kd Ks JK",
    "{s} meld Ac Ad As",
    "{s} meld 4c 5c 6c 7c",
    "{s} meld Qd Qs Qh",
    "{s} discard 9s",
]
SEATS = "NESW"


def closing_deal(first: str, rules: burraco.Rules | str = "italian") -> burraco.Deal:
    """A deal in which seat ``first`` (the first to play) closes at once with the script above."""
    i = SEATS.index(first)
    hands = {
        first: CLOSER,
        SEATS[(i + 1) % 4]: LEFT_OPP,
        SEATS[(i + 2) % 4]: CLOSER_PARTNER,
        SEATS[(i + 3) % 4]: RIGHT_OPP,
    }
    return build_deal(rules, hands=hands, stock_top="Th", pozzetti=[CLOSER_POZZETTO])


def close_script(seat: str) -> list[str]:
    return [a.format(s=seat) for a in CLOSE_ACTIONS]


def diretta_game(pozzetto: str, rules: str | burraco.Rules = "italian", **kw: object) -> Game:
    """N draws Th, melds 3h..Th (8-card clean burraco) and Jc Jd Js Jh: pozzetto in diretta, his turn goes on."""
    hands = {"N": "3h 4h 5h 6h 7h 8h 9h Jc Jd Js Jh"}
    hands.update(kw.pop("hands", {}))  # type: ignore[arg-type]
    g = new_game(rules, hands=hands, stock_top="Th", pozzetti=[pozzetto], **kw)  # type: ignore[arg-type]
    play(g, ["N draw", "N meld 3h 4h 5h 6h 7h 8h 9h Th", "N meld Jc Jd Js Jh"])
    return g


def diretta_no_burraco_game(pozzetto: str) -> Game:
    """N draws 7h, melds 3h..7h, four jacks and three queens: pozzetto in diretta with no burraco on the table."""
    g = new_game(hands={"N": "3h 4h 5h 6h Jc Jd Js Jh Qc Qd Qs"}, stock_top="7h", pozzetti=[pozzetto])
    play(g, ["N draw", "N meld 3h 4h 5h 6h 7h", "N meld Jc Jd Js Jh", "N meld Qc Qd Qs"])
    return g


def con_scarto_game(rules: str | burraco.Rules = "italian", **kw: object) -> Game:
    """N draws Ts, melds 11 cards and discards Kc: the top pozzetto is taken with the discard."""
    hands = {"N": "3d 4d 5d 6d Jh Jc Js 7s 8s 9s Kc"}
    hands.update(kw.pop("hands", {}))  # type: ignore[arg-type]
    g = new_game(rules, hands=hands, stock_top="Ts", **kw)  # type: ignore[arg-type]
    play(g, ["N draw", "N meld 3d 4d 5d 6d", "N meld Jh Jc Js", "N meld 7s 8s 9s Ts", "N discard Kc"])
    return g


def legal(g: Game) -> list[str]:
    return g.legal_actions_str()


def refused(g: Game, action: str, kind: str = "illegal") -> str:
    """Assert that ``action`` is refused with ``kind`` and leaves the game untouched; return the message."""
    before = snapshot(g)
    assert not g.is_legal(action)
    with pytest.raises(burraco.ActionError) as e:
        g.apply(action)
    assert e.value.kind == kind, str(e.value)
    assert snapshot(g) == before
    if kind == "illegal":
        assert action not in legal(g)
    return str(e.value)


# ----------------------------------------------------------------------------------------------------------------
# §3.2 turn phases
# ----------------------------------------------------------------------------------------------------------------
def test_3_2_turn_starts_with_draw_or_pick() -> None:
    g = new_game(hands={"N": "Kd 5h 6h 7h"}, upcard="9c")
    assert g.phase == "draw" and g.current_seat == 0
    assert legal(g) == ["N draw", "N pick"]
    assert "must first draw" in refused(g, "N discard Kd")
    assert "must first draw" in refused(g, "N meld 5h 6h 7h")


def test_3_2_take_is_exactly_one_then_meld_then_discard_ends_turn() -> None:
    g = new_game(hands={"N": "5h 6h 7h Kd"}, upcard="9c", stock_top="2s")
    g.apply("N draw")
    assert g.phase == "play" and g.current_seat == 0
    assert "already taken a card" in refused(g, "N draw")
    assert "already taken a card" in refused(g, "N pick")
    g.apply("N meld 5h 6h 7h")
    g.apply("N add 1 2s")  # a meld phase with any number of actions
    assert g.phase == "play"
    g.apply("N discard Kd")
    assert g.current_seat == 1 and g.phase == "draw"
    assert "E's turn" in refused(g, "N draw")


def test_3_2_brazilian_no_upcard_first_player_must_draw() -> None:
    g = new_game("brazilian", upcard=None)
    assert g.table_json()["pile"] == []
    assert legal(g) == ["N draw"]
    assert "pile is empty" in refused(g, "N pick")


def test_3_1_play_passes_clockwise() -> None:
    g = new_game()
    seen = []
    for _ in range(8):
        seen.append(g.table_json()["turn"])
        play(g, [f"{g.seats[g.current_seat]} pass"])
    assert "".join(seen) == "NESWNESW"
    g2 = new_game("italian-2p")
    seen = []
    for _ in range(4):
        seen.append(g2.table_json()["turn"])
        play(g2, [f"{g2.seats[g2.current_seat]} pass"])
    assert "".join(seen) == "NSNS"


# ----------------------------------------------------------------------------------------------------------------
# §3.4 hand-size invariants
# ----------------------------------------------------------------------------------------------------------------
def test_3_4_zero_cards_without_pozzetto_is_pozzetto_in_diretta() -> None:
    g = new_game(hands={"N": "3h 4h 5h 6h Jc Jd Js Jh Qc Qd Qs"}, stock_top="7h")
    play(g, ["N draw", "N meld 3h 4h 5h 6h 7h", "N meld Jc Jd Js Jh"])
    assert g.is_legal("N meld Qc Qd Qs")  # leaves 0 cards: not P, so he goes to the pozzetto


def test_3_4_zero_cards_with_pozzetto_is_illegal_in_italian() -> None:
    g = diretta_game("5c 6c 7c 8c Qd Qs Qh 4s 4d 4h 9c")
    play(g, ["N meld Qd Qs Qh", "N meld 4s 4d 4h"])
    assert hand_str(g, "N") == "5c 6c 7c 8c 9c"
    assert "without a discard" in refused(g, "N meld 5c 6c 7c 8c 9c")
    g.apply("N meld 5c 6c 7c 8c")  # keeps 9c: he will close by discarding it
    assert "without a discard" in refused(g, "N add 5 9c")
    assert legal(g) == ["N discard 9c"]


def test_3_4_one_card_with_pozzetto_and_burraco_must_not_be_wild() -> None:
    g = diretta_game("5c 6c 7c 8c Qd Qs Qh 4s 4d 4h JK")
    play(g, ["N meld Qd Qs Qh", "N meld 4s 4d 4h"])
    assert hand_str(g, "N") == "5c 6c 7c 8c JK"
    # leaving only the joker: he could close only by discarding a wild → illegal
    assert "only JK" in refused(g, "N meld 5c 6c 7c 8c")
    # leaving nothing: closing without a discard → illegal
    assert "without a discard" in refused(g, "N meld 5c 6c 7c 8c JK")
    # leaving one natural card: legal (he will close by discarding it); two cards: legal
    assert g.is_legal("N meld 6c 7c 8c JK")
    assert g.is_legal("N meld 5c 6c 7c JK")
    assert g.is_legal("N meld 5c 6c 7c")
    g.apply("N meld 6c 7c 8c JK")
    assert legal(g) == ["N discard 5c"]
    g.apply("N discard 5c")
    assert g.end == "closed" and g.result_json()["closed_by"] == "N"


def test_3_4_one_card_with_pozzetto_without_burraco_is_illegal() -> None:
    g = diretta_no_burraco_game("5c 6c 7c 8c 9c 4s 4d 4h Ks Kd Kh")
    play(g, ["N meld 4s 4d 4h", "N meld Ks Kd Kh"])
    assert hand_str(g, "N") == "5c 6c 7c 8c 9c"
    assert "only 9c" in refused(g, "N meld 5c 6c 7c 8c")
    assert "only 5c" in refused(g, "N meld 6c 7c 8c 9c")
    assert g.is_legal("N meld 5c 6c 7c")
    g.apply("N meld 5c 6c 7c")
    assert "only 9c" in refused(g, "N add 6 8c")
    assert sorted(legal(g)) == ["N discard 8c", "N discard 9c"]


def test_3_4_one_card_without_pozzetto_is_legal_even_a_wild() -> None:
    g = new_game(hands={"N": "3h 4h 5h 6h Jc Jd Js Qc Qd Qs JK"}, stock_top="7h")
    play(g, ["N draw", "N meld 3h 4h 5h 6h 7h", "N meld Jc Jd Js"])
    assert g.is_legal("N meld Qc Qd Qs")  # leaves only the joker: he discards it and takes the pozzetto
    assert g.is_legal("N meld Qc Qd Qs JK")  # leaves nothing: pozzetto in diretta
    g.apply("N meld Qc Qd Qs")
    assert legal(g)[0] == "N discard JK"
    g.apply("N discard JK")  # the last discard before the pozzetto may be a wild (§7.2)
    t = g.table_json()
    assert t["pile"][-1] == "JK" and t["hands"]["N"] == 11 and t["pozzetto_taken"]["NS"]
    assert g.current_seat == 1


def test_3_4_lone_picked_card_cannot_be_the_last_card() -> None:
    # N goes to the pozzetto in diretta with a clean burraco and keeps only Jc; W then leaves a one-card pile (Jh).
    g = diretta_game("Jc Qd Kd Kd Ks 5c 6c 7c 8c 9c Tc", hands={"W": "Jh"})
    play(
        g,
        [
            "N meld Kd Kd Ks",
            "N meld 5c 6c 7c 8c 9c Tc",
            "N discard Qd",
            "E pass",
            "S pass",
            "W pick",
            "W discard Jh",
        ],
    )
    assert hand_str(g, "N") == "Jc" and g.table_json()["pile"] == ["Jh"]
    assert legal(g) == ["N draw", "N pick"]  # cambio carta: picking with one card in hand is allowed (§6.5)
    g.apply("N pick")
    # attaching Jc would leave only the lone Jh, which may not be discarded this turn
    assert "only Jh" in refused(g, "N add 2 Jc")
    assert "one-card pile" in refused(g, "N discard Jh")
    assert "without a discard" in refused(g, "N add 2 Jc Jh")
    assert g.is_legal("N add 2 Jh")  # keeps Jc: he can close by discarding it
    assert g.is_legal("N discard Jc")  # cambio carta
    assert sorted(legal(g)) == ["N add 1 Jh", "N add 2 Jh", "N discard Jc"]
    g.apply("N add 2 Jh")
    g.apply("N discard Jc")
    assert g.end == "closed"


# ----------------------------------------------------------------------------------------------------------------
# §6 discard pile
# ----------------------------------------------------------------------------------------------------------------
def test_6_2_pick_takes_the_whole_pile() -> None:
    g = new_game(upcard="9c")
    play(g, ["N pass", "E pass", "S pass"])
    pile = g.table_json()["pile"]
    assert len(pile) == 4 and pile[0] == "9c"
    before = Counter(hand_of(g, "W"))
    g.apply("W pick")
    assert g.table_json()["pile"] == []
    assert g.table_json()["hands"]["W"] == 15
    assert Counter(hand_of(g, "W")) - before == Counter(parse_cards(" ".join(pile)))
    # everybody saw the open pile go into W's hand (§0.1 views)
    for s in range(4):
        v = g.view(s)
        assert Counter({c: k for c, k in enumerate(v.known[3]) if k}) == Counter(parse_cards(" ".join(pile)))


def test_6_3_italian_no_obligation_after_pick() -> None:
    g = new_game(hands={"N": "Kc 4h 9s"}, upcard="5d")
    g.apply("N pick")
    assert g.is_legal("N discard Kc")


def test_6_3_international_pick_only_if_a_meld_is_possible_and_must_meld() -> None:
    g = new_game("international", hands={"N": "6d 7d Kc"}, upcard="5d", avoid="4d 8d")
    assert legal(g) == ["N draw", "N pick"]
    g.apply("N pick")
    assert "must meld or attach" in refused(g, "N discard Kc")
    g.apply("N meld 5d 6d 7d")
    assert g.is_legal("N discard Kc")
    # nothing to meld (no wild, no run, sets only of aces and threes): the pick is refused
    g2 = new_game("international", hands={"N": "4h 9h Qh 3d 8d 5c Tc 6s Js Ks Kc"}, upcard="Jd")
    assert legal(g2) == ["N draw"]
    assert "could not" in refused(g2, "N pick")


def test_6_3_fechado_top_card_must_be_used() -> None:
    def game(e_hand: str) -> Game:
        g = new_game("brazilian-fechado", hands={"N": "9d", "E": e_hand}, stock_top="Ac Qd")
        play(g, ["N draw", "N discard 9d"])
        assert g.table_json()["pile"] == ["9d"]
        return g

    g = game("9s 9c 3h 5h Jh 4s 7s Ks 6c Qc Kd")
    assert legal(g) == ["E draw", "E pick"]
    g.apply("E pick")
    assert "must be used" in refused(g, "E discard 3h")
    assert legal(g) == ["E meld 9d 9c 9s"]
    g.apply("E meld 9d 9s 9c")
    assert g.is_legal("E discard 3h")
    # the top card cannot be used: picking up is refused
    g2 = game("3h 5h Jh 4s 7s Ks 6c Qc Kd Ah 4d")
    assert legal(g2) == ["E draw"]
    assert "could not be used" in refused(g2, "E pick")
    # twins (§0.1): E already held a 9d; melding either copy uses the top card
    g3 = game("9d 9s 9c 3h 5h Jh 4s 7s Ks 6c Qc")
    g3.apply("E pick")
    g3.apply("E meld 9d 9c 9s")
    assert hand_str(g3, "E").count("9d") == 1
    assert g3.is_legal("E discard 3h")


def test_6_3_fechado_pile_is_closed_in_views() -> None:
    g = new_game("brazilian-fechado", hands={"N": "9d", "E": "5c"}, stock_top="Ac Qd")
    play(g, ["N draw", "N discard 9d", "E draw", "E discard 5c"])
    assert g.table_json()["pile"] == ["9d", "5c"]
    v = g.view(2)
    assert v.pile == (parse_card("5c"),) and v.pile_size == 2


def test_6_4_one_card_pile_no_rediscard() -> None:
    g = new_game(hands={"N": "Kc"}, upcard="9s", avoid="9s")
    g.apply("N pick")
    assert "one-card pile" in refused(g, "N discard 9s")
    assert "N discard 9s" not in legal(g)
    assert g.is_legal("N discard Kc")


def test_6_4_one_card_pile_twin_may_be_discarded() -> None:
    g = new_game(hands={"N": "3h Kc"}, upcard="3h")
    g.apply("N pick")
    assert hand_str(g, "N").count("3h") == 2
    assert g.is_legal("N discard 3h")
    g.apply("N discard 3h")
    assert g.table_json()["pile"] == ["3h"]


def test_0_1_twin_copies_twin_from_the_pozzetto_may_be_discarded() -> None:
    """§6.4 with §0.1 "Twin copies" (decision of 2026-12-01; conformance case
    pile-one-card-twin-from-pozzetto-discard-ok): N holds no 9c, picks the lone up-card 9c, melds it, goes to the
    pozzetto in diretta and finds the other 9c there. The 9c on the table may be taken to be the picked one."""
    g = new_game(
        hands={"N": "7c 8c Ah Ad As Kh Kd Ks 5h 6h 7h"},
        upcard="9c",
        pozzetti=["9c 7d 4h 2c 6c Jc JK 8s 5d 9d Tc"],
    )
    play(g, ["N pick", "N meld 7c 8c 9c", "N meld Ah Ad As", "N meld Kh Kd Ks", "N meld 5h 6h 7h"])
    assert g.table_json()["pozzetto_taken"]["NS"] and hand_str(g, "N").count("9c") == 1
    assert "N discard 9c" in legal(g) and g.is_legal("N discard 9c")
    g.apply("N discard 9c")
    assert g.table_json()["pile"] == ["9c"] and g.table_json()["hands"]["N"] == 10 and g.current_seat == 1


def test_0_1_twin_copies_last_copy_after_the_other_was_melded_may_be_discarded() -> None:
    """He held a 9c, picks the lone 9c and melds one of the two: the one left may be the twin (§0.1)."""
    g = new_game(hands={"N": "9c 7c 8c Kd"}, upcard="9c", avoid="9c")
    g.apply("N pick")
    assert "N discard 9c" in legal(g)  # the twin held before (two copies in hand)
    g.apply("N meld 7c 8c 9c")
    assert hand_str(g, "N").count("9c") == 1
    assert "N discard 9c" in legal(g) and g.is_legal("N discard 9c")


def test_0_1_twin_copies_plain_case_still_illegal() -> None:
    """No twin held and no 9c laid since the pick-up: the one 9c in hand is the picked card (§6.4), after other
    melds as before them."""
    g = new_game(hands={"N": "3h 4h 5h Kc Kd"}, upcard="9c", avoid="9c")
    g.apply("N pick")
    assert "one-card pile" in refused(g, "N discard 9c")
    g.apply("N meld 3h 4h 5h")
    assert "one-card pile" in refused(g, "N discard 9c")
    assert "N discard 9c" not in legal(g) and "N discard Kc" in legal(g)
    assert not g.view(0).lone_gone and not g.view(1).lone_gone


def test_6_4_former_top_of_a_longer_pile_may_be_discarded() -> None:
    g = new_game(hands={"E": "Qd"}, upcard="9s", stock_top="7c", avoid="7c 9s")
    play(g, ["N draw", "N discard 7c"])  # discarding the card just drawn from the stock is allowed
    g.apply("E pick")
    assert g.is_legal("E discard 7c")
    assert g.is_legal("E discard 9s")


def test_6_7_pick_allowed_at_three_stock_cards_refused_after_the_trigger() -> None:
    g = new_game(upcard="9c")
    play(g, ["rotate 9", "N pass", "E pass"])  # 38 draws
    assert g.table_json()["stock"] == 3 and g.current_seat == 2
    assert "S pick" in legal(g)
    g.apply("S pick")  # does not trigger the end
    play(g, [f"S discard {hand_str(g, 'S').split()[0]}"])
    assert g.end is None and g.current_seat == 3
    g.apply("W draw")  # the third-last card: the last turn
    assert g.table_json()["stock"] == 2
    play(g, [f"W discard {hand_str(g, 'W').split()[0]}"])
    assert g.end == "stock"
    assert g.table_json()["stock"] == 2  # the last two cards are never drawn
    assert "hand is over" in refused(g, "N pick")
    assert "hand is over" in refused(g, "N draw")


# ----------------------------------------------------------------------------------------------------------------
# §7 pozzetto
# ----------------------------------------------------------------------------------------------------------------
def test_7_2_pozzetto_in_diretta_turn_continues() -> None:
    g = diretta_game("Qs Qs Qd 5c 6c 7c 8c 9c Tc 4s Kd")
    t = g.table_json()
    assert t["turn"] == "N" and t["phase"] == "play"
    assert t["hands"]["N"] == 11 and t["pozzetti_left"] == 1
    assert t["pozzetto_taken"] == {"NS": True, "EW": False}
    assert sorted(hand_of(g, "N")) == sorted(parse_cards("Qs Qs Qd 5c 6c 7c 8c 9c Tc 4s Kd"))
    assert len(g.view(0).hand) == 11 and g.view(0).hidden_pozzetto == 0  # seen at once
    g.apply("N meld Qs Qs Qd")
    g.apply("N discard Kd")
    assert g.current_seat == 1


def test_7_2_pozzetto_con_lo_scarto_hand_11_at_once_turn_passes() -> None:
    g = con_scarto_game(pozzetti=["8h 9d 4d As 5s Qc Jc 8h 5d Jd Jd"])
    t = g.table_json()
    assert t["turn"] == "E" and t["phase"] == "draw"
    assert t["hands"] == {"N": 11, "E": 11, "S": 11, "W": 11}
    assert t["pozzetto_taken"] == {"NS": True, "EW": False} and t["pozzetti_left"] == 1
    assert t["pile"][-1] == "Kc"
    assert sorted(hand_of(g, "N")) == sorted(parse_cards("8h 9d 4d As 5s Qc Jc 8h 5d Jd Jd"))


def test_7_2_pozzetto_con_lo_scarto_visible_after_partner_discards_4p() -> None:
    poz = "8h 9d 4d As 5s Qc Jc 8h 5d Jd Jd"
    g = con_scarto_game(pozzetti=[poz])
    for step in ("after N's discard", "E pass"):
        if step == "E pass":
            play(g, ["E pass"])
        v = g.view(0)
        assert v.hand == () and v.hidden_pozzetto == 11, step
        assert v.hand_sizes[0] == 11
        assert v.hidden_seats[0]
        for s in (1, 2, 3):  # nobody else sees it either
            assert g.view(s).hidden_seats[0]
            assert not set(g.view(s).hand) - set(hand_of(g, g.seats[s]))
    play(g, ["S pass"])  # the partner's discard reveals it
    v = g.view(0)
    assert v.hidden_pozzetto == 0 and sorted(v.hand) == sorted(parse_cards(poz))


def test_7_2_pozzetto_con_lo_scarto_visible_at_once_2p() -> None:
    poz = "8h 9d 4d As 5s Qc Jc 8h 5d Jd Jd"
    g = con_scarto_game("italian-2p", pozzetti=[poz])
    v = g.view(0)
    assert v.hidden_pozzetto == 0 and sorted(v.hand) == sorted(parse_cards(poz))
    assert g.table_json()["turn"] == "S"
    assert g.table_json()["pozzetto_taken"] == {"N": True, "S": False}


def test_7_1_top_pozzetto_first_the_other_to_the_other_side() -> None:
    poz0 = "Td 3c 4c 5c 6c Qc Qd Qs Ks 8d 9d"
    poz1 = "Ad Ad 2h 5d 6d 7d Jc Jd Js Qh 4h"
    g = new_game(
        hands={"N": "3h 4h 5h 6h 7h 8h 9h Jc Jd Js Jh", "E": "3s 4s 5s 6s 7s 8s Kh Kh Kc 9c 9h"},
        stock_top="Th 9s",
        pozzetti=[poz0, poz1],
    )
    play(g, ["N draw", "N meld 3h 4h 5h 6h 7h 8h 9h Th", "N meld Jc Jd Js Jh"])
    assert sorted(hand_of(g, "N")) == sorted(parse_cards(poz0))
    play(g, ["N discard Td", "E draw", "E meld 3s 4s 5s 6s 7s 8s", "E meld Kh Kh Kc", "E meld 9c 9h 9s"])
    t = g.table_json()
    assert t["pozzetti_left"] == 0 and t["pozzetto_taken"] == {"NS": True, "EW": True}
    assert t["turn"] == "E" and t["phase"] == "play"
    assert sorted(hand_of(g, "E")) == sorted(parse_cards(poz1))


def test_7_1_a_side_takes_only_one_pozzetto() -> None:
    # N took the NS pozzetto; his partner emptying his hand would be a closing, never the second pozzetto
    g = new_game(
        hands={"N": "3h 4h 5h 6h Jc Jd Js Jh Qc Qd Qs", "S": "5d 6d 7d 8d Kc Kd Kh 4s 4h 4c 9s"},
        stock_top="7h Ah 9d",
        pozzetti=["Kd 3c 4c 5c 6c Qh Qd Qs Ks 8d 9d"],
    )
    play(
        g,
        [
            "N draw",
            "N meld 3h 4h 5h 6h 7h",
            "N meld Jc Jd Js Jh",
            "N meld Qc Qd Qs",
            "N discard Kd",
            "E pass",
        ],
    )
    play(g, ["S draw", "S meld 5d 6d 7d 8d 9d", "S meld Kc Kd Kh"])
    assert hand_str(g, "S") == "4h 4c 4s 9s"
    # leaving 9s alone: NS has its pozzetto and no burraco, so S could not complete the turn
    assert "only 9s" in refused(g, "S meld 4s 4h 4c")
    assert g.table_json()["pozzetti_left"] == 1
    # the same position for EW (no pozzetto yet) is legal: compare with E in a mirrored deal
    g2 = new_game(
        hands={"E": "5d 6d 7d 8d Kc Kd Kh 4s 4h 4c 9s"},
        stock_top="7h 9d",
    )
    play(g2, ["N pass", "E draw", "E meld 5d 6d 7d 8d 9d", "E meld Kc Kd Kh"])
    assert g2.is_legal("E meld 4s 4h 4c")


def test_7_5_side_without_pozzetto_scores_minus_100() -> None:
    g = Game.from_deal(preset("italian"), closing_deal("N"), 3)
    play(g, close_script("N"))
    sc = g.scores()
    assert sc is not None
    assert sc["EW"]["pozzetto"] == -100 and sc["NS"]["pozzetto"] == 0
    # neither side took one: both -100 (stock exhaustion with passes only)
    g2 = new_game()
    play(g2, ["rotate 9", "N pass", "E pass", "S pass"])
    assert g2.end == "stock"
    sc2 = g2.scores()
    assert sc2 is not None
    assert sc2["NS"]["pozzetto"] == -100 and sc2["EW"]["pozzetto"] == -100


def _unplayed_indirect_pozzetto(rules: str) -> Game:
    """2 players: N goes out with the discard; S closes before N's next turn (N's pozzetto is never played)."""
    poz_n = "3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc"  # 5*5 + 6*10 = 85 (Italian and Brazilian alike)
    r = preset(rules)
    if r.closing_requires_discard:
        s_poz = "9h Th Jh Qh Kh 3s 4s 5s 6s 7s 8s"
        s_close = ["S meld 9h Th Jh Qh Kh", "S meld 3s 4s 5s 6s 7s", "S discard 8s"]
    else:
        s_poz = "9h Th Jh Qh Kh 3s 4s 5s 6s 7s 8s"
        s_close = ["S meld 9h Th Jh Qh Kh", "S meld 3s 4s 5s 6s 7s 8s"]
    g = new_game(
        rules,
        hands={"N": "3d 4d 5d 6d 7s 8s 9s Ts Jh Qh Kh", "S": "5c 6c 7c 8c 9c Tc Jc 4d 5d 6d 7d"},
        pozzetti=[poz_n, s_poz],
        stock_top="Ah Qc",
    )
    play(g, ["N draw", "N meld 3d 4d 5d 6d", "N meld 7s 8s 9s Ts", "N meld Jh Qh Kh", "N discard Ah"])
    assert hand_str(g, "N") == burraco.cards_str(sorted(parse_cards(poz_n)))
    play(g, ["S draw", "S meld 5c 6c 7c 8c 9c Tc Jc Qc", "S meld 4d 5d 6d 7d"])
    play(g, s_close)
    assert g.end == "closed" and g.result_json()["closed_by"] == "S"
    return g


def test_7_4_indirect_pozzetto_unplayed_counts_as_taken_in_italian() -> None:
    g = _unplayed_indirect_pozzetto("italian-2p")
    sc = g.scores()
    assert sc is not None
    assert sc["N"]["pozzetto"] == 0
    assert sc["N"]["hand"] == -85
    assert sc["N"]["melds"] == 20 + 35 + 30 and sc["N"]["total"] == 85 - 85


def test_7_4_indirect_pozzetto_unplayed_counts_as_not_taken_in_brazilian() -> None:
    g = _unplayed_indirect_pozzetto("brazilian-2p")
    sc = g.scores()
    assert sc is not None
    assert sc["N"]["pozzetto"] == -100
    assert sc["N"]["hand"] == 0  # its cards are ignored
    assert sc["N"]["melds"] == 85 and sc["N"]["total"] == 85 - 100


# ----------------------------------------------------------------------------------------------------------------
# §8 closing
# ----------------------------------------------------------------------------------------------------------------
def test_8_1_close_with_any_burraco_italian_dirty_is_enough() -> None:
    g = new_game(
        hands={"N": "3h 4h 5h 6h 7h 8h JK Jc Jd Js Jh"},
        stock_top="Jh",
        pozzetti=["5c 6c 7c 8c Qd Qs Qh 4s 4d 4h 9d"],
    )
    play(g, ["N draw", "N meld 3h 4h 5h 6h 7h 8h JK", "N meld Jc Jd Js Jh Jh"])
    assert g.table_json()["melds"]["NS"][0]["burraco"] == "dirty"
    play(g, ["N meld Qd Qs Qh", "N meld 4s 4d 4h", "N meld 5c 6c 7c 8c", "N discard 9d"])
    assert g.end == "closed"
    sc = g.scores()
    assert sc is not None and sc["NS"]["closing"] == 100 and sc["NS"]["bonuses"] == 100
    assert sc == expected_scores(g)


def test_8_1_international_needs_a_clean_burraco() -> None:
    def game(name: str, pozzetto: str) -> Game:
        g = new_game(
            name, hands={"N": "3h 4h 5h 6h 7h 8h JK 3c 3d 3s 3h"}, stock_top="9h", pozzetti=[pozzetto]
        )
        play(g, ["N draw", "N meld 3h 4h 5h 6h 7h 8h 9h JK", "N meld 3c 3d 3s 3h"])  # pozzetto in diretta
        play(g, ["N meld Ac Ad As", "N meld 5c 6c 7c 8c 9c Tc"])
        return g

    g = game("international", "Ac Ad As 5c 6c 7c 8c 9c Tc Kd 3d")
    assert g.table_json()["melds"]["NS"][0]["burraco"] == "dirty"
    assert "only Kd" in refused(g, "N add 2 3d")  # a dirty burraco cannot close in international
    assert game("italian", "Ac Ad As 5c 6c 7c 8c 9c Tc Kd 3d").is_legal("N add 2 3d")  # semiclean is enough
    g = game("international", "Ac Ad As 5c 6c 7c 8c 9c Tc Jc 3d")
    assert "only Jc" in refused(g, "N add 2 3d")
    g.apply("N add 4 Jc")  # 5c..Jc: a clean burraco
    assert g.table_json()["melds"]["NS"][3]["burraco"] == "clean"
    g.apply("N discard 3d")
    assert g.end == "closed"


def test_8_1_3_closing_discard_cannot_be_wild_and_8_2_no_closing_without_discard() -> None:
    g = diretta_game("5c 6c 7c 8c Qd Qs Qh 4s 4d 4h JK")
    play(g, ["N meld Qd Qs Qh", "N meld 4s 4d 4h"])
    assert "only JK" in refused(g, "N meld 5c 6c 7c 8c")
    assert "without a discard" in refused(g, "N meld 5c 6c 7c 8c JK")
    play(g, ["N meld 5c 6c 7c JK"])
    assert legal(g) == ["N discard 8c"]
    g.apply("N discard 8c")
    assert g.end == "closed" and g.result_json()["closed_by"] == "N"
    assert g.current_seat == -1 and g.phase == "end"


def test_8_3_close_in_the_turn_of_the_pozzetto_in_diretta() -> None:
    g = Game.from_deal(preset("italian"), closing_deal("N"), 3)
    play(g, close_script("N"))
    out = g.result_json()
    assert out["end"] == "closed" and out["closed_by"] == "N"
    assert out["table"]["turn"] is None and out["table"]["phase"] == "end"
    assert "hand is over" in refused(g, "E draw")


def test_8_2_brazilian_batida_by_melding_the_last_card() -> None:
    g = _unplayed_indirect_pozzetto("brazilian-2p")
    assert g.end == "closed"
    assert g.table_json()["hands"]["S"] == 0
    sc = g.scores()
    assert sc is not None and sc["S"]["closing"] == 100 and sc["S"]["bonuses"] == 200


def test_8_2_brazilian_batida_needs_a_clean_canastra() -> None:
    # S has his morto but only a dirty canastra: melding his last cards is refused
    g = new_game(
        "brazilian-2p",
        hands={"N": "3d 4d 5d 6d 7s 8s 9s Ts Jh Qh Kh", "S": "5c 6c 7c 8c 9c Tc JK 4d 5d 6d 7d"},
        pozzetti=["3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc", "9h Th Jh Qh Kh 3s 4s 5s 6s 7s 8s"],
        stock_top="Ah Qc",
    )
    play(g, ["N draw", "N meld 3d 4d 5d 6d", "N meld 7s 8s 9s Ts", "N meld Jh Qh Kh", "N discard Ah"])
    play(g, ["S draw", "S meld 5c 6c 7c 8c 9c Tc JK Qc"])
    assert g.table_json()["melds"]["S"][0]["burraco"] == "dirty"
    g.apply("S meld 4d 5d 6d 7d")  # in diretta
    g.apply("S meld 9h Th Jh Qh Kh")
    assert "clean" in refused(g, "S meld 3s 4s 5s 6s 7s 8s")
    assert "only" in refused(g, "S meld 3s 4s 5s 6s 7s")


# N goes out with the discard and takes the morto indirectly; E passes; S could then empty his hand (RULES.md §0.1
# C-22, §14.5; the deal of the conformance case brazilian-no-batida-before-indirect-morto-is-reached-illegal)
MORTO_N = "3s 4s 5s 6s 7s 8s 9s Ah 2h 3h 4h"
MORTO_S = "Tc Jc Qc 5d 6d 7d 8d 9h Th Jh Qh"


def _partner_took_the_morto_with_the_discard(rules: str) -> Game:
    g = new_game(rules, hands={"N": MORTO_N, "S": MORTO_S}, stock_top="Kd 4c Kh 7h 8h 9d 3c", upcard=None)
    play(g, ["N draw", "N meld 3s 4s 5s 6s 7s 8s 9s", "N meld Ah 2h 3h 4h", "N discard Kd"])
    assert g.table_json()["hands"]["N"] == 11 and g.table_json()["pozzetto_taken"]["NS"]
    play(g, ["E pass", "S draw", "S meld Tc Jc Qc", "S meld 5d 6d 7d 8d"])
    assert hand_str(g, "S") == "9h Th Jh Qh Kh"
    return g


@pytest.mark.parametrize("rules", ["brazilian", "brazilian-fechado", "brazilian-stbl"])
def test_0_1_c22_brazilian_no_batida_before_the_indirect_morto_is_reached(rules: str) -> None:
    g = _partner_took_the_morto_with_the_discard(rules)
    # melding his last cards (batida by melding) is refused while N's morto does not count as taken
    assert "counts as taken only once his next turn starts" in refused(g, "S meld 9h Th Jh Qh Kh")
    # ... and so is keeping one card whose only use would be going out (by discarding it or attaching it)
    why = refused(g, "S meld 9h Th Jh Qh")
    assert "N took the morto" in why, why
    assert "N took the morto" in refused(g, "S meld Th Jh Qh Kh")
    # what is left: a discard, or a meld that keeps two cards
    assert set(legal(g)) == {f"S discard {c}" for c in ("9h", "Th", "Jh", "Qh", "Kh")} | {
        "S meld 9h Th Jh",
        "S meld Th Jh Qh",
        "S meld Jh Qh Kh",
    }
    g.apply("S discard 9h")
    # N's next turn starts: from now on the morto counts as taken and NS may go out
    play(g, ["W pass", "N draw", f"N discard {hand_str(g, 'N').split()[0]}", "E pass", "S draw"])
    assert hand_str(g, "S") == "Th Jh Qh Kh 3c"
    g.apply("S meld Th Jh Qh Kh")
    g.apply("S discard 3c")
    assert g.end == "closed" and g.result_json()["closed_by"] == "S"
    sc = g.scores()
    assert sc is not None and sc["NS"]["closing"] == 100 and sc["NS"]["pozzetto"] == 0


def test_0_1_c22_italian_partner_may_close_while_the_pozzetto_is_unplayed() -> None:
    """Italian presets count a pozzetto taken with the discard as taken at once: the partner may close."""
    g = _partner_took_the_morto_with_the_discard("italian")
    assert "S meld 9h Th Jh Qh" in legal(g)
    play(g, ["S meld 9h Th Jh Qh", "S discard Kh"])
    assert g.end == "closed" and g.result_json()["closed_by"] == "S"
    sc = g.scores()
    assert sc is not None and sc["NS"]["closing"] == 100 and sc["NS"]["pozzetto"] == 0


def test_0_1_c22_brazilian_2p_the_question_does_not_arise() -> None:
    """Two players: nobody can go out for the side of a player whose morto is pending before his next turn; the
    opponent may go out (his side has its morto), and the pending morto is scored as not taken."""
    g = _unplayed_indirect_pozzetto("brazilian-2p")
    sc = g.scores()
    assert sc is not None and sc["S"]["closing"] == 100 and sc["S"]["pozzetto"] == 0
    assert sc["N"]["pozzetto"] == -100 and sc["N"]["closing"] == 0


# ----------------------------------------------------------------------------------------------------------------
# §9 end of the hand
# ----------------------------------------------------------------------------------------------------------------
def test_9_2_stock_exhaustion_after_third_last_card() -> None:
    g = new_game(hands={"N": "3h 4h 5h 6h 7h 8h 9h"}, upcard="Kd")
    g.apply("N draw")
    g.apply("N meld 3h 4h 5h 6h 7h 8h 9h")
    play(g, [f"N discard {hand_str(g, 'N').split()[0]}"])
    play(g, ["E pass", "S pass", "W pass", "rotate 8", "N pass", "E pass"])
    assert g.end is None and g.table_json()["stock"] == 3
    play(g, ["S pass"])
    assert g.end == "stock" and g.table_json()["stock"] == 2
    out = g.result_json()
    assert out["closed_by"] is None
    sc = g.scores()
    assert sc is not None
    assert sc["NS"]["closing"] == 0 and sc["EW"]["closing"] == 0
    assert sc["NS"]["bonuses"] == 200 and sc["NS"]["melds"] == 45
    assert sc == expected_scores(g)


def test_9_2_brazilian_morto_becomes_stock_then_hand_ends() -> None:
    g = new_game("brazilian-2p", pozzetti=["9h", "Kd"])
    assert g.table_json()["stock"] == 64
    play(g, ["rotate 32"])  # 64 draws empty the stock
    assert g.table_json()["stock"] == 0 and g.end is None
    g.apply("N draw")  # the first morto becomes the stock, its first card on top
    assert g.table_json()["pozzetti_left"] == 1 and g.table_json()["stock"] == 10
    assert hand_str(g, "N").count("9h") >= 1
    g.apply("N discard 9h")
    play(g, ["rotate 5"])  # 10 draws empty the first morto
    assert g.table_json()["stock"] == 0 and g.table_json()["pozzetti_left"] == 1
    assert g.current_seat == 1
    g.apply("S draw")  # the second morto becomes the stock
    assert g.table_json()["pozzetti_left"] == 0 and "Kd" in hand_str(g, "S")
    g.apply("S discard Kd")
    play(g, ["rotate 5"])
    assert g.table_json()["stock"] == 0
    assert g.end == "stock"  # the turn starts with no stock and no morto: the hand ends at once
    assert g.result_json()["table"]["turn"] is None
    sc = g.scores()
    assert sc is not None and sc["N"]["pozzetto"] == -100 and sc["S"]["pozzetto"] == -100
    assert sc == expected_scores(g)


def test_9_3_stalemate_after_a_round_of_one_card_pickups() -> None:
    g = new_game(hands={"N": "Kc", "E": "Qd", "S": "Jh", "W": "Ts"}, upcard="9s")
    play(g, ["N pick", "N discard Kc", "E pick", "E discard Qd", "S pick", "S discard Jh"])
    assert g.end is None
    play(g, ["W pick", "W discard Ts"])
    assert g.end == "stalemate"
    sc = g.scores()
    assert sc is not None and sc == expected_scores(g)
    assert sc["NS"]["pozzetto"] == -100 and sc["NS"]["closing"] == 0


def test_9_3_stalemate_run_broken_by_a_draw_or_a_meld() -> None:
    g = new_game(hands={"N": "Kc", "E": "Qd", "S": "Jh 5c 6c 7c", "W": "Ts"}, upcard="9s")
    play(g, ["N pick", "N discard Kc", "E pick", "E discard Qd", "S pick", "S meld 5c 6c 7c", "S discard Jh"])
    play(g, ["W pick", "W discard Ts"])
    assert g.end is None  # S melded
    play(g, ["N pass"])  # N drew
    play(g, ["E pick", f"E discard {hand_str(g, 'E').split()[0]}"])
    assert g.end is None
    g2 = new_game("italian-2p", hands={"N": "Kc", "S": "Qd"}, upcard="9s")
    play(g2, ["N pick", "N discard Kc", "S pick", "S discard Qd"])
    assert g2.end == "stalemate"  # two players: a round is two turns


def test_9_4_timeout_round_from_current() -> None:
    g = Game.from_deal(preset("italian-tournament"), build_deal("italian-tournament"), 3)
    play(g, ["N pass"])
    g.apply("timeout")
    assert "already called" in refused(g, "timeout")
    play(g, ["E pass", "S pass", "W pass"])
    assert g.end is None
    play(g, ["N pass"])
    assert g.end == "timeout"
    sc = g.scores()
    assert sc is not None and sc["NS"]["closing"] == 0 and sc["NS"]["pozzetto"] == -100
    assert sc == expected_scores(g)


def test_9_4_timeout_called_in_the_play_phase_counts_the_current_turn() -> None:
    g = Game.from_deal(preset("italian-tournament"), build_deal("italian-tournament"), 3)
    g.apply("N draw")
    g.apply("timeout")
    play(g, [f"N discard {hand_str(g, 'N').split()[0]}", "E pass", "S pass"])
    assert g.end is None
    play(g, ["W pass"])
    assert g.end == "timeout"


def test_9_4_timeout_only_with_a_fixed_number_of_hands() -> None:
    g = new_game("italian")
    assert "no time-outs" in refused(g, "timeout")
    g2 = new_game(preset("italian", hands_per_match=2))
    g2.apply("timeout")
    assert g2.timeout_called


def test_9_4_stock_end_before_timeout_round_is_over() -> None:
    g = Game.from_deal(preset("italian-tournament"), build_deal("italian-tournament"), 3)
    play(g, ["rotate 9", "N pass", "E pass"])
    g.apply("timeout")  # S, W, N, E would follow; S draws the third-last card
    play(g, ["S pass"])
    assert g.end == "stock"


def test_9_4_closing_during_the_timeout_round() -> None:
    r = preset("italian-tournament")
    g = Game.from_deal(r, closing_deal("N", r), 3)
    g.apply("timeout")
    play(g, close_script("N"))
    assert g.end == "closed"


def test_0_1_turn_cap_ends_the_hand_as_cap() -> None:
    r = preset("italian").replace(turn_cap=8)
    g = Game.from_deal(r, build_deal(r), 3)
    play(g, ["rotate 1", "N pass", "E pass", "S pass"])
    assert g.end is None
    play(g, ["W pass"])
    assert g.end == "cap"
    sc = g.scores()
    assert sc is not None and sc == expected_scores(g)
    assert sc["NS"]["pozzetto"] == -100
    rec = g.to_record()
    assert rec["rules"] == {"preset": "italian", "turn_cap": 8}
    assert replay(rec)["hands"][0]["end"] == "cap"
    assert burraco.preset("italian").turn_cap == 500


# ----------------------------------------------------------------------------------------------------------------
# §10 scoring
# ----------------------------------------------------------------------------------------------------------------
def test_10_1_score_breakdown_worked_out_by_hand() -> None:
    g = Game.from_deal(preset("italian"), closing_deal("N"), 3)
    play(g, close_script("N"))
    # NS: 3h..Th 55 + Kc Kd Ks JK 60 + Ac Ad As 45 + 4c..7c 20 + Qd Qs Qh 30 = 210; clean burraco 200;
    # closing 100; S holds 95. EW: E 135 + W 85 in hand, no pozzetto.
    assert g.scores() == {
        "NS": {"melds": 210, "bonuses": 200, "closing": 100, "hand": -95, "pozzetto": 0, "total": 415},
        "EW": {"melds": 0, "bonuses": 0, "closing": 0, "hand": -220, "pozzetto": -100, "total": -320},
    }
    assert g.scores() == expected_scores(g)
    assert [g.returns()[s] for s in range(4)] == [415, -320, 415, -320]


def test_10_1_semiclean_and_dirty_bonuses() -> None:
    g = new_game(
        hands={"N": "3h 4h 5h 6h 7h 8h 9h JK Kc Kd Ks", "E": "5s 5s 5d 5d 5c 5c 2h 9c 9d Tc Qc"},
        stock_top="2c",
    )
    play(g, ["N draw", "N meld 3h 4h 5h 6h 7h 8h 9h JK", "N meld Kc Kd Ks", "N discard 2c"])
    assert g.table_json()["melds"]["NS"][0]["burraco"] == "semiclean"
    play(g, ["E draw", "E meld 5s 5s 5d 5d 5c 5c 2h"])
    assert g.table_json()["melds"]["EW"][0]["burraco"] == "dirty"
    play(g, [f"E discard {hand_str(g, 'E').split()[0]}"])
    play(g, ["S pass", "W pass", "rotate 8", "N pass", "E pass", "S pass"])
    assert g.end == "stock"
    sc = g.scores()
    assert sc is not None
    assert sc["NS"]["bonuses"] == 150 and sc["EW"]["bonuses"] == 100
    assert sc["NS"]["melds"] == 45 + 30 + 30 and sc["EW"]["melds"] == 30 + 20
    assert sc == expected_scores(g)


def test_10_3_brazilian_card_values() -> None:
    r = preset("brazilian")
    assert r.card_values()[burraco.JOKER] == 20
    assert r.card_values()[parse_card("2c")] == 10
    assert r.card_values()[parse_card("Ah")] == 15
    assert preset("italian").card_values()[burraco.JOKER] == 30
    assert preset("italian").card_values()[parse_card("2c")] == 20
    for name, rr in burraco.PRESETS.items():
        vals = rr.card_values()
        assert all(v % 5 == 0 for v in vals), name
        assert vals[parse_card("8s")] == 10 and vals[parse_card("7s")] == 5


# ----------------------------------------------------------------------------------------------------------------
# §11 match end and ties, §12 tournaments
# ----------------------------------------------------------------------------------------------------------------
def _match_record(rules: object, deals: list[tuple[burraco.Deal, list[str]]], dealer: str = "W") -> dict:
    return {
        "format": "burraco-record/1",
        "rules": rules,
        "dealer": dealer,
        "hands": [{"deal": d.to_json(("N", "E", "S", "W")), "actions": a} for d, a in deals],
    }


def test_11_match_to_a_target_deal_rotates() -> None:
    m = Match(preset("italian"), dealer=3)
    g = m.start_hand(closing_deal("N"))
    assert g.current_seat == 0
    for a in close_script("N"):
        m.apply(a)
    assert m.totals == [415, -320] and not m.is_over  # target 2005
    assert m.hand_dealer(1) == 0
    g2 = m.start_hand(closing_deal("E"))
    assert g2.current_seat == 1  # dealt by N, E plays first
    for a in close_script("E"):
        m.apply(a)
    assert m.totals == [415 - 320, -320 + 415]
    assert m.summary_json() == {"totals": {"NS": 95, "EW": 95}, "winner": None, "vp": None}


def test_11_target_override_ends_the_match_and_refuses_more_hands() -> None:
    rec = _match_record(
        {"preset": "italian", "target": 400},
        [(closing_deal("N"), close_script("N")), (closing_deal("E"), close_script("E"))],
    )
    out = replay(rec)
    assert out["ok"] is False and out["error"] == "illegal" and out["hand"] == 1 and out["action_index"] == 0
    rec["hands"] = rec["hands"][:1]
    out = replay(rec)
    assert (
        out["ok"] and out["totals"] == {"NS": 415, "EW": -320} and out["winner"] == "NS" and out["vp"] is None
    )
    m = burraco.replay_match(rec)
    assert m.is_over and m.winner() == 0
    with pytest.raises(burraco.ActionError):
        m.start_hand()


def test_11_hand_after_an_unfinished_hand_is_refused() -> None:
    rec = _match_record("italian", [(closing_deal("N"), ["N draw"]), (closing_deal("E"), ["E draw"])])
    out = replay(rec)
    assert out == {
        "ok": False,
        "hand": 1,
        "action_index": 0,
        "action": "E draw",
        "error": "illegal",
        "message": out["message"],
    }


def _burraco_each_deal(w_hand: str, dealer: int) -> tuple[burraco.Deal, list[str]]:
    """N opens 3h..9h and E opens 3d..9d (clean burraco each) in their first turns, then everybody passes until
    the stock runs out. N and E keep 40 points in hand, S holds clubs 3..K (85), W the given hand."""
    hands = {
        "N": "3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh",
        "E": "3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd",
        "S": "3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc",
        "W": w_hand,
    }
    d = build_deal("italian", hands=hands)
    g = Game.from_deal(preset("italian"), d, dealer)
    opened = {"N": "3h 4h 5h 6h 7h 8h 9h", "E": "3d 4d 5d 6d 7d 8d 9d"}
    while not g.is_over:
        seat = g.seats[g.current_seat]
        if seat in opened:
            before = Counter(hand_of(g, seat))
            g.apply(f"{seat} draw")
            drawn = next(iter(Counter(hand_of(g, seat)) - before))
            g.apply(f"{seat} meld {opened.pop(seat)}")
            g.apply(f"{seat} discard {burraco.to_str(drawn)}")
        else:
            play(g, [f"{seat} pass"])
    assert g.end == "stock"
    return d, [str(a) for a in g.actions]


def test_11_3_exact_tie_at_target_plays_another_hand_11_2_higher_wins() -> None:
    # each side: 45 + 200 (clean burraco) - 40 - 85 - 100 (no pozzetto) = 20
    tie = _burraco_each_deal("3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks", dealer=3)
    # W holds a joker instead of Ks: EW 20 less
    unequal = _burraco_each_deal("3s 4s 5s 6s 7s 8s 9s Ts Js Qs JK", dealer=0)  # hand 2 is dealt by N
    rules = {"preset": "italian", "target": 20}
    out = replay(_match_record(rules, [tie]))
    assert out["ok"] and out["totals"] == {"NS": 20, "EW": 20} and out["winner"] is None
    m = burraco.replay_match(_match_record(rules, [tie]))
    assert not m.is_over  # both at the target and level: another hand (§11.3)
    out = replay(_match_record(rules, [tie, unequal]))
    assert out["ok"] and out["totals"] == {"NS": 40, "EW": 20}
    assert out["winner"] == "NS"  # both at or above the target: the higher total wins (§11.2)
    # with a target above both, the match simply goes on
    out = replay(_match_record({"preset": "italian", "target": 25}, [tie]))
    assert (
        out["winner"] is None
        and not burraco.replay_match(_match_record({"preset": "italian", "target": 25}, [tie])).is_over
    )


def test_11_target_must_be_positive() -> None:
    with pytest.raises(burraco.RulesError):
        preset("italian", target=-1000)


VP3 = [
    (0, 10), (50, 10), (55, 11), (150, 11), (155, 12), (250, 12), (255, 13), (350, 13), (355, 14), (500, 14),
    (505, 15), (650, 15), (655, 16), (800, 16), (805, 17), (1000, 17), (1005, 18), (1250, 18), (1255, 19),
    (1500, 19), (1505, 20), (5000, 20),
]  # fmt: skip
VP4 = [
    (0, 10), (100, 10), (105, 11), (300, 11), (305, 12), (500, 12), (505, 13), (700, 13), (705, 14), (900, 14),
    (905, 15), (1100, 15), (1105, 16), (1300, 16), (1305, 17), (1500, 17), (1505, 18), (1700, 18), (1705, 19),
    (2000, 19), (2005, 20), (9000, 20),
]  # fmt: skip


@pytest.mark.parametrize("diff,winner", VP3)
def test_12_3_vp_table_three_hands(diff: int, winner: int) -> None:
    rows = preset("italian-tournament").vp_table_rows()
    assert rows == load_vp_table("fibur_3_hands")
    assert victory_points(rows, diff) == (winner, 20 - winner)
    assert victory_points(rows, -diff) == (winner, 20 - winner)


@pytest.mark.parametrize("diff,winner", VP4)
def test_12_3_vp_table_four_hands(diff: int, winner: int) -> None:
    rows = preset("italian", hands_per_match=4).vp_table_rows()
    assert rows == load_vp_table("fibur_4_hands")
    assert victory_points(rows, diff) == (winner, 20 - winner)


def test_12_3_other_hand_counts_have_no_vp_table() -> None:
    assert preset("italian", hands_per_match=2).vp_table_rows() is None
    assert preset("italian").vp_table_rows() is None


def test_12_tournament_three_hands_vp_and_winner() -> None:
    hands = [(closing_deal(s, "italian-tournament"), close_script(s)) for s in "NES"]
    out = replay(_match_record("italian-tournament", hands))
    # NS: 415 - 320 + 415 = 510; EW: -320 + 415 - 320 = -225; difference 735 -> 16-4
    assert out["ok"] and out["totals"] == {"NS": 510, "EW": -225}
    assert out["vp"] == {"NS": 16, "EW": 4} and out["winner"] == "NS"
    # vp is null until the last hand has ended
    out2 = replay(_match_record("italian-tournament", hands[:2]))
    assert out2["vp"] is None and out2["winner"] is None
    # a fourth hand is refused
    out3 = replay(_match_record("italian-tournament", hands + [(closing_deal("W"), close_script("W"))]))
    assert out3["ok"] is False and out3["error"] == "illegal" and out3["hand"] == 3


def test_12_two_hand_match_winner_by_totals_without_vp() -> None:
    hands = [(closing_deal(s), close_script(s)) for s in "NE"]
    out = replay(_match_record({"preset": "italian", "hands_per_match": 2}, hands))
    assert out["ok"] and out["vp"] is None and out["totals"] == {"NS": 95, "EW": 95} and out["winner"] is None
    out = replay(_match_record({"preset": "italian", "hands_per_match": 1}, hands[:1]))
    assert out["winner"] == "NS" and out["vp"] is None


# ----------------------------------------------------------------------------------------------------------------
# §14.6 three mortos, §14.7 first-meld minimum
# ----------------------------------------------------------------------------------------------------------------
def _three_morto_game() -> Game:
    """N takes the top pozzetto (NS first), E the second (EW second); E to play with the second pozzetto."""
    r = preset("italian", three_morto=True)
    assert r.num_pozzetti == 3 and r.stock_size == 30
    g = new_game(
        r,
        hands={"N": "3h 4h 5h 6h Jc Jd Js Jh Qc Qd Qs", "E": "3d 4d 5d 6d Kc Kd Ks Kh 9c 9d 9s"},
        stock_top="7h 7d Kd Ks Jd",
        pozzetti=[
            "Td Tc Th Ts Kh 4c 5c 6c 8d 8h 2d",
            "3s 4s 5s 6s 7s 8s Ac Ad As Ah 9h",
            "2c 3c 4c 5c 7c 8c 9c Jc Qc Kc 6h",
        ],
    )
    play(g, ["N draw", "N meld 3h 4h 5h 6h 7h", "N meld Jc Jd Js Jh", "N meld Qc Qd Qs"])
    play(g, ["N meld Tc Td Th Ts", "N discard Kh"])
    play(g, ["E draw", "E meld 3d 4d 5d 6d 7d", "E meld Kc Kd Ks Kh", "E meld 9c 9d 9s"])
    return g


def test_14_6_three_morto_third_pozzetto_for_the_side_second_to_take_its_first() -> None:
    g = _three_morto_game()
    t = g.table_json()
    assert t["pozzetto_taken"] == {"NS": True, "EW": True} and t["pozzetti_left"] == 1
    assert sorted(hand_of(g, "E")) == sorted(parse_cards("3s 4s 5s 6s 7s 8s Ac Ad As Ah 9h"))
    play(g, ["E meld 3s 4s 5s 6s 7s 8s", "E meld Ac Ad As Ah"])
    # one card left and no burraco on EW's side: legal only because the third pozzetto is due to EW
    assert set(legal(g)) == {"E discard 9h", "E add 3 9h"}
    g.apply("E add 3 9h")  # empties his hand: the third pozzetto, in diretta, instead of closing
    t = g.table_json()
    assert t["pozzetti_left"] == 0 and t["turn"] == "E" and t["phase"] == "play" and g.end is None
    assert sorted(hand_of(g, "E")) == sorted(parse_cards("2c 3c 4c 5c 7c 8c 9c Jc Qc Kc 6h"))


def test_14_6_three_morto_not_for_the_first_side() -> None:
    g = _three_morto_game()
    play(g, ["E meld 3s 4s 5s 6s 7s 8s", "E discard 9h", "S pass", "W pass", "N draw", "N meld 4c 5c 6c"])
    assert hand_str(g, "N") == "8h 2d 8d Jd"
    # NS was first to take its pozzetto: no third one for it, so N may not keep a single card without a burraco
    assert "only Jd" in refused(g, "N meld 8h 8d 2d")
    assert g.table_json()["pozzetti_left"] == 1


def test_14_7_min_first_meld_counts_the_whole_opening_turn() -> None:
    r = preset("italian", min_first_meld=50)
    g = new_game(
        r, hands={"N": "Kh Kd Kc Qh Qd Qs 4c 9d 7s 3h 5d"}, stock_top="6s", avoid="4c 9d 7s 3h 5d 6s"
    )
    g.apply("N draw")
    assert g.is_legal("N meld Kh Kd Kc")  # 30 points, the queens can follow
    g.apply("N meld Kh Kd Kc")
    assert "50" in refused(g, "N discard 4c")
    g.apply("N meld Qh Qd Qs")
    assert g.is_legal("N discard 4c")


def test_14_7_min_first_meld_dead_end_and_attachments_count() -> None:
    r = preset("italian", min_first_meld=50)
    g = new_game(r, hands={"N": "3h 4h 5h 7s 7d 7h 9c Jd Ks 8d Tc"}, stock_top="Qs")
    g.apply("N draw")
    # at most 30 points can be laid: any opening is a dead end
    assert "50" in refused(g, "N meld 3h 4h 5h")
    assert [a for a in legal(g) if a.split()[1] != "discard"] == []
    # cards attached to the new melds in the opening turn count towards the minimum
    g2 = new_game(r, hands={"N": "Kh Kd Kc Ks Kh 4c 9d 7s 3h 5d Tc", "S": "3h 4h 5h"}, stock_top="6d")
    g2.apply("N draw")
    g2.apply("N meld Kh Kd Kc")  # 30
    assert "50" in refused(g2, "N discard 4c")
    g2.apply("N add 1 Ks")  # 40
    assert "50" in refused(g2, "N discard 4c")
    g2.apply("N add 1 Kh")  # 50
    assert g2.is_legal("N discard 4c")
    # once the side has opened, no minimum: the partner melds freely
    play(g2, ["N discard 4c", "E pass"])
    g2.apply("S draw")
    g2.apply("S meld 3h 4h 5h")  # 15 points: fine, NS has opened
    assert any(a.startswith("S discard") for a in legal(g2))


def test_14_7_min_first_meld_no_pozzetto_in_diretta_below_minimum() -> None:
    hands = {"N": "3h 4h 5h 6h 3c 4c 5c 6c 3d 4d 5d"}
    g = new_game(preset("italian", min_first_meld=100), hands=hands, stock_top="6d")
    g.apply("N draw")
    # the twelve cards are worth 60 < 100: he could only reach the pozzetto below the minimum
    assert "100" in refused(g, "N meld 3d 4d 5d 6d")
    assert [a for a in legal(g) if "discard" not in a] == []
    g2 = new_game(preset("italian", min_first_meld=50), hands=hands, stock_top="6d")
    play(g2, ["N draw", "N meld 3h 4h 5h 6h", "N meld 3c 4c 5c 6c", "N meld 3d 4d 5d 6d"])
    assert g2.table_json()["hands"]["N"] == 11 and g2.table_json()["pozzetto_taken"]["NS"]


# ----------------------------------------------------------------------------------------------------------------
# §2 dealing
# ----------------------------------------------------------------------------------------------------------------
def _strength(c: int) -> tuple[int, int]:
    if c == burraco.JOKER:
        return (100, 0)
    r = c % 13 + 1
    return (
        {2: 99, 1: 98}.get(r, r),
        3 - c // 13,
    )  # Joker > 2 > A > K > … > 3; hearts > diamonds > clubs > spades


@pytest.mark.parametrize("name", ["italian", "italian-2p", "brazilian"])
def test_2_2_dealer_draw(name: str) -> None:
    r = preset(name)
    for seed in range(60):
        dealer, draws = burraco.draw_for_dealer(r, seed)
        assert 0 <= dealer < r.players
        # replay the rounds: the first has every seat, later ones the tied seats
        contenders = list(range(r.players))
        i = 0
        while True:
            rnd = draws[i : i + len(contenders)]
            assert [s for s, _ in rnd] == contenders
            i += len(contenders)
            best = max(_strength(c) for _, c in rnd)
            top = [s for s, c in rnd if _strength(c) == best]
            if len(top) == 1:
                served = top[0]
                break
            contenders = top
        assert i == len(draws)
        assert dealer == (served - r.direction) % r.players  # the dealer sits on the served player's right
        assert burraco.draw_for_dealer(r, seed) == (dealer, draws)


def test_2_2_ties_need_identical_cards() -> None:
    redraws = 0
    for seed in range(400):
        _, draws = burraco.draw_for_dealer(preset("italian"), seed)
        if len(draws) > 4:
            redraws += 1
            first = [c for _, c in draws[:4]]
            best = max(_strength(c) for c in first)
            tied = [c for c in first if _strength(c) == best]
            assert len(tied) >= 2 and len(set(tied)) == 1
    assert redraws > 0


@pytest.mark.parametrize("name", sorted(burraco.PRESETS))
def test_2_3_physical_deal_uses_the_deck_exactly(name: str) -> None:
    for players in (2, 4):
        r = preset(name, players=players)
        for dealer in range(players):
            for seed in range(5):
                d = burraco.deal_physical(r, seed, dealer)
                d.check(r)
                assert Counter(d.all_cards()) == deck_counter(r)
                assert len(d.hands) == players and all(len(h) == 11 for h in d.hands)
                assert [len(p) for p in d.pozzetti] == [11] * r.num_pozzetti
                assert (d.upcard is not None) == r.up_card
                assert len(d.stock) == r.stock_size
                assert burraco.deal_physical(r, seed, dealer) == d
                g = Game.from_deal(r, d, dealer)
                assert g.current_seat == (dealer + 1) % players


def test_2_4_counts_by_player_number() -> None:
    assert preset("italian").stock_size == 41
    assert preset("italian-2p").stock_size == 63
    assert preset("italian", three_morto=True).stock_size == 30
    assert preset("brazilian").stock_size == 42
    assert preset("brazilian-2p").stock_size == 64
    for name in burraco.PRESETS:
        for players in (2, 4):
            r = preset(name, players=players)
            d = burraco.deal_from_seed(r, 1)
            d.check(r)
            assert Counter(d.all_cards()) == deck_counter(r)


# ----------------------------------------------------------------------------------------------------------------
# §0.1 preset defaults
# ----------------------------------------------------------------------------------------------------------------
def test_0_1_preset_defaults() -> None:
    it = preset("italian")
    assert it.players == 4 and it.target == 2005 and it.hands_per_match is None and not it.has_timeouts
    assert it.semiclean and it.bonus_clean == 200 and it.bonus_semiclean == 150 and it.bonus_dirty == 100
    assert it.closing_bonus == 100 and it.pozzetto_penalty == 100 and it.up_card and it.discard_pile_open
    assert it.pickup_rule is PickupRule.NONE and it.closing_requires_discard and not it.two_natural_aces
    assert it.stock_end is StockEnd.END_AFTER_THIRD_LAST and it.turn_cap == 500
    assert (
        it.min_first_meld == 0
        and not it.three_morto
        and it.timeout_policy is TimeoutPolicy.ROUND_FROM_CURRENT
    )
    assert it.allowed_set_ranks == frozenset({1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13})

    tour = preset("italian-tournament")
    assert tour.hands_per_match == 3 and tour.target is None and tour.has_timeouts
    assert tour.vp_table_rows() == load_vp_table("fibur_3_hands")

    assert preset("italian-2p").players == 2 and preset("italian-2p").target == 2005

    intl = preset("international")
    assert intl.target == 2005 and intl.hands_per_match is None
    assert intl.allowed_set_ranks == frozenset({1, 3}) and intl.pickup_rule is PickupRule.MUST_OPEN_OR_ATTACH
    assert intl.closing_burraco.value == "clean" and not intl.semiclean

    for name in ("brazilian", "brazilian-2p", "brazilian-fechado", "brazilian-stbl"):
        br = preset(name)
        assert br.target == 3000 and br.hands_per_match is None, name
        assert not br.extra_honours and not br.semiclean and not br.up_card, name
        assert br.two_natural_aces and not br.closing_requires_discard, name
        assert not br.indirect_pozzetto_counts_if_unplayed and br.stock_end is StockEnd.MORTO_BECOMES_STOCK
        assert br.value_joker == 20 and br.value_two == 10
    assert preset("brazilian").allowed_set_ranks == frozenset() and preset("brazilian").discard_pile_open
    assert preset("brazilian").closing_burraco.value == "clean"
    assert preset("brazilian-2p").players == 2
    fe = preset("brazilian-fechado")
    assert fe.allowed_set_ranks == it.allowed_set_ranks and not fe.discard_pile_open
    assert fe.pickup_rule is PickupRule.MUST_USE_TOP_CARD and fe.closing_burraco.value == "any"
    st = preset("brazilian-stbl")
    assert (
        st.allowed_set_ranks == frozenset()
        and not st.discard_pile_open
        and st.closing_burraco.value == "clean"
    )
    assert st.pickup_rule is PickupRule.MUST_USE_TOP_CARD

    for name, r in burraco.PRESETS.items():
        assert not r.closing_discard_may_be_wild, name
        # two packs, but three for 5 and 6 players (RULES.md §14.4: 162 cards)
        assert r.deck_size == (162 if r.players in (5, 6) else 108) and r.max_wilds == 1, name
    assert set(burraco.PRESETS) == {
        "italian", "italian-tournament", "italian-2p", "international",
        "brazilian", "brazilian-2p", "brazilian-fechado", "brazilian-stbl",
        "italian-3p", "italian-5p", "italian-6p",
    }  # fmt: skip


def test_0_1_overrides() -> None:
    assert preset("italian", hands_per_match=4).target is None
    assert preset("italian", hands_per_match=4, target=1000).target == 1000
    assert preset("brazilian", extra_honours=True).extra_honours
    assert preset("italian", players=2).players == 2
    with pytest.raises(burraco.RulesError, match="unknown rule override"):
        preset("italian", colour="red")
    with pytest.raises(burraco.RulesError, match="unknown preset"):
        preset("burraco-3p")
    with pytest.raises(burraco.RulesError, match="2 to 6"):
        preset("italian", players=7)
    # 3, 5 and 6 players with the Italian FIBUR presets only (§0.1 "Player count", decision of 2026-12-06)
    for name in ("international", "brazilian", "brazilian-2p", "brazilian-fechado", "brazilian-stbl"):
        for n in (3, 5, 6):
            with pytest.raises(burraco.RulesError, match=f"{name} is played by 2 or 4, not {n}.*Player count"):
                preset(name, players=n)
        assert preset(name, players=2).players == 2 and preset(name, players=4).players == 4
    for name in ("italian", "italian-tournament", "italian-2p", "italian-3p", "italian-5p", "italian-6p"):
        assert {preset(name, players=n).players for n in (2, 3, 4, 5, 6)} == {2, 3, 4, 5, 6}
    out = burraco.replay({"format": "burraco-record/1", "rules": {"preset": "international", "players": 6},
                          "hands": []})
    assert out["error"] == "record" and "Player count" in out["message"]
    # another count brings its own parameters (RULES.md §14.3–§14.4)
    assert dataclasses.replace(preset("italian", players=3), name="italian-3p") == preset("italian-3p")
    assert preset("italian", players=6).decks == 3 and preset("italian", players=6).pozzetto_requires_burraco
    with pytest.raises(burraco.RulesError):
        preset("brazilian", three_morto=True)
    with pytest.raises(burraco.RulesError):
        preset("italian", semiclean="no")


# ----------------------------------------------------------------------------------------------------------------
# errors: invalid vs illegal, untouched state, record refusal
# ----------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "action,kind,words",
    [
        ("N frob", "invalid", "unknown verb"),
        ("X draw", "invalid", "unknown seat"),
        ("", "invalid", "empty"),
        ("N", "invalid", "not an action"),
        ("N discard 9z", "invalid", "not a card"),
        ("N discard 9h 9d", "invalid", "exactly one card"),
        ("N draw 9h", "invalid", "no arguments"),
        ("N add x 9h", "invalid", "meld number"),
        ("N add 0 9h", "invalid", "numbered from 1"),
        ("N meld", "invalid", "needs the cards"),
        ("n draw", "invalid", "unknown seat"),
        ("N Draw", "invalid", "unknown verb"),
    ],
)
def test_errors_parse_failures_are_invalid(action: str, kind: str, words: str) -> None:
    g = new_game()
    msg = refused(g, action, kind=kind)
    assert words in msg


def test_errors_invalid_vs_illegal_order() -> None:
    g = new_game(hands={"N": "Kd Kc Kh 5s", "E": "Ah"}, stock_top="4d", avoid="Qs")
    # cards not held are invalid even out of turn or in the wrong phase
    assert "holds none of Qs" in refused(g, "E discard Qs", kind="invalid")
    assert "holds none of Qs" in refused(g, "N discard Qs", kind="invalid")
    assert "holds none of Qs" in refused(g, "N meld Qs Qs Qs", kind="invalid")
    # held cards, wrong phase or seat: illegal
    assert "must first draw" in refused(g, "N discard Kd")
    assert "N's turn" in refused(g, "E discard Ah")
    g.apply("N draw")
    assert "has no meld 1" in refused(g, "N add 1 Kd", kind="invalid")
    assert "only 1 of Kd" in refused(g, "N meld Kd Kd Kc", kind="invalid")
    assert "N's turn" in refused(g, "E draw")
    assert "not a meld" in refused(g, "N meld Kd Kc 5s")
    g.apply("N meld Kd Kc Kh")
    assert "has no meld 2" in refused(g, "N add 2 5s", kind="invalid")
    assert "5s is not a king" in refused(g, "N add 1 5s")
    # after the end of the hand: illegal even for cards not held
    g2 = Game.from_deal(preset("italian"), closing_deal("N"), 3)
    play(g2, close_script("N"))
    assert "hand is over" in refused(g2, "E discard Qs")
    assert "hand is over" in refused(g2, "E draw")
    # ...but a text that does not parse stays invalid
    refused(g2, "E frob", kind="invalid")


def test_errors_state_untouched_after_refusals_in_many_positions() -> None:
    rng = random.Random(5)
    for name in ("italian", "brazilian-fechado", "international"):
        g = Game.new(preset(name), seed=11)
        for _ in range(60):
            if g.is_over:
                break
            seat = g.seats[g.current_seat]
            other = g.seats[(g.current_seat + 1) % g.n]
            hand = hand_of(g, seat)
            probes = [f"{other} draw", f"{seat} add 9 {burraco.to_str(hand[0])}", f"{seat} meld JK JK JK"]
            probes += [f"{seat} meld " + burraco.cards_str(rng.sample(hand, min(3, len(hand))))]
            for p in probes:
                if not g.is_legal(p):
                    before = snapshot(g)
                    with pytest.raises(burraco.ActionError):
                        g.apply(p)
                    assert snapshot(g) == before, p
            acts = g.legal_actions()
            g.apply(acts[rng.randrange(len(acts))])


def test_errors_replay_reports_the_refused_action() -> None:
    rec = _match_record("italian", [(closing_deal("N"), ["N draw", "N meld 3h 4h 5h", "N meld 5h 6h 7c"])])
    out = replay(rec)
    assert out["ok"] is False and out["hand"] == 0 and out["action_index"] == 2
    assert out["action"] == "N meld 5h 6h 7c"
    assert out["error"] == "invalid" and "7c" in out["message"]  # N holds no 7c
    rec2 = _match_record("italian", [(closing_deal("N"), ["N draw", "N meld 3h 4h 5h", "N  meld 6h 7h Kc"])])
    out2 = replay(rec2)
    assert out2["error"] == "illegal" and "not a meld" in out2["message"]
    assert out2["action"] == "N  meld 6h 7h Kc"  # the record's text exactly as written
    assert set(out2) == {"ok", "hand", "action_index", "action", "error", "message"}


def _good_record() -> dict:
    return _match_record("italian", [(closing_deal("N"), close_script("N"))])


def test_errors_record_refusals() -> None:
    assert replay(_good_record())["ok"]
    out, status = burraco.replay_text("{not json")
    assert status == 2 and out["ok"] is False and out["error"] == "record"
    cases = []
    r = _good_record()
    r["format"] = "burraco-record/2"
    cases.append(r)
    r = _good_record()
    r["rules"] = "italian-3p"
    cases.append(r)
    r = _good_record()
    r["rules"] = {"preset": "italian", "colour": "red"}
    cases.append(r)
    r = _good_record()
    r["rules"] = {"preset": "italian", "target": "many"}
    cases.append(r)
    r = _good_record()  # a card twice and another missing
    d = r["hands"][0]["deal"]
    d["stock"] = (
        d["stock"].replace(d["stock"].split()[-1], "Th", 1) if d["stock"].split()[-1] != "Th" else d["stock"]
    )
    cases.append(r)
    r = _good_record()  # wrong shape: ten cards in a hand
    d = r["hands"][0]["deal"]
    cards = d["hands"]["E"].split()
    d["hands"]["E"] = " ".join(cards[:10])
    d["stock"] = d["stock"] + " " + cards[10]
    cases.append(r)
    r = _good_record()
    r["hands"][0]["deal"]["upcard"] = None
    cases.append(r)
    r = _good_record()
    r["dealer"] = "X"
    cases.append(r)
    r = _good_record()
    r["hands"] = "none"
    cases.append(r)
    r = _good_record()
    r["hands"][0]["actions"] = [1, 2]
    cases.append(r)
    r = _good_record()
    r["hands"][0]["deal"]["hands"]["Z"] = "Ah"
    cases.append(r)
    for i, rec in enumerate(cases):
        out = replay(rec)
        assert out["ok"] is False and out["error"] == "record", (i, out)
        assert set(out) == {"ok", "error", "message"} and out["message"]
        out2, status = burraco.replay_text(json.dumps(rec))
        assert status == 2 and out2 == out
    out, status = burraco.replay_text(json.dumps([1, 2]))
    assert status == 2 and out["error"] == "record"


def test_records_unknown_top_level_keys_are_ignored_and_2p_seats() -> None:
    rec = _good_record()
    rec["event"] = "club night"
    assert replay(rec)["ok"]
    g = new_game("italian-2p")
    play(g, ["N pass"])
    out = replay(g.to_record())
    assert out["ok"] and set(out["hands"][0]["table"]["hands"]) == {"N", "S"}
    assert out["totals"] == {"N": 0, "S": 0}


def test_all_cards_are_conserved_in_scripted_positions() -> None:
    for g in (diretta_game("Qs Qs Qd 5c 6c 7c 8c 9c Tc 4s Kd"), con_scarto_game(), _three_morto_game()):
        assert all_cards(g) == deck_counter(g.rules)


# ----------------------------------------------------------------------------------------------------------------
# §14.5 Brazilian details, RECORDS.md §5 output shape
# ----------------------------------------------------------------------------------------------------------------
def _brazilian_hearts_batida(extra_honours: bool, pozzetto: str, script: list[str]) -> Game:
    g = new_game(
        preset("brazilian-2p", extra_honours=extra_honours),
        hands={"N": "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh"},
        stock_top="Qh",
        pozzetti=[pozzetto],
    )
    play(g, ["N draw", "N meld Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh"] + script)  # morto in diretta, then more
    return g


@pytest.mark.parametrize("extra", [False, True])
def test_14_5_brazilian_extra_honours_ace_to_king_and_ace_to_ace(extra: bool) -> None:
    a_k = _brazilian_hearts_batida(
        extra, "Kh 3s 4s 5s 6s 7s 8s 9s Ts Js Qs", ["N add 1 Kh", "N meld 3s 4s 5s 6s 7s 8s 9s Ts Js Qs"]
    )
    assert a_k.end == "closed"
    sc = a_k.scores()
    assert sc is not None
    # Ah 15 + 2h 10 (Brazilian) + 3h..7h 25 + 8h..Kh 60 = 110; 3s..Qs 25 + 50 = 75
    assert sc["N"]["melds"] == 185 and sc["N"]["closing"] == 100 and sc["N"]["hand"] == 0
    assert sc["N"]["bonuses"] == (500 if extra else 200) + 200
    assert sc == expected_scores(a_k)
    a_a = _brazilian_hearts_batida(
        extra, "Kh Ah 4s 5s 6s 7s 8s 9s Ts Js Qs", ["N add 1 Kh Ah", "N meld 4s 5s 6s 7s 8s 9s Ts Js Qs"]
    )
    assert a_a.table_json()["melds"]["N"][0]["cards"] == [
        "Ah",
        "2h",
        "3h",
        "4h",
        "5h",
        "6h",
        "7h",
        "8h",
        "9h",
        "Th",
        "Jh",
        "Qh",
        "Kh",
        "Ah",
    ]
    sc = a_a.scores()
    assert sc is not None and sc["N"]["bonuses"] == (1000 if extra else 200) + 200
    assert sc == expected_scores(a_a)


def test_0_1_brazilian_may_also_go_out_by_discarding() -> None:
    g = _brazilian_hearts_batida(
        False, "Kh 3s 4s 5s 6s 7s 8s 9s Ts Js 9d", ["N add 1 Kh", "N meld 3s 4s 5s 6s 7s 8s 9s Ts Js"]
    )
    assert hand_str(g, "N") == "9d"
    g.apply("N discard 9d")
    assert g.end == "closed" and g.result_json()["closed_by"] == "N"
    sc = g.scores()
    assert sc is not None and sc["N"]["closing"] == 100


def test_records_5_output_lists_the_first_hand_and_hands_with_actions() -> None:
    d1, d2 = closing_deal("N"), closing_deal("E")
    out = replay(_match_record("italian", [(d1, [])]))
    assert out["ok"] and len(out["hands"]) == 1
    h = out["hands"][0]
    assert h["end"] is None and h["closed_by"] is None and h["scores"] is None
    t = h["table"]
    assert (
        t["turn"] == "N"
        and t["phase"] == "draw"
        and t["stock"] == 41
        and t["pile"] == [burraco.to_str(d1.upcard)]
    )
    assert t["hands"] == {"N": 11, "E": 11, "S": 11, "W": 11} and t["pozzetti_left"] == 2
    assert t["pozzetto_taken"] == {"NS": False, "EW": False} and t["melds"] == {"NS": [], "EW": []}
    out = replay(_match_record("italian", [(d1, close_script("N")), (d2, [])]))
    assert out["ok"] and len(out["hands"]) == 1 and out["totals"] == {"NS": 415, "EW": -320}
    out = replay(_match_record("italian", [(d1, close_script("N")), (d2, ["E draw"])]))
    assert len(out["hands"]) == 2 and out["hands"][1]["table"]["turn"] == "E"


@pytest.mark.parametrize("lone,attachable", [("9h", True), ("Kd", False)])
def test_0_1_lone_picked_card_before_the_pozzetto(lone: str, attachable: bool) -> None:
    """N (no pozzetto yet) holds only Jc and picks up a one-card pile. Attaching Jc leaves the lone card as his only
    card: legal exactly when that card can still be attached (his hand then empties: pozzetto in diretta)."""
    g = new_game(hands={"N": "3h 4h 5h 6h 7h Jc Jd Js Jh Jc Kc", "W": lone}, stock_top="8h")
    play(g, ["N draw", "N meld 3h 4h 5h 6h 7h 8h", "N meld Jc Jd Js Jh", "N discard Kc"])
    play(g, ["E pass", "S pass", "W pick", f"W discard {lone}"])
    assert hand_str(g, "N") == "Jc" and g.table_json()["pile"] == [lone]
    g.apply("N pick")
    assert "one-card pile" in refused(g, f"N discard {lone}")
    assert g.is_legal("N discard Jc")
    if attachable:
        assert g.is_legal("N add 2 Jc")
        g.apply("N add 2 Jc")
        assert legal(g) == [f"N add 1 {lone}"]
        g.apply(f"N add 1 {lone}")
        assert g.table_json()["hands"]["N"] == 11 and g.table_json()["pozzetto_taken"]["NS"]
    else:
        assert f"only {lone}" in refused(g, "N add 2 Jc")
        assert legal(g) == ["N discard Jc"]


@pytest.mark.parametrize("name", sorted(burraco.PRESETS))
def test_records_3_rules_overrides_round_trip(name: str) -> None:
    from burraco.rules import rules_from_json, rules_to_json

    overrides: list[dict[str, object]] = [
        {},
        {"players": 2},
        {"players": 4},
        {"target": 505},
        {"hands_per_match": 4},
        {"hands_per_match": 2, "target": 1000},
        {"min_first_meld": 50},
        {"three_morto": True},
        {"semiclean": False},
        {"extra_honours": True},
    ]
    for over in overrides:
        try:
            r = preset(name, **over)
        except burraco.RulesError:
            # three mortos: only 4-player Italian rule sets (§0.1)
            base = preset(name)
            assert "three_morto" in over
            assert base.players != 4 or base.stock_end is StockEnd.MORTO_BECOMES_STOCK
            continue
        j = rules_to_json(r)
        assert json.loads(json.dumps(j)) == j
        assert rules_from_json(j) == r, (name, over)
        g = Game.new(r, seed=1)
        rec = g.to_record()
        assert replay(rec)["ok"]

"""RULES.md §4.6 worked examples E1–E29, and the meld rules of §4.4, §4.8 and §5, through the public meld API
(``make_meld`` / ``attach``); the examples about a side's melds (E6, E28) through a :class:`Game`."""

from __future__ import annotations

import pytest

import burraco
from burraco import MeldError, attach, make_meld, parse_cards, preset
from helpers import hand_str, new_game, play

IT = preset("italian")
INTL = preset("international")
BR = preset("brazilian")


def meld(text: str, rules: burraco.Rules = IT) -> burraco.Meld:
    return make_meld(parse_cards(text), rules)


def add(m: burraco.Meld, text: str, rules: burraco.Rules = IT) -> burraco.Meld:
    return attach(m, parse_cards(text), rules)


def refused(text: str, rules: burraco.Rules = IT) -> str:
    with pytest.raises(MeldError) as e:
        meld(text, rules)
    return str(e.value)


def refused_add(m: burraco.Meld, text: str, rules: burraco.Rules = IT) -> str:
    with pytest.raises(MeldError) as e:
        add(m, text, rules)
    return str(e.value)


def shown(m: burraco.Meld) -> str:
    return burraco.cards_str(m.display_cards())


def same_multiset(m: burraco.Meld, text: str) -> bool:
    return sorted(m.cards) == sorted(parse_cards(text))


SET, SEQ = 0, 1


# ----------------------------------------------------------------------------------------------------------------
# §4.6 E1–E29
# ----------------------------------------------------------------------------------------------------------------
def test_4_6_E1_set_with_duplicate_suit_is_clean() -> None:
    m = meld("7c 7d 7d")
    assert m.kind == SET and m.rank == 7
    assert m.wild < 0 and not m.has_wild
    assert m.burraco is None and m.size == 3
    assert same_multiset(m, "7c 7d 7d")


def test_4_6_E2_set_with_one_joker_is_dirty() -> None:
    m = meld("7c 7d JK")
    assert m.kind == SET
    assert m.wild == burraco.JOKER and m.wild >= 0
    assert m.naturals == 2
    assert not m.free_wild  # a set's wild has no position (§4.3)
    assert m.burraco is None


def test_4_6_E3_set_with_two_wilds_is_invalid() -> None:
    msg = refused("7c JK 2s")
    assert "2 wilds" in msg


def test_4_6_E4_set_of_pinelle_is_invalid() -> None:
    msg = refused("2c 2d 2h")
    assert "set of 2s" in msg


def test_4_6_E5_nine_card_set_is_the_maximum() -> None:
    m = meld("5h 5h 5d 5d 5c 5c 5s 5s JK")
    assert m.kind == SET and m.size == 9 and m.naturals == 8
    assert m.wild == burraco.JOKER
    assert m.burraco == "semiclean"  # ≥7 naturals + the wild (§4.8)
    # a tenth card could only be a second wild
    assert "2 wilds" in refused("5h 5h 5d 5d 5c 5c 5s 5s JK 2c")
    assert "2 wilds" in refused_add(m, "2c")


def test_4_6_E6_second_set_of_jacks_for_one_side_is_invalid() -> None:
    g = new_game(hands={"N": "Jc Jd Jh Jc Js JK 9h 6h 3d 3s 4c"}, stock_top="Kd")
    play(g, ["N draw", "N meld Jc Jd Jh"])
    err = g.check(g.parse("N meld Jc Js JK"))
    assert err is not None and err.kind == "illegal"
    assert "set of jacks" in str(err)
    assert not g.is_legal("N meld Jc Js JK")
    # the same cards are fine as an attachment, and the other side could open its own set of jacks
    assert g.is_legal("N add 1 Jc Js JK")
    assert burraco.make_meld(parse_cards("Jc Js JK"), IT).kind == SET


def test_4_6_E7_international_set_of_eights_is_invalid() -> None:
    msg = refused("8s 8h 8c", INTL)
    assert "set of 8s is not allowed" in msg
    assert meld("8s 8h 8c").kind == SET  # fine in Italian rules


def test_4_6_E8_clean_sequence() -> None:
    m = meld("5h 6h 7h")
    assert m.kind == SEQ and m.suit == 0
    assert m.wild < 0 and m.burraco is None
    assert shown(m) == "5h 6h 7h"


def test_4_6_E9_wild_locked_in_the_gap() -> None:
    m = meld("5h JK 7h")
    assert m.kind == SEQ
    assert m.wild == burraco.JOKER
    assert m.wild_pos == 6  # it stands for 6h
    assert not m.free_wild
    assert shown(m) == "5h JK 7h"


def test_4_6_E10_free_wild_at_an_end() -> None:
    m = meld("5h 6h JK")
    assert m.wild == burraco.JOKER
    assert m.free_wild and m.wild_pos == 0
    # it may stand for 4h or 7h: both ends accept the natural card...
    assert add(m, "4h").naturals == 3
    assert add(m, "7h").naturals == 3
    # ...and, being free, it can move into a gap created by an attachment (8h: wild = 7h)
    m8 = add(m, "8h")
    assert m8.wild_pos == 7 and not m8.free_wild
    assert shown(m8) == "5h 6h JK 8h"


def test_4_6_E11_ace_low_with_natural_two_is_clean() -> None:
    m = meld("Ah 2h 3h")
    assert m.kind == SEQ and m.wild < 0
    assert m.naturals == 3
    assert shown(m) == "Ah 2h 3h"


def test_4_6_E12_ace_high_is_clean() -> None:
    m = meld("Qh Kh Ah")
    assert m.wild < 0
    assert shown(m) == "Qh Kh Ah"
    lo, hi = m.span()
    assert (lo, hi) == (12, 14)


def test_4_6_E13_king_ace_two_is_dirty_wrap_impossible() -> None:
    m = meld("Kh Ah 2h")
    assert m.kind == SEQ
    assert m.wild == parse_cards("2h")[0]  # the 2h cannot be natural: it is the wild (= Qh)
    assert m.naturals == 2
    assert m.wild_position() == 12
    assert shown(m) == "2h Kh Ah"


def test_4_6_E14_king_ace_foreign_two_is_the_queen() -> None:
    m = meld("Kh Ah 2c")
    assert m.wild == parse_cards("2c")[0]
    assert m.wild_position() == 12
    assert shown(m) == "2c Kh Ah"


def test_4_6_E15_fourteen_card_sequence_wild_is_the_high_ace() -> None:
    m = meld("Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh JK")
    assert m.size == 14 and m.naturals == 13
    assert m.wild == burraco.JOKER and m.free_wild
    assert m.wild_position() == 14
    assert m.burraco == "semiclean"
    assert meld("Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh JK", INTL).burraco == "dirty"  # no semipulito there


def test_4_6_E16_two_natural_aces_invalid_in_italian_valid_in_brazilian() -> None:
    text = "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah"
    assert "one natural ace" in refused(text)
    m = meld(text, BR)
    assert m.size == 14 and m.naturals == 14 and m.wild < 0
    assert m.burraco == "clean"


def test_4_6_E17_natural_two_makes_a_clean_burraco() -> None:
    m = meld("2h 3h 4h 5h 6h 7h 8h")
    assert m.wild < 0 and m.naturals == 7
    assert m.burraco == "clean"


def test_4_6_E18_two_locked_in_the_eight_place_is_a_dirty_burraco() -> None:
    m = meld("3h 4h 5h 6h 7h 2h 9h")
    assert m.wild == parse_cards("2h")[0]
    assert m.wild_pos == 8 and not m.free_wild
    assert m.burraco == "dirty"  # six naturals below the wild, one above


def test_4_6_E19_freed_same_suit_two_drops_to_its_place_clean() -> None:
    m = add(meld("3h 4h 5h 6h 7h 2h 9h"), "8h")
    assert m.wild < 0
    assert m.size == 8 and m.naturals == 8
    assert shown(m) == "2h 3h 4h 5h 6h 7h 8h 9h"
    assert m.burraco == "clean"


def test_4_6_E20_foreign_two_freed_stays_wild() -> None:
    m = meld("4h 5h 2s 7h")
    assert m.wild_pos == 6 and not m.free_wild
    m2 = add(m, "6h")
    assert m2.wild == parse_cards("2s")[0]
    assert m2.free_wild
    assert m2.naturals == 4


def test_4_6_E21_natural_two_plus_one_wild() -> None:
    m = meld("Ac 2c 3c 2s 5c")
    assert m.naturals == 4  # Ac 2c 3c 5c
    assert m.wild == parse_cards("2s")[0]
    assert m.wild_pos == 4  # 2s = 4c
    assert shown(m) == "Ac 2c 3c 2s 5c"


def test_4_6_E22_two_twos_of_the_suit_one_natural_one_wild() -> None:
    m = meld("2h 2h 3h")
    assert m.naturals == 2
    assert m.wild == parse_cards("2h")[0]
    assert m.free_wild  # = Ah or 4h
    assert add(m, "4h").size == 4
    assert add(m, "Ah").size == 4


def test_4_6_E23_two_twos_and_joker_is_invalid() -> None:
    msg = refused("2h 2h JK")
    assert "wild" in msg


def test_4_6_E24_two_joker_four_two_is_natural() -> None:
    m = meld("2h JK 4h")
    assert m.wild == burraco.JOKER
    assert m.wild_pos == 3
    assert m.naturals == 2
    assert shown(m) == "2h JK 4h"


def test_4_6_E25_position_used_twice_is_invalid() -> None:
    assert "6h appears twice" in refused("5h 6h 6h 7h")


def test_4_6_E26_two_gaps_one_wild_is_invalid() -> None:
    assert "2 gaps" in refused("3h 5h 7h JK")


def test_4_6_E27_mixed_suits_are_invalid() -> None:
    assert "6d is not a heart and not a wild" in refused("5h 6d 7h")


def test_4_6_E28_two_heart_sequences_of_one_side_stay_separate() -> None:
    g = new_game(hands={"N": "3h 4h 5h 9h Th Jh 6h 7h 8h Kc Ks"}, stock_top="4d", avoid="2h Qh")
    play(g, ["N draw", "N meld 3h 4h 5h", "N meld 9h Th Jh", "N add 1 6h 7h 8h"])
    melds = g.table_json()["melds"]["NS"]
    assert [m["cards"] for m in melds] == [["3h", "4h", "5h", "6h", "7h", "8h"], ["9h", "Th", "Jh"]]
    assert all(m["kind"] == "sequence" and m["burraco"] is None for m in melds)
    assert hand_str(g, "N") == "4d Kc Ks"


def test_4_6_E29_two_jokers_one_natural_is_invalid() -> None:
    assert "2 wilds" in refused("JK JK 5h")


# ----------------------------------------------------------------------------------------------------------------
# §4.2–§4.4 more validity rules
# ----------------------------------------------------------------------------------------------------------------
def test_4_2_meld_needs_three_cards() -> None:
    assert "at least 3 cards" in refused("5h 6h")
    assert "at least 3 cards" in refused("5h JK")


def test_4_3_set_max_nine_and_only_ranks_but_two() -> None:
    assert meld("Kh Kd Kc").rank == 13
    assert meld("Ah Ad Ac").rank == 1
    assert "set of 2s" in refused("2h 2d 2c 2s")


def test_4_4_5_one_natural_ace_italian_vs_ace_to_ace_brazilian() -> None:
    assert "one natural ace" in refused("Qh Kh Ah Ah")
    assert "one natural ace" in refused("Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah")
    # 13 naturals from A low or to A high
    assert meld("Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh").burraco == "clean"
    # Brazilian A…A: two natural aces in one sequence, the fourteenth card natural
    m = meld("Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah", BR)
    assert m.span() == (1, 14) and m.wild < 0
    # a complete A…A leaves no place for a wild (§5.8)
    assert refused_add(m, "JK", BR)
    # an A…A with a wild in the gap is a dirty canastra
    d = meld("Ah 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah JK", BR)
    assert d.wild_pos == 2 and d.burraco == "dirty"


def test_4_4_4_no_wrap_around() -> None:
    assert refused("Kh Ah 2h 3h")  # 2h natural → Kh Ah 2h 3h would wrap; 2h wild leaves 2 gaps
    assert refused("Qh Kh Ah 2s 3h")


def test_4_4_6_same_suit_two_natural_whenever_possible() -> None:
    m = meld("2h 3h 4h")
    assert m.wild < 0 and m.naturals == 3
    m = meld("2h 4h 5h")  # 2h cannot stand at 2 (3h missing): it is a free wild (3h or 6h)
    assert m.wild == parse_cards("2h")[0] and m.free_wild and m.naturals == 2
    assert add(m, "6h").wild_position() == 3


def test_4_3_international_sets_only_aces_and_threes() -> None:
    assert meld("Ah Ad Ac", INTL).kind == SET
    assert meld("3h 3d 3c JK", INTL).kind == SET
    for r in "456789TJQK":
        with pytest.raises(MeldError, match="sets only of aces and 3s"):
            meld(f"{r}h {r}d {r}c", INTL)


def test_14_brazilian_aberto_and_stbl_have_no_sets_fechado_has() -> None:
    for name in ("brazilian", "brazilian-2p", "brazilian-stbl"):
        with pytest.raises(MeldError, match="sequences only"):
            meld("7h 7d 7c", preset(name))
    assert meld("7h 7d 7c", preset("brazilian-fechado")).kind == SET


# ----------------------------------------------------------------------------------------------------------------
# §5 wild replacement and movement
# ----------------------------------------------------------------------------------------------------------------
def test_5_2_locked_wild_displaced_only_by_the_exact_card() -> None:
    m = meld("5h JK 7h")
    assert m.wild_pos == 6
    # the exact card frees the wild, which goes to an end
    freed = add(m, "6h")
    assert freed.free_wild and freed.wild == burraco.JOKER and freed.naturals == 3
    # another 6 (not a heart) is refused, and the gap cannot be bypassed
    assert "6d is not a heart and not a wild" in refused_add(m, "6d")
    assert "gaps" in refused_add(m, "9h")
    # cards at the ends keep the wild locked
    m4 = add(m, "4h")
    assert m4.wild_pos == 6 and not m4.free_wild
    # a locked 2 of another suit: the same
    m2 = meld("5h 2s 7h")
    assert add(m2, "6h").free_wild


def test_5_3_free_wild_moves_burraconline_examples() -> None:
    # 2c(wild) 5c 6c + 8c -> 5c 6c 2c(=7c) 8c
    m = meld("2c 5c 6c")
    assert m.free_wild
    m2 = add(m, "8c")
    assert m2.wild_pos == 7
    assert shown(m2) == "5c 6c 2c 8c"
    # 6c W 8c + Tc alone: illegal, W is locked as 7c
    locked = meld("6c JK 8c")
    assert "gaps" in refused_add(locked, "Tc")
    # 6c W 8c + 7c + Tc together: 6c 7c 8c W(=9c) Tc
    m3 = add(locked, "7c Tc")
    assert m3.wild_pos == 9
    assert shown(m3) == "6c 7c 8c JK Tc"


def test_5_3_free_wild_moves_through_a_game_in_one_add() -> None:
    g = new_game(hands={"N": "6c 8c JK 7c Tc 3d 4s 5h 9d Qs Kd"}, stock_top="Kh", avoid="9c 2c")
    play(g, ["N draw", "N meld 6c JK 8c"])
    assert not g.is_legal("N add 1 Tc")
    assert g.is_legal("N add 1 7c Tc")
    g.apply("N add 1 7c Tc")
    assert g.table_json()["melds"]["NS"][0]["cards"] == ["6c", "7c", "8c", "JK", "Tc"]


def test_5_5_wild_may_not_replace_a_wild() -> None:
    m = meld("5h 2s 7h")
    assert "2 wilds" in refused_add(m, "JK")
    assert "2 wilds" in refused_add(m, "JK 6h")  # not even together with the natural card
    s = meld("7c 7d JK")
    assert "wild" in refused_add(s, "2s")
    free = meld("5h 6h 2s")
    assert "2 wilds" in refused_add(free, "JK")


def test_5_6_naturals_lengthen_a_set() -> None:
    s = meld("7c 7d JK")
    s2 = add(s, "7h 7s")
    assert s2.size == 5 and s2.naturals == 4 and s2.wild == burraco.JOKER
    assert "8h is not a 7" in refused_add(s, "8h")


def test_5_7_natural_same_suit_two_never_becomes_wild_again() -> None:
    m = meld("2h 3h 4h")
    assert m.wild < 0
    # 6h could only fit if the 2h became a wild (= 5h): refused, the natural keeps its place
    assert refused_add(m, "6h")
    m2 = meld("Ah 2h 3h")
    assert refused_add(m2, "5h")
    # with a real wild it is fine, and the 2h stays natural
    m3 = add(m, "JK 6h")
    assert m3.wild == burraco.JOKER and m3.wild_pos == 5 and m3.naturals == 4


def test_5_7_same_suit_two_used_as_wild_becomes_natural() -> None:
    m = meld("2h 4h 5h")  # 2h is a wild (3h or 6h)
    m2 = add(m, "3h")
    assert m2.wild < 0 and m2.naturals == 4
    assert shown(m2) == "2h 3h 4h 5h"


# ----------------------------------------------------------------------------------------------------------------
# §4.8 burraco classes, semipulito
# ----------------------------------------------------------------------------------------------------------------
def test_4_8_seven_cards_make_a_burraco_six_do_not() -> None:
    assert meld("3h 4h 5h 6h 7h 8h").burraco is None
    assert meld("3h 4h 5h 6h 7h 8h 9h").burraco == "clean"
    assert meld("3h 4h 5h 6h 7h 8h JK").burraco == "dirty"


def test_4_8_semipulito_set_of_seven_naturals_and_wild() -> None:
    assert meld("5h 5h 5d 5d 5c 5c 5s JK").burraco == "semiclean"
    assert meld("5h 5h 5d 5d 5c 5c JK").burraco == "dirty"  # 6 naturals + wild
    assert meld("5h 5h 5d 5d 5c 5c 5s").burraco == "clean"


def test_4_8_semipulito_sequence_wild_beside_seven_naturals() -> None:
    m = meld("3h 4h 5h 6h 7h 8h 9h JK")
    assert m.free_wild and m.burraco == "semiclean"
    assert meld("3h 4h 5h 6h 7h 8h JK").burraco == "dirty"  # only 6 naturals


def test_4_8_semipulito_internal_locked_wild_literal_reading() -> None:
    text = "3h 4h 5h 6h 7h 8h 9h JK Jh"  # JK = Th, seven naturals below it
    m = meld(text)
    assert m.wild_pos == 10 and not m.free_wild
    assert m.burraco == "semiclean"
    strict = IT.replace(semipulito_wild_at_end_only=True)
    assert make_meld(parse_cards(text), strict).burraco == "dirty"
    # six naturals on one side and two on the other: dirty either way
    assert meld("3h 4h 5h 6h 7h 8h JK Th Jh").burraco == "dirty"
    # an end wild stays semipulito under the strict reading
    assert make_meld(parse_cards("3h 4h 5h 6h 7h 8h 9h JK"), strict).burraco == "semiclean"


def test_4_8_semiclean_false_counts_as_dirty() -> None:
    r = preset("italian", semiclean=False)
    assert make_meld(parse_cards("3h 4h 5h 6h 7h 8h 9h JK"), r).burraco == "dirty"
    assert make_meld(parse_cards("5h 5h 5d 5d 5c 5c 5s JK"), r).burraco == "dirty"
    assert make_meld(parse_cards("3h 4h 5h 6h 7h 8h 9h"), r).burraco == "clean"
    for name in ("international", "brazilian", "brazilian-fechado", "brazilian-stbl"):
        assert make_meld(parse_cards("3h 4h 5h 6h 7h 8h 9h JK"), preset(name)).burraco == "dirty"


def test_4_8_class_follows_changes_clean_to_dirty_and_back() -> None:
    m = meld("3h 4h 5h 6h 7h 8h 9h")
    assert m.burraco == "clean"
    d = add(m, "2s")  # a clean burraco may be dirtied deliberately (§4.8)
    assert d.burraco == "semiclean" and d.wild >= 0
    d2 = add(meld("3h 4h 5h 6h 7h 2h 9h"), "Th")
    assert d2.burraco == "dirty"
    assert add(d2, "8h").burraco == "clean"  # the 2h drops home (E19)


# ----------------------------------------------------------------------------------------------------------------
# regressions of defects found while writing these tests (fixed in the engine)
# ----------------------------------------------------------------------------------------------------------------
def test_5_4_attach_offsuit_message_is_grammatical() -> None:
    msg = refused_add(meld("5h JK 7h"), "6d")
    assert "6d is not a heart and not a wild" in msg
    assert "is not a meld" not in msg  # it was "… cannot be added to 5h JK 7h is not a meld: …"


def test_meld_value_equality() -> None:
    # equal melds compare equal however they were built (View equality relies on it)
    assert meld("5h 6h 7h 8h") == add(meld("5h 6h 7h"), "8h")
    assert meld("5h 6h 7h 8h") != meld("5h 6h 7h JK")
    assert make_meld(parse_cards("7c 7d 7h"), IT) == make_meld(
        parse_cards("7h 7d 7c"), preset("italian", turn_cap=9)
    )

"""Burraco for 3, 5 and 6 players (RULES.md §14.3, §14.4): deal shapes, who becomes solo, the pairs formed, a pair's
melds, the split of its score and its rounding, the hand that ends before anybody went out, the switch to
individual play, the 6-player pozzetto rule, views, records and bad input. The properties of every preset
(tests/test_properties.py) cover these presets too."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

import burraco
from burraco import Game, Match, preset, replay
from burraco.scoring import split_share
from burraco.seats import pairs_after
from helpers import all_cards, deck_counter, greedy_move, hand_str, new_game, play


def legal(g: Game) -> list[str]:
    return g.legal_actions_str()


# ----------------------------------------------------------------------------------------------------------------
# deal shapes (§14.3, §14.4; RECORDS.md §2–§3)
# ----------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "name,seats,sides,pozzetti,stock,deck",
    [
        ("italian-3p", "A B C", ["A", "B", "C"], [18, 11], 45, 108),
        ("italian-5p", "A B C D E", ["A", "B", "C", "D", "E"], [18, 11, 11], 66, 162),
        ("italian-6p", "A B C D E F", ["AD", "BE", "CF"], [11, 11, 11], 62, 162),
    ],
)
def test_14_3_14_4_deal_shapes(
    name: str, seats: str, sides: list[str], pozzetti: list[int], stock: int, deck: int
) -> None:
    r = preset(name)
    g = Game.new(r, seed=3)
    assert " ".join(g.seats) == seats and list(g.sides) == sides
    assert [len(p) for p in g.deal.pozzetti] == pozzetti and r.pozzetto_sizes == tuple(pozzetti)  # type: ignore[union-attr]
    t = g.table_json()
    assert t["stock"] == stock and set(t["hands"].values()) == {11} and r.deck_size == deck
    assert all_cards(g) == deck_counter(r)
    assert g.current_seat == 0  # dealt by the last seat: A plays first
    if deck == 162:
        assert r.jokers == 6 and r.max_set_size == 13  # three packs: 12 naturals of a rank and a wild


def test_14_4_five_players_pairs_alternate_after_the_solo() -> None:
    # counting the solo as 1st, the 2nd plays with the 4th and the 3rd with the 5th
    assert pairs_after(0, 5) == ((1, 3), (2, 4))
    assert pairs_after(2, 5) == ((0, 3), (1, 4))
    assert pairs_after(4, 5) == ((0, 2), (1, 3))
    assert pairs_after(1, 3) == ((0, 2),)


# ----------------------------------------------------------------------------------------------------------------
# §14.3: the solo and the pair
# ----------------------------------------------------------------------------------------------------------------
SOLO_A = "3h 4h 5h 6h 7h 8h 9h Kc Kd Ks Qd"
PAIR_B = "3c 4c 5c Jh 8d 8s 2d Tc Td Ts Qh"
PAIR_C = "Js Jd Jc 6d 7d 4s 5s 6s Ah Ad 3d"


def solo_game() -> Game:
    """A goes out first (in diretta) after B and C have opened a meld each."""
    g = new_game(
        "italian-3p",
        hands={"A": SOLO_A, "B": PAIR_B, "C": PAIR_C},
        stock_top="JK 9d 9s Th",
        pozzetti=["Qc"],
    )
    play(g, ["A draw", "A meld 3h 4h 5h", "A discard Qd"])
    play(g, ["B draw", "B meld 3c 4c 5c", "B discard 9d"])
    play(g, ["C draw", "C meld Js Jd Jc", "C discard 9s"])
    play(g, ["A draw", "A add 1 6h 7h 8h 9h Th"])
    return g


def test_14_3_phase_one_everybody_plays_alone() -> None:
    g = solo_game()
    assert list(g.sides) == ["A", "B", "C"] and g.solo < 0
    t = g.table_json()
    assert {k: [m["cards"] for m in v] for k, v in t["melds"].items()} == {
        "A": [["3h", "4h", "5h", "6h", "7h", "8h", "9h", "Th"]],
        "B": [["3c", "4c", "5c"]],
        "C": [["Jd", "Jc", "Js"]],  # a set is shown in the order it was melded
    }
    assert t["pozzetti_left"] == 2
    assert g.view(1).partners(1) == () and g.view(1).opponents(1) == (0, 2)


def test_14_3_the_first_out_takes_the_18_and_plays_solo_the_others_pair_up() -> None:
    g = solo_game()
    before = g.view(1)
    g.apply("A meld Kc Kd Ks JK")  # his hand is empty: the 18-card pozzetto, in diretta
    assert g.table_json()["hands"]["A"] == 18 and g.table_json()["pozzetti_left"] == 1
    assert list(g.sides) == ["A", "BC"] and g.solo == 0
    melds = g.table_json()["melds"]
    # the pair's melds are one side's: B's (the first seat) keep their numbers, C's follow
    assert [sorted(m["cards"]) for m in melds["BC"]] == [["3c", "4c", "5c"], ["Jc", "Jd", "Js"]]
    told = [
        burraco.messages.render(m, "en", player=True)
        for m in burraco.narrate(before, g.actions[-1], g.view(1))
    ]
    assert told == [
        "A opens K♦ K♣ K♠ Joker",
        "A takes the pozzetto and plays on",
        "A plays alone from now on; you and C play as a pair (rule 14.3)",  # told when it happens (issue 44)
    ]
    g.apply("A discard Qc")
    v = g.view(1)
    assert v.partners(1) == (2,) and v.opponents(1) == (0,) and v.sides == ("A", "BC")
    g.apply("B draw")
    assert "B add 2 Jh" in legal(g)  # B attaches to C's meld: they are one side now
    g.apply("B add 2 Jh")
    assert sorted(g.table_json()["melds"]["BC"][1]["cards"]) == ["Jc", "Jd", "Jh", "Js"]


def test_14_3_the_pair_takes_the_11_card_pozzetto() -> None:
    r = preset("italian-3p")
    for seed in range(40):
        g = Game.new(r, seed=seed)
        rng = random.Random(seed)
        takes: list[tuple[int, int, int]] = []  # (seat, cards it took, players on his side then)
        left = g.table_json()["pozzetti_left"]
        while not g.is_over:
            s = g.current_seat
            n = g.table_json()["hands"][g.seats[s]]
            a = greedy_move(g, rng)
            g.apply(a)
            t = g.table_json()
            if t["pozzetti_left"] < left:
                took = t["hands"][g.seats[s]] - n + (len(a.cards) if a.verb != "draw" else -1)
                takes.append((s, took, len(g.side_seats[g.side_of(s)])))
                left = t["pozzetti_left"]
        if len(takes) == 2:
            (solo, big, alone), (pair_seat, small, pair_size) = takes
            assert (big, alone) == (18, 1) and g.solo == solo  # the first out plays alone with the 18
            assert (small, pair_size) == (11, 2) and pair_seat != solo  # the pair's first out takes the 11
            return
    raise AssertionError("no seed in 0..39 where both pozzetti were taken")


def test_14_3_a_hand_over_before_anybody_went_out_scores_everybody_alone_with_the_penalty() -> None:
    g = new_game("italian-3p")
    play(g, ["rotate 14", "A pass"])
    assert g.end == "stock" and g.solo < 0
    sc = g.scores()
    assert sc is not None and set(sc) == {"A", "B", "C"}
    assert all(s["pozzetto"] == -100 for s in sc.values())
    assert g.player_points() == [sc[x]["total"] for x in "ABC"]


@pytest.mark.parametrize(
    "total,up,down",
    [(305, 153, 152), (-305, -152, -153), (300, 150, 150), (5, 3, 2), (-5, -2, -3), (0, 0, 0)],
)
def test_14_3_pair_score_split_and_its_rounding(total: int, up: int, down: int) -> None:
    assert split_share(total, 2, "up") == up
    assert split_share(total, 2, "down") == down
    assert split_share(total, 1, "up") == total  # the solo keeps his whole score


def test_14_3_finished_hands_split_the_pair_score_and_the_match_adds_it_per_player() -> None:
    for rounding in ("up", "down"):
        r = preset("italian-3p", pair_split_rounding=rounding)
        g = Game.new(r, seed=1)
        rng = random.Random(1)
        while not g.is_over:
            g.apply(greedy_move(g, rng))
        sc = g.scores()
        assert sc is not None and g.solo >= 0
        pts = g.player_points()
        for side, members in zip(g.sides, g.side_seats, strict=True):
            for m in members:
                assert pts[m] == split_share(sc[side]["total"], len(members), rounding)
        solo_side = g.sides[g.side_of(g.solo)]
        assert sc[solo_side]["pozzetto"] == 0  # the solo can never incur the -100
        out = replay(g.to_record())
        assert out["totals"] == dict(zip("ABC", pts, strict=True))


def test_14_3_switch_to_individual_play_once_a_total_reaches_the_limit() -> None:
    r = preset("italian-3p", individual_from=300, target=900)
    m = Match(r, seed=2)
    rng = random.Random(2)
    while not m.is_over:
        g = m.start_hand()
        while not g.is_over:
            m.apply(greedy_move(g, rng))
    k = m.individual_since
    assert k is not None and k < len(m.games)
    before = [h.table_json() for h in m.games[:k]]
    assert all(t["pozzetti_left"] <= 2 for t in before)
    for h in m.games[k:]:
        assert h.rules.pozzetto_sizes == (11, 11, 11) and not h.rules.solo_pair
        assert [len(p) for p in h.deal.pozzetti] == [11, 11, 11]  # type: ignore[union-attr]
        assert h.solo < 0 and list(h.sides) == ["A", "B", "C"]  # alone for the whole hand
    totals_at_switch = [0, 0, 0]
    for h in m.games[:k]:
        for i, p in enumerate(h.player_points()):
            totals_at_switch[i] += p
    assert max(totals_at_switch) >= 300
    out = replay(m.to_record())
    assert out["ok"] and out["totals"] == dict(zip("ABC", m.totals, strict=True))
    assert out["winner"] == (None if m.winner() is None else "ABC"[m.winner()])  # type: ignore[index]


# ----------------------------------------------------------------------------------------------------------------
# §14.4: six players
# ----------------------------------------------------------------------------------------------------------------
def test_14_4_six_players_a_pozzetto_only_after_a_burraco() -> None:
    g = new_game("italian-6p", hands={"A": "3h 4h 5h 6h 7h 8h Kc Kd Ks Qc Qd"}, stock_top="Qs")
    play(g, ["A draw", "A meld 3h 4h 5h 6h 7h 8h", "A meld Kc Kd Ks"])
    assert "A meld Qc Qd Qs" not in legal(g)
    with pytest.raises(burraco.IllegalActionError, match="needs a burraco before it may take its pozzetto"):
        g.apply("A meld Qc Qd Qs")


@pytest.mark.parametrize(
    "melds",
    [
        ["A meld Kc Kd Ks Kh Kh", "A meld 3h 4h 5h 6h 7h 8h 9h"],  # the burraco is the meld that empties the hand
        ["A meld 3h 4h 5h 6h 7h 8h 9h", "A meld Kc Kd Ks Kh Kh"],
    ],
)
def test_14_4_7_2_six_players_the_burraco_that_empties_the_hand_lets_the_pair_take_its_pozzetto(
    melds: list[str],
) -> None:
    # §7.2: the player melds, then takes the pozzetto; so a burraco made by the last meld is on the table when he
    # takes it, and legality does not depend on the order of two melds in one turn (§14.4, issue 36)
    g = new_game("italian-6p", hands={"A": "3h 4h 5h 6h 7h 8h 9h Kc Kd Ks Kh"}, stock_top="Kh")
    play(g, ["A draw", melds[0]])
    assert g.is_legal(melds[1]) and g.parse(melds[1]) in g.legal_actions()
    g.apply(melds[1])
    t = g.table_json()
    assert t["hands"]["A"] == 11 and t["pozzetto_taken"]["AD"] and g.end is None
    assert g.view(0).hidden_pozzetto == 0 and len(g.view(0).hand) == 11  # in diretta: seen at once
    assert any(a.endswith("discard " + c) for c in hand_str(g, "A").split() for a in legal(g))


def test_14_4_six_players_pozzetto_with_the_discard_seen_after_the_partners_discard() -> None:
    g = new_game("italian-6p", hands={"A": "3h 4h 5h 6h 7h 8h 9h Kc Kd Ks Qc"}, stock_top="JK")
    play(g, ["A draw", "A meld 3h 4h 5h 6h 7h 8h 9h", "A meld Kc Kd Ks JK", "A discard Qc"])
    assert g.table_json()["hands"]["A"] == 11 and g.table_json()["pozzetto_taken"]["AD"]
    assert g.view(0).hand == () and g.view(0).hidden_pozzetto == 11
    play(g, ["B pass", "C pass"])
    assert g.view(0).hidden_pozzetto == 11
    play(g, ["D pass"])  # his partner D (opposite) discarded: now he sees it
    assert g.view(0).hidden_pozzetto == 0 and len(g.view(0).hand) == 11


def test_14_4_five_players_one_solo_two_pairs_and_a_closing() -> None:
    g = Game.new(preset("italian-5p"), seed=1)
    rng = random.Random(1)
    while not g.is_over:
        g.apply(greedy_move(g, rng))
        assert all_cards(g) == deck_counter(g.rules)
    assert g.end == "closed" and g.solo >= 0
    assert len(g.sides) == 3 and sorted(len(s) for s in g.side_seats) == [1, 2, 2]
    assert Counter(len(p) for p in g.deal.pozzetti) == {18: 1, 11: 2}  # type: ignore[union-attr]


# ----------------------------------------------------------------------------------------------------------------
# perft-like counts (regression): the number of legal actions along a seeded line
# ----------------------------------------------------------------------------------------------------------------
PERFT_COUNTS = {
    "italian-3p": [2, 20, 9, 2, 13, 9, 2, 26, 11, 2, 8, 2, 10, 2, 11, 2, 10, 6, 2, 13, 9, 2, 11, 8, 2, 7, 5, 2, 9,
                   2, 8, 2, 6, 2, 9, 2, 10, 7, 2, 7, 5, 3, 2, 9, 2, 8, 6, 2, 3, 2, 9, 2, 6, 2, 3, 2, 9, 2, 6, 2],
    "italian-5p": [2, 18, 10, 2, 21, 12, 9, 7, 2, 17, 12, 6, 2, 26, 2, 20, 16, 7, 5, 2, 10, 8, 2, 7, 2, 7, 5, 2, 35,
                   21, 11, 3, 2, 21, 19, 8, 2, 9, 5, 2, 6, 2, 7, 2, 2, 3, 2, 9, 7, 2, 5, 2, 14, 11, 8, 2, 2, 2, 3, 2],
    "italian-6p": [2, 12, 8, 2, 13, 9, 2, 22, 18, 9, 5, 2, 21, 8, 6, 2, 26, 16, 12, 4, 2, 30, 13, 10, 8, 2, 9, 7, 2,
                   11, 9, 7, 2, 5, 2, 6, 2, 4, 2, 2, 8, 2, 7, 2, 26, 24, 19, 17, 14, 10, 2, 6, 4, 2, 10, 7, 3, 2, 2, 2],
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(PERFT_COUNTS))
def test_14_perft_counts_along_a_seeded_line(name: str) -> None:
    g = Game.new(preset(name), seed=5)
    rng = random.Random(5)
    counts: list[int] = []
    while not g.is_over and len(counts) < 60:
        acts = g.legal_actions()
        counts.append(len(acts))
        assert len(set(acts)) == len(acts)
        assert all(g.is_legal(a) for a in acts)
        g.apply(greedy_move(g, rng))
    assert counts == PERFT_COUNTS[name]


# ----------------------------------------------------------------------------------------------------------------
# bad input (RECORDS.md §2–§5)
# ----------------------------------------------------------------------------------------------------------------
def test_14_3_a_deal_of_the_wrong_shape_is_refused_naming_the_rule() -> None:
    rec = Game.new(preset("italian-3p"), seed=1).to_record()
    deal = rec["hands"][0]["deal"]
    cards = deal["pozzetti"][0].split()
    deal["pozzetti"] = [" ".join(cards[:11]), deal["pozzetti"][1]]
    deal["stock"] = " ".join(cards[11:]) + " " + deal["stock"]
    out = replay(rec)
    assert out["ok"] is False and out["error"] == "record"
    assert "not 18" in out["message"] and "§14.3" in out["message"]


def test_14_a_side_named_as_a_seat_and_a_seat_of_another_count_are_refused() -> None:
    g = Game.new(preset("italian-3p"), seed=1)
    with pytest.raises(burraco.InvalidActionError, match="'BC' names a side"):
        g.apply("BC draw")
    with pytest.raises(burraco.InvalidActionError, match=r"unknown seat 'N' \(seats are A B C\)"):
        g.apply("N draw")
    rec = g.to_record()
    rec["hands"][0]["actions"] = ["AB draw"]
    out = replay(rec)
    assert out["error"] == "invalid" and "names a side" in out["message"]


def test_14_records_round_trip_for_every_count() -> None:
    for name in ("italian-3p", "italian-5p", "italian-6p"):
        g = Game.new(preset(name), seed=9)
        rng = random.Random(9)
        while not g.is_over:
            g.apply(greedy_move(g, rng))
        out = replay(json.loads(json.dumps(g.to_record())))
        assert out["ok"] and out["hands"] == [g.result_json()]
        assert hand_str(g, "A") is not None


def test_14_the_research_environments_lay_out_every_count() -> None:
    encoding = pytest.importorskip("burraco.envs.encoding")
    encoding.check_rules(preset("italian-6p"))
    assert encoding.layout_for(preset("italian-6p")).seats == 6
    with pytest.raises(encoding.EncodingError, match="one wild per meld"):
        encoding.check_rules(preset("italian-6p", max_wilds=2))


# ----------------------------------------------------------------------------------------------------------------
# the 3/5/6-player contract of the replay output (RECORDS.md §2, §3, §5), line by line, on whole matches
# ----------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["italian-3p", "italian-5p", "italian-6p"])
def test_records_2_3_5_the_replay_output_of_a_whole_match_keeps_the_356_contract(name: str) -> None:
    from burraco.bots.players import parse_player

    r = preset(name, hands_per_match=2)
    m = Match(r, seed=7)
    bot = parse_player("hard")(1)
    while not m.is_over:
        g = m.start_hand()
        while not g.is_over:
            m.apply(bot.choose(m.view(g.current_seat), g.legal_actions()))
    rec = m.to_record()
    out = replay(rec)
    seats = list(m.seats)
    assert out["ok"] and len(out["hands"]) == 2
    deck = 162 if r.players in (5, 6) else 108  # §3: three packs and six jokers with 5 and 6 players
    for h, g in zip(rec["hands"], m.games, strict=True):
        d = h["deal"]
        cards = " ".join([*d["hands"].values(), *d["pozzetti"], d["upcard"] or "", d["stock"]]).split()
        assert len(cards) == deck and list(d["hands"]) == seats
        sizes = [len(p.split()) for p in d["pozzetti"]]
        # the solo's 18-card pozzetto listed first with 3 and 5 players (§2, §3); 6 players: three of 11
        assert sizes == ([18] + [11] * (r.players // 2) if r.players in (3, 5) else [11, 11, 11])
        sides = list(g.sides)
        for hand_out in [x for x in out["hands"] if x["scores"] is not None]:
            # sides named by their seats' letters in seat order, and only sides that exist (§2)
            for side in hand_out["scores"]:
                assert "".join(sorted(side, key=seats.index)) == side and set(side) <= set(seats)
        assert sorted("".join(sides)) == sorted(seats)
    scorers = seats if r.players in (3, 5) else ["AD", "BE", "CF"]  # totals per player with 3 and 5 (§5)
    assert list(out["totals"]) == scorers
    assert out["vp"] is None  # more than two sides: no VP (§5)
    top = max(out["totals"].values())
    assert out["winner"] in scorers and out["totals"][out["winner"]] == top  # a seat, with 6 players a pair

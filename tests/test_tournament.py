"""Tournaments (burraco.tournament): movements, score sheets, victory points, tie-breaks and whole events, named after
RULES.md §12 (and §9.4 for the time-out). The simulated 16-pair event is checked against its hands as replayed."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import burraco
from burraco import preset
from burraco.cli import app
from burraco.tournament import (
    Event,
    LineScore,
    ScoreError,
    TournamentError,
    check_hand,
    match_vp,
    parse_vp_table,
    printouts,
)
from burraco.tournament import movements as mv
from burraco.tournament.scoring import shipped_vp_table, vp
from burraco.tournament.simulate import simulate

ROWS3 = shipped_vp_table("fibur_3_hands")
ROWS4 = shipped_vp_table("fibur_4_hands")


def ids(n: int) -> list[str]:
    return [str(i + 1) for i in range(n)]


def seated_once(p: mv.Pairing, entrants: list[str]) -> None:
    seen = Counter(e for t in p.tables for e in t) + Counter(p.byes)
    assert seen == Counter(entrants), (p, entrants)
    assert all(a != b for a, b in p.tables)


# ----------------------------------------------------------------------------------------------------------------
# §12.5 movements
# ----------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("tables", range(4, 21))
def test_12_5_mitchell_nobody_meets_the_same_pair_twice_in_a_segment(tables: int) -> None:
    field = ids(2 * tables)
    for skip in (False, True):
        met: set[frozenset[str]] = set()
        ns_line, ew_line = mv.mitchell_lines(field)
        for r in range(mv.mitchell_rounds(tables, skip)):
            p = mv.mitchell(field, r, skip)
            seated_once(p, field)
            for i, (ns, ew) in enumerate(p.tables):
                assert ns == ns_line[i]  # NS stay at their table
                assert ew in ew_line
                key = frozenset((ns, ew))
                assert key not in met, (tables, skip, r, key)
                met.add(key)
        with pytest.raises(mv.MovementError, match="rematch"):
            mv.mitchell(field, mv.mitchell_rounds(tables, skip), skip)


def test_12_5_mitchell_ew_move_up_one_table_each_round() -> None:
    field = ids(8)
    r0, r1 = mv.mitchell(field, 0), mv.mitchell(field, 1)
    assert r0.tables == (("1", "2"), ("3", "4"), ("5", "6"), ("7", "8"))
    assert r1.tables == (("1", "8"), ("3", "2"), ("5", "4"), ("7", "6"))


def test_12_6_mitchell_odd_field_gives_one_bye_each_round_to_a_different_pair() -> None:
    field = ids(9)
    byes = [mv.mitchell(field, r).byes for r in range(5)]
    assert all(len(b) == 1 for b in byes)
    assert len({b[0] for b in byes}) == 5


def test_12_5_danish_pure_is_first_v_second() -> None:
    p = mv.danish(ids(6))
    assert p.tables == (("1", "2"), ("3", "4"), ("5", "6")) and p.byes == ()


def _rank_cost(p: mv.Pairing, order: list[str]) -> int:
    pos = {e: i for i, e in enumerate(order)}
    return sum((pos[a] - pos[b]) ** 2 for a, b in p.tables)


def _brute_best(order: list[str], previous: dict[str, str]) -> tuple[int, int]:
    """(fewest rematches, least rank cost among them) over every perfect matching."""
    best: tuple[int, int] | None = None

    def rec(rest: list[str], acc: list[tuple[str, str]]) -> None:
        nonlocal best
        if not rest:
            re_ = sum(previous.get(a) == b for a, b in acc)
            key = (re_, _rank_cost(mv.Pairing(tuple(acc)), order))
            best = key if best is None or key < best else best
            return
        a = rest[0]
        for i in range(1, len(rest)):
            rec(rest[1:i] + rest[i + 1 :], [*acc, (a, rest[i])])

    rec(order, [])
    assert best is not None
    return best


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 5).map(lambda k: 2 * k), seed=st.integers(0, 10**6))
def test_12_5_danish_modified_avoids_the_rematch_and_keeps_the_order_best(n: int, seed: int) -> None:
    import random

    rng = random.Random(seed)
    order = ids(n)
    shuffled = order[:]
    rng.shuffle(shuffled)
    previous: dict[str, str] = {}
    for a, b in zip(shuffled[0::2], shuffled[1::2], strict=True):
        previous[a], previous[b] = b, a
    p = mv.danish(order, previous, modified=True)
    seated_once(p, order)
    rematches = sum(previous.get(a) == b for a, b in p.tables)
    assert (rematches, _rank_cost(p, order)) == _brute_best(order, previous)
    if n >= 4:
        assert rematches == 0  # with four or more pairs a rematch can always be avoided


def test_12_5_danish_modified_two_pairs_must_meet_again() -> None:
    p = mv.danish(["1", "2"], {"1": "2", "2": "1"}, modified=True)
    assert p.tables == (("1", "2"),)


@pytest.mark.parametrize("n", range(2, 17))
def test_12_5_round_robin_everybody_meets_everybody_once(n: int) -> None:
    field = ids(n)
    met: Counter[frozenset[str]] = Counter()
    byes: Counter[str] = Counter()
    for r in range(mv.round_robin_rounds(n)):
        p = mv.round_robin(field, r)
        seated_once(p, field)
        met.update(frozenset(t) for t in p.tables)
        byes.update(p.byes)
    assert set(met) == {frozenset(c) for c in itertools.combinations(field, 2)}
    assert set(met.values()) == {1}
    assert sum(byes.values()) == (n if n % 2 else 0) and set(byes.values()) <= {1}


def test_12_5_round_robin_in_groups_snake_seeded() -> None:
    groups = mv.groups_of(ids(8), 2)
    assert groups == [["1", "4", "5", "8"], ["2", "3", "6", "7"]]
    for r in range(3):
        p = mv.round_robin_groups(ids(8), r, 2)
        assert all(({a, b} <= set(groups[0])) or ({a, b} <= set(groups[1])) for a, b in p.tables)


@settings(max_examples=80, deadline=None)
@given(n=st.integers(2, 40), r=st.integers(0, 3))
def test_12_5_every_movement_seats_everybody_once(n: int, r: int) -> None:
    field = ids(n)
    tables = (n + 1) // 2
    if r < mv.mitchell_rounds(tables):
        seated_once(mv.mitchell(field, r), field)
    seated_once(mv.danish(field), field)
    seated_once(mv.danish(field, {}, modified=True), field)
    if r < mv.round_robin_rounds(n):
        seated_once(mv.round_robin(field, r), field)
    byes = len(mv.danish(field).byes)
    assert byes == n % 2


@pytest.mark.parametrize("players", [8, 12, 16, 20])
def test_12_5_individual_nobody_partners_the_same_player_twice(players: int) -> None:
    field = ids(players)
    partners: Counter[frozenset[str]] = Counter()
    opponents: Counter[frozenset[str]] = Counter()
    rounds = players // 2 - 1 if players <= 12 else 5
    for k in range(rounds):
        tables, byes = mv.individual(field, partners, opponents, seed=3, round_no=k)
        assert byes == ()
        seen = [p for t in tables for duo in t for p in duo]
        assert sorted(seen) == sorted(field)
        for (a, b), (c, d) in tables:
            for duo in ((a, b), (c, d)):
                key = frozenset(duo)
                assert partners[key] == 0, (players, k, duo)
                partners[key] += 1
            for x in (a, b):
                for y in (c, d):
                    opponents[frozenset((x, y))] += 1


def test_12_6_individual_sits_out_the_players_beyond_a_multiple_of_four() -> None:
    tables, byes = mv.individual(ids(10), {}, {}, seed=1)
    assert len(tables) == 2 and len(byes) == 2


# ----------------------------------------------------------------------------------------------------------------
# §10.1, §12.3 score sheets and VP
# ----------------------------------------------------------------------------------------------------------------
def test_10_2_worked_example_and_12_3_its_vp() -> None:
    r = preset("italian-tournament")
    ns = LineScore(clean=1, closing=True, melds=45 + 60, hand=20)
    ew = LineScore(melds=60 + 15, hand=35 + 35)
    assert (ns.total(r), ew.total(r)) == (385, 5)
    assert LineScore(melds=75, hand=70, pozzetto=False).total(r) == -95
    assert match_vp(ROWS3, 385, 5) == (14, 6)


@pytest.mark.parametrize(
    "diff,want",
    [
        (0, (10, 10)),
        (50, (10, 10)),
        (55, (11, 9)),
        (150, (11, 9)),
        (355, (14, 6)),
        (500, (14, 6)),
        (1500, (19, 1)),
        (1505, (20, 0)),
        (9000, (20, 0)),
    ],
)
def test_12_3_three_hand_table(diff: int, want: tuple[int, int]) -> None:
    assert vp(ROWS3, diff) == want
    assert vp(ROWS3, -diff) == want  # the absolute difference


@pytest.mark.parametrize("diff,want", [(100, (10, 10)), (105, (11, 9)), (2000, (19, 1)), (2005, (20, 0))])
def test_12_3_four_hand_table(diff: int, want: tuple[int, int]) -> None:
    assert vp(ROWS4, diff) == want


def test_12_3_vp_always_sum_to_twenty() -> None:
    for d in range(0, 3000, 5):
        assert sum(vp(ROWS3, d)) == 20 and sum(vp(ROWS4, d)) == 20


@pytest.mark.parametrize(
    "rows,why",
    [
        (
            [{"max_diff": 50, "winner": 10, "loser": 10}, {"max_diff": 40, "winner": 11, "loser": 9}],
            "does not follow",
        ),
        (
            [{"max_diff": 50, "winner": 10, "loser": 10}, {"max_diff": 150, "winner": 12, "loser": 9}],
            "is not 20",
        ),
        (
            [{"max_diff": 52, "winner": 10, "loser": 10}, {"max_diff": 150, "winner": 11, "loser": 9}],
            "multiple of 5",
        ),
        ([{"max_diff": 50, "winner": 11, "loser": 9}], "same VP"),
        (
            [{"max_diff": 50, "winner": 10, "loser": 10}, {"max_diff": 150, "winner": 9, "loser": 11}],
            "fewer VP",
        ),
        ([{"max_diff": 50, "winner": 10}], "needs max_diff"),
        ([], "non-empty"),
    ],
)
def test_12_3_a_malformed_vp_table_is_refused_clearly(rows: list[dict[str, int]], why: str) -> None:
    with pytest.raises(ScoreError, match=why):
        parse_vp_table({"rows": rows}, "vp.json")


def test_12_3_a_vp_table_file_that_is_not_json() -> None:
    with pytest.raises(ScoreError, match="not JSON"):
        parse_vp_table("{rows: [", "vp.json")


@pytest.mark.parametrize(
    "ns,ew,why",
    [
        (LineScore(melds=12), LineScore(), "multiple of 5"),
        (
            LineScore(clean=1, closing=True, melds=100),
            LineScore(clean=1, closing=True, melds=100),
            "both lines",
        ),
        (
            LineScore(clean=1, closing=True, melds=100, pozzetto=False),
            LineScore(),
            "after taking its pozzetto",
        ),
        (LineScore(closing=True, melds=100), LineScore(), "needs a burraco"),
        (LineScore(clean=2, melds=50), LineScore(), "at least 70 card points"),
        (LineScore(melds=-5), LineScore(), "positive"),
        (LineScore(dirty=-1, melds=50), LineScore(), "negative"),
    ],
)
def test_10_1_impossible_sheets_are_refused(ns: LineScore, ew: LineScore, why: str) -> None:
    with pytest.raises(ScoreError, match=why):
        check_hand(preset("italian-tournament"), ns, ew)


def test_10_1_semiclean_does_not_exist_in_international() -> None:
    with pytest.raises(ScoreError, match="no semiclean"):
        check_hand(preset("international", hands_per_match=3), LineScore(semiclean=1, melds=50), LineScore())


# ----------------------------------------------------------------------------------------------------------------
# events: entries, refusals, byes, tie-breaks
# ----------------------------------------------------------------------------------------------------------------
def make_event(pairs: int, **kw: object) -> Event:
    ev = Event.create("Club", date="2026-12-05", **kw)  # type: ignore[arg-type]
    for i in range(pairs):
        ev.register(f"Pair {i + 1}", [f"P{i + 1}a", f"P{i + 1}b"])
    return ev


def play_round(ev: Event, results: dict[int, tuple[int, int]] | None = None) -> None:
    """Enter and confirm every hand of the running round: table t's NS and EW make the given MP per hand."""
    rs = ev.current
    assert rs is not None
    for t in rs.tables:
        ns_mp, ew_mp = (results or {}).get(t.number, (100, 50))
        for h in range(1, ev.setup.hands + 1):
            ev.enter_hand(t.number, h, LineScore(melds=ns_mp), LineScore(melds=ew_mp), by="NS")
            ev.confirm(t.number, h, by="EW")
    ev.close_round()


def refused(ev: Event, fn: object, match: str) -> None:
    before = json.dumps(ev.to_json())
    with pytest.raises(TournamentError, match=match):
        fn()  # type: ignore[operator]
    assert json.dumps(ev.to_json()) == before, "a refused entry changed the event"


def test_12_bad_input_is_refused_and_changes_nothing() -> None:
    ev = make_event(4, rounds=2, movements="danish")
    refused(ev, lambda: ev.register("Pair 1", ["X", "Y"]), "already registered")
    refused(ev, lambda: ev.register("Other", ["P1a", "Z"]), "already registered")
    refused(ev, lambda: ev.register("Three", ["A", "B", "C"]), "two players")
    refused(ev, lambda: ev.withdraw("9"), "no entrant")
    refused(ev, lambda: ev.close_round(), "has not started")
    ev.start_round()
    refused(ev, lambda: ev.start_round(), "still in play")
    refused(ev, lambda: ev.register("Late", ["L1", "L2"]), "between rounds")
    refused(ev, lambda: ev.withdraw("1"), "between rounds")
    refused(ev, lambda: ev.enter_hand(9, 1, LineScore(), LineScore(), by="NS"), "no table 9")
    refused(ev, lambda: ev.enter_hand(1, 2, LineScore(), LineScore(), by="NS"), "before hand 2")
    refused(ev, lambda: ev.enter_hand(1, 1, LineScore(melds=7), LineScore(), by="NS"), "multiple of 5")
    refused(ev, lambda: ev.enter_hand(1, 1, LineScore(), LineScore(), by="somebody"), "entered by a line")
    refused(ev, lambda: ev.confirm(1, 1, by="EW"), "not been entered")
    ev.enter_hand(1, 1, LineScore(melds=100), LineScore(melds=50), by="NS")
    refused(ev, lambda: ev.confirm(1, 1, by="NS"), "the other line")
    ev.confirm(1, 1, by="EW")
    refused(ev, lambda: ev.confirm(1, 1, by="EW"), "already countersigned")
    refused(ev, lambda: ev.enter_hand(1, 1, LineScore(), LineScore(), by="EW"), "ask the director")
    refused(ev, lambda: ev.correct(1, 1, LineScore(), LineScore(), by="NS", reason="x"), "only the director")
    refused(ev, lambda: ev.correct(1, 1, LineScore(), LineScore(), by="director:Rita", reason=""), "says why")
    refused(ev, lambda: ev.close_round(), "cannot close")
    refused(ev, lambda: ev.finish_table(1), "unless the time-out")
    refused(ev, lambda: ev.apply({"type": "nonsense"}), "unknown entry type")


def test_12_setup_errors_are_clear() -> None:
    with pytest.raises(TournamentError, match="2, 3, 4 or 5 hands"):
        Event.create("X", hands=7)
    with pytest.raises(TournamentError, match="no shipped VP table for 2-hand"):
        Event.create("X", hands=2)
    with pytest.raises(TournamentError, match="unknown movement"):
        Event.create("X", rounds=2, movements="mitchell,swiss")
    with pytest.raises(TournamentError, match="4 rounds need 4 movements"):
        Event.create("X", rounds=4, movements="mitchell,danish")
    with pytest.raises(TournamentError, match="tables of four"):
        Event.create("X", rules="italian-2p")
    with pytest.raises(TournamentError, match="is not 20"):
        Event.create(
            "X",
            hands=2,
            vp_table={
                "rows": [
                    {"max_diff": 50, "winner": 10, "loser": 10},
                    {"max_diff": 100, "winner": 12, "loser": 9},
                ]
            },
        )


def test_12_3_a_loaded_two_hand_table() -> None:
    rows = {
        "rows": [
            {"max_diff": 40, "winner": 10, "loser": 10},
            {"max_diff": 120, "winner": 12, "loser": 8},
            {"max_diff": 1000000000, "winner": 15, "loser": 5},
        ]
    }
    ev = make_event(2, hands=2, rounds=1, movements="danish", vp_table=rows)
    ev.start_round()
    play_round(ev, {1: (100, 0)})  # 200 MP over 2 hands
    assert [(s.entrant.id, s.vp) for s in ev.standings()] == [("1", 15), ("2", 5)]


def test_12_6_bye_scores_14_vp_and_355_mp() -> None:
    ev = make_event(5, rounds=1, movements="danish")
    rs = ev.start_round()
    assert rs.byes == ("5",)
    play_round(ev)
    st5 = next(s for s in ev.standings() if s.entrant.id == "5")
    assert (st5.vp, st5.mp_for, st5.diff, st5.byes) == (14, 355, 355, 1)


def test_12_6_the_bye_goes_round_the_field() -> None:
    ev = make_event(5, rounds=5, movements="danish")
    byes = []
    for _ in range(5):
        byes += ev.start_round().byes
        play_round(ev)
    assert sorted(byes) == ids(5)


def test_12_7_ties_head_to_head_then_mp_difference_then_lot() -> None:
    # round 1: 1 beats 2 by a little (11-9), 3 beats 4 by a lot; round 2 (Danish): 1 v 3, 2 v 4
    ev = make_event(4, rounds=2, movements="danish")
    ev.start_round()
    play_round(ev, {1: (40, 0), 2: (300, 0)})  # 120 v 0 -> 11-9; 900 v 0 -> 17-3
    ev.start_round()
    assert [(t.ns.entrant, t.ew.entrant) for t in ev.rounds[1].tables] == [("3", "1"), ("2", "4")]
    play_round(ev, {1: (0, 40), 2: (300, 0)})  # 1 beats 3 11-9; 2 beats 4 17-3
    st_ = ev.standings()
    vp_by = {s.entrant.id: s.vp for s in st_}
    assert vp_by == {"1": 22, "2": 26, "3": 26, "4": 6}
    # 2 and 3 tie on 26 VP and never met: the MP difference decides (2: -120+900, 3: +900-120)
    assert [s.entrant.id for s in st_][:2] in (["2", "3"], ["3", "2"])
    d2, d3 = (next(s.diff for s in st_ if s.entrant.id == e) for e in ("2", "3"))
    assert d2 == d3  # the same difference too: the lot decides, the same way every time
    assert [s.entrant.id for s in st_] == [s.entrant.id for s in Event.from_json(ev.to_json()).standings()]


def test_12_7_head_to_head_decides_a_tie_on_vp() -> None:
    """1 beats 2 in round 1 (11-9) and both end on 20 VP; 2 has the better MP difference (+30 against -30), but
    the head-to-head comes first (§12.7)."""
    ev = make_event(4, rounds=2, movements="danish")
    ev.start_round()
    play_round(ev, {1: (40, 0), 2: (0, 300)})  # 1 v 2: +120 (11-9); 3 v 4: 4 by 900 (17-3)
    ev.start_round()
    assert [(t.ns.entrant, t.ew.entrant) for t in ev.rounds[1].tables] == [("4", "1"), ("2", "3")]
    play_round(ev, {1: (50, 0), 2: (50, 0)})  # 4 beats 1 by 150 (11-9); 2 beats 3 by 150 (11-9)
    st_ = ev.standings()
    assert [(s.entrant.id, s.vp, s.diff) for s in st_] == [
        ("4", 28, 1050),
        ("1", 20, -30),
        ("2", 20, 30),
        ("3", 12, -1050),
    ]


def test_12_7_ranking_by_mp_uses_vp_as_a_later_tie_break() -> None:
    ev = make_event(4, rounds=1, movements="danish", ranking="mp")
    ev.start_round()
    play_round(ev, {1: (200, 0), 2: (50, 0)})
    assert [s.entrant.id for s in ev.standings()] == ["1", "3", "4", "2"]


def test_9_4_time_out_ends_a_table_with_the_hands_played() -> None:
    ev = make_event(4, rounds=1, movements="danish", minutes=45)
    ev.start_round(at="2026-12-05T15:00")
    ev.enter_hand(1, 1, LineScore(melds=300), LineScore(melds=100), by="NS")
    ev.confirm(1, 1, by="EW")
    ev.timeout(at="2026-12-05T15:45")
    with pytest.raises(TournamentError, match="announced already"):
        ev.timeout()
    ev.finish_table(1)
    for h in (1, 2, 3):
        ev.enter_hand(2, h, LineScore(melds=100), LineScore(melds=100), by="EW")
        ev.confirm(2, h, by="NS")
    ev.close_round()
    r1 = next(r for r in ev.results() if r.entrant == "1")
    assert (r1.mp_for, r1.mp_against, r1.vp) == (300, 100, 12)


def test_12_corrections_are_kept_with_who_and_why() -> None:
    ev = make_event(2, rounds=1, movements="danish")
    ev.start_round()
    play_round(ev)
    ev.correct(
        1,
        2,
        LineScore(melds=400),
        LineScore(melds=50),
        by="director:Rita",
        reason="EW's hand miscounted",
        round=1,
    )
    sheet = ev.rounds[0].sheets[(1, 2)]
    assert sheet.corrected_by == [("director:Rita", "EW's hand miscounted")] and sheet.entered_by == "NS"
    assert ev.table_mp(ev.rounds[0], 1)[:2] == (100 + 400 + 100, 50 * 3)
    assert "director:Rita: EW's hand miscounted" in printouts.sheets_csv(ev)


def test_12_event_json_round_trip_and_a_tampered_pairing_is_refused() -> None:
    ev = make_event(6, rounds=2, movements="mitchell")
    ev.start_round()
    play_round(ev)
    ev.start_round()
    again = Event.from_json(json.dumps(ev.to_json()))
    assert again.to_json() == ev.to_json()
    assert [s.entrant.id for s in again.standings()] == [s.entrant.id for s in ev.standings()]
    data = ev.to_json()
    start = next(e for e in data["log"] if e["type"] == "start_round" and e["round"] == 2)
    start["tables"][0]["ew"], start["tables"][1]["ew"] = start["tables"][1]["ew"], start["tables"][0]["ew"]
    with pytest.raises(TournamentError, match="recorded pairing"):
        Event.from_json(data)


def test_12_withdrawal_in_a_mitchell_segment_leaves_a_bye_and_a_late_entry_takes_it() -> None:
    ev = make_event(6, rounds=3, movements="mitchell")
    ev.start_round()
    play_round(ev)
    ev.withdraw("2")
    rs = ev.start_round()
    assert len(rs.byes) == 1 and "2" not in [e for t in rs.tables for e in (t.ns.entrant, t.ew.entrant)]
    play_round(ev)
    late = ev.register("Late pair", ["L1", "L2"])
    rs3 = ev.start_round()
    assert late.id in [e for t in rs3.tables for e in (t.ns.entrant, t.ew.entrant)] and rs3.byes == ()


def test_12_5_teams_match_pairs_against_pairs_and_lineups() -> None:
    ev = Event.create("Squadre", kind="teams", rounds=3, movements="round_robin")
    for k in range(4):
        ev.register(f"Team {k + 1}", [f"T{k + 1}p{i}" for i in range(1, 5)])
    ev.lineup("1", [[0, 2], [1, 3]])
    rs = ev.start_round()
    assert len(rs.tables) == 4 and {t.match for t in rs.tables} == {1, 2}
    t1 = [t for t in rs.tables if "1" in (t.ns.entrant, t.ew.entrant)]
    assert {ev.who(m) for t in t1 for m in t.line("NS" if t.ns.entrant == "1" else "EW").members} == {
        "T1p1",
        "T1p2",
        "T1p3",
        "T1p4",
    }
    assert any(t.ns.members == (("1", 0), ("1", 2)) or t.ew.members == (("1", 0), ("1", 2)) for t in t1)
    play_round(ev)
    res = ev.results(1)
    assert len(res) == 4 and all(
        sum(r.vp for r in res if r.entrant in pair) == 20 for pair in ({"1", "4"}, {"2", "3"})
    )
    with pytest.raises(TournamentError, match="at most once"):
        ev.lineup("1", [[0, 0], [1, 3]])


def test_12_5_individual_event_partners_change_every_round() -> None:
    ev = Event.create("Individuale", kind="individual", rounds=3)
    for i in range(8):
        ev.register(f"Player {i + 1}", [f"Player {i + 1}"])
    partners: set[frozenset[str]] = set()
    for _ in range(3):
        rs = ev.start_round()
        for t in rs.tables:
            for line in (t.ns, t.ew):
                key = frozenset(line.entrants)
                assert key not in partners
                partners.add(key)
        play_round(ev)
    assert sum(s.vp for s in ev.standings()) == 3 * 2 * 2 * 20  # each table: 2 lines × 2 players


# ----------------------------------------------------------------------------------------------------------------
# a whole simulated tournament, checked against its hands
# ----------------------------------------------------------------------------------------------------------------
def test_12_simulated_16_pair_tournament_standings_match_the_hands_played() -> None:
    ev, played = simulate(
        pairs=16,
        rounds=4,
        movements="mitchell,mitchell,mitchell,danish",
        hands=3,
        players=["heuristic:hard", "heuristic:easy", "random"],
        seed=11,
    )
    assert len(played) == 4 * 8
    vp_tot: Counter[str] = Counter()
    mp_for: Counter[str] = Counter()
    met: set[frozenset[str]] = set()
    for p in played:
        out = burraco.replay(p["record"])  # the hands as the engine replays them, not as entered
        assert out["ok"] and len(out["hands"]) == 3
        ns_mp = sum(h["scores"]["NS"]["total"] for h in out["hands"])
        ew_mp = sum(h["scores"]["EW"]["total"] for h in out["hands"])
        a, b = vp(ROWS3, ns_mp - ew_mp) if ns_mp >= ew_mp else vp(ROWS3, ns_mp - ew_mp)[::-1]
        vp_tot[p["ns"]] += a
        vp_tot[p["ew"]] += b
        mp_for[p["ns"]] += ns_mp
        mp_for[p["ew"]] += ew_mp
        if p["round"] <= 3:
            key = frozenset((p["ns"], p["ew"]))
            assert key not in met  # nobody meets the same pair twice in the Mitchell segment
            met.add(key)
    st_ = ev.standings()
    assert {s.entrant.id: s.vp for s in st_} == dict(vp_tot)
    assert {s.entrant.id: s.mp_for for s in st_} == dict(mp_for)
    assert [s.vp for s in st_] == sorted((s.vp for s in st_), reverse=True)
    assert sum(vp_tot.values()) == 4 * 8 * 20


def test_12_duplicate_deals_every_table_plays_the_same_hands() -> None:
    ev, played = simulate(
        pairs=6,
        rounds=1,
        movements="danish",
        hands=2,
        players=["random"],
        seed=5,
        duplicate=True,
        vp_table="fibur_3_hands",
    )
    deals = {json.dumps([h["deal"] for h in p["record"]["hands"]]) for p in played}
    assert len(deals) == 1
    comp = ev.deal_comparison(1)
    assert len(comp) == 2 and all(len(h["tables"]) == 3 for h in comp)
    assert abs(sum(r["ns_vs_field"] for r in comp[0]["tables"])) < 0.5


# ----------------------------------------------------------------------------------------------------------------
# printouts and the command line
# ----------------------------------------------------------------------------------------------------------------
def test_12_printouts_html_pdf_and_csv() -> None:
    import pypdf

    ev = make_event(5, rounds=1, movements="danish")
    ev.start_round()
    play_round(ev)
    html_ = printouts.to_html(printouts.standings(ev, lang="it"))
    assert "Classifica dopo il turno 1" in html_ and "P1a – P1b" in html_ and "<script" not in html_
    for doc in (
        printouts.score_sheets(ev, 1, "en"),
        printouts.pairings(ev, 1, "de"),
        printouts.final_results(ev),
        printouts.participants(ev, "pt"),
    ):
        pdf = printouts.to_pdf(doc)
        reader = pypdf.PdfReader(__import__("io").BytesIO(pdf))
        text = " ".join(p.extract_text() for p in reader.pages)
        first = doc.pages[0][0]
        assert isinstance(first, printouts.Heading) and first.text in text
    sheets = printouts.to_pdf(printouts.score_sheets(ev, 1, "en"))
    assert len(pypdf.PdfReader(__import__("io").BytesIO(sheets)).pages) == 2  # one sheet per table
    csv_ = printouts.participants_csv(ev)
    assert csv_.splitlines()[0] == "id,entrant,name,club,member,categories,account" and len(csv_.splitlines()) == 11
    fresh = Event.create("Copy", rounds=1, movements="danish")
    got = printouts.import_participants(fresh, csv_)
    assert [e.name for e in got] == [e.name for e in ev.entrants.values()]
    with pytest.raises(TournamentError, match="already registered"):
        printouts.import_participants(fresh, "entrant,name\nNew,P1a\nNew,Q\n")
    assert len(fresh.entrants) == 5  # all or nothing


def test_12_command_line_director(tmp_path: Path) -> None:
    runner = CliRunner()
    ev_file = tmp_path / "club.json"

    def run(*args: str) -> tuple[int, str]:
        res = runner.invoke(app, ["tournament", *args])
        return res.exit_code, res.output

    assert run("new", str(ev_file), "--name", "Giovedì", "--rounds", "1", "--movements", "danish")[0] == 0
    for a, b in (("Anna", "Bruno"), ("Carla", "Dario")):
        assert run("register", str(ev_file), f"{a}-{b}", a, b, "--club", "BC")[0] == 0
    code, out = run("start", str(ev_file))
    assert code == 0 and "Anna – Bruno" in out
    before = ev_file.read_text()
    code, out = run("enter", str(ev_file), "1", "1", "--by", "NS", "--ns", "melds=12", "--ew", "melds=5")
    assert code == 1 and "multiple of 5" in out and ev_file.read_text() == before
    for h in ("1", "2", "3"):
        assert (
            run(
                "enter",
                str(ev_file),
                "1",
                h,
                "--by",
                "NS",
                "--ns",
                "clean=1,closing,melds=105,hand=20",
                "--ew",
                "melds=75,hand=70",
            )[0]
            == 0
        )
        assert run("confirm", str(ev_file), "1", h, "--by", "EW")[0] == 0
    code, out = run("close", str(ev_file))
    assert code == 0 and "Anna-Bruno" in out
    code, out = run("standings", str(ev_file), "--json")
    rows = json.loads(out)
    assert [(r["name"], r["vp"], r["mp_for"]) for r in rows] == [
        ("Anna-Bruno", 18, 1155),
        ("Carla-Dario", 2, 15),
    ]  # 1140: 18-2 (§12.3)
    pdf = tmp_path / "s.pdf"
    assert run("print", str(ev_file), "standings", "-o", str(pdf), "--lang", "en")[0] == 0
    assert pdf.read_bytes()[:5] == b"%PDF-"
    code, out = run("export", str(ev_file), "sheets")
    assert code == 0 and len(out.splitlines()) == 4


def test_12_simulated_tournament_spread_over_processes_is_the_same_event() -> None:
    """A round's tables played over two processes give the same event, table by table, as in this process."""
    kw: dict[str, Any] = {
        "pairs": 6,
        "rounds": 2,
        "movements": "mitchell,danish",
        "hands": 3,
        "players": ["heuristic:easy", "random"],
        "seed": 4,
    }
    one, played_one = simulate(**kw)
    two, played_two = simulate(**kw, workers=2)
    assert played_two == played_one
    assert [(s.entrant.id, s.vp, s.mp_for) for s in two.standings()] == [
        (s.entrant.id, s.vp, s.mp_for) for s in one.standings()
    ]


def test_12_command_line_simulate_json() -> None:
    res = CliRunner().invoke(
        app,
        [
            "tournament",
            "simulate",
            "--pairs",
            "4",
            "--rounds",
            "2",
            "--movements",
            "danish",
            "--players",
            "random",
            "--json",
        ],
    )
    assert res.exit_code == 0, res.output
    rows = json.loads(res.output[res.output.index("[") :])
    assert len(rows) == 4 and sum(r["vp"] for r in rows) == 2 * 2 * 20
    bad = CliRunner().invoke(app, ["tournament", "simulate", "--pairs", "4", "--players", "grandmaster"])
    assert bad.exit_code != 0 and "unknown player" in bad.output


def test_refusals_are_messages_in_every_language() -> None:
    """Every refusal of the event core is a message code with parameters (burraco.messages), rendered in the
    reader's language; str(err) stays the English text."""
    from burraco.messages import render

    ev = Event.create("Club night", rounds=1, movements="mitchell")
    ev.register("Anna – Bruno", ["Anna", "Bruno"], at="2026-12-03T20:00:00")
    with pytest.raises(TournamentError) as e:
        ev.register("Anna – Bruno", ["Carla", "Dario"], at="2026-12-03T20:01:00")
    assert e.value.msg.code == "te_registered" and e.value.msg.params == {"name": "Anna – Bruno"}
    assert str(e.value) == "'Anna – Bruno' is already registered"
    assert render(e.value.msg, "it") == "'Anna – Bruno' è già iscritto"
    with pytest.raises(TournamentError) as e:
        Event.create("X", hands=7)
    assert [render(e.value.msg, lang) for lang in ("en", "de")] == [
        "a round is 2, 3, 4 or 5 hands, not 7", "eine Runde hat 2, 3, 4 oder 5 Spiele, nicht 7"]
    with pytest.raises(ScoreError) as s:
        LineScore.from_json({"clean": "one"})
    assert s.value.msg.code == "te_whole" and render(s.value.msg, "pt") == "clean é um número inteiro, não 'one'"


def test_a_player_linked_to_an_account_is_stored_only_where_linked_and_old_logs_read_as_before() -> None:
    """A player's ``account`` (docs/accounts.md "Tournament entrants") is in the ``register`` entry only where he
    is linked to one: an entry without it (every event made before accounts) reads as a player linked to none,
    and the event's JSON round-trips."""
    ev = Event.create("Club night", rounds=1, movements="mitchell")
    ev.register("Rossi", [{"name": "Ann Rossi", "account": "Ann Rossi"}, "Bruno Neri"])
    entry = ev.log[-1]
    assert entry["people"] == [{"name": "Ann Rossi", "club": "", "member": "", "account": "Ann Rossi"},
                               {"name": "Bruno Neri", "club": "", "member": ""}]
    again = Event.from_json(json.dumps(ev.to_json()))
    assert [p.account for p in again.entrants["1"].people] == ["Ann Rossi", ""]
    old = {"type": "register", "name": "Verdi", "at": "", "by": "",
           "people": [{"name": "Carla Verdi", "club": "Roma", "member": "12"}, {"name": "Dino Verdi"}]}
    ev.apply(old)
    assert [(p.name, p.account) for p in ev.entrants["2"].people] == [("Carla Verdi", ""), ("Dino Verdi", "")]

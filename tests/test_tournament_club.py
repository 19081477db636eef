"""A real club night at the director's desk (issue 40), on the event itself (burraco.tournament): the time-out that
ends a table's match (RULES.md §0.1 "The time-out ends the match", §9.4), only possible score sheets (§0.1 "Score
sheets", §12.4), ranking ties (§0.1 "Ranking ties", §12.7), the director's own entries, penalties and adjusted
scores (§13), printouts, the duplicate comparison, a club's season and the federation's export."""

from __future__ import annotations

import json
from typing import Any

import pytest

from burraco.tournament import Event, LineScore, TournamentError


def make_event(pairs: int, **kw: Any) -> Event:
    ev = Event.create("Club", date="2026-12-05", **kw)
    for i in range(pairs):
        ev.register(f"Pair {i + 1}", [f"P{i + 1}a", f"P{i + 1}b"])
    return ev


def refused(ev: Event, fn: Any, match: str) -> None:
    before = json.dumps(ev.to_json())
    with pytest.raises(TournamentError, match=match):
        fn()
    assert json.dumps(ev.to_json()) == before, "a refused entry changed the event"


WIN = LineScore(clean=1, closing=True, melds=105, hand=20)  # 385
LOSE = LineScore(melds=75, hand=70)  # 5


# ----------------------------------------------------------------------------------------------------------------
# §0.1 "The time-out ends the match" (§9.4)
# ----------------------------------------------------------------------------------------------------------------
def test_0_1_timeout_the_hand_of_the_timeout_ends_the_tables_match() -> None:
    ev = make_event(4, rounds=1, movements="danish", minutes=45)
    ev.start_round(at="2026-12-05T15:00")
    ev.enter_hand(1, 1, WIN, LOSE, by="NS")
    # no time-out yet: a hand cannot be marked as its hand
    refused(ev, lambda: ev.enter_hand(1, 2, WIN, LOSE, by="NS", timeout=True), "none has been announced")
    ev.confirm(1, 1, by="EW")
    ev.timeout(at="2026-12-05T15:45")
    ev.enter_hand(1, 2, LOSE, WIN, by="EW", timeout=True)
    assert not ev.rounds[0].complete(1, 3)  # not before the other line has countersigned it
    refused(ev, lambda: ev.enter_hand(1, 3, WIN, LOSE, by="NS"), "ended with hand 2, the hand of the time-out")
    refused(ev, lambda: ev.close_round(), "waiting for its countersignature")
    ev.confirm(1, 2, by="NS")
    assert ev.rounds[0].complete(1, 3) and ev.rounds[0].timeout_hand(1) == 2
    refused(ev, lambda: ev.finish_table(1), "has finished its round")
    refused(ev, lambda: ev.correct(1, 3, WIN, LOSE, by="director", reason="x"), "the hand of the time-out")
    refused(ev, lambda: ev.apply({"type": "hand", "round": 1, "table": 2, "hand": 1, "ns": WIN.to_json(),
                                  "ew": LOSE.to_json(), "by": "NS", "timeout": "yes"}), "true or false")
    # table 2 was between hands 1 and 2 when the time-out came: closing ends it with the hand it played
    ev.enter_hand(2, 1, WIN, LOSE, by="director:Rita")
    ev.close_round()
    assert ev.rounds[0].finished == {2}
    by = {r.entrant: (r.mp_for, r.mp_against, r.vp) for r in ev.results()}
    assert by["1"] == (390, 390, 10) and by["3"] == (385, 5, 14)


def test_0_1_timeout_a_correction_may_mark_the_hand_of_the_timeout_only_as_the_last() -> None:
    ev = make_event(2, rounds=1, movements="danish")
    ev.start_round()
    for h in (1, 2):
        ev.enter_hand(1, h, WIN, LOSE, by="director")
    ev.timeout()
    refused(ev, lambda: ev.correct(1, 1, WIN, LOSE, by="director", reason="x", timeout=True), "hand 2 is not played")
    ev.correct(1, 2, WIN, LOSE, by="director", reason="the time-out came in hand 2", timeout=True)
    assert ev.rounds[0].complete(1, 3)
    ev.close_round()
    assert [r.vp for r in ev.results()] == [16, 4]  # 770 – 10 on the 3-hand table


def test_0_1_timeout_the_mark_survives_the_log() -> None:
    ev = make_event(2, rounds=1, movements="danish")
    ev.start_round()
    ev.timeout()
    ev.enter_hand(1, 1, WIN, LOSE, by="online", timeout=True)
    again = Event.from_json(json.loads(json.dumps(ev.to_json())))
    assert again.rounds[0].timeout_hand(1) == 1 and again.rounds[0].complete(1, 3)


# ----------------------------------------------------------------------------------------------------------------
# §0.1 "Score sheets" (§12.4): only possible sheets, on every path
# ----------------------------------------------------------------------------------------------------------------
#: the impossible sheets of issue 40 and of §0.1's list, with the words of their refusal (English)
IMPOSSIBLE: list[tuple[LineScore, LineScore, str]] = [
    (LineScore(melds=5000), LineScore(), "more than the whole deck holds .1080 points in 108 cards"),
    (LineScore(melds=1000), LineScore(melds=1000), "2000 card points on the table and 0 in the hands"),
    (LineScore(clean=20, melds=700), LineScore(), "20 burracos need 140 cards; the deck has 108"),
    (LineScore(melds=100), LineScore(hand=2000), "EW: Points in hand 2000 is more than the whole deck"),
    (LineScore(melds=103), LineScore(), "Card points 103 is not a multiple of 5"),
    (LineScore(melds=10), LineScore(), "a meld holds at least three cards"),
    (LineScore(clean=8, melds=400), LineScore(clean=8, melds=400), "16 burracos need 112 cards"),
    (LineScore(clean=5, melds=200), LineScore(dirty=5, melds=200), "10 burracos hold at least 500 card points"),
    (LineScore(clean=1, closing=True, melds=100), LineScore(clean=1, closing=True, melds=100), "only one line"),
    (LineScore(closing=True, melds=100), LineScore(), "closing needs a burraco"),
    (LineScore(clean=1, closing=True, melds=100, pozzetto=False), LineScore(), "after taking its pozzetto"),
    (LineScore(melds=600, hand=300), LineScore(melds=100, hand=100), "make 1100: the deck holds 1080"),
]


def test_0_1_score_sheets_least_points_and_the_deck() -> None:
    from burraco import preset
    from burraco.tournament.scoring import deck_points, least_points

    r = preset("italian-tournament")
    assert deck_points(r) == 1080 and r.deck_size == 108  # §1: two packs and four jokers
    assert least_points(r, 3) == 15 and least_points(r, 7) == 35
    # 40 five-point cards (3…7), then 48 ten-point ones (8…K), 8 aces, 8 twos, 4 jokers
    assert least_points(r, 49) == 40 * 5 + 9 * 10 and least_points(r, 108) == 1080 and least_points(r, 109) == -1


@pytest.mark.parametrize(("ns", "ew", "why"), IMPOSSIBLE)
def test_0_1_score_sheets_every_impossible_sheet_is_refused_by_the_event(ns: LineScore, ew: LineScore,
                                                                           why: str) -> None:
    ev = make_event(2, rounds=1, movements="danish")
    ev.start_round()
    for by in ("NS", "director:Rita", "online"):
        refused(ev, lambda by=by: ev.enter_hand(1, 1, ns, ew, by=by), why)
    ev.enter_hand(1, 1, WIN, LOSE, by="director:Rita")
    refused(ev, lambda: ev.correct(1, 1, ns, ew, by="director:Rita", reason="typo"), why)


def test_0_1_score_sheets_the_lines_are_named_in_the_readers_language() -> None:
    from burraco import preset
    from burraco.messages import render
    from burraco.tournament import ScoreError, check_hand

    with pytest.raises(ScoreError) as err:
        check_hand(preset("italian-tournament"), LineScore(), LineScore(hand=2000))
    assert render(err.value.msg, "it").startswith("EO: Punti in mano 2000")
    assert render(err.value.msg, "de").startswith("OW: Punkte auf der Hand 2000")
    assert render(err.value.msg, "nl").startswith("OW: ")


def test_0_1_score_sheets_csv_import_refuses_every_impossible_sheet_and_changes_nothing() -> None:
    from burraco.tournament import printouts

    ev = make_event(4, rounds=1, movements="danish")
    ev.start_round()
    good = printouts.sheets_csv(ev).splitlines()[0]
    cols = good.split(",")

    def row(rnd: int, table: int, hand: int, ns: LineScore, ew: LineScore, timeout: str = "") -> str:
        vals = {"round": rnd, "table": table, "hand": hand, "timeout": timeout}
        for ln, s in (("ns", ns), ("ew", ew)):
            for k, v in s.to_json().items():
                vals[f"{ln}_{k}"] = str(v).lower() if isinstance(v, bool) else v
        return ",".join(str(vals.get(c, "")) for c in cols)

    for ns, ew, why in IMPOSSIBLE:
        text = "\n".join([good, row(1, 1, 1, WIN, LOSE), row(1, 2, 1, ns, ew)])
        refused(ev, lambda text=text: printouts.import_sheets(ev, text, by="director:Rita"), f"line 3: .*{why}")
    refused(ev, lambda: printouts.import_sheets(ev, "round,table\n1,1\n"), "lacks the column")
    refused(ev, lambda: printouts.import_sheets(ev, good + "\n" + row(1, 1, 2, WIN, LOSE)), "line 2: enter hand 1")
    text = "\n".join([good] + [row(1, t, h, WIN, LOSE) for t in (1, 2) for h in (1, 2, 3)])
    assert printouts.import_sheets(ev, text, by="director:Rita") == 6
    assert printouts.import_sheets(ev, text, by="director:Rita") == 0  # the same file again: nothing new
    assert all(s.counts and s.confirmed_by == "director:Rita" for s in ev.rounds[0].sheets.values())
    # the export imports again as it is
    again = make_event(4, rounds=1, movements="danish")
    again.start_round()
    assert printouts.import_sheets(again, printouts.sheets_csv(ev)) == 6
    assert [r.vp for r in again.results()] == [r.vp for r in ev.results()]


def test_0_1_score_sheets_command_line_refuses_every_impossible_sheet(tmp_path: Any) -> None:
    from typer.testing import CliRunner

    from burraco.cli import app
    from burraco.tournament import printouts

    def flags(s: LineScore) -> str:
        parts = [f"{k}={v}" for k, v in s.to_json().items() if not isinstance(v, bool)]
        return ",".join(parts + (["closing"] if s.closing else []) + ([] if s.pozzetto else ["nopozzetto"]))

    run = CliRunner().invoke
    f = tmp_path / "club.json"
    assert run(app, ["tournament", "new", str(f), "--name", "Club", "--rounds", "1", "--movements", "danish"]).exit_code == 0
    for a, b in (("A", "B"), ("C", "D")):
        assert run(app, ["tournament", "register", str(f), f"{a} – {b}", a, b]).exit_code == 0
    assert run(app, ["tournament", "start", str(f)]).exit_code == 0
    before = f.read_text()
    for ns, ew, why in IMPOSSIBLE:
        for cmd in (["enter", str(f), "1", "1", "--by", "NS"], ["enter", str(f), "1", "1", "--by", "director"]):
            out = run(app, ["tournament", *cmd, "--ns", flags(ns), "--ew", flags(ew)])
            assert out.exit_code == 1 and why.split(".1080")[0] in " ".join(out.output.split()), (why, out.output)
        assert f.read_text() == before
    ev = Event.from_json(f.read_text())
    csv_file = tmp_path / "sheets.csv"
    cols = printouts.sheets_csv(ev).splitlines()[0]
    csv_file.write_text(cols + "\n" + ",".join("1" if c in ("round", "table", "hand") else
                                               ("5000" if c == "ns_melds" else "") for c in cols.split(",")) + "\n")
    out = run(app, ["tournament", "import-sheets", str(f), str(csv_file)])
    assert out.exit_code == 1 and "more than the whole deck holds" in " ".join(out.output.split()), out.output
    assert f.read_text() == before
    assert run(app, ["tournament", "enter", str(f), "1", "1", "--by", "director", "--ns", "clean=1,closing,melds=105,hand=20",
                     "--ew", "melds=75,hand=70"]).exit_code == 0
    for ns, ew, why in IMPOSSIBLE:
        out = run(app, ["tournament", "correct", str(f), "1", "1", "--by", "director", "--reason", "typo",
                        "--ns", flags(ns), "--ew", flags(ew)])
        assert out.exit_code == 1 and why.split(".1080")[0] in " ".join(out.output.split()), (why, out.output)


# ----------------------------------------------------------------------------------------------------------------
# §0.1 "Ranking ties" (§12.7)
# ----------------------------------------------------------------------------------------------------------------
def play(ev: Event, scores: dict[tuple[str, str], tuple[int, int]], by: str = "director:Rita") -> None:
    """Enter the running round: the match of entrants x and y scores (mp_x, mp_y) — all in hand 1 (card points on
    the table), hands 2 and 3 empty — then close it."""
    rs = ev.current
    assert rs is not None
    for t in rs.tables:
        a, b = t.ns.entrant, t.ew.entrant
        mp = scores.get((a, b)) or tuple(reversed(scores[(b, a)]))
        for h in range(1, ev.setup.hands + 1):
            ns, ew = (LineScore(melds=mp[0]), LineScore(melds=mp[1])) if h == 1 else (LineScore(), LineScore())
            ev.enter_hand(t.number, h, ns, ew, by=by)
    ev.close_round()


def by_hand(ev: Event) -> dict[str, tuple[int, int, int]]:
    """Each entrant's VP, MP difference and MP scored added up from its results (the hand computation)."""
    out: dict[str, list[int]] = {e: [0, 0, 0] for e in ev.entrants}
    for r in ev.results():
        out[r.entrant][0] += r.vp
        out[r.entrant][1] += r.mp_for - r.mp_against
        out[r.entrant][2] += r.mp_for
    return {e: (v[0], v[1], v[2]) for e, v in out.items()}


def test_0_1_ranking_ties_head_to_head_is_never_applied_to_part_of_a_group() -> None:
    """Issue 40: P1, P6 and P3 all on 20 VP; P1 beat P6, P3 met neither. Not all three have met: step 1 is
    skipped for the whole group, the MP difference puts P3 first, the MP scored P6 before P1 (the old code gave
    P1's head-to-head win over P6 and ranked P3 last)."""
    ev = make_event(6, rounds=2, movements="mitchell")
    ev.start_round()
    assert [(t.ns.entrant, t.ew.entrant) for t in ev.rounds[0].tables] == [("1", "2"), ("3", "4"), ("5", "6")]
    play(ev, {("1", "2"): (0, 100), ("3", "4"): (450, 0), ("5", "6"): (50, 150)})
    ev.start_round()
    assert [(t.ns.entrant, t.ew.entrant) for t in ev.rounds[1].tables] == [("1", "6"), ("3", "2"), ("5", "4")]
    play(ev, {("1", "6"): (100, 0), ("3", "2"): (0, 400), ("5", "4"): (100, 100)})
    hand = by_hand(ev)
    assert hand["1"][0] == hand["6"][0] == hand["3"][0] == 20
    st = ev.standings()
    assert [(s.entrant.id, s.vp, s.tie) for s in st] == [
        ("2", 25, ""), ("3", 20, "mp_diff"), ("6", 20, "mp_for"), ("1", 20, "mp_for"), ("5", 19, ""), ("4", 16, "")]
    mid = st[1:4]
    assert all(s.tie_group == ("3", "6", "1") and not s.head_to_head for s in mid)
    assert [(s.tie_value, s.diff) for s in mid] == [(50, 50), (150, 0), (100, 0)]
    assert [s.rank for s in st] == [1, 2, 3, 4, 5, 6]
    for s in st:  # every figure is the hand computation's
        assert (s.vp, s.diff, s.mp_for) == hand[s.entrant.id]


def test_0_1_ranking_ties_head_to_head_for_a_group_that_has_all_met() -> None:
    """A round robin of four: 1, 2 and 3 beat 4 by the same VP band and beat each other in a circle, so they are
    level on VP and on the VP of their matches among themselves (20 each); the MP difference of those matches
    decides — 2 (+50), 1 (+40), 3 (−90) — although the total MP difference would put 1 first."""
    ev = make_event(4, rounds=3, movements="round_robin")
    scores = {("1", "2"): (100, 0), ("2", "3"): (150, 0), ("3", "1"): (60, 0),
              ("1", "4"): (500, 0), ("2", "4"): (360, 0), ("3", "4"): (400, 0)}
    for _ in range(3):
        ev.start_round()
        play(ev, scores)
    st = ev.standings()
    assert [(s.entrant.id, s.vp, s.tie, s.tie_value) for s in st] == [
        ("2", 34, "head_to_head_mp", 50), ("1", 34, "head_to_head_mp", 40), ("3", 34, "head_to_head_mp", -90),
        ("4", 18, "", None)]
    assert st[0].head_to_head and st[0].tie_group == ("2", "1", "3")
    assert [s.diff for s in st[:3]] == [410, 540, 310]  # the total MP difference, not used: step 1 decided


def test_0_1_ranking_ties_head_to_head_vp_decides_first() -> None:
    """Two pairs level on VP that met once: the winner of their match is ahead, whatever the MP difference."""
    ev = make_event(4, rounds=2, movements="danish")
    ev.start_round()
    play(ev, {("1", "2"): (100, 0), ("3", "4"): (0, 900)})  # 11-9, 3-17
    ev.start_round()
    assert [(t.ns.entrant, t.ew.entrant) for t in ev.rounds[1].tables] == [("4", "1"), ("2", "3")]
    play(ev, {("4", "1"): (150, 0), ("2", "3"): (150, 0)})  # 4 beats 1 11-9; 2 beats 3 11-9
    st = ev.standings()
    assert [(s.entrant.id, s.vp, s.diff, s.tie) for s in st] == [
        ("4", 28, 1050, ""), ("1", 20, -50, "head_to_head"), ("2", 20, 50, "head_to_head"), ("3", 12, -1050, "")]
    assert st[1].tie_value == 11 and st[2].tie_value == 9 and st[1].head_to_head


def test_0_1_ranking_ties_unequal_meetings_skip_head_to_head_and_the_lot_is_the_directors() -> None:
    """A group whose members have not all met (four pairs, two rounds): step 1 is skipped; entrants level on
    everything share a rank until the director draws, and only such a group may be drawn."""
    ev = make_event(4, rounds=2, movements="danish")
    level = {(a, b): (100, 100) for a in "1234" for b in "1234" if a < b}
    ev.start_round()
    play(ev, level)
    ev.start_round()
    play(ev, level)
    st = ev.standings()
    assert {s.vp for s in st} == {20} and not any(s.head_to_head for s in st)
    # each met two of the three others once: no head-to-head; all level on MP: the lot
    assert {s.tie for s in st} == {"lot_pending"} and {s.rank for s in st} == {1}
    refused(ev, lambda: ev.draw_lots(["1", "2"], by="director:Rita"), "still level after every other step")
    refused(ev, lambda: ev.draw_lots(["4", "3", "2", "1"], by="NS"), "only the director")
    ev.draw_lots(["4", "3", "2", "1"], by="director:Rita")
    assert [(s.rank, s.entrant.id, s.tie) for s in ev.standings()] == [
        (1, "4", "lot"), (2, "3", "lot"), (3, "2", "lot"), (4, "1", "lot")]
    refused(ev, lambda: ev.draw_lots(["1", "2", "3", "4"], by="director:Rita"), "still level")
    # the draw decides the standings after round 2 only
    assert {s.tie for s in ev.standings(1)} == {"lot_pending"}
    again = Event.from_json(ev.to_json())
    assert [s.entrant.id for s in again.standings()] == ["4", "3", "2", "1"]


# ----------------------------------------------------------------------------------------------------------------
# §13 penalties and adjusted scores
# ----------------------------------------------------------------------------------------------------------------
def test_13_penalties_come_off_the_entrants_totals_only() -> None:
    ev = make_event(4, rounds=1, movements="danish")
    ev.start_round()
    refused(ev, lambda: ev.penalty("1", vp=2, reason="slow play", by="NS"), "only the director")
    refused(ev, lambda: ev.penalty("1", vp=2, reason="", by="director:Rita"), "says why")
    refused(ev, lambda: ev.penalty("1", reason="x", by="director:Rita"), "a positive number")
    refused(ev, lambda: ev.penalty("1", mp=7, reason="x", by="director:Rita"), "not a multiple of 5")
    refused(ev, lambda: ev.penalty("9", vp=1, reason="x", by="director:Rita"), "no entrant '9'")
    ev.penalty("1", vp=2, mp=50, reason="slow play", by="director:Rita")
    play(ev, {("1", "2"): (300, 0), ("3", "4"): (300, 0)})  # 13-7 each
    st = {s.entrant.id: s for s in ev.standings()}
    assert (st["1"].vp, st["1"].penalty_vp, st["1"].mp_for, st["1"].penalty_mp, st["1"].diff) == (11, 2, 250, 50, 250)
    assert (st["2"].vp, st["2"].mp_for, st["2"].mp_against) == (7, 0, 300)  # the opponents: unchanged
    assert [s.entrant.id for s in ev.standings()][:2] == ["3", "1"]  # 13 VP, then 11 (13 - 2)
    assert [p["reason"] for p in ev.penalties()] == ["slow play"]


@pytest.mark.parametrize(("convention", "vp", "mp"), [("draw", 10, 0), ("bye", 14, 355)])
def test_13_a_table_that_could_not_play_gets_the_events_adjusted_score(convention: str, vp: int, mp: int) -> None:
    ev = make_event(4, rounds=1, movements="danish", adjusted=convention)
    ev.start_round()
    ev.enter_hand(2, 1, WIN, LOSE, by="director")
    refused(ev, lambda: ev.adjust(1, reason="", by="director:Rita"), "says why")
    refused(ev, lambda: ev.adjust(1, reason="x", by="director:Rita", ns=(21, 0), ew=(0, 0)), "outside the VP table")
    refused(ev, lambda: ev.adjust(1, reason="x", by="director:Rita", ns=(10, 0)), "both lines")
    ev.adjust(1, reason="a player taken ill", by="director:Rita")
    ev.adjust(2, reason="the sheet was lost", by="director:Rita", ns=(12, 200), ew=(8, 100))
    ev.close_round()  # adjusted tables are complete
    res = {r.entrant: r for r in ev.results()}
    assert all(r.adjusted for r in res.values())
    assert (res["1"].vp, res["1"].mp_for, res["2"].vp, res["2"].mp_for) == (vp, mp, vp, mp)
    assert (res["3"].vp, res["3"].mp_for, res["3"].mp_against, res["4"].vp, res["4"].mp_against) == (12, 200, 100, 8, 200)
    assert ev.rounds[0].adjusted[1]["reason"] == "a player taken ill"
    with pytest.raises(TournamentError, match="adjusted 'average'"):
        Event.create("X", adjusted="average")


# ----------------------------------------------------------------------------------------------------------------
# printouts (§12.2 the VP table on the sheet), the duplicate comparison, prizes, the season, the federation export
# ----------------------------------------------------------------------------------------------------------------
def pdf_text(doc: Any) -> str:
    import io

    import pypdf

    from burraco.tournament import printouts

    return " ".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(printouts.to_pdf(doc))).pages)


def test_12_printouts_for_the_wall() -> None:
    from burraco.tournament import printouts

    ev = make_event(6, rounds=3, prizes="2, ladies:1")
    assert ev.setup.movements == ("mitchell", "mitchell", "danish_modified")
    ev.start_round()
    # the score sheets: the lines by pair number and name, the VP table of the match (§12.2)
    sheets = printouts.score_sheets(ev, 1, "it")
    text = pdf_text(sheets)
    assert "NS: 1. Pair 1 (P1a – P1b)" in text and "EO: 2. Pair 2 (P2a – P2b)" in text
    assert "Tabella VP (3 mani)" in text and "355 – 500" in text and "≥ 1505" in text and "20 – 0" in text
    assert len(sheets.pages) == 3
    # the table cards: a Mitchell's NS stay, EW move up a table
    cards = printouts.table_cards(ev, 1, "en")
    first = [b.text for b in cards.pages[0] if isinstance(b, printouts.Big)]
    assert first[0] == "Table 1" and "Next round: NS stays at table 1" in first
    assert "Next round: EW moves to table 2, EW" in first
    names = pdf_text(printouts.name_cards(ev, "en"))
    assert "Pair 6" in names
    play(ev, {("1", "2"): (0, 1040), ("3", "4"): (300, 0), ("5", "6"): (100, 100)})
    # the standings are those after the last closed round, labelled with it; "final" only after the last round
    with pytest.raises(TournamentError, match="once round 3 of 3 is closed"):
        printouts.final_results(ev, "en")
    ev.start_round()
    assert printouts.standings(ev, lang="en").title == "Standings after round 1"
    assert printouts.standings(ev, 2, "en").title == "Provisional standings: round 2 in play"
    text = pdf_text(printouts.standings(ev, lang="en"))
    assert "−1040" in text and "--" not in text and "–-" not in text  # a negative with its minus sign
    cards = printouts.table_cards(ev, 2, "en")  # round 2 of the Mitchell: round 3 is Danish
    assert "Next round: NS is seated by the standings" in [b.text for b in cards.pages[0]
                                                           if isinstance(b, printouts.Big)]


def test_12_prizes_one_per_entrant_in_the_setups_order() -> None:
    ev = Event.create("Club", rounds=1, movements="danish", prizes="2, ladies:1, juniors:2")
    for i in range(6):
        ev.register(f"Pair {i + 1}", [f"P{i + 1}a", f"P{i + 1}b"],
                    categories=["ladies"] if i in (0, 3) else ["juniors"] if i == 4 else [])
    ev.start_round()
    play(ev, {("1", "2"): (500, 0), ("3", "4"): (400, 0), ("5", "6"): (300, 0)})
    order = [s.entrant.id for s in ev.standings()]
    assert order[:3] == ["1", "3", "5"]
    prizes = dict(ev.prizes())
    assert [s.entrant.id for _, s in prizes[""]] == ["1", "3"]
    assert [s.entrant.id for _, s in prizes["ladies"]] == ["4"]  # pair 1 has its prize already
    assert [s.entrant.id for _, s in prizes["juniors"]] == ["5"]
    with pytest.raises(TournamentError, match="prizes are written"):
        Event.create("X", prizes="3, ladies:x")
    refused(ev, lambda: ev.apply({"type": "register", "name": "Q", "people": [{"name": "Q1"}, {"name": "Q2"}],
                                  "categories": "ladies"}), "categories")


def test_12_duplicate_comparison_in_the_cli_and_the_printout(tmp_path: Any) -> None:
    from typer.testing import CliRunner

    from burraco.cli import app
    from burraco.tournament import printouts
    from burraco.tournament.simulate import simulate

    ev, _ = simulate(pairs=6, rounds=1, movements="danish", players=["random"], seed=3, duplicate=True)
    f = tmp_path / "dup.json"
    f.write_text(json.dumps(ev.to_json()))
    out = CliRunner().invoke(app, ["tournament", "compare", str(f), "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data[0]["round"] == 1 and [len(h["tables"]) for h in data[0]["hands"]] == [3, 3, 3]
    assert data[0]["hands"] == ev.deal_comparison(1)
    text = pdf_text(printouts.compare(ev, 1, "en"))
    assert "The deals compared across the tables" in text and "NS against the field" in text
    plain = make_event(2, rounds=1, movements="danish")
    g = tmp_path / "plain.json"
    g.write_text(json.dumps(plain.to_json()))
    out = CliRunner().invoke(app, ["tournament", "compare", str(g)])
    assert out.exit_code == 1 and "duplicate event" in out.output


def test_12_season_across_evenings() -> None:
    from burraco.tournament.season import season

    def evening(pairs: list[tuple[Any, Any]], wins: dict[tuple[str, str], tuple[int, int]]) -> Event:
        ev = Event.create("Thursday", rounds=1, movements="danish")
        for a, b in pairs:
            ev.register(f"{a[0]} – {b[0]}", [{"name": a[0], "member": a[1]}, {"name": b[0], "member": b[1]}])
        ev.start_round()
        play(ev, wins)
        return ev

    anna, bruno, carla, dario = ("Anna", "1"), ("Bruno", "2"), ("Carla", "3"), ("Dario", "4")
    one = evening([(anna, bruno), (carla, dario)], {("1", "2"): (500, 0)})
    # the same people, another spelling of a name: the membership number says who is who
    two = evening([(("carla ", "3"), bruno), (("ANNA", "1"), dario)], {("1", "2"): (0, 100)})
    # two entrants each evening: the winners 2 points, the others 1
    by_placing = [(x.rank, x.name, x.member, x.points, x.events, x.best) for x in season([one, two])]
    assert by_placing == [(1, "ANNA", "1", 4, 2, 1), (2, "Bruno", "2", 3, 2, 1), (2, "Dario", "4", 3, 2, 1),
                          (4, "carla", "3", 2, 2, 2)]
    by_vp = {x.member: x.points for x in season([one, two], "vp")}
    assert by_vp == {"1": 14 + 11, "2": 14 + 9, "3": 6 + 9, "4": 6 + 11}
    club = {x.member: x.points for x in season([one, two], points=[10, 6])}
    assert club == {"1": 20, "2": 16, "3": 12, "4": 16}
    with pytest.raises(TournamentError, match="scored by placing, vp"):
        season([one], "rank")


def test_12_federation_export_one_row_per_player() -> None:
    import csv
    import io

    from burraco.tournament import printouts

    ev = Event.create("Club", date="2026-12-05", rounds=1, movements="danish", prizes="1")
    for i in range(4):
        ev.register(f"Pair {i + 1}", [{"name": f"P{i + 1}a", "club": "BC Roma", "member": f"IT{i}1"},
                                      {"name": f"P{i + 1}b", "club": "BC Milano", "member": f"IT{i}2"}])
    ev.start_round()
    with pytest.raises(TournamentError, match="once round 1 of 1 is closed"):
        printouts.federation_csv(ev)
    ev.penalty("2", vp=1, reason="late", by="director")
    play(ev, {("1", "2"): (500, 0), ("3", "4"): (100, 0)})
    rows = list(csv.DictReader(io.StringIO(printouts.federation_csv(ev))))
    assert tuple(rows[0]) == printouts.FEDERATION_COLUMNS and len(rows) == 8
    first = rows[0]
    assert (first["event"], first["date"], first["field"], first["rank"], first["player"], first["club"],
            first["member"], first["vp"], first["mp_for"], first["prize"]) == (
        "Club", "2026-12-05", "4", "1", "P1a", "BC Roma", "IT01", "14", "500", "overall 1")
    two = [r for r in rows if r["entrant_id"] == "2"]
    assert [r["member"] for r in two] == ["IT11", "IT12"] and two[0]["vp"] == "5" and two[0]["penalty_vp"] == "1"


def test_12_rounds_are_bounded_and_the_default_movements_fit_them(tmp_path: Any) -> None:
    from typer.testing import CliRunner

    from burraco.cli import app
    from burraco.tournament.setup import default_movements

    with pytest.raises(TournamentError, match="1 to 40 rounds, not 100000"):
        Event.create("X", rounds=100000)
    with pytest.raises(TournamentError, match="1 to 40 rounds, not 0"):
        Event.create("X", rounds=0)
    assert default_movements(6) == ("mitchell",) * 3 + ("danish_modified",) * 3
    run = CliRunner().invoke
    out = run(app, ["tournament", "new", str(tmp_path / "x.json"), "--name", "X", "--rounds", "100000"])
    assert out.exit_code == 2 and "1 to 40 rounds" in out.output  # a usage error (issue 44: 2 everywhere)
    # simulate --rounds 2 alone: its movements are the default for two rounds; off a terminal a line per table
    out = run(app, ["tournament", "simulate", "--pairs", "4", "--rounds", "2", "--players", "random", "--json"])
    assert out.exit_code == 0, out.output
    assert "round 1/2: table 1/2 played" in out.output and "round 2/2: table 2/2 played" in out.output


def test_12_no_refusal_prints_its_sentence_twice() -> None:
    from burraco.lang import de, en, it, nl, pt

    for mod in (en, it, de, pt, nl):
        for code, text in mod.TEMPLATES.items():
            half = len(text) // 2
            assert not (len(text) % 2 == 0 and text[:half] == text[half:]), (mod.__name__, code)

"""Provably fair deals (burraco.fair, docs/fairness.md): the procedure's published test vectors, deals of every
preset's shape, the check of a record's deals and every way of tampering with one (a card, the seed, a
contribution, the commitment, the label, the hand's number) caught by ``burraco verify``, and a chi-square test of
the cards' positions over 100,000 derived deals."""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import math
import os
import random
import shutil
import subprocess
import sys
from itertools import islice
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from burraco import Match, preset
from burraco.cards import cards_str
from burraco.fair import (
    PROCEDURE,
    FairError,
    FairInputs,
    check_deal,
    commitment,
    deal_key,
    deck_order,
    fair_deal,
    fisher_yates,
    key_message,
    shuffle,
    verify_record,
    words,
)
from burraco.messages import render
from burraco.record import RecordError
from burraco.rules import PRESETS
from burraco.seats import seat_names

VECTORS = Path(__file__).resolve().parents[1] / "docs" / "fairness" / "vectors.json"
VERIFY = [sys.executable, "-m", "burraco", "verify"]


# ----- the published test vectors ---------------------------------------------------------------------------------
@pytest.mark.parametrize("v", json.loads(VECTORS.read_text())["vectors"], ids=lambda v: v["name"])
def test_the_published_vectors_are_what_the_procedure_gives(v: dict[str, Any]) -> None:
    """docs/fairness/vectors.json, step by step: another implementation checks itself against the same file."""
    rules = preset(v["rules"])
    seats = seat_names(rules.players)
    seed = bytes.fromhex(v["seed"])
    m = key_message(v["table"], v["hand"], v["contributions"], seats)
    assert m.decode() == v["message"]
    assert commitment(seed) == v["commitment"] == hashlib.sha256(seed).hexdigest()
    k = deal_key(seed, m)
    assert k.hex() == v["key"] == hmac.new(seed, m, hashlib.sha256).hexdigest()
    assert hmac.new(k, bytes(8), hashlib.sha256).hexdigest() == v["block0"]
    assert list(islice(words(k), 8)) == v["words"]
    assert cards_str(shuffle(deck_order(rules), k)) == v["order"]
    assert fair_deal(rules, seed, v["table"], v["hand"], v["contributions"]).to_json(seats) == v["deal"]


def test_the_key_message_lists_the_contributions_in_seat_order_whatever_their_order_given() -> None:
    seats = ("N", "E", "S", "W")
    a = key_message("t", 3, {"S": "ab" * 16, "N": "cd" * 16}, seats)
    assert a == key_message("t", 3, {"N": "cd" * 16, "S": "ab" * 16}, seats)
    assert a.decode().splitlines() == [PROCEDURE, "table t", "hand 3", "contribution N " + "cd" * 16,
                                       "contribution S " + "ab" * 16]


@pytest.mark.parametrize(
    "table, hand, contributions",
    [("", 0, {}), ("a\nb", 0, {}), ("é", 0, {}), ("x" * 201, 0, {}), ("t", -1, {}), ("t", 0, {"X": "00" * 16}),
     ("t", 0, {"N": "00" * 15}), ("t", 0, {"N": "AB" * 16}), ("t", 0, {"N": "0" * 33}), ("t", 0, {"N": "00" * 65})],
)
def test_inputs_the_procedure_cannot_take_are_refused_saying_which(
    table: str, hand: int, contributions: dict[str, str]
) -> None:
    with pytest.raises(FairError) as e:
        key_message(table, hand, contributions, ("N", "E", "S", "W"))
    assert render(e.value.msg) and "?" not in render(e.value.msg)


def test_the_seed_has_256_bits() -> None:
    with pytest.raises(FairError):
        deal_key(bytes(16), b"m")


def test_a_word_past_the_last_whole_multiple_is_skipped_not_folded() -> None:
    """No modulo bias: for 3 cards the word 2**32 - 1 would favour position 0 (folded, it would swap the last card
    with the first: [3, 2, 1], then [2, 3, 1]); it is skipped, and the next words decide."""
    assert fisher_yates([1, 2, 3], iter([2**32 - 1, 2**32 - 2, 0])) == [2, 1, 3]
    assert fisher_yates([1, 2, 3], iter([2**32 - 2, 0])) == [2, 1, 3]


@given(st.sampled_from(sorted(PRESETS)), st.binary(min_size=32, max_size=32), st.integers(0, 10**6),
       st.lists(st.binary(min_size=16, max_size=64), max_size=6))
@settings(max_examples=60, deadline=None)
def test_every_presets_deal_uses_its_deck_exactly_and_checks_as_committed(
    name: str, seed: bytes, hand: int, contribs: list[bytes]
) -> None:
    rules = preset(name)
    seats = seat_names(rules.players)
    contributions = {s: c.hex() for s, c in zip(seats, contribs, strict=False)}
    d = fair_deal(rules, seed, "prop", hand, contributions)
    d.check(rules)
    inputs = FairInputs("prop", hand, contributions, commitment(seed), seed.hex())
    assert check_deal(d, inputs, seats).code == "fair_ok"


def test_the_deal_depends_on_every_input() -> None:
    rules = preset("italian")
    seed = bytes(range(32))
    base = fair_deal(rules, seed, "t", 0, {"N": "00" * 16})
    assert base == fair_deal(rules, seed, "t", 0, {"N": "00" * 16})
    others = [fair_deal(rules, bytes(31) + b"\x01", "t", 0, {"N": "00" * 16}),
              fair_deal(rules, seed, "u", 0, {"N": "00" * 16}),
              fair_deal(rules, seed, "t", 1, {"N": "00" * 16}),
              fair_deal(rules, seed, "t", 0, {"N": "00" * 15 + "01"}),
              fair_deal(rules, seed, "t", 0, {"E": "00" * 16}),
              fair_deal(rules, seed, "t", 0, {})]
    assert all(o != base for o in others)


# ----- records: verify and tampering ----------------------------------------------------------------------------
def fair_record(name: str = "italian", hands: int = 3, seed: int = 5) -> dict[str, Any]:
    """A match dealt by the procedure (as the server deals, with two seats' contributions), played by random legal
    actions, and every hand's ``fair`` object with its seed revealed."""
    rules = preset(name)
    seats = seat_names(rules.players)
    rng = random.Random(seed)
    m = Match(rules)
    fairs = []
    for i in range(hands):
        if m.is_over:
            break
        s = rng.randbytes(32)
        contributions = {seats[0]: rng.randbytes(32).hex(), seats[-2]: rng.randbytes(16).hex()}
        g = m.start_hand(fair_deal(m.rules_for_hand(i), s, "tbl/0", i, contributions))
        fairs.append(FairInputs("tbl/0", i, contributions, commitment(s), s.hex()).to_json(seats))
        while not g.is_over:  # random legal actions to the hand's end (the cap of RULES.md §0.1 ends it at worst)
            m.apply(rng.choice(g.legal_actions()))
    rec = m.to_record()
    for h, f in zip(rec["hands"], fairs, strict=True):
        h["fair"] = f
    return rec


def test_a_fair_record_verifies_hand_by_hand_and_replays_as_before() -> None:
    from burraco import replay

    rec = fair_record()
    checks = verify_record(rec)
    assert [(c.hand, c.ok, c.why.code) for c in checks] == [(i, True, "fair_ok") for i in range(len(rec["hands"]))]
    assert render(checks[0].why) == "hand 1: dealt exactly as committed before the deal"
    plain = copy.deepcopy(rec)
    for h in plain["hands"]:
        del h["fair"]
    assert replay(rec) == replay(plain)  # the key changes nothing of RECORDS.md §5


def swap_two_cards(rec: dict[str, Any]) -> None:
    deal = rec["hands"][1]["deal"]
    n, e = deal["hands"]["N"].split(), deal["hands"]["E"].split()
    k = next(i for i in range(len(n)) if n[i] != e[i])
    n[k], e[k] = e[k], n[k]
    deal["hands"]["N"], deal["hands"]["E"] = " ".join(n), " ".join(e)
    rec["hands"][1]["actions"] = []  # the actions may no longer be legal; the deal is what is checked


def other_hex(h: str) -> str:
    return ("1" if h[0] == "0" else "0") + h[1:]


TAMPERING = {
    "a card moved from one hand to another": (swap_two_cards, False, "fair_deal_mismatch"),
    "the seed": (lambda r: r["hands"][1]["fair"].update(seed=other_hex(r["hands"][1]["fair"]["seed"])), False,
                 "fair_seed_mismatch"),
    "the commitment": (lambda r: r["hands"][1]["fair"].update(
        commitment=other_hex(r["hands"][1]["fair"]["commitment"])), False, "fair_seed_mismatch"),
    "a contribution": (lambda r: r["hands"][1]["fair"]["contributions"].update(
        N=other_hex(r["hands"][1]["fair"]["contributions"]["N"])), False, "fair_deal_mismatch"),
    "a contribution left out": (lambda r: r["hands"][1]["fair"]["contributions"].pop("S"), False,
                                "fair_deal_mismatch"),
    "the table's label": (lambda r: r["hands"][1]["fair"].update(table="tbl/1"), False, "fair_deal_mismatch"),
    "the hand's number": (lambda r: r["hands"][1]["fair"].update(hand=0), False, "fair_deal_mismatch"),
    "a seed not revealed": (lambda r: r["hands"][1]["fair"].pop("seed"), None, "fair_not_revealed"),
    "no commitment at all": (lambda r: r["hands"][1].pop("fair"), None, "fair_no_data"),
    "a malformed contribution": (lambda r: r["hands"][1]["fair"]["contributions"].update(N="xyz"), False,
                                 "fair_bad_data"),
}


@pytest.mark.parametrize("what", sorted(TAMPERING))
def test_a_tampered_record_is_caught_at_its_hand_and_only_there(what: str) -> None:
    change, ok, code = TAMPERING[what]
    rec = fair_record()
    change(rec)
    checks = verify_record(rec)
    assert [c.ok for c in checks] == [True, ok, True]
    assert checks[1].why.code == code
    text = render(checks[1].why)
    assert text.startswith("hand 2: ") and "?" not in text
    if code == "fair_deal_mismatch" and what.startswith("a card"):
        assert "N's hand should be" in text


def test_a_card_changed_so_that_the_deck_is_wrong_makes_the_record_invalid() -> None:
    rec = fair_record()
    n = rec["hands"][0]["deal"]["hands"]["N"].split()
    n[0] = "Ah" if n[0] != "Ah" else "Kh"
    rec["hands"][0]["deal"]["hands"]["N"] = " ".join(n)
    with pytest.raises(RecordError):
        verify_record(rec)


def cli(args: list[str], stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, COLUMNS="200", LANG="C")
    return subprocess.run(VERIFY + args, input=stdin, capture_output=True, text=True, timeout=120, env=env)


def test_burraco_verify_says_per_hand_in_plain_words_and_in_the_users_language(tmp_path: Path) -> None:
    rec = fair_record()
    good = tmp_path / "good.json"
    good.write_text(json.dumps(rec))
    p = cli([str(good)])
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines() == ["✓ hand 1: dealt exactly as committed before the deal",
                                     "✓ hand 2: dealt exactly as committed before the deal",
                                     "✓ hand 3: dealt exactly as committed before the deal",
                                     "3 of 3 hands dealt exactly as committed before the deal"]
    p = cli([str(good), "--lang", "it"])
    assert p.returncode == 0 and "smazzata 1: distribuita esattamente come impegnato" in p.stdout
    swap_two_cards(rec)
    bad = json.dumps(rec)
    p = cli(["-", "--lang", "de"], stdin=bad)
    assert p.returncode == 1
    lines = p.stdout.splitlines()
    assert lines[1].startswith("✗ Spiel 2: NICHT wie festgelegt: die Hand von N müsste ")
    assert lines[-1] == "2 von 3 Spielen genau so verteilt, wie vor dem Verteilen festgelegt"
    p = cli(["-", "--json"], stdin=bad)
    out = json.loads(p.stdout)
    assert p.returncode == 1 and out["ok"] is False
    assert [h["ok"] for h in out["hands"]] == [True, False, True]
    assert out["hands"][1]["msg"]["code"] == "fair_deal_mismatch"
    p = cli(["-"], stdin='{"format": "burraco-record/1", "hands": 3}')
    assert p.returncode == 2 and "this record is not valid" in p.stderr


def test_a_record_without_commitments_cannot_be_checked_and_says_so(tmp_path: Path) -> None:
    rec = Match(preset("italian-2p")).to_record()
    rec["hands"] = [{"deal": Match(preset("italian-2p"), seed=1).deal_for_hand(0).to_json(("N", "S")), "actions": []}]
    p = cli(["-"], stdin=json.dumps(rec))
    assert p.returncode == 1
    assert p.stdout.splitlines()[0] == "? hand 1: no commitment was recorded for this deal, so it cannot be checked"


# ----- the cards' positions are uniform ----------------------------------------------------------------------------
def chi_square_p(stat: float, dof: int) -> float:
    """The upper tail of the chi-square distribution (Wilson–Hilferty: exact to a few parts in a thousand at the
    thousands of degrees of freedom used here)."""
    z = ((stat / dof) ** (1 / 3) - (1 - 2 / (9 * dof))) / math.sqrt(2 / (9 * dof))
    return 0.5 * math.erfc(z / math.sqrt(2))


def position_counts(deals: int, shuffler: Any) -> tuple[Any, list[int]]:
    """How often each card type lies at each position of the shuffled deck, over ``deals`` derived deals."""
    np = pytest.importorskip("numpy")
    deck = deck_order(preset("italian"))
    orders = np.empty((deals, len(deck)), dtype=np.uint8)
    for i in range(deals):
        seed = hashlib.sha256(b"chi-square %d" % i).digest()
        orders[i] = shuffler(deck, deal_key(seed, key_message("chi-square", i, {}, ("N", "E", "S", "W"))))
    counts = np.stack([np.bincount(orders[:, p], minlength=53) for p in range(len(deck))])
    return counts, [deck.count(c) for c in range(53)]


def chi_square(counts: Any, mult: list[int]) -> tuple[float, int, float]:
    """The statistic over the positions × card types table, its degrees of freedom, and the smallest p-value of
    one position alone times the number of positions (Bonferroni)."""
    deals = int(counts[0].sum())
    positions = counts.shape[0]
    expected = [deals * m / positions for m in mult]
    stat = 0.0
    worst = 1.0
    for p in range(positions):
        row = sum((float(counts[p][c]) - expected[c]) ** 2 / expected[c] for c in range(len(mult)))
        stat += row
        worst = min(worst, chi_square_p(row, len(mult) - 1))
    return stat, (positions - 1) * (len(mult) - 1), worst * positions


def test_chi_square_of_the_cards_positions_over_100000_derived_deals() -> None:
    """Every card type is as likely at every position of the deck (108 positions × 53 types, 5,564 degrees of
    freedom) over 100,000 deals of the procedure; and the same test does reject a shuffle that is wrong only in
    leaving the bottom card in place."""
    counts, mult = position_counts(100_000, shuffle)
    stat, dof, worst = chi_square(counts, mult)
    assert chi_square_p(stat, dof) > 1e-3, (stat, dof)
    assert worst > 1e-3
    biased, _ = position_counts(5_000, lambda deck, key: fisher_yates(deck[:-1], words(key)) + deck[-1:])
    stat_b, dof_b, _ = chi_square(biased, mult)
    assert chi_square_p(stat_b, dof_b) < 1e-9


# ----- the browser's own implementation (static/fairdeal.js) under Node.js -----------------------------------------
FAIRDEAL_JS = Path(__file__).resolve().parents[1] / "src" / "burraco" / "server" / "static" / "fairdeal.js"
NODE = shutil.which("node")
JS_RUNNER = r"""
const fs = require("fs");
const src = fs.readFileSync(process.argv[process.argv.length - 1], "utf8").replace(/^export /gm, "");
const input = JSON.parse(fs.readFileSync(0, "utf8"));
eval(src + `
const enc = (s) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const out = {vectors: input.vectors.map((v) => {
  const seed = fromHex(v.seed), key = hmac(seed, enc(keyMessage(v.table, v.hand, v.contributions, v.seats)));
  const it = words(key), w = [];
  for (let i = 0; i < 8; i++) w.push(it.next().value);
  return {commitment: hex(sha256(seed)), key: hex(key), words: w,
          order: shuffle(v.deck.map(cardCode), key).map((c) => ORDER[c]).join(" ")};
}), checks: input.records.map((r) => r.record.hands.map((h, i) => checkDeal(h.deal, h.fair, r.seats, i)))};
process.stdout.write(JSON.stringify(out));
`);
"""


@pytest.mark.skipif(NODE is None, reason="no node to run the browser's JavaScript")
def test_the_browsers_implementation_gives_the_same_vectors_and_the_same_verdicts() -> None:
    """static/fairdeal.js (the replay's check in the browser) against docs/fairness/vectors.json, and its verdict
    on good and tampered records the same as burraco.fair's, message for message."""
    vectors = json.loads(VECTORS.read_text())["vectors"]
    for v in vectors:
        rules = preset(v["rules"])
        v["seats"] = list(seat_names(rules.players))
        v["deck"] = cards_str(deck_order(rules)).split()
    records = []
    for what in ["", *sorted(TAMPERING)]:
        rec = fair_record("italian-2p" if what.startswith("the seed") else "italian")
        if what:
            TAMPERING[what][0](rec)
        seats = list(seat_names(preset(rec["rules"]).players))
        records.append({"record": rec, "seats": seats, "want": [c.to_json() for c in verify_record(rec)]})
    p = subprocess.run([NODE, "-e", JS_RUNNER, str(FAIRDEAL_JS)], input=json.dumps({"vectors": vectors,
                       "records": records}), capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    for v, got in zip(vectors, out["vectors"], strict=True):
        assert got == {"commitment": v["commitment"], "key": v["key"], "words": v["words"], "order": v["order"]}
    from burraco.messages import message_from_json

    for r, checks in zip(records, out["checks"], strict=True):
        for want, got in zip(r["want"], checks, strict=True):
            if want["msg"]["code"] == "fair_bad_data":  # a malformed value: the browser just finds the deal wrong
                assert got["ok"] is False
                continue
            assert got["ok"] == want["ok"] and render(message_from_json(got["msg"])) == want["text"]


def test_the_readme_example_record_verifies_and_is_what_its_script_writes(tmp_path: Path) -> None:
    """README's tour runs ``burraco verify examples/fair-game.json``: the record verifies, its deal is the
    procedure's, and examples/make_fair_game.py writes it again exactly."""
    import runpy

    root = Path(__file__).resolve().parents[1]
    path = root / "examples" / "fair-game.json"
    record = json.loads(path.read_text())
    assert [(c.ok, c.why.code) for c in verify_record(record)] == [(True, "fair_ok")]
    from burraco import replay

    assert replay(record)["ok"]
    ns = runpy.run_path(str(root / "examples" / "make_fair_game.py"))
    ns["main"].__globals__["OUT"] = tmp_path / "again.json"
    ns["main"]()
    assert (tmp_path / "again.json").read_text() == path.read_text()

"""Golden records: seeded games of every preset played by the uniform random player, stored with their replay
result in tests/golden/*.json.

A game is dealt with ``Game.new(rules, seed=seed)`` (matches: ``Match(rules, seed=seed)``) and played by
``random.Random(seed)`` choosing ``legal[rng.randrange(len(legal))]`` from ``game.legal_actions()`` until the hand
(or match) ends; ``greedy`` games (the 3-, 5- and 6-player ones, where random play rarely goes out) meld or attach
with probability 0.9 when they can (:func:`greedy`). Two checks per file:

* ``replay(stored record) == stored result`` — the rules have not changed (independent of move generation);
* regenerating the game gives the stored record — dealing and the order of ``legal_actions()`` have not changed.

If a change is intended, regenerate the files and review the diff::

    python tests/test_golden.py --regen
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

import burraco
from burraco import Game, Match, replay

GOLDEN = Path(__file__).resolve().parent / "golden"

# (file name, preset, overrides, seed, what) — seeds picked so that the set covers closings, stock exhaustion,
# stalemates, pozzetti taken in every way and a whole tournament match
CASES: list[tuple[str, str, dict[str, Any], int, str]] = [
    ("italian", "italian", {}, 9, "hand"),
    ("italian-2p", "italian-2p", {}, 40, "hand"),
    ("italian-tournament", "italian-tournament", {}, 21, "hand"),
    ("international", "international", {}, 1, "hand"),
    ("brazilian", "brazilian", {}, 12, "hand"),
    ("brazilian-2p", "brazilian-2p", {}, 43, "hand"),
    ("brazilian-fechado", "brazilian-fechado", {}, 14, "hand"),
    ("brazilian-stbl", "brazilian-stbl", {}, 14, "hand"),
    ("italian-three-morto", "italian", {"three_morto": True}, 1, "hand"),
    ("italian-min50", "italian", {"min_first_meld": 50}, 6, "hand"),
    ("italian-tournament-match", "italian-tournament", {}, 11, "match"),
    # RULES.md §14.3–§14.4: the solo goes out first, the pairs form, a side closes
    ("italian-3p", "italian-3p", {}, 1, "greedy"),
    ("italian-5p", "italian-5p", {}, 1, "greedy"),
    ("italian-6p", "italian-6p", {}, 4, "greedy"),
    ("italian-3p-match", "italian-3p", {"individual_from": 300, "target": 900}, 2, "greedy-match"),
]


def greedy(game: Game, rng: random.Random) -> burraco.Action:
    """The greedy player of the golden files (tests/helpers.greedy_move written out, so the files never move)."""
    legal = game.legal_actions()
    ml = [a for a in legal if a.verb in ("meld", "add")]
    if ml and rng.random() < 0.9:
        return ml[rng.randrange(len(ml))]
    if game.phase == "draw":
        return legal[1] if len(legal) > 1 and rng.random() < 0.15 else legal[0]
    ds = [a for a in legal if a.verb == "discard"] or legal
    return ds[rng.randrange(len(ds))]


def generate(preset: str, overrides: dict[str, Any], seed: int, what: str) -> dict[str, Any]:
    rules = burraco.preset(preset, **overrides)
    rng = random.Random(seed)

    def move(g: Game) -> burraco.Action:
        if what.startswith("greedy"):
            return greedy(g, rng)
        legal = g.legal_actions()
        return legal[rng.randrange(len(legal))]

    if what in ("hand", "greedy"):
        g = Game.new(rules, seed=seed)
        while not g.is_over:
            g.apply(move(g))
        record = g.to_record()
    else:
        m = Match(rules, seed=seed)
        while not m.is_over:
            g = m.start_hand()
            while not g.is_over:
                m.apply(move(g))
        record = m.to_record()
    return {
        "preset": preset,
        "overrides": overrides,
        "seed": seed,
        "what": what,
        "player": "greedy: melds first (tests/test_golden.py greedy)"
        if what.startswith("greedy")
        else "uniform random: legal[random.Random(seed).randrange(len(legal))]",
        "record": record,
        "result": replay(record),
    }


def path_of(name: str) -> Path:
    return GOLDEN / f"{name}.json"


def dump(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_golden_replay_matches_stored_result(case: tuple[str, str, dict[str, Any], int, str]) -> None:
    stored = json.loads(path_of(case[0]).read_text(encoding="utf-8"))
    out = replay(stored["record"])
    assert out["ok"] is True
    assert out == stored["result"]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_golden_regenerates_identically(case: tuple[str, str, dict[str, Any], int, str]) -> None:
    name, preset, overrides, seed, what = case
    stored = json.loads(path_of(name).read_text(encoding="utf-8"))
    fresh = generate(preset, overrides, seed, what)
    assert fresh["record"]["rules"] == stored["record"]["rules"]
    assert fresh["record"]["dealer"] == stored["record"]["dealer"]
    for i, (h_new, h_old) in enumerate(zip(fresh["record"]["hands"], stored["record"]["hands"], strict=True)):
        assert h_new["deal"] == h_old["deal"], f"hand {i}: the deal from the seed changed"
        first_diff = next(
            (j for j, (a, b) in enumerate(zip(h_new["actions"], h_old["actions"], strict=False)) if a != b),
            min(len(h_new["actions"]), len(h_old["actions"])),
        )
        assert h_new["actions"] == h_old["actions"], f"hand {i}: actions differ from index {first_diff}"
    assert fresh == stored


def test_golden_files_cover_every_preset_and_end() -> None:
    presets = {c[1] for c in CASES}
    assert presets == set(burraco.PRESETS)
    ends = set()
    for c in CASES:
        stored = json.loads(path_of(c[0]).read_text(encoding="utf-8"))
        ends |= {h["end"] for h in stored["result"]["hands"]}
    assert {"closed", "stock", "stalemate"} <= ends


def regen() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for name, preset, overrides, seed, what in CASES:
        data = generate(preset, overrides, seed, what)
        path_of(name).write_text(dump(data), encoding="utf-8")
        ends = [h["end"] for h in data["result"]["hands"]]
        n = sum(len(h["actions"]) for h in data["record"]["hands"])
        print(
            f"{path_of(name).relative_to(Path.cwd()) if path_of(name).is_relative_to(Path.cwd()) else path_of(name)}: "
            f"{n} actions, ends {ends}"
        )


if __name__ == "__main__":
    if "--regen" in sys.argv[1:]:
        regen()
    else:
        print(__doc__)
        sys.exit(2)

"""The project's own conformance cases (tests/conformance/*.json), in the public cases' format (RECORDS.md §5;
built with ``../shared/conformance/conformance.py build``): the time-out ending the match with 2, 3, 5 and 6 players
and the 6-player pozzetto after a burraco made by the last meld (RULES.md §0.1, §9.4, §14.3, §14.4, §7.2). Each is
replayed in-process here, on whichever engine the run uses (the suite runs twice: native core and ``BURRACO_PURE=1``),
and through ``burraco replay`` by tests/run_conformance.py where the public runner is present."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import burraco
from burraco.cards import parse_card

CASES = sorted((Path(__file__).parent / "conformance").glob("*.json"))


def mismatches(exp: Any, act: Any, path: str = "") -> list[str]:
    """Where ``act`` differs from the partial expectation ``exp`` (objects on the keys ``exp`` names, lists item by
    item, a meld's ``cards`` as a multiset), as the public runner judges it."""
    if isinstance(exp, dict):
        if not isinstance(act, dict):
            return [f"{path or '.'}: expected an object, got {act!r}"]
        errs: list[str] = []
        for k, v in exp.items():
            if k not in act:
                errs.append(f"{path}.{k}: missing")
            elif k == "cards" and isinstance(v, list):
                if Counter(map(parse_card, v)) != Counter(map(parse_card, act[k])):
                    errs.append(f"{path}.cards: expected {sorted(v)} as a multiset, got {act[k]!r}")
            else:
                errs += mismatches(v, act[k], f"{path}.{k}")
        return errs
    if isinstance(exp, list):
        if not isinstance(act, list) or len(act) < len(exp):
            return [f"{path}: expected a list of at least {len(exp)} items, got {act!r}"]
        return [e for i, v in enumerate(exp) for e in mismatches(v, act[i], f"{path}[{i}]")]
    return [] if exp == act else [f"{path}: expected {exp!r}, got {act!r}"]


def test_there_are_own_cases() -> None:
    assert len(CASES) >= 8


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_own_conformance_case(path: Path) -> None:
    case = json.loads(path.read_text())
    out = burraco.replay(case["record"])
    errs = mismatches(case["expect"], out)
    assert not errs, f"{case['name']} [{case['rule']}]: {errs}"


def test_mismatches_judges_partially_and_strictly() -> None:
    assert mismatches({"a": [{"cards": ["3h", "JK"]}]}, {"a": [{"cards": ["JK", "3h"], "x": 1}], "b": 2}) == []
    assert mismatches({"vp": None}, {"vp": {"NS": 14}}) == [".vp: expected None, got {'NS': 14}"]
    assert mismatches({"hands": [{}, {}]}, {"hands": [{}]})

"""Game records and replay (RECORDS.md §3–§6).

>>> from burraco import Game, preset, replay
>>> g = Game.new(preset("italian"), seed=1)
>>> g.apply("N draw")
>>> out = replay(g.to_record())
>>> out["ok"], out["hands"][0]["table"]["turn"], out["hands"][0]["table"]["phase"]
(True, 'N', 'play')
"""

from __future__ import annotations

import json
from typing import Any

from .actions import ActionError
from .deal import Deal, DealError
from .game import Game, seat_names
from .match import Match
from .rules import Rules, RulesError, rules_from_json

FORMAT = "burraco-record/1"


class RecordError(ValueError):
    """A record that is not valid: not JSON, an unknown format, preset or override, a bad deal."""


def parse_record(record: Any) -> tuple[Rules, int, list[tuple[Deal, list[str]]]]:
    """Check a record and return its rules, first dealer and (deal, actions) per hand; raises RecordError."""
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object")
    fmt = record.get("format")
    if fmt != FORMAT:
        raise RecordError(f"unknown record format {fmt!r} (expected {FORMAT!r})")
    try:
        rules = rules_from_json(record.get("rules", "italian"))
    except RulesError as e:
        raise RecordError(str(e)) from e
    seats = seat_names(rules.players)
    dealer_s = record.get("dealer", seats[-1])
    if dealer_s not in seats:
        raise RecordError(f"dealer {dealer_s!r} is not a seat (seats are {' '.join(seats)})")
    hands = record.get("hands")
    if not isinstance(hands, list):
        raise RecordError("'hands' must be a list of hands")
    out: list[tuple[Deal, list[str]]] = []
    for i, h in enumerate(hands):
        if not isinstance(h, dict) or "deal" not in h:
            raise RecordError(f"hand {i}: each hand needs a 'deal'")
        try:
            deal = Deal.from_json(h["deal"], seats)
            deal.check(rules)
        except DealError as e:
            raise RecordError(f"hand {i}: {e}") from e
        acts = h.get("actions", [])
        if not isinstance(acts, list) or not all(isinstance(a, str) for a in acts):
            raise RecordError(f"hand {i}: 'actions' must be a list of strings")
        out.append((deal, acts))
    return rules, seats.index(dealer_s), out


def load_record(text: str) -> dict[str, Any]:
    """Parse a record's JSON text (raises RecordError when it is not JSON)."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise RecordError(f"the record is not JSON: {e}") from e
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object")
    return data


def replay_match(record: Any) -> Match:
    """Play a record through the engine and return the match (raises RecordError or ActionError)."""
    rules, dealer, hands = parse_record(record)
    m = Match(rules, dealer)
    for i, (deal, actions) in enumerate(hands):
        if m.is_over or (m.games and not m.game.is_over):
            if actions:
                why = "the match is over" if m.is_over else f"hand {i - 1} has not ended"
                e = ActionError(f"{actions[0]}: {why}", actions[0])
                e.hand = i  # type: ignore[attr-defined]
                e.index = 0  # type: ignore[attr-defined]
                raise e
            continue
        g = m.start_hand(deal)
        for j, text in enumerate(actions):
            try:
                m.apply(text)
            except ActionError as e:
                e.hand = i  # type: ignore[attr-defined]
                e.index = j  # type: ignore[attr-defined]
                e.action = text
                raise
        del g
    return m


def replay(record: Any) -> dict[str, Any]:
    """Replay a record (a dict) and return the JSON-shaped result of RECORDS.md §5."""
    try:
        rules, dealer, hands = parse_record(record)
    except RecordError as e:
        return {"ok": False, "error": "record", "message": str(e)}
    m = Match(rules, dealer)
    results: list[dict[str, Any]] = []
    for i, (deal, actions) in enumerate(hands):
        if m.is_over or (m.games and not m.game.is_over):
            if actions:
                why = "the match is over" if m.is_over else f"hand {i - 1} has not ended"
                return _refused(i, 0, actions[0], "illegal", f"{actions[0]}: {why}")
            continue
        g = m.start_hand(deal)
        for j, text in enumerate(actions):
            try:
                m.apply(text)
            except ActionError as e:
                return _refused(i, j, text, e.kind, e.message)
        if actions or i == 0:
            results.append(g.result_json())
    return {"ok": True, "hands": results, **m.summary_json()}


def _refused(hand: int, index: int, action: str, kind: str, message: str) -> dict[str, Any]:
    return {
        "ok": False,
        "hand": hand,
        "action_index": index,
        "action": action,
        "error": kind,
        "message": message,
    }


def replay_text(text: str) -> tuple[dict[str, Any], int]:
    """Replay a record given as JSON text: the result and the exit status of ``burraco replay`` (0, 1 or 2)."""
    try:
        data = load_record(text)
    except RecordError as e:
        return {"ok": False, "error": "record", "message": str(e)}, 2
    out = replay(data)
    if out["ok"]:
        return out, 0
    return out, 2 if out["error"] == "record" else 1


def game_from_record(record: Any) -> Game:
    """The last hand of a record as a live :class:`Game` (to continue an unfinished game)."""
    return replay_match(record).game


__all__ = ["replay", "replay_text", "replay_match", "parse_record", "load_record", "RecordError", "FORMAT"]

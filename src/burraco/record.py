"""Game records and replay (RECORDS.md §3–§6).

>>> from burraco import Game, preset, replay
>>> g = Game.new(preset("italian"), seed=1)
>>> g.apply("N draw")
>>> out = replay(g.to_record())
>>> out["ok"], out["hands"][0]["table"]["turn"], out["hands"][0]["table"]["phase"]
(True, 'N', 'play')
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from .actions import ActionError, IllegalActionError
from .deal import Deal, DealError
from .game import Game
from .match import Match
from .rules import Rules, RulesError, rules_from_json
from .seats import seat_names

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
            try:
                deal.check(rules)
            except DealError as first:
                if not rules.solo_pair:
                    raise
                # 3 and 5 players: a hand after the switch to individual play has one 11-card pozzetto per
                # player (which hands those are, the replay decides from the totals, RULES.md §14.3)
                try:
                    deal.check(dataclasses.replace(rules, solo_pair=False))
                except DealError:
                    raise first from None
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


class ReplayError(ActionError):
    """An action of a record that the engine refused, with where it stands: ``hand`` and ``index`` (0-based)."""

    def __init__(self, err: ActionError, hand: int, index: int, action: str) -> None:
        super().__init__(err.msg, action)
        self.kind = err.kind
        self.hand = hand
        self.index = index


def _play(rules: Rules, dealer: int, hands: list[tuple[Deal, list[str]]]) -> tuple[Match, list[Game]]:
    """Play parsed hands; returns the match and the games to report (RECORDS.md §5: every hand with an action,
    and the first one). Raises :class:`ReplayError` at the first refused action."""
    m = Match(rules, dealer)
    reported: list[Game] = []
    for i, (deal, actions) in enumerate(hands):
        if m.is_over or (m.games and not m.game.is_over):
            if actions:
                if not m.is_over:
                    why = f"hand {i - 1} has not ended"
                elif m.timed_out:
                    why = "the match ended with the hand of its time-out (RULES.md §0.1)"
                else:
                    why = "the match is over"
                raise ReplayError(IllegalActionError(f"{actions[0]}: {why}"), i, 0, actions[0])
            continue
        try:
            g = m.start_hand(deal)
        except DealError as e:
            raise RecordError(f"hand {i}: {e}") from e
        for j, text in enumerate(actions):
            try:
                m.apply(text)
            except ActionError as e:
                raise ReplayError(e, i, j, text) from e
        if actions or i == 0:
            reported.append(g)
    return m, reported


def replay_match(record: Any) -> Match:
    """Play a record through the engine and return the match, to continue it (raises RecordError or ReplayError)."""
    return _play(*parse_record(record))[0]


def continue_match(record: Any, seed: int | None = None, *, physical_deal: bool = False) -> Match:
    """The match of a record (RECORDS.md §3), ready to continue: the recorded hands are replayed and the hands
    after them are dealt from ``seed`` (:meth:`Match.deal_for_hand <burraco.match.Match.deal_for_hand>`), so a
    match rebuilt with the seed it was started with goes on exactly as if it had never stopped. Raises
    ``RecordError`` / ``ReplayError`` as :func:`replay_match` does.

    >>> from burraco import Match, preset
    >>> half = Match(preset("italian-2p"), seed=1)
    >>> first = half.start_hand()
    >>> first.apply("N draw")
    >>> again = continue_match(half.to_record(), seed=1)
    >>> again.game.actions == first.actions, again.deal_for_hand(1) == half.deal_for_hand(1)
    (True, True)
    """
    m = replay_match(record)
    m.seed = seed
    m.physical_deal = physical_deal
    return m


def replay(record: Any) -> dict[str, Any]:
    """Replay a record (a dict) and return the JSON-shaped result of RECORDS.md §5."""
    try:
        parsed = parse_record(record)
    except RecordError as e:
        return {"ok": False, "error": "record", "message": str(e)}
    try:
        m, games = _play(*parsed)
    except ReplayError as e:
        return _refused(e.hand, e.index, e.action, e.kind, e.message)
    except RecordError as e:
        return {"ok": False, "error": "record", "message": str(e)}
    return {"ok": True, "hands": [g.result_json() for g in games], **m.summary_json()}


def _refused(hand: int, index: int, action: str, kind: str, message: str) -> dict[str, Any]:
    return {
        "ok": False,
        "hand": hand,
        "action_index": index,
        "action": action,
        "error": kind,
        "message": message,
    }


def unwrap_record(data: dict[str, Any]) -> Any:
    """The record inside ``{"record": …}`` (a line of ``burraco simulate --records``, a conformance case): an
    object without a ``format`` key but with a ``record`` one; any other object is returned as it is."""
    if "format" not in data and "record" in data:
        return data["record"]
    return data


def replay_text(text: str) -> tuple[dict[str, Any], int]:
    """Replay a record given as JSON text: the result and the exit status of ``burraco replay`` (0, 1 or 2).
    A record wrapped as ``{"record": …}`` is replayed too (:func:`unwrap_record`)."""
    try:
        data = unwrap_record(load_record(text))
    except RecordError as e:
        return {"ok": False, "error": "record", "message": str(e)}, 2
    out = replay(data)
    if out["ok"]:
        return out, 0
    return out, 2 if out["error"] == "record" else 1


def json_lines(text: str) -> list[tuple[int, str]] | None:
    """The non-blank lines, numbered from 1, of JSON-lines text (one JSON object per line, two or more lines);
    None for text that is one JSON value, or whose first non-blank line is no JSON object by itself (then it is
    read as one record, with that error).

    >>> json_lines('{"a": 1}\\n\\n{"b": 2}\\n')
    [(1, '{"a": 1}'), (3, '{"b": 2}')]
    >>> json_lines('{\\n "a": 1\\n}') is None, json_lines('{"a": 1}') is None
    (True, True)
    """
    try:
        json.loads(text)
        return None
    except ValueError:
        pass
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if len(lines) < 2:
        return None
    try:
        first = json.loads(lines[0][1])
    except ValueError:
        return None
    return lines if isinstance(first, dict) else None


def replay_lines(text: str) -> tuple[list[dict[str, Any]], int] | None:
    """Replay every record of a JSON-lines text (:func:`json_lines`; each line a record or ``{"record": …}``):
    per line its result, as :func:`replay_text` gives it, with ``line`` (its number, from 1) first, and the exit
    status of ``burraco replay``: the worst of the lines' (2 when a line is no valid record, else 1 when an action
    was refused, else 0). None when the text is not JSON lines: :func:`replay_text` reads it as one record.

    >>> import json
    >>> from burraco import Game, preset
    >>> rec = json.dumps(Game.new(preset("italian"), seed=1).to_record())
    >>> results, status = replay_lines(rec + "\\n" + json.dumps({"game": 1, "record": "no record"}) + "\\n")
    >>> status, [(r["line"], r["ok"]) for r in results], results[1]["message"]
    (2, [(1, True), (2, False)], 'a record must be a JSON object')
    """
    lines = json_lines(text)
    if lines is None:
        return None
    results: list[dict[str, Any]] = []
    status = 0
    for n, line in lines:
        out, st = replay_text(line)
        results.append({"line": n, **out})
        status = max(status, st)
    return results, status


def game_from_record(record: Any) -> Game:
    """The last hand of a record as a live :class:`Game` (to continue an unfinished game)."""
    return replay_match(record).game


__all__ = [
    "continue_match",
    "replay",
    "replay_text",
    "replay_lines",
    "json_lines",
    "unwrap_record",
    "replay_match",
    "parse_record",
    "load_record",
    "RecordError",
    "ReplayError",
    "FORMAT",
]

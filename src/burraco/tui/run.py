"""The entry points behind ``burraco play`` and ``burraco replay FILE --watch`` (the CLI imports this lazily)."""

from __future__ import annotations

import sys
from pathlib import Path

from ..analysis import Analysis, Decision
from ..bots.players import canonical_player
from ..i18n import Translator
from ..record import RecordError, load_record
from ..rules import Rules
from .session import Session, SessionError, engine_message, parse_speed


class PlayError(Exception):
    """A usage error of ``burraco play`` (the message says what is wrong)."""


def player_spec(text: str) -> str:
    """The canonical spelling of a player spec (``hard`` → ``heuristic:hard``, :mod:`burraco.bots.players`); one
    that names no player passes as it is, for the session to refuse in the player's language."""
    try:
        return canonical_player(text)
    except ValueError:
        return text.strip()


def _translator(lang: str | None) -> Translator:
    try:
        return Translator(lang)
    except ValueError as e:  # an unknown language: no language to say it in but English
        raise PlayError(str(e)) from e


def play(
    rules: Rules,
    *,
    partner: str,
    opponents: str,
    seed: int | None,
    lang: str | None,
    plain: bool,
    resume: bool,
    speed: str,
) -> int:
    """Start (or resume) a game and play it in the full-screen table or in plain text (also, saying so, where
    standard input or output is not a terminal); returns the exit status.
    Usage errors (a bad setting, no game to resume, a saved game that cannot be continued) are raised as
    :class:`PlayError` in the player's language. A resumed game is played in the language it was saved in unless
    ``lang`` says another."""
    tr = _translator(lang)
    try:
        delay = parse_speed(speed)
        if resume:
            session = Session.resume()
            if lang is None and session.lang is not None:
                tr = _translator(session.lang)
            intro = tr("tui_resumed", path=str(session.path))
        else:
            session = Session.new(
                rules,
                partner=player_spec(partner),
                opponents=player_spec(opponents),
                seed=seed,
                lang=tr.lang,
            )
            intro = ""
    except SessionError as e:
        raise PlayError(e.text(tr)) from e
    if not plain and not (sys.stdin.isatty() and sys.stdout.isatty()):  # a pipe, a file: no screen to draw on
        print(tr("tui_no_terminal"), file=sys.stderr)
        plain = True
    if plain:
        from .plain import run_plain

        if intro:
            print(intro)
        return run_plain(session, tr, sys.stdin, sys.stdout, delay=delay)
    from .app import PlayApp

    status = PlayApp(session, tr, delay=delay, message=intro).run()
    if not session.match_over and session.path is not None:
        print(tr("tui_saved_at", path=str(session.path)))
    return status or 0


def watch(file: Path, seat: str | None, lang: str | None) -> int:
    """Step through a record on the table (``burraco replay FILE --watch``); returns the exit status."""
    tr = _translator(lang)
    try:
        text = sys.stdin.read() if str(file) == "-" else file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise PlayError(tr("tui_cannot_read", path=str(file), why=str(e))) from e
    from .watch import WatchApp, watch_positions

    try:
        record = load_record(text)
        positions, error = watch_positions(record, tr)
    except (RecordError, ValueError) as e:
        raise PlayError(tr("tui_bad_record", why=engine_message(e))) from e
    if not positions:
        raise PlayError(tr("tui_no_hands_to_watch"))
    seats = positions[0][1].seats
    head = record.get("play")
    name = seat or (str(head.get("human")) if isinstance(head, dict) else seats[0])
    if name.upper() not in seats:
        raise PlayError(tr("tui_bad_seat", seat=name, seats=" ".join(seats)))
    marks: list[Decision] = []
    if isinstance(record, dict) and "analysis" in record:  # annotated by the coach (docs/analysis.md)
        try:
            marks = Analysis.from_json(record["analysis"]).decisions
        except ValueError as e:
            raise PlayError(tr("tui_bad_record", why=str(e))) from e
    WatchApp(positions, tr, seats.index(name.upper()), error, marks).run()
    return 0


__all__ = ["PlayError", "play", "player_spec", "watch"]

"""The moves log of the browser table: :func:`burraco.narrate.narrate` told from each connection's seat (or as a
spectator sees it) and rendered in the connection's language with cards as symbols, on the server, so that the
browser shows the very lines of the terminal table (one implementation).

A seat's own moves are told to it in the second person ("You draw 7♥ from the stock"); a spectator is told every
move in the third person from public information only (a drawn card is never named to him).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import Action
from ..game import Game
from ..messages import LANGS, render
from ..narrate import narrate
from ..view import View

#: lines of the moves log a connection gets at most when it (re)joins: the current hand's
MAX_LINES = 400


def check_lang(lang: object, default: str = "en") -> str:
    """A language a client asked for: one of :data:`burraco.messages.LANGS`, else ``default``."""
    return lang if isinstance(lang, str) and lang in LANGS else default


def viewpoint(seat: int | None) -> tuple[int, int]:
    """The seat whose views tell the story and the seat told as "you": a spectator hears it through seat 0's views
    with nobody as "you" (narrate then uses public facts only)."""
    return (0, -1) if seat is None else (seat, seat)


def lines(before: View, action: Action, after: View, names: Sequence[str], viewer: int, lang: str) -> list[str]:
    """One action's lines in ``lang``, as the seat of the views saw it (``viewer``: told as "you"; -1: nobody)."""
    return [render(m, lang, player=True) for m in narrate(before, action, after, names=names, viewer=viewer)]


def hand_lines(game: Game, seat: int | None, names: Sequence[str], lang: str) -> list[str]:
    """The moves log of ``game`` (the current hand) so far, for a connection at ``seat`` (None: a spectator):
    its actions replayed from the deal."""
    if game.deal is None:
        return []
    at, viewer = viewpoint(seat)
    g = Game(game.rules, game.deal, game.first, check=False)
    out: list[str] = []
    for a in game.actions:
        before = g.view(at)
        g.apply(a)
        out.extend(lines(before, a, g.view(at), names, viewer, lang))
    return out[-MAX_LINES:]


__all__ = ["MAX_LINES", "check_lang", "hand_lines", "lines", "viewpoint"]

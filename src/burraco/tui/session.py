"""A game of ``burraco play``: one human seat against (or with) computer players, saved as it is played.

The session owns the :class:`~burraco.match.Match` (somebody has to run the game), but everything the interfaces
show about a hand in progress comes from :meth:`Session.view`, the human seat's :class:`~burraco.view.View`; the
computer players, too, decide from their own seat's view only (DESIGN.md §2).

Everything is deterministic given the seed: the match deals hand ``i`` from ``(seed, i)``
(:meth:`~burraco.match.Match.deal_for_hand`) and every computer decision gets a fresh player seeded from
``(seed, hand, action index, seat)``. So a game continued from its record
(``--resume``) or rebuilt by a take-back plays on exactly as it would have without the break, and the record of a game
played with breaks equals the record of the same game played in one sitting.

>>> from burraco import preset
>>> s = Session.new(preset("italian-2p"), opponents="heuristic:easy", seed=7, save=False)
>>> s.seat_names, s.human, s.game.seat_name(s.game.current_seat)
(('N', 'S'), 1, 'N')
>>> s.play_computers()                       # North plays his turn; now it is South's (the human's)
>>> s.human_to_act, s.view.phase
(True, 'draw')
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..actions import Action, IllegalActionError
from ..analysis import Analysis, Decision, Progress, analyse
from ..arena import parse_player
from ..bots.hint import Hint, hint
from ..bots.judge import SELECT
from ..game import Game
from ..i18n import Translator
from ..match import Match
from ..messages import Message, MessageError, msg
from ..messages import text as text_message
from ..record import continue_match
from ..rules import Rules, rules_from_json
from ..seats import seat_names
from ..takeback import why_not
from ..view import View
from . import storage
from .movelog import HandLog

#: pace of the computer players' moves: seconds between two moves
SPEEDS = {"instant": 0.0, "fast": 0.3, "normal": 0.8, "slow": 1.6}

#: the version of the ``play`` header of saved games (2: later hands are dealt by ``Match.deal_for_hand``; a
#: version-1 save continues its hand in progress exactly, and deals the hands after it the new way)
HEADER_VERSION = 2

#: computer players that may sit at the table (``cheat`` sees hidden cards: never offered)
DEFAULT_LEVEL = "heuristic:medium"


class SessionError(MessageError):
    """A setting or a saved game that cannot be used: ``err.msg`` is a code of the terminal table's catalogue (its
    parameters may hold an engine :class:`~burraco.messages.Message`), shown in the player's language with
    :meth:`text`; ``str(err)`` is the English text."""

    def text(self, tr: Translator) -> str:
        """The message in ``tr``'s language."""
        return tr.render(self.msg)


def engine_message(e: BaseException) -> Message:
    """An engine error as its :class:`~burraco.messages.Message` (to show in the player's language), else its
    English text as a message (a malformed record's ``RecordError``). A refused action of a record is its reason
    alone: it is told about the record's seat, not to the player reading it (never "you")."""
    if not isinstance(e, MessageError):
        return text_message(str(e))
    reason = e.msg.params.get("reason")
    return reason if e.msg.code == "action_refused" and isinstance(reason, Message) else e.msg


def parse_speed(text: str) -> float:
    """Seconds between two computer moves from ``instant``, ``fast``, ``normal``, ``slow`` or a number."""
    t = text.strip().lower()
    if t in SPEEDS:
        return SPEEDS[t]
    try:
        v = float(t)
    except ValueError as e:
        raise SessionError(msg("tui_bad_pace", pace=text)) from e
    if not 0 <= v <= 30:
        raise SessionError(msg("tui_bad_pace", pace=text))
    return v


def next_speed(delay: float) -> float:
    """The pace after ``delay`` in the cycle instant → fast → normal → slow → instant (a pace set in seconds goes to
    the next slower named one, or back to instant)."""
    values = list(SPEEDS.values())
    return next((v for v in values if v > delay), values[0])


def speed_name(delay: float) -> str | None:
    """``instant``, ``fast``, ``normal`` or ``slow`` for a named pace, None for one set in seconds."""
    return next((k for k, v in SPEEDS.items() if v == delay), None)


def check_player(spec: str) -> str:
    """Check a computer player spec (``heuristic:easy|medium|hard``, ``ismcts[:N|:Ts]``, ``random``)."""
    if spec.strip().lower().startswith("cheat"):
        raise SessionError(msg("tui_cheat_player"))
    try:
        parse_player(spec)
    except ValueError as e:
        raise SessionError(msg("tui_bad_player", spec=spec.strip())) from e
    return spec.strip()


def derive_seed(seed: int, *parts: object) -> int:
    """A 63-bit seed from ``seed`` and ``parts``, the same on every machine and Python version."""
    h = hashlib.blake2b(repr((seed, *parts)).encode(), digest_size=8).digest()
    return int.from_bytes(h, "big") >> 1


@dataclass(frozen=True)
class Seating:
    """Who sits where: the human seat, the partner's player (4 players) and the opponents' player."""

    human: int
    partner: str
    opponents: str


#: sampled deals per decision of the coach at the table: the hint's budget, ``burraco analyse``'s default
#: (docs/analysis.md, "One judgement")
COACH_ITERATIONS = SELECT

def tui_reason(why: Message) -> Message:
    """The terminal table's wording of a reason :func:`burraco.takeback.why_not` gives for a move that cannot be
    taken back (docs/play.md "Taking a move back": the rule is the core's, the same at the browser table)."""
    return {
        "takeback_hand_over": msg("tui_takeback_hand_over"),
        "takeback_other_turn": msg("tui_takeback_not_your_turn"),
        "takeback_nothing": msg("tui_takeback_nothing"),
        "takeback_draw": msg("tui_takeback_draw"),
        "takeback_pick": msg("tui_takeback_pile"),
        "takeback_pozzetto": msg("tui_takeback_pozzetto"),
    }.get(why.code, why)


#: the record's optional top-level key that lists the take-backs used: ``[{"hand": i, "at": action index,
#: "seat": "S"}, …]`` (hand and action counted from 0; ``at`` is the index of the action taken back)
TAKEBACKS_KEY = "takebacks"


class Session:
    """One human against the computer: the match, its players, saving, undo and hints."""

    def __init__(
        self, match: Match, seating: Seating, seed: int, path: Path | None, lang: str | None = None
    ) -> None:
        self.match = match
        self.rules: Rules = match.rules
        self.seating = seating
        self.seed = seed
        self.path = path
        #: the language the game is played in (kept in the saved game, so ``--resume`` speaks it again)
        self.lang = lang
        self.undos = 0
        #: the take-backs used, in the record's form (:data:`TAKEBACKS_KEY`)
        self.takebacks: list[dict[str, Any]] = []
        #: the last answer of :meth:`takeback_refusal`, by the state it was given for (the screen asks often)
        self._refusal: tuple[tuple[int, int, int], Message | None] | None = None
        #: the coach's judgements of the human's decisions, by hand (kept in the saved game: the replay shows them)
        self.coached: dict[int, list[Decision]] = {}
        self._coaching = threading.Lock()
        #: sampled deals per decision of the coach
        self.coach_iterations = COACH_ITERATIONS
        self.started = time.strftime("%Y-%m-%dT%H:%M:%S")
        #: the moves of the current hand as the human seat saw them
        self.log = HandLog(seating.human, seats=match.seats)
        if match.games:
            self.log = HandLog.of_game(match.game, seating.human)

    # ----- creation ---------------------------------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        rules: Rules,
        *,
        partner: str = DEFAULT_LEVEL,
        opponents: str = DEFAULT_LEVEL,
        seed: int | None = None,
        save: bool = True,
        lang: str | None = None,
    ) -> Session:
        """A new match (the human sits South; West deals the first hand, so North plays first; with three, five
        and six players he sits in the middle of the seat letters, B, C or D, and the last seat deals), played in
        ``lang``."""
        if seed is None:  # 128 bits from the OS: the deals of a person's game must be unguessable (docs/fairness.md)
            seed = secrets.randbits(128)
        seating = Seating(
            human=rules.players // 2,
            partner=check_player(partner),
            opponents=check_player(opponents),
        )
        path = storage.new_game_path(seed) if save else None
        s = cls(Match(rules, seed=seed), seating, seed, path, lang)
        s._deal()
        s.save()
        return s

    @classmethod
    def from_record(cls, record: dict[str, Any], path: Path | None) -> Session:
        """Continue a saved game (a record with its ``play`` header) exactly where it stopped."""
        head = record.get("play")
        if not isinstance(head, dict):
            raise SessionError(msg("tui_not_play_record"))
        try:
            seed = int(head["seed"])
            rules = rules_from_json(record.get("rules", "italian"))
            seats = seat_names(rules.players)
            seating = Seating(
                human=seats.index(str(head["human"])),
                partner=check_player(str(head.get("partner", DEFAULT_LEVEL))),
                opponents=check_player(str(head["opponents"])),
            )
            match = continue_match(record, seed)
        except (KeyError, TypeError, ValueError) as e:
            raise SessionError(msg("tui_cannot_continue", why=engine_message(e))) from e
        lang = head.get("lang")
        s = cls(match, seating, seed, path, str(lang) if isinstance(lang, str) else None)
        s.undos = int(head.get("undos", 0))
        s.takebacks = takebacks_of(record, seats)
        if "analysis" in record:
            try:
                for d in Analysis.from_json(record["analysis"]).decisions:
                    s.coached.setdefault(d.hand, []).append(d)
            except ValueError:
                pass  # an analysis this version cannot read: the game goes on without it
        s.started = str(head.get("started", s.started))
        return s

    @classmethod
    def resume(cls) -> Session:
        """The last unfinished saved game (raises :class:`SessionError` when there is none)."""
        saved = storage.last_unfinished()
        if saved is None:
            raise SessionError(msg("tui_no_unfinished", path=str(storage.games_dir())))
        return cls.from_record(saved.record, saved.path)

    # ----- state --------------------------------------------------------------------------------------------------
    @property
    def game(self) -> Game:
        """The current hand (the full state: interfaces show :attr:`view` instead)."""
        return self.match.game

    @property
    def human(self) -> int:
        return self.seating.human

    @property
    def seat_names(self) -> tuple[str, ...]:
        return self.match.seats

    @property
    def view(self) -> View:
        """What the human seat may know, with the match totals before this hand."""
        return self.match.view(self.human)

    @property
    def hand_over(self) -> bool:
        return self.game.is_over

    @property
    def match_over(self) -> bool:
        return self.match.is_over

    @property
    def human_to_act(self) -> bool:
        return not self.game.is_over and self.game.current_seat == self.human

    @property
    def computer_to_act(self) -> bool:
        return not self.game.is_over and self.game.current_seat != self.human

    def player_spec(self, seat: int) -> str | None:
        """The computer player at ``seat`` (None for the human): the partner's level for a seat of the human's
        side as the sides stand (with three and five players a pair forms during the hand, RULES.md §14.3), the
        opponents' for the others."""
        if seat == self.human:
            return None
        g = self.game
        if g.side_of_seat[seat] == g.side_of_seat[self.human]:
            return self.seating.partner
        return self.seating.opponents

    def hand_index(self) -> int:
        return len(self.match.games) - 1

    # ----- playing ------------------------------------------------------------------------------------------------
    def choose_computer(self) -> Action:
        """The move of the computer player to act, from its own view (does not change anything)."""
        g = self.game
        seat = g.current_seat
        spec = self.player_spec(seat)
        if g.is_over or spec is None:
            raise IllegalActionError("no computer player is to act")
        player = parse_player(spec)(derive_seed(self.seed, "player", self.hand_index(), len(g.actions), seat))
        return player.choose(self.match.view(seat), g.legal_actions())

    def apply(self, action: Action | str) -> None:
        """Play ``action`` (the engine refuses an illegal one with its message, changing nothing), log it and save."""
        before = self.view
        self.match.apply(action)
        self.log.add(before, self.game.actions[-1], self.view)
        self.save()

    def play_human(self, action: Action | str) -> None:
        """Play an action of the human seat (refused with IllegalActionError when it is not his turn)."""
        self._check_turn()
        self.apply(action)

    def _check_turn(self) -> None:
        """Refuse (with the engine's message) when it is not the human's turn."""
        if self.game.is_over:
            raise IllegalActionError(msg("hand_over", end=self.game.end or ""))
        if not self.human_to_act:
            seat, turn = self.seat_names[self.human], self.game.seat_name(self.game.current_seat)
            raise IllegalActionError(msg("not_your_turn", turn=turn, seat=seat))

    def call_timeout(self) -> None:
        """The director's time-out (RULES.md §9.4), called at the terminal table by the player, who stands in for
        the director: the last round is played and the match ends with this hand (§0.1 "The time-out ends the
        match"). The engine refuses it (IllegalActionError) where the rules have no time-outs (a free game) or it
        was called in this hand already."""
        if self.game.is_over:
            raise IllegalActionError(msg("hand_over", end=self.game.end or ""))
        self.apply(Action.timeout())

    def play_computers(self, on_move: Callable[[Action], None] | None = None) -> None:
        """Let the computer players move until it is the human's turn or the hand is over."""
        while self.computer_to_act:
            a = self.choose_computer()
            self.apply(a)
            if on_move is not None:
                on_move(a)

    def next_hand(self) -> Game:
        """Deal the next hand once the current one has ended (and the match has not)."""
        if not self.game.is_over:
            raise IllegalActionError(msg("hand_not_ended"))
        if self.match.is_over:
            raise IllegalActionError(msg("match_over"))
        g = self._deal()
        self.save()
        return g

    def _deal(self) -> Game:
        g = self.match.start_hand()
        self.log = HandLog(self.human, seats=self.seat_names)
        return g

    def hint(self, level: str = "hard") -> Hint:
        """What the heuristic would play now from the human's view, with its reason."""
        self._check_turn()
        return hint(self.view, level, self.game.legal_actions())

    def takeback_refusal(self) -> Message | None:
        """Why the human's last move cannot be taken back now (a message of the terminal table's catalogue), or
        None when it can: the rule is :func:`burraco.takeback.why_not` (only a meld, an attachment or a swap of his
        turn in progress that took no pozzetto, so that a take-back never shows him a card he could not otherwise
        see)."""
        g = self.game
        key = (self.hand_index(), len(g.actions), id(g))
        if self._refusal is None or self._refusal[0] != key:
            why = why_not(g, self.human)
            self._refusal = (key, None if why is None else tui_reason(why))
        return self._refusal[1]

    def can_undo(self) -> bool:
        """Whether the human's last move can be taken back now (:meth:`takeback_refusal` says why not)."""
        return self.takeback_refusal() is None

    def undo(self) -> None:
        """Take back the human's last move (:meth:`takeback_refusal` must allow it, else IllegalActionError with
        its reason): rebuild the match from its record without that action, and note the take-back in the record
        (:data:`TAKEBACKS_KEY`)."""
        why = self.takeback_refusal()
        if why is not None:
            raise IllegalActionError(why)
        h, j = self.hand_index(), len(self.game.actions) - 1
        rec = self.match.to_record()
        rec["hands"][h]["actions"] = rec["hands"][h]["actions"][:j]
        self.match = continue_match(rec, self.seed)
        self.log = HandLog.of_game(self.game, self.human)
        self.undos += 1
        self.takebacks.append({"hand": h, "at": j, "seat": self.seat_names[self.human]})
        self.save()

    # ----- the coach ----------------------------------------------------------------------------------------------
    def coach(self, hand: int, progress: Progress | None = None) -> list[Decision]:
        """The coach's judgement of the human's decisions in ``hand`` (a hand that has ended), from his view at
        each one (:func:`burraco.analysis.analyse`, :attr:`coach_iterations` sampled deals each, seeded by the
        game's seed: the same every time); kept in the saved game. ``progress(done, total)`` follows it."""
        with self._coaching:  # one analysis at a time (a page closed and opened again waits for the first)
            if hand in self.coached:
                return self.coached[hand]
            res = analyse(
                self.match.to_record(),
                [self.seat_names[self.human]],
                iterations=self.coach_iterations,
                seed=derive_seed(self.seed, "coach", hand) % 1_000_000,
                progress=progress,
                hands=[hand],
            )
            self.coached[hand] = res.decisions
            self.save()
            return res.decisions

    def _is_human(self, a: Action) -> bool:
        return a.seat == self.seat_names[self.human]

    # ----- saving -------------------------------------------------------------------------------------------------
    def record(self) -> dict[str, Any]:
        """The match record (RECORDS.md §3) with the ``play`` header that lets ``--resume`` continue it."""
        rec = self.match.to_record()
        if self.takebacks:
            rec[TAKEBACKS_KEY] = [dict(t) for t in self.takebacks]
        rec["play"] = {
            "version": HEADER_VERSION,
            "human": self.seat_names[self.human],
            "partner": self.seating.partner,
            "opponents": self.seating.opponents,
            "seed": self.seed,
            "finished": self.match.is_over,
            "undos": self.undos,
            **({"lang": self.lang} if self.lang else {}),
            "started": self.started,
            "updated": time.time(),
        }
        if self.coached:
            decisions = [d for k in sorted(self.coached) for d in self.coached[k]]
            me = (self.seat_names[self.human],)
            done = Analysis(self.rules.name, me, self.coach_iterations, 0, decisions)
            rec["analysis"] = done.to_json()
        return rec

    def save(self) -> None:
        if self.path is not None:
            storage.write_record(self.path, self.record())


def takebacks_of(record: dict[str, Any], seats: tuple[str, ...]) -> list[dict[str, Any]]:
    """The take-backs a record lists (:data:`TAKEBACKS_KEY`), each checked (a hand and an action index from 0, a
    seat of the record); none where the key is absent. Raises :class:`SessionError` for a malformed list."""
    got = record.get(TAKEBACKS_KEY, [])
    out: list[dict[str, Any]] = []
    ok = isinstance(got, list)
    for t in got if ok else ():
        if not (
            isinstance(t, dict)
            and isinstance(t.get("hand"), int)
            and isinstance(t.get("at"), int)
            and t["hand"] >= 0
            and t["at"] >= 0
            and t.get("seat") in seats
        ):
            ok = False
            break
        out.append({"hand": t["hand"], "at": t["at"], "seat": t["seat"]})
    if not ok:
        raise SessionError(msg("tui_cannot_continue", why=text_message(f"'{TAKEBACKS_KEY}' is not a list of take-backs")))
    return out


__all__ = [
    "COACH_ITERATIONS",
    "DEFAULT_LEVEL",
    "SPEEDS",
    "TAKEBACKS_KEY",
    "tui_reason",
    "Seating",
    "Session",
    "SessionError",
    "check_player",
    "derive_seed",
    "engine_message",
    "next_speed",
    "parse_speed",
    "speed_name",
    "takebacks_of",
]

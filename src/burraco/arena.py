"""Duplicate matches between two computer players (the engine of ``burraco arena``).

Every deal is played twice with the same cards and the same first seat: once with player A on NS (seats 0 and 2;
seat 0 with two players) and once with A on EW, so the luck of the cards cancels. Per deal the result is A's total
over both games minus B's total.

With 3, 5 and 6 players the deal is played once per *place* — every seat with 3 and 5 players (each keeps his own
total, RULES.md §14.3), every pair with 6 — with A in that place and B in all the others, so that over the deal A
has sat everywhere once, as every B place has: per game A's points are set against the mean of the B places, and
the deal's result is the sum over its games (fractional where B holds several places). The match figures, a
resampling of two sides' hands, are ``None`` there.

>>> from burraco import preset
>>> r = play_duplicate(preset("italian-2p"), parse_player("random"), parse_player("random"), deals=1, seed=1)
>>> r["deals"], len(r["diffs"])
(1, 1)

Players are made by :func:`~burraco.bots.players.parse_player` (importable from here too, with
:data:`~burraco.bots.players.PlayerFactory`) from a player spec in any spelling of ``burraco players``. Long runs go
through :func:`run_arena`, which names the players by their canonical spec strings (so that worker processes can
rebuild them), spreads deals over processes and saves its progress to a JSON file
after every finished deal, so that a run may span several sittings. Deal ``i`` is played the same way whichever
process plays it and whenever, so the figures do not depend on the number of workers or on interruptions
(timings aside).

Match figures: ``match_win_rate`` estimates A's chance of winning a whole match to the preset's target (or over
its fixed number of hands) by resampling: a match is simulated by drawing single hands with replacement from the
games played (each game gives one hand's score for A and for B; the two games of a deal are two hands) and adding
them up until a side reaches the target, with the engine's rule that an exact tie at or above the target plays
another hand; a match still running after :data:`MATCH_MAX_HANDS` hands goes to the higher total. It uses a fixed
number of simulated matches and a generator seeded from the run's seed, so it is reproducible. It ignores the
uncertainty of the per-hand figures themselves; ``match_win_rate_ci95`` (and ``match_mean_diff_ci95`` for the
final score difference of a match) add it by a bootstrap over whole deals (:func:`match_intervals`). A bootstrap
over a handful of deals is no interval (four deals all won give 100 … 100 %), so below
:data:`MATCH_CI_MIN_DEALS` deals both are ``None`` (``burraco arena`` says "too few deals").

Intervals at small numbers of deals stay honest: the deal win rate's is Wilson's (:func:`wilson`), the mean
difference's uses Student's t with ``deals - 1`` degrees of freedom (:func:`t95`), and is ``None`` for one deal.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import math
import operator
import os
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .bots.base import Player
from .bots.players import PlayerFactory as PlayerFactory  # re-exported: the arena's players
from .bots.players import canonical_player
from .bots.players import parse_player as parse_player
from .deal import Deal, deal_from_seed
from .files import write_json_atomic
from .game import Game
from .match import hand_points
from .rules import Rules, rules_to_json
from .seats import initial_sides
from .state import fields_of

#: a hand still running after this many actions is a bug in a player or the engine
MAX_ACTIONS = 20_000

#: simulated matches behind ``match_win_rate``
MATCH_SAMPLES = 4000

#: bootstrap replicates behind the match intervals
MATCH_BOOT_REPLICATES = 200
#: simulated matches in each bootstrap replicate
MATCH_BOOT_SAMPLES = 400

#: a simulated match still running after this many hands goes to the higher total
MATCH_MAX_HANDS = 200

#: fewer deals than this give no match intervals (a bootstrap over a few deals only repeats them)
MATCH_CI_MIN_DEALS = 20

#: the version of the progress file written by :func:`run_arena`
SAVE_VERSION = 1

#: the message shown when ``--plot`` is asked for without matplotlib
PLOT_INSTALL_HINT = 'plotting needs matplotlib: pip install "burraco[plot]"'


class ArenaError(Exception):
    """A progress file that cannot be used, or a plot that cannot be drawn (the message says why)."""


def player_seed(seed: int, deal: int, game: int, seat: int) -> int:
    """The seed of the player at ``seat`` in game ``game`` (0 or 1) of deal ``deal``: distinct and reproducible."""
    return ((seed * 1_000_003 + deal) * 2 + game) * 8 + seat


def sees_state(make: PlayerFactory) -> bool:
    """Whether the players ``make`` makes receive the true game instead of their seat's view (``needs_state``, the
    ``cheat`` search): every result that involves them says so (``a_sees_state``, ``b_sees_state``)."""
    return bool(getattr(make(0), "needs_state", False))


#: the parts of :func:`state_key`, named for the error that says what a player changed
_STATE_PARTS = (
    "hands", "hand sizes", "stock", "discard pile", "pozzetti", "pozzetti taken", "order the pozzetti were taken",
    "seats that took the pozzetti", "pozzetti not yet seen", "pozzetti pending", "melds", "cards seen picked up",
    "cards on the table", "turn state", "sides", "actions", "deal", "rules", "seats",
)  # fmt: skip


_RULES_FIELDS = operator.attrgetter(*(f.name for f in dataclasses.fields(Rules)))
_DEAL_FIELDS = operator.attrgetter(*(f.name for f in dataclasses.fields(Deal)))


def state_key(game: Game) -> tuple[Any, ...]:
    """Every field of ``game``'s state as one comparable value (the native core's layout of the state,
    :func:`~burraco.state.fields_of`, with the actions played, the deal, every field of the rules and the seats):
    two keys are equal exactly when the states are (every field of :data:`~burraco.state.STATE_FIELDS`). Compared
    whole rather than through a hash, so that no collision can hide a change; about 10 µs."""
    d = game.deal
    return (
        *fields_of(game),
        tuple(game.actions),
        None if d is None else (d, _DEAL_FIELDS(d)),
        (game.rules, _RULES_FIELDS(game.rules)),
        (game.n, game.seats, game.side_seats, game.sides),
    )


def state_changes(before: tuple[Any, ...], after: tuple[Any, ...]) -> list[str]:
    """The names of the parts of the state (:func:`state_key`) that differ."""
    return [name for name, x, y in zip(_STATE_PARTS, before, after, strict=True) if x != y]


def play_game(
    rules: Rules,
    game: Game,
    players: list[Player],
    a_seats: set[int],
    clock: list[float],
    moves: list[int],
    dets: list[int] | None = None,
) -> None:
    """Play ``game`` to its end; time every decision into ``clock[0]`` (A) or ``clock[1]`` (B). ``dets``: for a
    timed search player (one with a time budget and no fixed number of iterations), the determinizations its
    searches ran and the searches (decisions with two candidates or more) are added to ``dets[0]``, ``dets[1]`` (A)
    or ``dets[2]``, ``dets[3]`` (B): what load took from it shows there.

    A player decides from its seat's view; one that declares ``needs_state`` (the ``cheat`` search: measurement
    only) gets a copy of the true game. After every decision the state is compared with what it was before
    (:func:`state_key`): a player that changed the game (through something it was handed, or any other way) stops
    the run with :class:`ArenaError`, which says who and what."""
    n = 0
    while game.end is None:
        seat = game.current_seat
        legal = game.legal_actions()
        view = game.view(seat)
        who = 0 if seat in a_seats else 1
        before = state_key(game)
        t0 = time.perf_counter()
        p = players[seat]
        if getattr(p, "needs_state", False):  # the cheating reference: measurement only
            a = p.choose_with_state(game.clone(), legal)  # type: ignore[attr-defined]
        else:
            a = p.choose(view, legal)
        clock[who] += time.perf_counter() - t0
        if dets is not None and timed_search(p):
            ran = int(getattr(p, "last_iterations", 0))
            if ran > 0:
                dets[2 * who] += ran
                dets[2 * who + 1] += 1
        after = state_key(game)
        if after != before:
            raise ArenaError(
                f"player {'AB'[who]} ({getattr(p, 'name', type(p).__name__)}) at seat {game.seat_name(seat)} "
                f"changed the game while choosing its move (action {n + 1} of the hand): "
                f"{', '.join(state_changes(before, after))} differ; the run stops, its results would not be fair"
            )
        moves[who] += 1
        game.apply(a)
        n += 1
        if n > MAX_ACTIONS:
            raise RuntimeError(f"a hand ran past {MAX_ACTIONS} actions")


def timed_search(p: Any) -> bool:
    """Whether ``p`` searches for a time budget (its determinizations per decision depend on the machine)."""
    return getattr(p, "iterations", 0) is None and hasattr(p, "last_iterations") and hasattr(p, "time_budget")


def play_deal(
    rules: Rules, make_a: PlayerFactory, make_b: PlayerFactory, seed: int, deal: int
) -> dict[str, Any]:
    """Play duplicate deal number ``deal`` of the run seeded ``seed``; return its JSON-able record.

    The record holds ``deal``, ``diff`` (A's total over the deal's games minus B's), ``games`` (per game:
    ``[A's total, B's total, how the hand ended]``; with more than two places B's is the mean of its places),
    ``a_moves``, ``b_moves``, ``a_s`` and ``b_s`` (seconds spent deciding), ``s`` (seconds to play the deal) and,
    for a timed search, ``a_dets``/``b_dets`` and ``a_searches``/``b_searches`` (its determinizations and the
    decisions it searched: :func:`play_game`)."""
    t_start = time.perf_counter()
    n = rules.players
    first = (n - 1 + rules.direction) % n  # the dealer is the last seat, as in Game.new
    places = initial_sides(n)  # NS/EW; every seat with 2, 3 and 5 players; the three pairs with 6
    clock = [0.0, 0.0]
    moves = [0, 0]
    dets = [0, 0, 0, 0]
    cards = deal_from_seed(rules, random.Random(seed * 1_000_003 + deal))
    games: list[list[Any]] = []
    for g_i, a_place in enumerate(places):  # A on NS first, then on EW (or in every place in turn)
        a_seats = set(a_place)
        players: list[Player] = [
            (make_a if s in a_seats else make_b)(player_seed(seed, deal, g_i, s)) for s in range(n)
        ]
        g = Game(rules, cards, first, check=False)
        try:
            play_game(rules, g, players, a_seats, clock, moves, dets)
        except ArenaError as e:
            raise ArenaError(f"deal {deal}, game {g_i + 1}: {e}") from e
        pts = hand_points(g)  # per place: its side's total (2, 4, 6 players) or its player's (3, 5)
        others = [p for i, p in enumerate(pts) if i != g_i]
        b_pts: float = others[0] if len(others) == 1 else sum(others) / len(others)
        games.append([pts[g_i], b_pts, g.end or "?"])
    diff = sum(x[0] for x in games) - sum(x[1] for x in games)
    return {
        "deal": deal,
        "diff": diff,
        "games": games,
        "a_moves": moves[0],
        "b_moves": moves[1],
        "a_s": clock[0],
        "b_s": clock[1],
        "s": time.perf_counter() - t_start,
        "a_dets": dets[0],
        "a_searches": dets[1],
        "b_dets": dets[2],
        "b_searches": dets[3],
    }


def match_win_rate(rules: Rules, hands: Sequence[tuple[int, int]], seed: int = 0) -> tuple[float, float]:
    """A's estimated chance of winning a match, and the mean number of hands per match, from single-hand scores
    ``(A, B)`` (see the module's notes). Ties count half; an empty sample gives ``(0.5, 0.0)``."""
    wins, hands_per_match, _ = _matches(rules, hands, random.Random(seed * 7_919 + 17), MATCH_SAMPLES)
    return wins, hands_per_match


def _matches(
    rules: Rules, hands: Sequence[tuple[int, int]], rng: random.Random, samples: int
) -> tuple[float, float, float]:
    """Simulate ``samples`` matches from the pool ``hands``: (A's win share, mean hands, mean final A - B)."""
    if not hands:
        return 0.5, 0.0, 0.0
    target = rules.target
    fixed = rules.hands_per_match
    k = len(hands)
    wins = 0.0
    played = 0
    margin = 0
    for _ in range(samples):
        ta = tb = 0
        h = 0
        while h < MATCH_MAX_HANDS:
            a, b = hands[rng.randrange(k)]
            ta += a
            tb += b
            h += 1
            if fixed is not None and h >= fixed:
                break
            if target is not None and max(ta, tb) >= target and (ta != tb or fixed is not None):
                break
        played += h
        margin += ta - tb
        wins += 1.0 if ta > tb else 0.5 if ta == tb else 0.0
    return wins / samples, played / samples, margin / samples


def match_intervals(
    rules: Rules, deal_hands: Sequence[Sequence[tuple[int, int]]], seed: int = 0
) -> tuple[list[float], list[float]] | None:
    """95 % bootstrap intervals of A's match win rate and of the mean final score difference of a match, or None
    for fewer than :data:`MATCH_CI_MIN_DEALS` deals.

    ``deal_hands`` holds the hands of each duplicate deal (its two games); a replicate resamples whole deals with
    replacement (so the uncertainty of the per-hand figures counts, and the two seatings of a deal stay together)
    and simulates :data:`MATCH_BOOT_SAMPLES` matches from them."""
    k = len(deal_hands)
    if k < MATCH_CI_MIN_DEALS:
        return None
    rng = random.Random(seed * 7_919 + 29)
    rates: list[float] = []
    diffs: list[float] = []
    for _ in range(MATCH_BOOT_REPLICATES):
        pool = [h for _ in range(k) for h in deal_hands[rng.randrange(k)]]
        w, _, m = _matches(rules, pool, rng, MATCH_BOOT_SAMPLES)
        rates.append(w)
        diffs.append(m)
    rates.sort()
    diffs.sort()
    lo = int(0.025 * MATCH_BOOT_REPLICATES)
    hi = int(0.975 * MATCH_BOOT_REPLICATES) - 1
    return [rates[lo], rates[hi]], [diffs[lo], diffs[hi]]


#: the 97.5 % quantiles of Student's t for 1 … 30 degrees of freedom
_T975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip


def t95(df: int) -> float:
    """The two-sided 95 % quantile of Student's t with ``df`` ≥ 1 degrees of freedom (to three decimals; a
    Cornish-Fisher expansion beyond 30).

    >>> t95(1), t95(9), round(t95(100), 3), round(t95(10**9), 3)
    (12.706, 2.262, 1.984, 1.96)
    """
    if df < 1:
        raise ValueError(f"Student's t needs at least 1 degree of freedom, not {df}")
    if df <= len(_T975):
        return _T975[df - 1]
    z = 1.959964
    return (
        z
        + (z**3 + z) / (4 * df)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3)
    )


def wilson(wins: float, n: int) -> list[float]:
    """The 95 % Wilson score interval of a proportion ``wins / n`` (ties counted as half a win)."""
    if n == 0:
        return [0.0, 1.0]
    z = 1.96
    p = wins / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return [max(0.0, mid - half), min(1.0, mid + half)]


def summarize(rules: Rules, seed: int, records: Sequence[dict[str, Any]], seconds: float) -> dict[str, Any]:
    """The figures of a run from its per-deal records (as :func:`play_deal` returns them, any order) and its wall
    time in seconds. ``ci95`` (the mean difference's interval) is ``None`` for one deal, the match intervals for
    fewer than :data:`MATCH_CI_MIN_DEALS`."""
    recs = sorted(records, key=lambda x: int(x["deal"]))
    diffs: list[float] = [x["diff"] for x in recs]
    k = len(diffs)
    mean = sum(diffs) / k if k else 0.0
    ci95: list[float] | None = None  # no interval from one deal
    sd = 0.0
    if k > 1:
        sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (k - 1))
        half = t95(k - 1) * sd / math.sqrt(k)
        ci95 = [mean - half, mean + half]
    wins = sum(1.0 if d > 0 else 0.5 if d == 0 else 0.0 for d in diffs)
    hands = [(g[0], g[1]) for x in recs for g in x["games"]]
    ends: dict[str, int] = {}
    for x in recs:
        for g in x["games"]:
            ends[str(g[2])] = ends.get(str(g[2]), 0) + 1
    a_moves = sum(int(x["a_moves"]) for x in recs)
    b_moves = sum(int(x["b_moves"]) for x in recs)
    a_s = sum(float(x["a_s"]) for x in recs)
    b_s = sum(float(x["b_s"]) for x in recs)
    play_s = sum(float(x["s"]) for x in recs)
    # a timed search's determinizations per searched decision (None: no timed search; older records: none kept)
    per_dec: dict[str, float | None] = {}
    for side in "ab":
        ran = sum(int(x.get(f"{side}_dets", 0)) for x in recs)
        searched = sum(int(x.get(f"{side}_searches", 0)) for x in recs)
        per_dec[side] = ran / searched if searched else None
    two_sides = len(initial_sides(rules.players)) == 2
    mwr: float | None = None
    mhands: float | None = None
    mdiff: float | None = None
    m_ci: list[float] | None = None
    mdiff_ci: list[float] | None = None
    if two_sides:  # a match between two sides, resampled from their hands (see the module's notes)
        pairs = [(int(a), int(b)) for a, b in hands]
        mwr, mhands, mdiff = _matches(rules, pairs, random.Random(seed * 7_919 + 17), MATCH_SAMPLES)
        intervals = match_intervals(rules, [[(int(g[0]), int(g[1])) for g in x["games"]] for x in recs], seed)
        m_ci, mdiff_ci = intervals if intervals is not None else (None, None)
    return {
        "rules": rules.name,
        "players": rules.players,
        "seed": seed,
        "deals": k,
        "a_win_rate": wins / k if k else 0.0,
        "a_win_rate_ci95": wilson(wins, k),
        "mean_diff": mean,
        "sd_diff": sd,
        "ci95": ci95,
        "a_mean_score": sum(h[0] for h in hands) / len(hands) if hands else 0.0,
        "b_mean_score": sum(h[1] for h in hands) / len(hands) if hands else 0.0,
        "match_target": rules.target,
        "match_fixed_hands": rules.hands_per_match,
        "match_win_rate": mwr,
        "match_win_rate_ci95": m_ci,
        "match_mean_diff": mdiff,
        "match_mean_diff_ci95": mdiff_ci,
        "match_mean_hands": mhands,
        "a_ms_per_move": 1000.0 * a_s / a_moves if a_moves else 0.0,
        "b_ms_per_move": 1000.0 * b_s / b_moves if b_moves else 0.0,
        "decisions_per_s": (a_moves + b_moves) / play_s if play_s > 0 else 0.0,
        "a_dets_per_decision": per_dec["a"],
        "b_dets_per_decision": per_dec["b"],
        "a_moves": a_moves,
        "b_moves": b_moves,
        "ends": ends,
        "seconds": round(seconds, 3),
        "diffs": diffs,
    }


def play_duplicate(
    rules: Rules,
    make_a: PlayerFactory,
    make_b: PlayerFactory,
    deals: int,
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play ``deals`` duplicate deals between A and B in this process; return the figures as a JSON-able dict."""
    t_start = time.perf_counter()
    records: list[dict[str, Any]] = []
    for i in range(deals):
        records.append(play_deal(rules, make_a, make_b, seed, i))
        if progress:
            progress(1)
    out = summarize(rules, seed, records, time.perf_counter() - t_start)
    return out | who_saw_what(make_a, make_b)


def who_saw_what(make_a: PlayerFactory, make_b: PlayerFactory) -> dict[str, bool]:
    """``a_sees_state`` and ``b_sees_state``: whether player A, B received the true game (:func:`sees_state`)."""
    return {"a_sees_state": sees_state(make_a), "b_sees_state": sees_state(make_b)}


def state_note(data: dict[str, Any]) -> str | None:
    """The warning every result of a run with a player that saw the true game carries (None for a fair run):
    ``"A sees every hidden card (it receives the true game, not its view)"``."""
    who = [x for x in ("a", "b") if data.get(f"{x}_sees_state")]
    if not who:
        return None
    names = " and ".join(x.upper() for x in who)
    verb = "see" if len(who) > 1 else "sees"
    return f"{names} {verb} every hidden card (the true game, not a view): not a fair comparison"


# --- runs over processes, saved to a file -----------------------------------------------------------------------

_WORKER: dict[str, Any] = {}


def _init_worker(rules: Rules, a: str, b: str, seed: int) -> None:
    _WORKER.update(rules=rules, make_a=parse_player(a), make_b=parse_player(b), seed=seed)


def _worker_deal(deal: int) -> dict[str, Any]:
    w = _WORKER
    return play_deal(w["rules"], w["make_a"], w["make_b"], w["seed"], deal)


_RECORD_KEYS = ("deal", "diff", "games", "a_moves", "b_moves", "a_s", "b_s", "s")


def _params(rules: Rules, a: str, b: str, seed: int) -> dict[str, Any]:
    return {"rules": rules_to_json(rules), "a": a, "b": b, "seed": seed}


def load_progress(
    path: Path, rules: Rules, a: str, b: str, seed: int
) -> tuple[dict[int, dict[str, Any]], float]:
    """The finished deals (by index) and the seconds already spent, from a progress file written by
    :func:`run_arena` with the same rules, players (``a`` and ``b`` in their canonical spelling,
    :func:`~burraco.bots.players.canonical_player`) and seed; :class:`ArenaError` otherwise."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ArenaError(f"cannot read the progress file {path}: {e}") from e
    if (
        not isinstance(data, dict)
        or data.get("version") != SAVE_VERSION
        or not isinstance(data.get("params"), dict)
    ):
        raise ArenaError(f"{path} is not an arena progress file (version {SAVE_VERSION})")
    saved = dict(data["params"])
    saved.pop("deals", None)
    for key in ("a", "b"):  # a file written before specs were saved in their canonical spelling
        try:
            saved[key] = canonical_player(str(saved[key]))
        except (KeyError, ValueError):
            pass
    want = _params(rules, a, b, seed)
    if saved != want:
        changed = ", ".join(
            f"{key}: file {saved.get(key)!r}, now {want[key]!r}"
            for key in want
            if saved.get(key) != want[key]
        )
        raise ArenaError(
            f"{path} was made with other parameters ({changed}); "
            "use the same --a, --b, --rules, --players and --seed, or another file"
        )
    try:
        done = {int(x["deal"]): x for x in data.get("results", [])}
        for x in done.values():
            for key in _RECORD_KEYS:
                if key not in x:
                    raise KeyError(f"deal {x['deal']} has no {key!r}")
        seconds = float(data.get("seconds", 0.0))
    except Exception as e:  # a hand-edited or truncated file
        raise ArenaError(f"{path} is damaged: {e}") from e
    return done, seconds


def run_arena(
    rules: Rules,
    a: str,
    b: str,
    deals: int,
    seed: int = 0,
    *,
    workers: int = 1,
    save: Path | str | None = None,
    resume: bool = True,
    progress: Callable[[int], None] | None = None,
    ray: str | None = None,
) -> dict[str, Any]:
    """Play ``deals`` duplicate deals between the players named ``a`` and ``b`` (player specs in any spelling of
    :data:`burraco.bots.players.SPELLINGS`; the progress file and the figures name them canonically).

    ``ray``: play the deals as tasks on a Ray cluster at this address (``"local"``: start one here; needs
    ``burraco[ray]``), with the same figures.

    ``workers`` > 1 spreads the deals over that many processes (0: one per CPU); the figures are the same as with
    one. With ``save``, progress is written there (atomically) after every finished deal; if the file exists and
    ``resume`` is true, the deals it holds are not played again (it must have been made with the same rules,
    players and seed, else :class:`ArenaError`); if it exists and ``resume`` is false, :class:`ArenaError`.
    ``progress`` is called with the number of deals done, including those taken from the file."""
    a, b = canonical_player(a), canonical_player(b)  # fail early on a bad spec; one spelling in the file
    make_a, make_b = parse_player(a), parse_player(b)
    if workers <= 0:
        workers = os.cpu_count() or 1
    path = Path(save) if save is not None else None
    done: dict[int, dict[str, Any]] = {}
    earlier = 0.0
    if path is not None and path.exists():
        if not resume:
            raise ArenaError(f"{path} already exists: continue it with --resume, or remove it")
        done, earlier = load_progress(path, rules, a, b, seed)
    todo = [i for i in range(deals) if i not in done]
    have = deals - len(todo)
    if progress and have:
        progress(have)
    t_start = time.perf_counter()

    def save_now() -> None:
        if path is None:
            return
        params = {**_params(rules, a, b, seed), "deals": max(deals, max(done, default=-1) + 1)}
        write_json_atomic(
            path,
            {
                "version": SAVE_VERSION,
                "params": params,
                "seconds": earlier + time.perf_counter() - t_start,
                "results": [done[i] for i in sorted(done)],
            },
        )

    def finished(rec: dict[str, Any]) -> None:
        done[int(rec["deal"])] = rec
        save_now()
        if progress:
            progress(1)

    if path is not None and not path.exists():
        save_now()
    if ray is None and (workers == 1 or len(todo) <= 1):
        for i in todo:
            finished(play_deal(rules, make_a, make_b, seed, i))
    else:
        # processes, or Ray tasks (workers > 1 caps those in flight); deal i is played the same way anywhere
        from .parallel import run

        for _, rec in run(
            _worker_deal,
            todo,
            workers=workers if ray is None or workers > 1 else 0,
            ray=ray,
            initializer=_init_worker,
            initargs=(rules, a, b, seed),
        ):
            finished(rec)
    seconds = earlier + time.perf_counter() - t_start
    save_now()
    out = summarize(rules, seed, [done[i] for i in range(deals)], seconds) | who_saw_what(make_a, make_b)
    out["workers"] = workers
    return out


# --- the plot ---------------------------------------------------------------------------------------------------


def plot_diffs(data: dict[str, Any], path: Path | str, title: str | None = None) -> None:
    """Draw a histogram of ``data["diffs"]`` (figures from :func:`summarize`) with the mean and its 95% confidence
    interval (where there is one) marked, into ``path`` (the format follows the suffix, e.g. ``.png``). Needs matplotlib
    (``pip install "burraco[plot]"``); :class:`ArenaError` without it."""
    try:
        mpl = importlib.import_module("matplotlib")
    except ImportError as e:
        raise ArenaError(PLOT_INSTALL_HINT) from e
    mpl.use("Agg")
    plt = importlib.import_module("matplotlib.pyplot")
    diffs = data["diffs"]
    mean = float(data["mean_diff"])
    ci = data.get("ci95")
    fig, ax = plt.subplots(figsize=(8, 4.5))
    try:
        bins = max(5, min(50, int(math.sqrt(len(diffs))) * 2)) if diffs else 5
        ax.hist(diffs, bins=bins, color="#4c72b0", alpha=0.8, edgecolor="white")
        if ci is not None:  # None: one deal, no interval
            lo, hi = (float(x) for x in ci)
            ax.axvspan(lo, hi, color="#dd8452", alpha=0.25, zorder=0, label=f"95% CI [{lo:.1f}, {hi:.1f}]")
        ax.axvline(mean, color="#c44e52", linewidth=2, label=f"mean {mean:.1f}")
        ax.axvline(0, color="black", linewidth=0.8, linestyle="--")
        ax.set_xlabel("score difference per duplicate deal (A minus B, both seatings)")
        ax.set_ylabel("deals")
        a, b = data.get("a", "A"), data.get("b", "B")
        ax.set_title(
            title
            or f"{data.get('rules', '')}: {a} vs {b}, {data.get('deals', len(diffs))} deals, "
            f"A wins {100 * float(data.get('a_win_rate', 0.0)):.1f}%"
        )
        seen = state_note(data)
        if seen is not None:  # whatever the title: a run with a player that saw every card says so
            fig.text(0.5, 0.01, seen, ha="center", va="bottom", color="#c44e52", fontsize=9)
        ax.legend()
        fig.tight_layout(rect=(0, 0.04 if seen is not None else 0, 1, 1))
        fig.savefig(str(path), dpi=100)
    finally:
        plt.close(fig)


def plot_available() -> bool:
    """Whether :func:`plot_diffs` can work (matplotlib is installed)."""
    import importlib.util

    return importlib.util.find_spec("matplotlib") is not None


__all__ = [
    "MATCH_BOOT_REPLICATES",
    "MATCH_BOOT_SAMPLES",
    "MATCH_CI_MIN_DEALS",
    "MATCH_MAX_HANDS",
    "MATCH_SAMPLES",
    "MAX_ACTIONS",
    "PLOT_INSTALL_HINT",
    "SAVE_VERSION",
    "ArenaError",
    "load_progress",
    "match_win_rate",
    "play_deal",
    "play_duplicate",
    "play_game",
    "player_seed",
    "sees_state",
    "state_changes",
    "state_key",
    "state_note",
    "who_saw_what",
    "plot_available",
    "plot_diffs",
    "run_arena",
    "summarize",
    "t95",
    "wilson",
    "match_intervals",
]

#!/usr/bin/env python3
"""Throughput and per-call latency benchmark for the burraco rules engine.

What it measures (one run, pinned to one CPU core):

* ``hands_per_s``      -- complete random 4-player hands ("smazzate") of the
  ``italian`` preset, full rules, per second of wall time.  Each hand's time
  includes ``Game.new`` (shuffle and deal) and every ``legal_actions()`` /
  ``apply()`` call until ``is_over``.
* ``gin_games_per_s``  -- the same for OpenSpiel's ``gin_rummy``
  (``pyspiel.load_game("gin_rummy")``), driven from a Python loop through
  ``state.legal_actions()`` / ``state.apply_action()``; each game's time
  includes ``game.new_initial_state()``.  Chance nodes are resolved by
  sampling ``state.chance_outcomes()`` with the same kind of ``random.Random``.
* ``ratio``            -- ``hands_per_s / gin_games_per_s``.
* ``native_ratio``     -- the native core's random hands per second (the deal and
  a uniform random playout in the core, ``native.random_deals``) over gin_rummy's
  games per second: each repeat runs the three loops one after the other
  (Python engine, gin_rummy, native core), the ratio is taken per repeat and
  the median reported, by wall time (``native_ratio``) and by CPU time
  (``native_ratio_cpu``), with every repeat's ratio and their spread
  (``native_ratio_spread``: (max - min) / median) to say how stable it was.
* ``*_us_p50`` / ``*_us_p99`` -- median and 99th percentile, in microseconds,
  of ``legal_actions()``, ``apply()``, ``clone()`` and one determinization
  (``determinize(game.view(seat), rng)``) over the states visited by those
  same hands.  ``view_us_*`` is reported separately; the determinization
  figure does not include building the view.

The random player (identical for every figure):
    Game number ``i`` (of either kind) gets the seed ``s_i``, the ``i``-th
    ``random.Random(seed).getrandbits(63)``.  The burraco hand is dealt with
    ``Game.new(preset("italian"), seed=s_i)`` (default dealer) and the player
    is ``rng = random.Random(s_i)``; at every decision it plays
    ``rng.choice(game.legal_actions())`` -- a uniform choice over the legal
    actions, in the order the engine lists them.  For gin_rummy the same
    ``rng`` picks ``rng.choice(state.legal_actions())`` at decision nodes and
    ``rng.choices(outcomes, weights=probabilities)`` at chance nodes.

Method:
    1. ``--warmup`` games of each kind (default 2, not counted).  The engine's
       caches keep warming over the first few hundred distinct hands (first
       200 hands ~95-105 hands/s, the next 200 ~120 on the first engine
       version); ``--warmup 400`` gives the steady-state figure;
    2. clean throughput loops with no per-call timing at all: ``--hands``
       burraco hands, then ``--gin-games`` gin games, repeated ``--repeat``
       times (default 3) in alternation so that a noisy neighbour slows both;
       each throughput figure is the median over the repeats (per-repeat
       figures in ``*_repeats``).  Where the native core is built, each repeat
       also plays ``--native-hands`` new hands in the core right after the
       gin loop (enough hands that the loop lasts about as long as the gin one:
       a loop of a few milliseconds is at the mercy of the scheduler);
    3. a second pass, by the same player, over as many hands (and gin games)
       again, timing each call with ``time.perf_counter_ns``: legal_actions,
       apply and clone on every decision state, view and determinization on
       every ``--determinize-every``-th state (default 5; determinize gets its
       own ``random.Random(seed + 1)``).  Reported: p50, p99, mean and max.

    Every game is a new one (seed blocks never overlap).  The engine caches
    meld validity, so replaying the very hands of step 2 would time the calls
    with warm caches: measured on the first engine version, a replayed hand ran
    about twice as fast as a new one and the mean legal_actions() cost halved
    (p50 barely moved -- the misses sit beyond p99).  ``--same-hands`` times
    the hands of the first throughput loop again, for comparison.

    The process is pinned with ``os.sched_setaffinity`` to the first CPU it may
    use (``--cpu`` to choose another).  Throughput is wall time; the JSON also
    carries ``*_cpu_share`` (the lowest process-CPU-time / wall-time of the
    throughput loops), ``loadavg_1m_start`` and ``loadavg_1m`` (the 1-minute
    load average before and after the run) and ``cpus``: a share well below 1.0
    means the core was shared with something else and the figure is
    pessimistic.  The run then prints a warning (and lists it under
    ``warnings`` in the JSON): a CPU share below ``CPU_SHARE_MIN``, or a load
    average that says more processes wanted to run than there are CPUs
    (``trust_warnings``).  Figures with a warning are not the engine's speed.

Reproduce:
    pip install -e .[bench]          # burraco + open-spiel (+ rich for the table)
    python benchmarks/engine.py                      # readable table
    python benchmarks/engine.py --json               # one JSON object on stdout
    python benchmarks/engine.py --hands 200 --gin-games 200 --seed 0 --json
    python benchmarks/engine.py --no-gin             # without OpenSpiel
    python benchmarks/engine.py --repeat 5 --json    # steadier figures on a shared machine
    python benchmarks/engine.py --warmup 400 --json  # steady state, engine caches warm
    python benchmarks/engine.py --repeat 7 --no-counts --json   # native_ratio with seven pairs

Notes go to stderr so that ``--json`` output stays a single JSON object.
"""

from __future__ import annotations

import argparse
import gc
import importlib.metadata
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:
    import burraco
except ImportError:  # running from a source checkout without `pip install -e .`
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    import burraco

from burraco import Game, determinize, preset

PRESET = "italian"
GIN_GAME = "gin_rummy"


# --------------------------------------------------------------------------- helpers


def note(msg: str) -> None:
    """Print a human note on stderr (keeps ``--json`` stdout clean)."""
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


def pin_to_one_core(requested: int | None = None) -> int | None:
    """Pin this process to one CPU (default: the first it may run on); return that CPU (or None)."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    try:
        cpu = min(os.sched_getaffinity(0)) if requested is None else requested
        os.sched_setaffinity(0, {cpu})
    except OSError as exc:
        note(f"could not pin to one core: {exc}")
        return None
    return cpu


def game_seeds(seed: int, n: int) -> list[int]:
    """Per-game seeds, drawn from ``random.Random(seed)``."""
    master = random.Random(seed)
    return [master.getrandbits(63) for _ in range(n)]


def seed_blocks(seed: int, n: int, repeat: int, warmup: int) -> tuple[list[int], list[list[int]], list[int]]:
    """Split the seed stream into (warm-up, ``repeat`` throughput blocks of n, timing block of n)."""
    seeds = game_seeds(seed, warmup + (repeat + 1) * n)
    warm, rest = seeds[:warmup], seeds[warmup:]
    blocks = [rest[i * n : (i + 1) * n] for i in range(repeat + 1)]
    return warm, blocks[:repeat], blocks[repeat]


def percentile(sorted_values: Sequence[float], q: float) -> float | None:
    """Linear-interpolated percentile (numpy's default) of already sorted data."""
    if not sorted_values:
        return None
    pos = (len(sorted_values) - 1) * q / 100.0
    lo = int(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


@dataclass
class Loop:
    """Result of one clean throughput loop."""

    wall_s: float  # time.perf_counter; the figure that throughput is computed from
    cpu_s: float  # time.process_time; well below wall_s means the core was shared
    decisions: int
    chance: int = 0


@dataclass
class Samples:
    """Per-call durations in nanoseconds, keyed by operation name."""

    ns: dict[str, list[int]] = field(default_factory=dict)

    def add(self, name: str, value: int) -> None:
        self.ns.setdefault(name, []).append(value)

    def summary(self, prefix: str = "") -> dict[str, float | int | None]:
        out: dict[str, float | int | None] = {}
        for name, values in self.ns.items():
            data = sorted(v / 1000.0 for v in values)
            for q in (50, 99):
                p = percentile(data, q)
                out[f"{prefix}{name}_us_p{q}"] = None if p is None else round(p, 3)
            out[f"{prefix}{name}_us_mean"] = round(statistics.fmean(data), 3) if data else None
            out[f"{prefix}{name}_us_max"] = round(data[-1], 3) if data else None
            out[f"{prefix}{name}_samples"] = len(data)
        return out


ns = time.perf_counter_ns


# --------------------------------------------------------------------------- burraco


class RunawayGame(RuntimeError):
    """A random game did not finish within ``--max-decisions``."""


def play_burraco_hand(rules: Any, hand_seed: int, max_decisions: int) -> int:
    """Play one random hand; return the number of decisions made."""
    rng = random.Random(hand_seed)
    g = Game.new(rules, seed=hand_seed)
    n = 0
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
        n += 1
        if n > max_decisions:
            raise RunawayGame(f"burraco hand with seed {hand_seed} exceeded {max_decisions} decisions")
    return n


def burraco_throughput(rules: Any, seeds: Sequence[int], max_decisions: int) -> Loop:
    """Clean loop over whole hands, no per-call timing."""
    gc.collect()
    decisions = 0
    c0, t0 = time.process_time(), time.perf_counter()
    for s in seeds:
        decisions += play_burraco_hand(rules, s, max_decisions)
    return Loop(time.perf_counter() - t0, time.process_time() - c0, decisions)


def burraco_latencies(
    rules: Any, seeds: Sequence[int], det_seed: int, det_every: int, max_decisions: int
) -> tuple[Samples, int]:
    """Replay the same hands, timing each engine call; return (samples, total decisions)."""
    samples = Samples()
    det_rng = random.Random(det_seed)
    decisions = 0
    state_index = 0
    gc.collect()
    for hand_seed in seeds:
        rng = random.Random(hand_seed)
        g = Game.new(rules, seed=hand_seed)
        n = 0
        while not g.is_over:
            t0 = ns()
            acts = g.legal_actions()
            t1 = ns()
            g.clone()
            t2 = ns()
            samples.add("legal_actions", t1 - t0)
            samples.add("clone", t2 - t1)
            if state_index % det_every == 0:
                seat = g.current_seat
                seat = seat if seat >= 0 else 0
                t0 = ns()
                view = g.view(seat)
                t1 = ns()
                determinize(view, det_rng)
                t2 = ns()
                samples.add("view", t1 - t0)
                samples.add("determinize", t2 - t1)
            state_index += 1
            action = rng.choice(acts)
            t0 = ns()
            g.apply(action)
            t1 = ns()
            samples.add("apply", t1 - t0)
            n += 1
            if n > max_decisions:
                raise RunawayGame(f"burraco hand with seed {hand_seed} exceeded {max_decisions} decisions")
        decisions += n
    return samples, decisions


# --------------------------------------------------------------------------- OpenSpiel gin_rummy


def load_pyspiel() -> tuple[Any, str | None, str | None]:
    """Return (pyspiel module or None, open_spiel version, reason it is unavailable)."""
    try:
        import pyspiel  # type: ignore[import-not-found,unused-ignore]
    except Exception as exc:  # ImportError, or a broken native extension
        return (
            None,
            None,
            f"open_spiel is not importable ({type(exc).__name__}: {exc}); pip install open-spiel",
        )
    try:
        version: str | None = importlib.metadata.version("open_spiel")
    except importlib.metadata.PackageNotFoundError:
        version = None
    return pyspiel, version, None


def _chance_action(state: Any, rng: random.Random) -> int:
    outcomes = state.chance_outcomes()
    actions: list[int] = [a for a, _ in outcomes]
    probs: list[float] = [p for _, p in outcomes]
    return rng.choices(actions, weights=probs)[0]


def play_gin_game(game: Any, game_seed: int, max_decisions: int) -> tuple[int, int]:
    """Play one random gin_rummy game; return (player decisions, chance steps)."""
    rng = random.Random(game_seed)
    state = game.new_initial_state()
    decisions = chance = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(_chance_action(state, rng))
            chance += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
            if decisions > max_decisions:
                raise RunawayGame(f"gin_rummy game with seed {game_seed} exceeded {max_decisions} decisions")
    return decisions, chance


def gin_throughput(game: Any, seeds: Sequence[int], max_decisions: int) -> Loop:
    """Clean loop over whole games, no per-call timing."""
    gc.collect()
    decisions = chance = 0
    c0, t0 = time.process_time(), time.perf_counter()
    for s in seeds:
        d, c = play_gin_game(game, s, max_decisions)
        decisions += d
        chance += c
    return Loop(time.perf_counter() - t0, time.process_time() - c0, decisions, chance)


# --------------------------------------------------------------------------- the native core


def native_throughput(rules: Any, seeds: Sequence[int]) -> Loop:
    """Whole random hands in the core: the deal of ``Game.new(rules, s)`` and a uniform random playout, one
    ``native.random_deals`` call for the block (the GIL released, on this thread)."""
    from burraco import native

    gc.collect()
    c0, t0 = time.process_time(), time.perf_counter()
    decisions = native.random_deals(rules, list(seeds))
    return Loop(time.perf_counter() - t0, time.process_time() - c0, decisions)


def spread(values: Sequence[float]) -> float | None:
    """(max - min) / median: how far apart the repeats of one figure were (0.1: within 10 % of the median)."""
    if not values:
        return None
    mid = statistics.median(values)
    return round((max(values) - min(values)) / mid, 3) if mid else None


def ratio_figures(
    prefix: str, mine: Sequence[Loop], units: int, gin: Sequence[Loop], gin_games: int
) -> dict[str, Any]:
    """``{prefix}ratio`` and ``{prefix}ratio_cpu``: per repeat, ``units`` (hands) per second of the loop ``mine[r]``
    over gin_rummy's games per second of ``gin[r]`` (the loops ran one after the other), by wall time and by CPU
    time; the medians, every repeat's value and their :func:`spread`."""
    wall = [(units / m.wall_s) / (gin_games / g.wall_s) for m, g in zip(mine, gin, strict=True)]
    cpu = [(units / m.cpu_s) / (gin_games / g.cpu_s) for m, g in zip(mine, gin, strict=True) if m.cpu_s and g.cpu_s]
    out: dict[str, Any] = {
        f"{prefix}ratio": round(statistics.median(wall), 4),
        f"{prefix}ratio_cpu": round(statistics.median(cpu), 4) if cpu else None,
        f"{prefix}ratio_repeats": [round(x, 3) for x in wall],
        f"{prefix}ratio_cpu_repeats": [round(x, 3) for x in cpu],
        f"{prefix}ratio_spread": spread(wall),
        f"{prefix}ratio_cpu_spread": spread(cpu),
    }
    return out


def gin_latencies(game: Any, seeds: Sequence[int], max_decisions: int) -> Samples:
    """Replay the same gin games, timing legal_actions/apply/clone at decision nodes."""
    samples = Samples()
    gc.collect()
    for game_seed in seeds:
        rng = random.Random(game_seed)
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(_chance_action(state, rng))
                continue
            t0 = ns()
            acts = state.legal_actions()
            t1 = ns()
            state.clone()
            t2 = ns()
            samples.add("legal_actions", t1 - t0)
            samples.add("clone", t2 - t1)
            action = rng.choice(acts)
            t0 = ns()
            state.apply_action(action)
            t1 = ns()
            samples.add("apply", t1 - t0)
            n += 1
            if n > max_decisions:
                raise RunawayGame(f"gin_rummy game with seed {game_seed} exceeded {max_decisions} decisions")
    return samples


# --------------------------------------------------------------------------- trust

#: below this share of the wall time spent on the CPU, the throughput loops shared their core
CPU_SHARE_MIN = 0.9


def trust_warnings(result: dict[str, Any]) -> list[str]:
    """Why the figures of ``result`` are not to be trusted, if they are not: a throughput loop that got less than
    :data:`CPU_SHARE_MIN` of its core, or a 1-minute load average above what the machine's ``cpus`` can run at
    once (before the run: other work on every CPU but the benchmark's; after it: the benchmark included)."""
    out: list[str] = []
    for key, what in (
        ("burraco_cpu_share", "burraco"),
        ("gin_cpu_share", "gin_rummy"),
        ("native_cpu_share", "native core"),
    ):
        share = result.get(key)
        if share is not None and share < CPU_SHARE_MIN:
            out.append(
                f"the {what} throughput loop ran only {100 * share:.0f} % of its wall time on the CPU "
                f"(< {100 * CPU_SHARE_MIN:.0f} %): its core was shared, the figures are too low"
            )
    cpus = result.get("cpus")
    if cpus:
        start, end = result.get("loadavg_1m_start"), result.get("loadavg_1m")
        if start is not None and start > cpus - 1:
            out.append(
                f"the 1-minute load average was {start:.2f} before the run: with the benchmark, more processes "
                f"wanted to run than the {cpus} CPU(s) can at once; the figures may be too low"
            )
        if end is not None and end > cpus:
            out.append(
                f"the 1-minute load average was {end:.2f} after the run (the benchmark included): more processes "
                f"wanted to run than the {cpus} CPU(s) can at once; the figures may be too low"
            )
    return out


def _loadavg() -> float | None:
    return round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None


# --------------------------------------------------------------------------- driver


def run(args: argparse.Namespace) -> dict[str, Any]:
    load_start = _loadavg()
    cpus = os.cpu_count()
    cpu = pin_to_one_core(args.cpu)
    rules = preset(PRESET)
    result: dict[str, Any] = {
        "hands_per_s": None,
        "gin_games_per_s": None,
        "ratio": None,
        "legal_actions_us_p50": None,
        "legal_actions_us_p99": None,
        "apply_us_p50": None,
        "apply_us_p99": None,
        "clone_us_p50": None,
        "clone_us_p99": None,
        "determinize_us_p50": None,
        "determinize_us_p99": None,
        "open_spiel_version": None,
    }

    # Every game is played once only (the engine caches meld validity, so
    # replaying a hand would be faster than playing a new one): per kind, the
    # seed stream is cut into warm-up, one block per repeat, and the timing block.
    b_warm, b_blocks, b_timing = seed_blocks(args.seed, args.hands, args.repeat, args.warmup)
    g_warm, g_blocks, g_timing = seed_blocks(args.seed, args.gin_games, args.repeat, args.warmup)
    # the native core's hands: a stream of their own (many more hands than the Python loop plays)
    n_warm, n_blocks, _ = seed_blocks(args.seed + 2, args.native_hands, args.repeat, args.warmup)
    from burraco import native

    run_native = args.native_hands > 0 and native.available() and native.supported(rules) is None

    # OpenSpiel is loaded up front so that the two throughput loops can alternate.
    game: Any = None
    gin_note: str | None = None
    if args.no_gin:
        gin_note = "skipped (--no-gin)"
    else:
        pyspiel, result["open_spiel_version"], gin_note = load_pyspiel()
        if pyspiel is not None:
            if args.gin_games > 0:
                game = pyspiel.load_game(GIN_GAME)
            else:
                gin_note = "skipped (--gin-games 0)"
    if gin_note is not None:
        note(f"gin_rummy: {gin_note}; gin figures and ratio are null")
    result["gin_note"] = gin_note

    # Throughput: clean loops, burraco and gin alternating `--repeat` times so
    # that a noisy neighbour hits both; each figure is the median over repeats.
    for s in b_warm:
        play_burraco_hand(rules, s, args.max_decisions)
    if game is not None:
        for s in g_warm:
            play_gin_game(game, s, args.max_decisions)
    if run_native:
        native_throughput(rules, n_warm)
    b_loops: list[Loop] = []
    g_loops: list[Loop] = []
    n_loops: list[Loop] = []
    for r in range(args.repeat):
        tag = f" (repeat {r + 1}/{args.repeat})" if args.repeat > 1 else ""
        note(f"burraco: {args.hands} random {PRESET!r} hands, throughput{tag}")
        b_loops.append(burraco_throughput(rules, b_blocks[r], args.max_decisions))
        if game is not None:
            note(f"gin_rummy: {args.gin_games} random games via pyspiel, throughput{tag}")
            g_loops.append(gin_throughput(game, g_blocks[r], args.max_decisions))
        if run_native:
            note(f"native core: {args.native_hands} random {PRESET!r} hands, throughput{tag}")
            n_loops.append(native_throughput(rules, n_blocks[r]))

    b_rates = [args.hands / lp.wall_s for lp in b_loops]
    result["hands_per_s"] = round(statistics.median(b_rates), 3)
    decisions_per_hand = sum(lp.decisions for lp in b_loops) / (args.hands * args.repeat)
    result["decisions_per_hand"] = round(decisions_per_hand, 2)
    result["decisions_per_s"] = round(decisions_per_hand * result["hands_per_s"], 1)
    result["burraco_cpu_share"] = round(min(lp.cpu_s / lp.wall_s for lp in b_loops), 3)
    if args.repeat > 1:
        result["hands_per_s_repeats"] = [round(x, 3) for x in b_rates]
    if g_loops:
        g_rates = [args.gin_games / lp.wall_s for lp in g_loops]
        result["gin_games_per_s"] = round(statistics.median(g_rates), 3)
        n_gin = args.gin_games * args.repeat
        result["gin_decisions_per_game"] = round(sum(lp.decisions for lp in g_loops) / n_gin, 2)
        result["gin_chance_steps_per_game"] = round(sum(lp.chance for lp in g_loops) / n_gin, 2)
        result["gin_cpu_share"] = round(min(lp.cpu_s / lp.wall_s for lp in g_loops), 3)
        if args.repeat > 1:
            result["gin_games_per_s_repeats"] = [round(x, 3) for x in g_rates]
        result["ratio"] = round(result["hands_per_s"] / result["gin_games_per_s"], 4)
        got = ratio_figures("", b_loops, args.hands, g_loops, args.gin_games)
        result["ratio_cpu"] = got["ratio_cpu"]
        result["ratio_spread"] = got["ratio_spread"]
    result.update(native_loop_figures(n_loops, args.native_hands, g_loops, args.gin_games))

    if not args.no_counts:
        result["by_players"] = other_counts(args, result)

    # Per-call timing: a second pass over as many hands again, by the same player.
    timing_b = b_blocks[0] if args.same_hands else b_timing
    timing_g = g_blocks[0] if args.same_hands else g_timing
    note(f"burraco: per-call timing pass ({'same' if args.same_hands else 'new'} hands)")
    samples, _ = burraco_latencies(rules, timing_b, args.seed + 1, args.determinize_every, args.max_decisions)
    result.update(samples.summary())
    if game is not None:
        note("gin_rummy: per-call timing pass")
        result.update(gin_latencies(game, timing_g, args.max_decisions).summary(prefix="gin_"))

    # the native core (burraco._native), when built: the same seeds as the throughput loops
    result.update(native_figures(rules, b_blocks, b_timing, args.max_decisions, args.seed + 1, args.determinize_every))

    # context ---------------------------------------------------------------
    result.update(
        {
            "preset": PRESET,
            "players": getattr(rules, "players", None),
            "hands": args.hands,
            "native_hands": args.native_hands if run_native else 0,
            "gin_games": args.gin_games if game is not None else 0,
            "repeat": args.repeat,
            "warmup": args.warmup,
            "seed": args.seed,
            "determinize_every": args.determinize_every,
            "timing_on_same_hands": args.same_hands,
            "pinned_cpu": cpu,
            "cpus": cpus,
            "loadavg_1m_start": load_start,
            "loadavg_1m": _loadavg(),
            "python": platform.python_version(),
            "python_implementation": platform.python_implementation(),
            "platform": platform.platform(),
            "burraco_version": getattr(burraco, "__version__", None) or _dist_version("burraco"),
        }
    )
    return result


def native_call_samples(
    rules: Any, seeds: Sequence[int], det_seed: int = 1, det_every: int = 5, max_decisions: int = 10_000
) -> Samples:
    """Per call from Python, over every state of a uniform random hand per seed on a :class:`NativeHand`:
    ``step`` (``legal_actions()`` + ``apply()``), ``native_clone`` (``clone()``) and, every ``det_every``-th
    state, ``native_determinizer_setup`` (converting the view of the seat in turn) and ``native_determinize``
    (one ``Determinizer.sample_from``, the generator in the core)."""
    from burraco import native

    samples = Samples()
    twister = native.Twister(random.Random(det_seed))
    state_index = 0
    for s in seeds:
        rng = random.Random(s)
        h = native.NativeHand.from_game(Game.new(rules, seed=s))
        n = 0
        while not h.is_over:
            if state_index % det_every == 0:
                view = h.to_game().view(h.turn)
                t0 = ns()
                dets = native.Determinizer(view)
                t1 = ns()
                dets.sample_from(twister)
                t2 = ns()
                samples.add("native_determinizer_setup", t1 - t0)
                samples.add("native_determinize", t2 - t1)
            state_index += 1
            t0 = ns()
            acts = h.legal_actions()
            t1 = ns()
            action = rng.choice(acts)
            t2 = ns()
            h.apply(action)
            t3 = ns()
            h.clone()
            t4 = ns()
            samples.add("step", t1 - t0 + t3 - t2)
            samples.add("native_clone", t4 - t3)
            n += 1
            if n > max_decisions:
                raise RunawayGame(f"native hand with seed {s} exceeded {max_decisions} decisions")
    return samples


def native_loop_figures(loops: Sequence[Loop], hands: int, gin: Sequence[Loop], gin_games: int) -> dict[str, Any]:
    """The native core's throughput, from the loops that alternated with the Python engine's and gin_rummy's (all
    None without them):

    * ``native_hands_per_s`` / ``native_hands_per_cpu_s``: random 4-player hands per second of wall time and of
      CPU time (the deal of ``Game.new(rules, s)`` and a uniform random playout, both in the core), the medians over
      the repeats, with every repeat's in ``native_hands_per_s_repeats``; ``native_us_per_decision`` /
      ``native_cpu_us_per_decision``: the same per decision, the deal included; ``native_cpu_share``: the lowest
      CPU / wall time of the loops (below ``CPU_SHARE_MIN``: the core was shared);
    * ``native_ratio`` / ``native_ratio_cpu``: per repeat, those hands per second over gin_rummy's games per second
      of the loop that ran just before, by wall and by CPU time; the medians, every repeat's
      (``native_ratio_repeats``, ``native_ratio_cpu_repeats``) and their spread, (max - min) / median
      (``native_ratio_spread``, ``native_ratio_cpu_spread``): how stable the ratio was in this run.
    """
    out: dict[str, Any] = {
        k: None
        for k in (
            "native_hands_per_s", "native_hands_per_cpu_s", "native_us_per_decision", "native_cpu_us_per_decision",
            "native_cpu_share", "native_ratio", "native_ratio_cpu", "native_ratio_spread", "native_ratio_cpu_spread",
        )
    }  # fmt: skip
    if not loops:
        return out
    rates = [hands / lp.wall_s for lp in loops]
    out["native_hands_per_s"] = round(statistics.median(rates), 1)
    out["native_hands_per_cpu_s"] = round(statistics.median(hands / lp.cpu_s for lp in loops if lp.cpu_s), 1)
    out["native_hands_per_s_repeats"] = [round(x, 1) for x in rates]
    out["native_us_per_decision"] = round(statistics.median(1e6 * lp.wall_s / lp.decisions for lp in loops), 3)
    out["native_cpu_us_per_decision"] = round(statistics.median(1e6 * lp.cpu_s / lp.decisions for lp in loops), 3)
    out["native_cpu_share"] = round(min(lp.cpu_s / lp.wall_s for lp in loops), 3)
    if gin:
        out.update(ratio_figures("native_", loops, hands, gin, gin_games))
    return out


def native_figures(
    rules: Any, blocks: Sequence[Sequence[int]], timing: Sequence[int], max_decisions: int, det_seed: int = 1,
    det_every: int = 5,
) -> dict[str, Any]:
    """The native core's figures from Python (all None on the pure build), on the hands of the throughput loops:

    * ``native_python_loop_hands_per_s``: random hands from a Python loop (``NativeHand.new(rules, s)`` and its
      ``random_playout(s)`` per hand), the median over the blocks of the Python engine's loops;
    * ``step_us_p50`` / ``_p99``: ``legal_actions()`` + ``apply()`` of a :class:`NativeHand` called from Python,
      per decision of uniform random play; ``native_clone_us_p50``: its ``clone()`` (``clone_us_p50`` stays the
      ``Game``'s, as before);
    * ``native_determinize_us_p50`` / ``_p99``: one uniform determinization of the view of the seat in turn
      (``Determinizer.sample_from``, the generator in the core), every ``det_every``-th state;
      ``native_determinizer_setup_us_p50``: converting the view for it (once per view; a search samples it many
      times);
    * ``native_state_bytes`` / ``_max``: the bytes a ``clone()`` copies (``NativeHand.state_bytes``: the rules'
      layout and 16 bytes a meld on the table), median and largest over every state of ``heuristic:hard`` hands
      dealt from the timing seeds; ``native_state_bytes_empty``: with no meld on the table;
    * ``native``: whether the native core was there (``build`` is then ``native``).

    The throughput in the core and its ratio to gin_rummy come from the alternating loops
    (:func:`native_loop_figures`).
    """
    from burraco import native

    out: dict[str, Any] = {
        "native": native.available(),
        "native_python_loop_hands_per_s": None,
        "step_us_p50": None,
        "step_us_p99": None,
        "native_clone_us_p50": None,
        "native_determinize_us_p50": None,
        "native_determinize_us_p99": None,
        "native_determinizer_setup_us_p50": None,
        "native_state_bytes": None,
        "native_state_bytes_max": None,
        "native_state_bytes_empty": None,
    }
    if not native.available() or native.supported(rules) is not None:
        return out
    out["native_state_bytes_empty"] = native.state_size(rules)
    note("native core: the bytes a clone copies, over the states of heuristic:hard hands")
    sizes: list[int] = []
    for s in timing:
        h = native.NativeHand.new(rules, s)
        rngs = [random.Random(s * 16 + k) for k in range(rules.players)]
        while not h.is_over and len(sizes) < 1_000_000:
            sizes.append(h.state_bytes())
            h.apply(h.heuristic_choice("hard", rngs[h.turn]))
        sizes.append(h.state_bytes())
    out["native_state_bytes"] = int(statistics.median(sizes))
    out["native_state_bytes_max"] = max(sizes)
    note("native core: random hands from a Python loop")
    loop_rates: list[float] = []
    for block in blocks:
        t0 = time.perf_counter()
        for s in block:
            native.NativeHand.new(rules, s).random_playout(s)
        loop_rates.append(len(block) / (time.perf_counter() - t0))
    out["native_python_loop_hands_per_s"] = round(statistics.median(loop_rates), 1)
    note("native core: per-call timing pass")
    samples = native_call_samples(rules, timing, det_seed, det_every, max_decisions)
    summary = samples.summary()
    out["step_us_p50"] = summary["step_us_p50"]
    out["step_us_p99"] = summary["step_us_p99"]
    out["native_clone_us_p50"] = summary["native_clone_us_p50"]
    out["native_determinize_us_p50"] = summary["native_determinize_us_p50"]
    out["native_determinize_us_p99"] = summary["native_determinize_us_p99"]
    out["native_determinizer_setup_us_p50"] = summary["native_determinizer_setup_us_p50"]
    return out


def _dist_version(name: str) -> str | None:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def _pair(a: Any, b: Any) -> str | None:
    return None if a is None else f"{a} / {b}"


def _stability(r: dict[str, Any], key: str) -> str | None:
    """A ratio with the range of its repeats and their spread: ``26.4 (25.0-28.3 over 3, spread 12 %)``."""
    v, reps, sp = r.get(key), r.get(f"{key}_repeats") or [], r.get(f"{key}_spread")
    if v is None:
        return None
    if len(reps) < 2 or sp is None:
        return f"{v:.2f}"
    return f"{v:.2f} ({min(reps):.2f}-{max(reps):.2f} over {len(reps)}, spread {100 * sp:.0f} %)"


def _fmt(v: Any) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:,.3f}" if abs(v) < 1000 else f"{v:,.1f}"
    return str(v)


#: the 3-, 5- and 6-player presets measured beside the 4-player figure (RULES.md §14.3–§14.4)
OTHER_COUNTS = ("italian-3p", "italian-5p", "italian-6p")


def other_counts(args: argparse.Namespace, four: dict[str, Any]) -> dict[str, Any]:
    """Random hands of the 3-, 5- and 6-player presets, on the same seeds and loop as the 4-player figure: hands per
    second, decisions per hand, microseconds per decision and its ratio to the 4-player game's."""
    out: dict[str, Any] = {}
    us4 = 1e6 / four["decisions_per_s"] if four.get("decisions_per_s") else None
    for name in OTHER_COUNTS:
        note(f"burraco: {args.hands} random {name!r} hands, throughput")
        r = preset(name)
        _, blocks, _ = seed_blocks(args.seed, args.hands, 1, 0)
        lp = burraco_throughput(r, blocks[0], args.max_decisions)
        per_hand = lp.decisions / args.hands
        us = 1e6 * lp.wall_s / lp.decisions if lp.decisions else None
        out[name] = {
            "players": r.players,
            "hands_per_s": round(args.hands / lp.wall_s, 3),
            "decisions_per_hand": round(per_hand, 2),
            "us_per_decision": None if us is None else round(us, 2),
            "per_decision_vs_4p": None if us is None or us4 is None else round(us / us4, 3),
        }
    return out


def print_table(r: dict[str, Any]) -> None:
    """Human-readable report; uses rich when it is installed."""
    throughput = [
        ("burraco hands/s", r["hands_per_s"]),
        ("gin_rummy games/s", r["gin_games_per_s"]),
        ("ratio (hands/s / gin games/s)", r["ratio"]),
        ("ratio by CPU time", r.get("ratio_cpu")),
        ("burraco decisions/hand", r.get("decisions_per_hand")),
        ("gin decisions/game", r.get("gin_decisions_per_game")),
        ("burraco CPU share of wall", r.get("burraco_cpu_share")),
        ("gin CPU share of wall", r.get("gin_cpu_share")),
        (f"native hands/s (build {r.get('build')})", r.get("native_hands_per_s")),
        ("native hands/s from a Python loop", r.get("native_python_loop_hands_per_s")),
        ("native ratio (to gin games/s), wall", _stability(r, "native_ratio")),
        ("native ratio, CPU time", _stability(r, "native_ratio_cpu")),
        ("native us/decision, wall / CPU", _pair(r.get("native_us_per_decision"), r.get("native_cpu_us_per_decision"))),
        ("native step (legal+apply) us p50", r.get("step_us_p50")),
        ("native clone us p50", r.get("native_clone_us_p50")),
        ("native determinization us p50", r.get("native_determinize_us_p50")),
        ("native state bytes a clone copies, p50 / max", _pair(r.get("native_state_bytes"), r.get("native_state_bytes_max"))),
    ]
    ops = ["legal_actions", "apply", "clone", "view", "determinize"]
    latency = [
        (
            op,
            r.get(f"{op}_us_p50"),
            r.get(f"{op}_us_p99"),
            r.get(f"{op}_us_mean"),
            r.get(f"{op}_samples"),
            r.get(f"gin_{op}_us_p50"),
            r.get(f"gin_{op}_us_p99"),
        )
        for op in ops
    ]
    ctx = (
        f"preset={r['preset']} hands={r['hands']} gin_games={r['gin_games']} seed={r['seed']} "
        f"cpu={r['pinned_cpu']} python={r['python']} open_spiel={r.get('open_spiel_version')}"
    )
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        print(ctx)
        for name, v in throughput:
            print(f"{name:32} {_fmt(v):>14}")
        print(
            f"{'call (us)':14} "
            + " ".join(f"{h:>10}" for h in ("p50", "p99", "mean", "n", "gin p50", "gin p99"))
        )
        for row in latency:
            print(f"{row[0]:14} " + " ".join(f"{_fmt(v):>10}" for v in row[1:]))
        if r.get("gin_note"):
            print(f"note: gin_rummy {r['gin_note']}")
        for w in r.get("warnings", []):
            print(f"WARNING: {w}")
        return
    console = Console()
    console.print(ctx)
    t1 = Table(title="Throughput (one core)")
    t1.add_column("figure")
    t1.add_column("value", justify="right")
    for name, v in throughput:
        t1.add_row(name, _fmt(v))
    t2 = Table(title="Per-call cost, microseconds")
    for col in ("call", "p50", "p99", "mean", "samples", "gin p50", "gin p99"):
        t2.add_column(col, justify="left" if col == "call" else "right")
    for row in latency:
        t2.add_row(row[0], *(_fmt(v) for v in row[1:]))
    console.print(t1)
    console.print(t2)
    if r.get("by_players"):
        t3 = Table(title="Other player counts (random hands, same loop)")
        for col in ("preset", "hands/s", "decisions/hand", "us/decision", "vs 4 players"):
            t3.add_column(col, justify="left" if col == "preset" else "right")
        for name, f in r["by_players"].items():
            t3.add_row(name, *(_fmt(f[k]) for k in ("hands_per_s", "decisions_per_hand", "us_per_decision",
                                                    "per_decision_vs_4p")))
        console.print(t3)
    if r.get("gin_note"):
        console.print(f"note: gin_rummy {r['gin_note']}")
    for w in r.get("warnings", []):
        console.print(f"[bold red]WARNING[/]: {w}", markup=True, highlight=False)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--hands", type=int, default=300, help="random burraco hands per repeat (default 300)")
    p.add_argument("--gin-games", type=int, default=300, help="random gin_rummy games per repeat (default 300)")
    p.add_argument(
        "--native-hands",
        type=int,
        default=6000,
        help="random hands in the native core per repeat, right after the gin loop (default 6000, about as long as "
        "300 gin games; 0: skip)",
    )
    p.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    p.add_argument("--no-gin", action="store_true", help="skip the OpenSpiel gin_rummy comparison")
    p.add_argument(
        "--no-counts", action="store_true", help="skip the 3-, 5- and 6-player presets (measured beside the 4-player)"
    )
    p.add_argument(
        "--determinize-every",
        type=int,
        default=5,
        metavar="K",
        help="time view+determinize on every K-th visited state (default 5)",
    )
    p.add_argument(
        "--repeat",
        type=int,
        default=3,
        metavar="R",
        help="run the throughput loops R times, alternating burraco and gin; report medians (default 3)",
    )
    p.add_argument(
        "--warmup",
        type=int,
        default=2,
        metavar="W",
        help="uncounted warm-up games of each kind before the throughput loops (default 2)",
    )
    p.add_argument(
        "--same-hands",
        action="store_true",
        help="time the calls on the hands of the (first) throughput loop again instead of on new hands; "
        "the engine's caches are then warm, which flatters the figures",
    )
    p.add_argument(
        "--cpu",
        type=int,
        default=None,
        help="CPU to pin to (default: the first one this process may use)",
    )
    p.add_argument(
        "--max-decisions",
        type=int,
        default=100_000,
        help="abort if one random game exceeds this many decisions (default 100000)",
    )
    args = p.parse_args(argv)
    if (
        args.hands < 1
        or args.gin_games < 0
        or args.determinize_every < 1
        or args.repeat < 1
        or args.warmup < 0
        or args.native_hands < 0
    ):
        p.error(
            "--hands must be >= 1, --gin-games >= 0, --native-hands >= 0, --determinize-every >= 1, --repeat >= 1, "
            "--warmup >= 0"
        )
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    result = run(args)
    import burraco._accel
    import burraco.game

    # which engine ran: "native" (the native core built: it serves the Game's legal actions and the native
    # figures) or "pure" (the Python engine alone: no C compiler, or BURRACO_PURE=1)
    result["build"] = "native" if burraco._accel.core is not None else "pure"
    result["warnings"] = trust_warnings(result)
    if args.json:
        for w in result["warnings"]:
            note(f"WARNING: {w}")
        print(json.dumps(result, sort_keys=False))
    else:
        print_table(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())

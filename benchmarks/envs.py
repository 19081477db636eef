#!/usr/bin/env python3
"""Research-API benchmark: PettingZoo AEC steps per second against PettingZoo's gin_rummy_v4, observation
encoding latency, and batch simulation scaling from 1 to 2 worker processes.

* **AEC steps/s** -- the classic PettingZoo loop, the same code for both environments::

      env.reset(seed=k)
      for agent in env.agent_iter():
          obs, reward, term, trunc, info = env.last()      # observation and action mask
          action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
          env.step(action)

  The same loop with PettingZoo's own sampling agent, ``env.action_space(agent).sample(obs["action_mask"])``
  (Gymnasium's ``Discrete.sample`` with an ``int8`` mask, as PettingZoo's documentation writes the loop), on both
  environments: ``space_loop_steps_per_s`` and ``space_loop_ratio``. This loop reads the clock once per episode and
  never inside it (since 2026-12-07: the thread's CPU clock is a system call of about a microsecond on the shared
  VM, and the other loops' four reads a step were a fifth of a Burraco step); ``space_timed`` is the same loop timed
  inside as the others are. ``--space-only`` runs these two alone, on both environments, and ``--before-src DIR``
  adds Burraco's on another checkout's ``src/`` (``PYTHONPATH=DIR``, its core built in place there), alternating
  with this one's: a before and after in one run.

  Every ``env.step`` counts as a step (also the ``None`` steps of finished agents). ``loop_steps_per_s`` is
  steps over the loop's wall time (the agent's random choice included); ``env_steps_per_s`` counts only the
  time spent inside ``env.last()`` and ``env.step()`` (the environment's own cost, without the agent).
  Burraco: ``burraco.envs.pettingzoo_env(rules="italian")`` (4 players). Burraco is also run with an agent that
  takes ``env.legal_indices()`` instead of scanning the 96 218-entry mask (``indices_*``). gin_rummy_v4 was removed in
  pettingzoo 1.27, so it runs in its own virtual environment with ``pettingzoo[classic]==1.26.1`` and rlcard
  (created on first use under ``--gin-venv``, default ``~/.cache/burraco-bench/gin-venv``). Every loop runs in a
  fresh process: 3 seconds of warm-up on hands of its own (seeds from 10**6), then ``--seconds`` timed on hands
  dealt from seeds 0, 1, … (so no timed hand replays a warm-up hand whose states an engine may have cached). The
  loops alternate ``--repeat`` times; medians are reported.
* **observation encoding** -- p50 / p99 of ``encode_game(game, seat)`` and of ``encode_view(view)`` (without
  building the view) over the states of random ``italian`` hands, of the environments' incremental
  ``Encoder.encode(game, seat)`` (the seat to act at every step, as the environments call it) and of
  ``action_mask``; where the native core is built, of its ``Encoding.encode(hand, seat, out)`` and
  ``Encoding.legal_indices(hand)`` on the game's native copy (``native_encode_us_*``, ``native_legal_indices_us_*``).
* **batch simulation** -- ``burraco.sim.simulate(preset("italian"), games=N, workers=W)`` for W = 1 and 2, each
  run in a fresh process (cold engine caches on both sides), alternating ``--repeat`` times: hands per second of
  wall time, the CPU time of each run with its workers, and the speed-up (the machine's 1-minute load average is recorded beside it: the project's VM has
  2 shared vCPUs).

The ``build`` field says which engine ran: ``native`` (the native core built: it serves the environments'
observations, indices and masks where it plays the rules) or ``pure`` (``BURRACO_PURE=1``, or no C compiler: the
pure-Python code alone).

* **player counts** (``--counts``) -- the AEC loops (one repeat) and the encoding latency of ``italian-3p``, ``-5p``
  and ``-6p`` beside ``italian``'s: their layouts (and with three packs, 5 and 6 players, their action spaces) are
  the core's too (``burraco._native.Encoding`` takes the layout's offsets).

* **vector environment** (``--vec``, or ``--vec-only`` for this part alone) -- ``BurracoVecEnv(N,
  rules="italian", opponents="random")`` for N = 1, 16 and 64 tables: learner steps per second of ``venv.step``
  (one call steps all N tables; the opponents' moves inside it are not counted), the learner choosing a random
  legal index of each table (its choice not timed), ``--seconds`` per N after one second of warm-up. ``vector``:
  the Python tables (``native=False``, :func:`burraco.envs.vector.step_tables`); ``vector_native``: the tables
  stepped by the native core (``burraco._native.VecTables``, the default where it is built), with
  ``vector_native_cpu`` the same steps over the thread's CPU time (steadier on a shared machine);
  ``vector_hard_opponents`` / ``vector_native_hard_opponents`` the same with ``opponents="heuristic:hard"`` (the
  Python tables for 1 and 16 tables only: they are slow).

``envs_native`` says whether the environments' tables encoded on the native core (``burraco._native.Encoding``:
the default where it is built) in the AEC loops.

* **the gymnasium adapter** (with ``--vec`` / ``--vec-only``: ``vector_adapter_compact``) -- 64 tables of
  :class:`burraco.envs.vector.BurracoVectorEnv` with compact masks (``masks="indices"``) and an agent that picks
  uniformly among each table's legal indices (``sample_legal``, included), steps per CPU second of one core.
* **stalemate** (``--stalemate HANDS``, alone) -- how the hands of a uniformly random learner end against
  ``random``, ``heuristic:easy`` and ``heuristic:hard`` in ``italian-2p`` and ``italian`` (the share of
  stalemates, RULES.md §0.1), its decisions per hand and its score difference.

Usage: ``python benchmarks/envs.py [--json] [--seconds 10] [--repeat 3] [--sim-games 2000] [--clock wall|cpu]
[--counts]``
(``--clock cpu`` times the AEC loops by the thread's CPU time instead of wall time: steadier on a shared machine).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import textwrap
import time
from pathlib import Path

LOOP = textwrap.dedent(
    """
    import json, sys, time
    import numpy as np

    clock = time.thread_time if sys.argv[2] == "cpu" else time.perf_counter

    def run(env, seconds, agent="mask", first_seed=0):
        if agent == "space":
            return run_space(env, seconds, first_seed)
        rng = np.random.default_rng(first_seed)
        seeded = set()
        steps = 0
        inside = 0.0
        episodes = 0
        t0 = clock()
        while clock() - t0 < seconds:
            env.reset(seed=first_seed + episodes)
            episodes += 1
            for agent_name in env.agent_iter():
                a0 = clock()
                obs, reward, term, trunc, info = env.last()
                inside += clock() - a0
                if term or trunc:
                    action = None
                elif agent == "indices":  # the legal indices straight from the environment, no mask scan
                    action = int(rng.choice(env.legal_indices()))
                elif agent == "space_timed":  # run_space's agent, with the inside timed as the others are
                    space = env.action_space(agent_name)
                    if agent_name not in seeded:
                        space.seed(first_seed + len(seeded))
                        seeded.add(agent_name)
                    action = int(space.sample(obs["action_mask"]))
                else:
                    action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
                a0 = clock()
                env.step(action)
                inside += clock() - a0
                steps += 1
        wall = clock() - t0
        return {"steps": steps, "episodes": episodes, "loop_steps_per_s": steps / wall,
                "env_steps_per_s": steps / inside, "seconds": wall}

    def run_space(env, seconds, first_seed=0):
        # PettingZoo's own loop as its documentation writes it, the action space sampling from the mask; the
        # clock read once per episode, none inside it (the thread's CPU clock is a system call: the other loops'
        # four reads a step cost about a microsecond each on a shared VM, a fifth of a Burraco step)
        seeded = set()
        steps = 0
        episodes = 0
        t0 = clock()
        while clock() - t0 < seconds:
            env.reset(seed=first_seed + episodes)
            episodes += 1
            for agent_name in env.agent_iter():
                obs, reward, term, trunc, info = env.last()
                if term or trunc:
                    action = None
                else:
                    space = env.action_space(agent_name)
                    if agent_name not in seeded:
                        space.seed(first_seed + len(seeded))
                        seeded.add(agent_name)
                    action = space.sample(obs["action_mask"])
                env.step(action)
                steps += 1
        wall = clock() - t0
        return {"steps": steps, "episodes": episodes, "loop_steps_per_s": steps / wall, "seconds": wall}

    # the warm-up and the timed run deal different hands (seeds 10**6… and 0…): the timed run never replays a
    # game whose states an engine could have cached during the warm-up
    WARM_UP_SEED = 10**6
    """
)

BURRACO = LOOP + textwrap.dedent(
    """
    from burraco.envs import pettingzoo_env
    agent = sys.argv[3]
    env = pettingzoo_env(rules=sys.argv[4] if len(sys.argv) > 4 else "italian")
    run(env, 3.0, agent, WARM_UP_SEED)  # warm the engine's caches (the same warm-up for both environments)
    print(json.dumps(run(env, float(sys.argv[1]), agent)))
    """
)

GIN = LOOP + textwrap.dedent(
    """
    import warnings
    warnings.filterwarnings("ignore")
    from pettingzoo.classic import gin_rummy_v4
    env = gin_rummy_v4.env()
    run(env, 3.0, sys.argv[3], WARM_UP_SEED)
    print(json.dumps(run(env, float(sys.argv[1]), sys.argv[3])))
    """
)


def gin_python(venv: Path) -> Path:
    """The side virtual environment with pettingzoo 1.26.1 and rlcard (created when missing)."""
    py = venv / "bin" / "python"
    if not py.exists():
        print(f"creating {venv} (pettingzoo[classic]==1.26.1, rlcard) ...", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run(
            [str(py), "-m", "pip", "install", "-q", "pettingzoo[classic]==1.26.1", "rlcard"], check=True
        )
    return py


def loop(
    python: str,
    script: str,
    seconds: float,
    cpu: int | None,
    clock: str,
    agent: str = "mask",
    rules: str = "italian",
    src: Path | None = None,
) -> dict[str, float]:
    """One loop in a fresh process; ``src``: the burraco package imported from there (``PYTHONPATH``)."""
    cmd = [python, "-c", script, str(seconds), clock, agent, rules]
    if cpu is not None and hasattr(os, "sched_setaffinity"):
        cmd = ["taskset", "-c", str(cpu)] + cmd
    env = None if src is None else dict(os.environ, PYTHONPATH=str(src))
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env)
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def encoding_latency(hands: int, rules: str = "italian") -> dict[str, float]:
    from burraco import Game, preset
    from burraco.envs import action_index, layout, observation

    r = preset(rules)
    lay = layout.layout_for(r)

    tg: list[float] = []
    tv: list[float] = []
    tm: list[float] = []
    te: list[float] = []
    pc = time.perf_counter
    encoder = observation.Encoder(r) if hasattr(observation, "Encoder") else None
    try:  # the native core's encoder (burraco._native.Encoding), where it is built
        from burraco.envs.native_env import hand_of, native_encoding

        nenc = native_encoding(r)
    except ImportError:
        nenc = None
    tn: list[float] = []
    ti: list[float] = []
    buf = None
    if nenc is not None:
        import numpy as np

        buf = np.empty(lay.obs_size, dtype=np.float32)
    for i in range(hands):
        g = Game.new(r, seed=10_000 + i)
        rng = random.Random(i)
        while g.end is None:
            legal = g.legal_actions()
            s = g.current_seat
            v = g.view(s)
            t0 = pc()
            observation.encode_game(g, s)
            t1 = pc()
            observation.encode_view(v)
            t2 = pc()
            action_index.action_mask(legal, g.melds[g.side_of(s)], lay)
            t3 = pc()
            tg.append(t1 - t0)
            tv.append(t2 - t1)
            tm.append(t3 - t2)
            if encoder is not None:  # the environments' incremental encoder (one seat per step, as they use it)
                t4 = pc()
                encoder.encode(g, s)
                te.append(pc() - t4)
            if nenc is not None:  # into a buffer of the caller's, from the game's native copy
                h = hand_of(g)
                t5 = pc()
                nenc.encode(h, s, buf)
                t6 = pc()
                nenc.legal_indices(h)
                t7 = pc()
                tn.append(t6 - t5)
                ti.append(t7 - t6)
            g.apply(legal[rng.randrange(len(legal))])

    def q(x: list[float], p: float) -> float:
        x = sorted(x)
        return round(x[min(len(x) - 1, int(p * len(x)))] * 1e6, 2)

    return {
        "obs_size": lay.obs_size,
        "num_actions": lay.num_actions,
        "states": len(tg),
        "encode_game_us_p50": q(tg, 0.5),
        "encode_game_us_p99": q(tg, 0.99),
        "encode_view_us_p50": q(tv, 0.5),
        "encode_view_us_p99": q(tv, 0.99),
        "action_mask_us_p50": q(tm, 0.5),
        "action_mask_us_p99": q(tm, 0.99),
        **({"encoder_us_p50": q(te, 0.5), "encoder_us_p99": q(te, 0.99)} if te else {}),
        **(
            {
                "native_encode_us_p50": q(tn, 0.5),
                "native_encode_us_p99": q(tn, 0.99),
                "native_legal_indices_us_p50": q(ti, 0.5),
                "native_legal_indices_us_p99": q(ti, 0.99),
            }
            if tn
            else {}
        ),
    }


SIM = textwrap.dedent(
    """
    import json, sys
    from burraco import preset
    from burraco.sim import simulate
    st = simulate(preset("italian"), games=int(sys.argv[1]), seed=1, workers=int(sys.argv[2]))
    print(json.dumps({"hands_per_s": st.hands_per_s, "ends": dict(st.ends), "totals": st.side_totals}))
    """
)


def sim_scaling(games: int, repeat: int) -> dict[str, object]:
    """Each run in a fresh process (the engine's caches start cold in every worker, so both sides pay it)."""
    import resource

    one: list[float] = []
    two: list[float] = []
    cpu: dict[int, list[float]] = {1: [], 2: []}
    for _ in range(repeat):
        for w, acc in ((1, one), (2, two)):
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            out = subprocess.run(
                [sys.executable, "-c", SIM, str(games), str(w)], check=True, capture_output=True, text=True
            )
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[w].append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
            d = json.loads(out.stdout.strip().splitlines()[-1])
            acc.append(d["hands_per_s"])
    return {
        "games": games,
        "hands_per_s_1_worker": round(statistics.median(one), 1),
        "hands_per_s_2_workers": round(statistics.median(two), 1),
        "speedup": round(statistics.median(two) / statistics.median(one), 2),
        "runs_1": [round(x, 1) for x in one],
        "runs_2": [round(x, 1) for x in two],
        # CPU seconds (user + system) of the whole run, its workers included: what a second worker adds
        "cpu_s_1_worker": round(statistics.median(cpu[1]), 2),
        "cpu_s_2_workers": round(statistics.median(cpu[2]), 2),
        "loadavg_1m": os.getloadavg()[0],
    }


def vector_steps(
    seconds: float,
    sizes: tuple[int, ...] = (1, 16, 64),
    rules: str = "italian",
    native: bool = False,
    opponents: str = "random",
) -> dict[str, float]:
    """Learner steps per second of :class:`burraco.envs.vector.BurracoVecEnv` for each number of tables: the Python
    tables, or (``native``) the native core's, whose steps are also timed by the thread's CPU time."""
    from burraco.envs.vector import BurracoVecEnv

    out: dict[str, float] = {}
    for n in sizes:
        venv = BurracoVecEnv(n, rules=rules, opponents=opponents, native=native)
        venv.reset(seed=10**6)
        rng = random.Random(n)
        steps, busy, cpu = 0, 0.0, 0.0
        warm_end = time.perf_counter() + 1.0
        end = warm_end + seconds
        while True:
            acts = [rng.choice(venv.legal_indices(i)) for i in range(n)]
            c0 = time.thread_time()
            t0 = time.perf_counter()
            venv.step(acts)
            t1 = time.perf_counter()
            c1 = time.thread_time()
            if t0 >= warm_end:
                steps += n
                busy += t1 - t0
                cpu += c1 - c0
            if t1 >= end:
                break
        out[f"tables_{n}_steps_per_s"] = round(steps / busy, 1) if busy else 0.0
        if native:
            out[f"tables_{n}_steps_per_cpu_s"] = round(steps / cpu, 1) if cpu else 0.0
    return out


def adapter_steps(seconds: float, n: int = 64, rules: str = "italian") -> dict[str, float]:
    """Steps per CPU second of the ``gymnasium.vector.VectorEnv`` adapter with compact masks
    (:class:`burraco.envs.vector.BurracoVectorEnv`, ``masks="indices"``) and an agent that picks uniformly among
    each table's legal indices (``sample_legal``), the agent included: ``n`` tables, random opponents, one core
    (the thread's CPU time), after one second of warm-up."""
    import numpy as np

    from burraco.envs.vector import BurracoVectorEnv

    venv = BurracoVectorEnv(n, rules=rules, opponents="random", masks="indices")
    venv.reset(seed=10**6)
    rng = np.random.default_rng(n)
    steps = 0
    warm = time.thread_time() + 1.0
    c0 = 0.0
    while True:
        now = time.thread_time()
        if not c0 and now >= warm:
            c0, steps = now, 0
        if c0 and now - c0 >= seconds:
            break
        venv.step(venv.sample_legal(rng))
        steps += n
    return {f"tables_{n}_steps_per_cpu_s": round(steps / (time.thread_time() - c0), 1), "native": venv.venv.native
            is not None}


def stalemate_study(hands: int, rules: str = "italian-2p",
                    opponents: tuple[str, ...] = ("random", "heuristic:easy", "heuristic:hard")) -> dict[str, object]:
    """How hands end for a learner that picks uniformly among its legal actions (the untrained policy of every
    recipe), against each opponent: the share of hands ended by stalemate (RULES.md §0.1 "Stalemate", §9.3.2), by
    a closing, by the stock; the learner's decisions per hand (median) and its mean score difference a hand."""
    from burraco.envs.gymnasium_env import BurracoGymEnv

    out: dict[str, object] = {"rules": rules, "hands": hands}
    for opp in opponents:
        env = BurracoGymEnv(rules, opp, mask_in_obs=False)
        rng = random.Random(0)
        ends: dict[str, int] = {}
        decisions: list[int] = []
        diff = 0.0
        for h in range(hands):
            env.reset(seed=h)
            k, done = 0, False
            while not done:
                idx = env.legal_indices()
                _, r, term, trunc, _ = env.step(idx[rng.randrange(len(idx))])
                diff += r
                k += 1
                done = term or trunc
            e = str(env.table.game.end)
            ends[e] = ends.get(e, 0) + 1
            decisions.append(k)
        out[opp] = {
            "ends": {e: round(c / hands, 3) for e, c in sorted(ends.items())},
            "decisions_median": statistics.median(decisions),
            "mean_hand_diff": round(diff / hands * 1000, 1),
        }
    return out


def native_vector_steps(seconds: float, opponents: str = "random") -> dict[str, float] | None:
    """:func:`vector_steps` on the native core's tables, or None where the core is not built."""
    from burraco.envs.native_env import native_encoding
    from burraco.rules import preset

    if native_encoding(preset("italian")) is None:
        return None
    return vector_steps(seconds, native=True, opponents=opponents)


def _envs_native() -> bool:
    from burraco.envs._core import Table
    from burraco.rules import preset

    return Table(preset("italian")).native is not None


def space_runs(args: argparse.Namespace, cpu: int | None, gin_py: str | None) -> dict[str, object]:
    """``--space-only``: PettingZoo's own loop, untimed inside (``space``) and timed inside (``space_timed``), on
    Burraco (and on ``--before-src``'s Burraco) and gin_rummy_v4, alternating ``--repeat`` times."""
    sides: list[tuple[str, str, Path | None]] = [("burraco", sys.executable, None)]
    if args.before_src is not None:
        sides.insert(0, ("before", sys.executable, args.before_src))
    if gin_py:
        sides.append(("gin", gin_py, None))
    runs: dict[str, list[float]] = {}
    loads = [os.getloadavg()[0]]
    for _ in range(args.repeat):
        for name, py, src in sides:
            script = GIN if name == "gin" else BURRACO
            for agent in ("space", "space_timed"):
                got = loop(py, script, args.seconds, cpu, args.clock, agent, src=src)
                runs.setdefault(f"{name}_{agent}", []).append(round(got["loop_steps_per_s"], 1))
        loads.append(os.getloadavg()[0])
    med = {k: statistics.median(v) for k, v in runs.items()}
    ratios = {}
    if gin_py:
        for name, _, _ in sides[:-1]:
            for agent in ("space", "space_timed"):
                ratios[f"{name}_{agent}"] = round(med[f"{name}_{agent}"] / med[f"gin_{agent}"], 2)
    return {
        "date": time.strftime("%Y-%m-%d"),
        "python": platform.python_version(),
        "clock": args.clock,
        "seconds_per_loop": args.seconds,
        "repeat": args.repeat,
        "before_src": None if args.before_src is None else str(args.before_src),
        "steps_per_s": runs,
        "median": med,
        "ratio_to_gin": ratios,
        "loadavg_1m": loads,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=10.0, help="seconds per loop and repeat")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--gin-venv", type=Path, default=Path.home() / ".cache" / "burraco-bench" / "gin-venv")
    ap.add_argument("--encode-hands", type=int, default=100)
    ap.add_argument("--sim-games", type=int, default=2000)
    ap.add_argument("--cpu", type=int, default=0, help="pin the AEC loops to this CPU (-1: do not pin)")
    ap.add_argument("--skip-gin", action="store_true")
    ap.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="time the AEC loops by wall time (perf_counter) or by the thread's CPU time (thread_time: steadier on "
        "a shared machine, where a loop may wait for a core)",
    )
    ap.add_argument("--skip-sim", action="store_true")
    ap.add_argument("--json", action="store_true")
    ap.add_argument(
        "--counts",
        action="store_true",
        help="also the AEC steps/s (mask agent, one repeat) and the encoding latency of italian-3p, -5p, -6p "
        "beside italian's (4 players), hands of --count-hands",
    )
    ap.add_argument("--count-hands", type=int, default=30)
    ap.add_argument("--vec", action="store_true", help="also the vector environment's steps/s (1, 16, 64 tables)")
    ap.add_argument("--vec-only", action="store_true", help="only the vector environment's steps/s")
    ap.add_argument("--space-only", action="store_true",
                    help="only PettingZoo's own loop (the action space sampling from the mask) on both environments, "
                    "untimed inside and timed inside as the other loops are (space_timed)")
    ap.add_argument("--before-src", type=Path, default=None, metavar="DIR",
                    help="with --space-only: also Burraco's loops on another checkout's src/ (PYTHONPATH=DIR, its "
                    "core built in place there), alternating with this one's: a before and after in one run")
    ap.add_argument("--stalemate", type=int, default=0, metavar="HANDS",
                    help="only the stalemate study: how HANDS hands of a uniformly random learner end")
    args = ap.parse_args()
    if args.stalemate:
        got = {"date": time.strftime("%Y-%m-%d"), "loadavg_1m_start": os.getloadavg()[0],
               "italian-2p": stalemate_study(args.stalemate), "italian": stalemate_study(args.stalemate, "italian")}
        print(json.dumps(got, indent=1) if args.json else got)
        return
    if args.vec_only:
        got = {
            "date": time.strftime("%Y-%m-%d"),
            "loadavg_1m_start": os.getloadavg()[0],
            "vector": vector_steps(args.seconds),
            "vector_native": native_vector_steps(args.seconds),
            "vector_hard_opponents": vector_steps(args.seconds, sizes=(1, 16), opponents="heuristic:hard"),
            "vector_native_hard_opponents": native_vector_steps(args.seconds, "heuristic:hard"),
            "vector_adapter_compact": adapter_steps(args.seconds),
            "loadavg_1m_end": os.getloadavg()[0],
        }
        print(json.dumps(got, indent=1) if args.json else got)
        return
    cpu = None if args.cpu < 0 else args.cpu
    gin_py = None if args.skip_gin else str(gin_python(args.gin_venv))
    if args.space_only:
        got = space_runs(args, cpu, gin_py)
        print(json.dumps(got, indent=1) if args.json else got)
        return
    bur: list[dict[str, float]] = []
    gin: list[dict[str, float]] = []
    for _ in range(args.repeat):
        b = loop(sys.executable, BURRACO, args.seconds, cpu, args.clock)
        idx = loop(sys.executable, BURRACO, args.seconds, cpu, args.clock, "indices")
        b["indices_loop_steps_per_s"] = idx["loop_steps_per_s"]
        b["indices_env_steps_per_s"] = idx["env_steps_per_s"]
        sp = loop(sys.executable, BURRACO, args.seconds, cpu, args.clock, "space")
        b["space_loop_steps_per_s"] = sp["loop_steps_per_s"]
        bur.append(b)
        if gin_py:
            g = loop(gin_py, GIN, args.seconds, cpu, args.clock)
            g["space_loop_steps_per_s"] = loop(gin_py, GIN, args.seconds, cpu, args.clock, "space")["loop_steps_per_s"]
            gin.append(g)

    def med(xs: list[dict[str, float]], k: str) -> float:
        return round(statistics.median(x[k] for x in xs), 1) if xs else 0.0

    import burraco._accel
    import burraco.game

    out: dict[str, object] = {
        "date": time.strftime("%Y-%m-%d"),
        # the native core built (it serves the Game and the environments), or the pure-Python engine alone
        "build": "native" if burraco._accel.core is not None else "pure",
        # whether the environments' tables encode on the native core (burraco._native.Encoding)
        "envs_native": _envs_native(),
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "seconds_per_loop": args.seconds,
        "clock": args.clock,
        "loadavg_1m_start": os.getloadavg()[0],
        "repeat": args.repeat,
        "burraco_loop_steps_per_s": med(bur, "loop_steps_per_s"),
        "burraco_env_steps_per_s": med(bur, "env_steps_per_s"),
        "burraco_indices_loop_steps_per_s": med(bur, "indices_loop_steps_per_s"),
        "burraco_indices_env_steps_per_s": med(bur, "indices_env_steps_per_s"),
        "burraco_space_loop_steps_per_s": med(bur, "space_loop_steps_per_s"),
        "gin_loop_steps_per_s": med(gin, "loop_steps_per_s"),
        "gin_space_loop_steps_per_s": med(gin, "space_loop_steps_per_s"),
        "gin_env_steps_per_s": med(gin, "env_steps_per_s"),
        "burraco_repeats": bur,
        "gin_repeats": gin,
    }
    if gin:
        g_loop = float(med(gin, "loop_steps_per_s"))
        g_env = float(med(gin, "env_steps_per_s"))
        out["loop_ratio"] = round(med(bur, "loop_steps_per_s") / g_loop, 2)
        out["env_ratio"] = round(med(bur, "env_steps_per_s") / g_env, 2)
        out["indices_loop_ratio"] = round(med(bur, "indices_loop_steps_per_s") / g_loop, 2)
        out["indices_env_ratio"] = round(med(bur, "indices_env_steps_per_s") / g_env, 2)
        out["space_loop_ratio"] = round(med(bur, "space_loop_steps_per_s") / med(gin, "space_loop_steps_per_s"), 2)
    out["encoding"] = encoding_latency(args.encode_hands)
    if args.counts:
        by: dict[str, object] = {}
        for name in ("italian", "italian-3p", "italian-5p", "italian-6p"):
            b = loop(sys.executable, BURRACO, args.seconds, cpu, args.clock, "mask", name)
            idx = loop(sys.executable, BURRACO, args.seconds, cpu, args.clock, "indices", name)
            by[name] = {
                "loop_steps_per_s": round(b["loop_steps_per_s"], 1),
                "env_steps_per_s": round(b["env_steps_per_s"], 1),
                "indices_env_steps_per_s": round(idx["env_steps_per_s"], 1),
                "encoding": encoding_latency(args.count_hands, name),
            }
        out["by_count"] = by
    if args.vec:
        out["vector"] = vector_steps(args.seconds)
        out["vector_native"] = native_vector_steps(args.seconds)
        out["vector_adapter_compact"] = adapter_steps(args.seconds)
    out["loadavg_1m_end"] = os.getloadavg()[0]
    if not args.skip_sim:
        out["sim"] = sim_scaling(args.sim_games, args.repeat)
    if args.json:
        print(json.dumps(out, indent=1))
        return
    print(f"build: {out['build']}")
    print(
        f"AEC steps/s (loop, agent included): burraco {out['burraco_loop_steps_per_s']}, "
        f"gin_rummy_v4 {out['gin_loop_steps_per_s']}, ratio {out.get('loop_ratio')}"
    )
    print(
        f"AEC steps/s (inside env.last/env.step): burraco {out['burraco_env_steps_per_s']}, "
        f"gin_rummy_v4 {out['gin_env_steps_per_s']}, ratio {out.get('env_ratio')}"
    )
    print(
        f"burraco with an agent taking env.legal_indices(): loop {out['burraco_indices_loop_steps_per_s']} "
        f"(ratio {out.get('indices_loop_ratio')}), inside the env {out['burraco_indices_env_steps_per_s']} "
        f"(ratio {out.get('indices_env_ratio')})"
    )
    print(
        f"both with PettingZoo's agent, env.action_space(agent).sample(mask): burraco "
        f"{out['burraco_space_loop_steps_per_s']}, gin_rummy_v4 {out['gin_space_loop_steps_per_s']}, ratio "
        f"{out.get('space_loop_ratio')}"
    )
    print("observation encoding:", out["encoding"])
    print("batch simulation:", out.get("sim"))
    if "vector" in out:
        print("vector environment (learner steps/s), Python tables:", out["vector"])
        print("vector environment (learner steps/s), native tables:", out["vector_native"])
        print("gymnasium VectorEnv adapter, compact masks, uniform agent (steps/CPU s):", out["vector_adapter_compact"])
    for name, row in dict(out.get("by_count") or {}).items():
        print(f"{name}: {row}")


if __name__ == "__main__":
    main()

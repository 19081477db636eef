#!/usr/bin/env python3
"""Two configurations of the search player against each other on duplicate deals (issue 22, item 2: every change
to the search is measured in the arena before it stays).

Each side is an :class:`~burraco.bots.ismcts.ISMCTSPlayer` with the keyword arguments given as JSON (the same
budget for both unless said), played through :func:`burraco.arena.play_duplicate` (every deal twice, sides swapped;
with ``--workers`` the deals are spread over processes). The figures are the arena's (mean difference per deal with
its 95 % interval, deal win rate). With ``--resume FILE`` every finished deal is kept in ``FILE`` at once, and the same
command run again plays only the deals it lacks (a long run survives a stopped session)::

    python benchmarks/search_variants.py --a '{"top_k": 5, "discards_k": 4}' --b '{}' --budget 0.1 --deals 100 \\
        --workers 2 --json docs/strength/variants/wide-root.json

``"knows_hands": true`` in a side's arguments makes it a measuring stick between the honest search and ``cheat``:
it sees the other players' hands (as if every card in them had been seen picked up) but not the order of the stock
or the pozzetti, which it samples. ``cheat`` minus it is what knowing the stock is worth, it minus the honest
search what knowing the hands is worth: how much of the gap to ``cheat`` inference could close at best.
``"knows_hands": [1]`` sees only the next player's hand (seats counted in the order of play: with four players 2 is
the partner, 3 the player before), the others sampled uniformly.
``"cheat": true`` makes a side ``cheat`` itself (:class:`~burraco.bots.ismcts.CheatingISMCTSPlayer`: every
determinization is the true state) with the other arguments given, e.g. ``{"cheat": true, "floor": 0}``: the cheater
without the floor, which ``burraco arena --a cheat:0.25s`` cannot spell.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from burraco import Game, preset
from burraco.actions import Action
from burraco.arena import play_deal, summarize
from burraco.bots.ismcts import CheatingISMCTSPlayer, ISMCTSPlayer
from burraco.determinize import determinize
from burraco.envs.value import ValueNet
from burraco.files import write_json_atomic
from burraco.parallel import run


def knows_hands_sampler(game: Game, seat: int, which: Sequence[int] | None = None) -> Callable[[random.Random], Game]:
    """Determinizations of ``seat``'s view of ``game`` that keep the other players' true hands and deal only the
    cards the seat cannot locate (the stock, the pozzetti, a closed pile) at random; the players of a sampled game
    know what they saw picked up in the real one. ``which``: only the hands of these seats, counted in the order of
    play from ``seat`` (1: the next player; with four, 2 is the partner and 3 the player before), the others dealt
    at random too. Measurement only."""
    view = game.view(seat)
    n, d = game.n, view.rules.direction
    kept = {(seat + k * d) % n for k in which} if which is not None else set(range(n))
    known = [bytes(game.hands[o]) if o != seat and o in kept else view.known[o] for o in range(n)]
    unseen = bytearray(view.unseen)
    for o in range(game.n):
        for c in range(53):
            unseen[c] -= known[o][c] - view.known[o][c]
    seen = dataclasses.replace(view, known=tuple(known), unseen=bytes(unseen))

    def sample(rng: random.Random) -> Game:
        g = determinize(seen, rng)
        g.known = [bytearray(k) for k in view.known]  # what the players saw picked up, as in the real game
        return g

    return sample


def soft_hands_sampler(game: Game, seat: int, beta: float) -> Callable[[random.Random], Game]:
    """Determinizations of ``seat``'s view of ``game`` whose other hands are drawn with a weight of
    ``exp(beta * k)`` for a card type of which the seat's true hand hides ``k`` copies (weighted sampling without
    replacement, :func:`burraco.determinize.determinize`): 0 is uniform sampling, a larger ``beta`` places more of the
    hidden cards right (about 23 % at 0.5, 32 % at 1, against 19 % for the search's model), a very large one draws
    only the types a hand holds (not always the right copies: weights per type cannot say where a type's other copy
    lies). A model of the hands that is right in the way weights per card type can be, at a chosen sharpness: what
    such a model placing a given share of the hidden cards right is worth at best. Measurement only."""
    view = game.view(seat)
    weights: list[list[float] | None] = [None] * game.n
    for o in range(game.n):
        if o != seat:
            weights[o] = [math.exp(beta * max(0, game.hands[o][c] - view.known[o][c])) for c in range(53)]

    def sample(rng: random.Random) -> Game:
        return determinize(view, rng, weights)

    return sample


class KnowsHandsPlayer(ISMCTSPlayer):
    """The search seeing the other hands but not the stock (:func:`knows_hands_sampler`; ``which``: only those
    seats' hands). Measurement only."""

    needs_state = True

    def __init__(self, *args: Any, which: Sequence[int] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.which = which

    def choose_with_state(self, game: Game, legal: list[Action]) -> Action:
        self._started = time.perf_counter()
        if len(legal) == 1:
            return legal[0]
        seat = game.current_seat
        return self._search(game.view(seat), legal, knows_hands_sampler(game, seat, self.which))


def _factory(kwargs: dict[str, Any], budget: float | None, iterations: int | None) -> Any:
    def make(seed: int) -> ISMCTSPlayer:
        kw = dict(kwargs)
        knows, cheat = kw.pop("knows_hands", False), kw.pop("cheat", False)
        if knows and cheat:
            raise ValueError('"knows_hands" and "cheat" exclude each other: the cheater sees the stock too')
        cls = CheatingISMCTSPlayer if cheat else KnowsHandsPlayer if knows else ISMCTSPlayer
        if isinstance(knows, list):  # "knows_hands": [1]: only the next player's hand (knows_hands_sampler)
            kw["which"] = knows
        if "hand_model" in kw:  # a learned model of the hands (hand_model.py --out FILE)
            from hand_model import LearnedInference

            kw["infer"] = LearnedInference.load(kw.pop("hand_model"))
        if isinstance(kw.get("value"), str):  # a value file (examples/train_value.py)
            kw["value"] = ValueNet.load(kw["value"])
        if iterations is not None:
            kw.setdefault("iterations", iterations)
        elif budget is not None:
            kw.setdefault("time_budget", budget)
        return cls(seed=seed, **kw)

    return make


def _deal(rules_name: str, a: dict[str, Any], b: dict[str, Any], budget: float | None, iterations: int | None,
          seed: int, deal: int) -> dict[str, Any]:
    rules = preset(rules_name)
    return play_deal(rules, _factory(a, budget, iterations), _factory(b, budget, iterations), seed, deal)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", default="{}", help="player A's ISMCTSPlayer keyword arguments, as JSON")
    ap.add_argument("--b", default="{}", help="player B's, as JSON")
    ap.add_argument("--budget", type=float, default=0.1, help="seconds per move (unless --iterations)")
    ap.add_argument("--iterations", type=int, default=None, help="determinizations per move instead of a budget")
    ap.add_argument("--rules", default="italian")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--json", default=None, help="write the arena's figures and the deals here")
    ap.add_argument(
        "--resume",
        default=None,
        help="keep the finished deals in this file as they come and, if it exists, play only the others (a run "
        "stopped part-way goes on with the same command)",
    )
    args = ap.parse_args()
    a, b = json.loads(args.a), json.loads(args.b)
    params = {k: v for k, v in vars(args).items() if k not in ("json", "resume", "workers", "deals")}
    params["a"], params["b"] = a, b
    done: dict[int, dict[str, Any]] = {}
    earlier = 0.0
    progress = Path(args.resume) if args.resume else None
    if progress is not None and progress.exists():
        saved = json.loads(progress.read_text(encoding="utf-8"))
        if saved.get("params") != params:
            sys.exit(f"{progress} was made with other parameters: {saved.get('params')}")
        done = {int(r["deal"]): r for r in saved["results"]}
        earlier = float(saved["seconds"])
    t0 = time.perf_counter()

    def save() -> None:
        if progress is not None:
            results = [done[i] for i in sorted(done)]
            seconds = earlier + time.perf_counter() - t0
            write_json_atomic(progress, {"params": params, "seconds": seconds, "results": results})

    work = partial(_deal, args.rules, a, b, None if args.iterations else args.budget, args.iterations, args.seed)
    todo = [i for i in range(args.deals) if i not in done]
    for _, rec in run(work, todo, workers=args.workers):
        done[int(rec["deal"])] = rec
        save()
    records = [done[i] for i in range(args.deals)]
    out = summarize(preset(args.rules), args.seed, records, earlier + time.perf_counter() - t0)
    out["a"], out["b"] = a, b
    out["budget_s"], out["iterations"] = (None if args.iterations else args.budget), args.iterations
    out["command"] = "python benchmarks/search_variants.py " + " ".join(
        f"--{k} '{v}'" if k in ("a", "b") else f"--{k} {v}" for k, v in vars(args).items() if v is not None
    )
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    keys = ("deals", "mean_diff", "ci95", "a_win_rate", "a_win_rate_ci95", "a_ms_per_move", "b_ms_per_move")
    print(json.dumps({k: out.get(k) for k in keys}))


if __name__ == "__main__":
    main()

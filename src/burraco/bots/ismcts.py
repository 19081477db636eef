"""Information-set Monte Carlo search (ISMCTS, Cowling, Powley & Whitehouse 2012) over the seat's view.

Every iteration samples one full state consistent with the seat's :class:`~burraco.view.View`
(:func:`~burraco.determinize.determinize`: the seat's hand, the table, the visible pile and the cards others were seen
to pick up stay where they are; the rest is dealt at random, the other hands weighted by
:func:`~burraco.bots.infer.seat_weights`: natural cards that fit a seat's side melds are rarely in its hand; set
``infer=False`` for uniform sampling). Statistics are kept per action of the information set
(they are shared by all determinizations), never per determinization. Two searches are offered:

``search="flat"`` (the default, the one measured in docs/strength.md)
    ISMCTS with its tree cut at the root, evaluated with **common random numbers**: on every sampled
    determinization *every* root candidate is played and followed by the same seeded rollout, with
    :class:`~burraco.bots.heuristic.HeuristicPlayer` at every seat to the end of the hand (or for
    ``rollout_depth`` decisions, then the static :func:`evaluate`). Candidates are therefore compared on the same
    hidden cards and the same later luck, which removes most of the noise of a card game's outcome, so a handful
    of determinizations per decision already separates them. The heuristic's own choice is kept unless
    another candidate beats it by more than ``z`` standard errors of the paired differences and by more than
    ``floor`` points a hand (rollout-based policy improvement; at worst the search plays like the heuristic, never
    like its noise, nor like the small edges its rollouts' model of the other players makes up).
``search="tree"``
    Classic single-observer ISMCTS: one tree keyed by actions, UCB1 with availability counts and a progressive
    bias toward the heuristic's order, one expansion and one truncated heuristic rollout per iteration. At the
    budgets that matter here (≤ 1 s per move, a few hundred iterations) it is weaker than the flat search (see
    docs/strength.md); it is kept for comparison and research.

Macro-actions: a play phase offers many melds and attachments, most of them poor; only the heuristic's best
``top_k`` melds or attachments and its best ``discards_k`` discards are searched (the tree search: the best 8 and
every discard at the root, the best ``inner_k`` deeper). A candidate is one atomic action; the rollout plays the rest of the turn with the heuristic,
so a candidate stands for the whole turn that follows from it.

The search never looks at the true state: :class:`ISMCTSPlayer` sees only the view. :class:`CheatingISMCTSPlayer`
runs the same search on copies of the true state (plain perfect-information Monte Carlo); it is a measuring stick
for how much hidden information costs, **never** a player offered to humans.
"""

from __future__ import annotations

import math
import random
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Protocol

from .. import native
from ..actions import DISCARD, Action
from ..determinize import determinize
from ..game import Game
from ..melds import CLEAN, SET, Meld
from ..scoring import player_shares
from ..view import View
from .heuristic import LEVELS, HeuristicPlayer
from .infer import Inference, pick_weighted

#: score difference (points) mapped to a reward of 1
REWARD_SCALE = 500.0
#: weight of the cards still held when a rollout stops before the end of the hand
HAND_WEIGHT = 0.5
#: the least advantage, in points a hand, for which the flat search leaves the heuristic's choice
#: (:attr:`ISMCTSPlayer.floor`; docs/strength.md, "More time")
DEFAULT_FLOOR = 25.0


class _Node:
    __slots__ = ("children", "visits", "avail", "total", "prior")

    def __init__(self, prior: float = 0.0) -> None:
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.avail = 0
        # sum of rewards from the point of view of the side that chose the action into this node
        self.total = 0.0
        self.prior = prior


def _potential(g: Game, m: Meld) -> float:
    """Expected worth of an unfinished meld's progress toward a burraco (0 for a finished one)."""
    r = g.rules
    if m.burraco is not None:
        return 0.0
    expect = float(r.bonus_clean if m.wild < 0 else r.bonus_dirty)
    if m.kind == SET:
        expect *= 0.8
    frac = min(1.0, m.size / r.burraco_min_len)
    return expect * frac * frac * 0.4


def side_value(g: Game, side: int) -> float:
    """A side's points: the exact total once the hand is over, else an estimate as things stand."""
    sc = g.side_score(side)
    if g.end is not None:
        return float(sc["total"])
    v = sc["total"] - (1.0 - HAND_WEIGHT) * sc["hand"]
    for m in g.melds[side]:
        v += _potential(g, m)
        if m.burraco == CLEAN:
            v += 20.0  # lets the side close in every preset
    return v


def evaluate(g: Game, side: int) -> float:
    """``side``'s score difference against the best other side, scaled to [-1, 1]."""
    best = max(side_value(g, k) for k in range(len(g.melds)) if k != side)
    d = (side_value(g, side) - best) / REWARD_SCALE
    return max(-1.0, min(1.0, d))


def outcome(g: Game, side: int) -> float:
    """``side``'s result after a rollout in units of :data:`REWARD_SCALE`: the exact score difference of a
    finished hand (unbounded), else the bounded estimate of :func:`evaluate`."""
    if g.end is None:
        return evaluate(g, side)
    return side_outcome([g.side_score(k)["total"] for k in range(len(g.melds))], side)


def side_outcome(totals: list[int], side: int) -> float:
    """A finished hand's result for ``side`` from the sides' ``totals``: its total against the best other side's, in
    units of :data:`REWARD_SCALE`."""
    best = max(t for k, t in enumerate(totals) if k != side)
    return (totals[side] - best) / REWARD_SCALE


def player_outcome(points: list[int], seat: int) -> float:
    """With 3 and 5 players, where every player keeps his own total (RULES.md §14.3): what the finished hand adds
    to ``seat``'s total (:meth:`~burraco.game.Game.player_points`: the solo's whole score, half a pair's) against
    the mean of what it adds to the others', in units of :data:`REWARD_SCALE`. (A side's total against the best
    other side's would count a pair's whole score against the solo, though each of the pair keeps half of it.)"""
    others = [p for s, p in enumerate(points) if s != seat]
    return (points[seat] - sum(others) / len(others)) / REWARD_SCALE


def _outcome_for(g: Game, seat: int, per_player: bool) -> float:
    """The rollout's result for ``seat``: :func:`player_outcome` where ``per_player`` and the hand has ended, else
    :func:`outcome` of the seat's side (sides may change in a hand with 3 and 5 players)."""
    if per_player and g.end is not None:
        return player_outcome(g.player_points(), seat)
    return outcome(g, g.side_of(seat))


class ValueEstimate(Protocol):
    """A value at a cut-off (:class:`burraco.envs.value.ValueNet`): a rollout stopped before the end of the hand
    judged by this instead of the static :func:`evaluate`, for the seat searching, in the units of :func:`outcome`."""

    def of_game(self, g: Game, seat: int) -> float:
        """The estimate for ``seat`` in ``g`` (from its view)."""
        ...

    def of_hand(self, h: native.NativeHand, seat: int) -> float:
        """The same for a hand on the native core."""
        ...


def _cut_off(g: Game, seat: int, per_player: bool, value: ValueEstimate | None) -> float:
    """:func:`_outcome_for`, a rollout stopped before the end judged by ``value`` where there is one."""
    if value is not None and g.end is None:
        return value.of_game(g, seat)
    return _outcome_for(g, seat, per_player)


class _Sampler:
    """``determinize(view, rng, weights, avoid)`` as a callable, which the flat search can also run on the native
    core."""

    __slots__ = ("view", "weights", "avoid")

    def __init__(self, view: View, weights: list[list[float] | None] | None, avoid: list[int] | None) -> None:
        self.view = view
        self.weights = weights
        self.avoid = avoid

    def __call__(self, rng: random.Random) -> Game:
        return determinize(self.view, rng, self.weights, self.avoid)

    def native_ok(self) -> bool:
        """Whether the native core determinizes this view (built, and rules it takes)."""
        return native.available() and native.supported(self.view.rules) is None


def _native_outcome(
    h: native.NativeHand, seat: int, per_player: bool, value: ValueEstimate | None = None
) -> float:
    """:func:`_cut_off` of a native hand."""
    totals = h.totals()
    if totals is None:
        return value.of_hand(h, seat) if value is not None else _outcome_for(h.to_game(), seat, per_player)
    if per_player:
        sides = [h.side_of(s) for s in range(h.rules.players)]
        return player_outcome(player_shares(totals, sides, h.rules.pair_split_rounding), seat)
    return side_outcome(totals, h.side_of(seat))


#: the flat search's rollouts run on the native core where it is built and takes the rules (burraco.native): the
#: same decisions, many times faster; False runs them on the Python engine (tests compare both)
native_rollouts = True


def paired(values: list[list[float]], j: int) -> tuple[float, float, int]:
    """Mean and standard error of candidate ``j``'s advantage over candidate 0 on the determinizations both played,
    and their number."""
    n = min(len(values[0]), len(values[j]))
    if n == 0:
        return 0.0, math.inf, 0
    diffs = [values[j][t] - values[0][t] for t in range(n)]
    m = sum(diffs) / n
    if n < 2:
        return m, math.inf, n
    var = sum((x - m) ** 2 for x in diffs) / (n - 1)
    return m, math.sqrt(var / n), n


def still_racing(values: list[list[float]], active: list[int], n: int, z: float) -> list[int]:
    """The candidates of ``active`` (all with at least ``n`` values) still in the race after ``n`` determinizations:
    the leader (the best mean over the first ``n``), candidate 0 (the heuristic's choice) and every one whose paired
    deficit to the leader is within ``z`` standard errors."""
    means = {j: sum(values[j][:n]) / n for j in active}
    lead = max(active, key=lambda j: (means[j], -j))
    keep = []
    for j in active:
        if j in (0, lead):
            keep.append(j)
            continue
        diffs = [values[lead][t] - values[j][t] for t in range(n)]
        m = sum(diffs) / n
        var = sum((x - m) ** 2 for x in diffs) / (n - 1)
        if m <= z * math.sqrt(var / n):
            keep.append(j)
    return keep


def pick_best(values: list[list[float]], z: float, floor: float = 0.0) -> int:
    """The candidate to play from per-determinization values (row ``j``: candidate ``j``, paired by column).

    Candidate 0 (the heuristic's choice) is kept unless another one beats it by more than ``z`` standard errors of
    the paired differences (over at least two determinizations) and by more than ``floor`` (a mean advantage, in
    the values' units); among those that do, the largest advantage wins.
    """
    best = 0
    best_m = max(0.0, floor)
    for j in range(1, len(values)):
        m, se, n = paired(values, j)
        if n >= 2 and m > z * se and m > best_m:
            best, best_m = j, m
    return best


class ISMCTSPlayer:
    """ISMCTS over determinizations of the seat's view (see the module docstring for the two searches).

    ``iterations`` fixes the number of determinizations per decision (deterministic for a given ``seed``); without
    it the search runs ``time_budget`` seconds per decision (at least one determinization), counted from the start
    of :meth:`choose`: a determinization starts only while one more, at the mean time one has taken, fits in the
    budget, and one still running at the deadline is dropped between two of its rollouts, so a move ends within one
    rollout (a fraction of a millisecond on the native core) of its budget unless the machine takes the core away.
    ``min_iterations``: with a time budget, the determinizations run whatever the time (a floor: on a loaded
    machine the move is late rather than weak). Decisions with one legal action, or one candidate, cost nothing.
    """

    needs_state = False
    #: the player's name (``name`` of the Player protocol)
    NAME = "ismcts"

    def __init__(
        self,
        seed: int | None = None,
        iterations: int | None = None,
        time_budget: float = 1.0,
        rollout_depth: int | None = None,
        level: str = "hard",
        search: str = "flat",
        top_k: int = 3,
        discards_k: int = 2,
        z: float = 1.0,
        inner_k: int = 4,
        c: float = 0.7,
        bias: float = 0.3,
        infer: Inference | bool | dict[str, Any] = True,
        threads: int = 1,
        race: float = 0.0,
        per_player: bool | None = None,
        value: ValueEstimate | None = None,
        floor: float = DEFAULT_FLOOR,
        min_iterations: int = 0,
    ) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r} (levels are {', '.join(LEVELS)})")
        if search not in ("flat", "tree"):
            raise ValueError(f"unknown search {search!r} (searches are flat, tree)")
        if iterations is not None and iterations < 1:
            raise ValueError("iterations must be at least 1")
        if threads < 1:
            raise ValueError("threads must be at least 1")
        if min_iterations < 0:
            raise ValueError("min_iterations must be at least 0")
        self.name = self.NAME
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.time_budget = time_budget
        self.search = search
        # the tree search needs short rollouts to make iterations cheap; the flat search plays hands out
        self.rollout_depth = rollout_depth if rollout_depth is not None or search == "flat" else 8
        self.level = level
        self.top_k = top_k
        self.discards_k = discards_k
        self.z = z
        self.inner_k = inner_k
        self.c = c
        self.bias = bias
        #: racing at the root (0: off): at 16, 32, 64 … determinizations a candidate whose paired deficit to the
        #: leader exceeds ``race`` standard errors stops being played, so the budget goes to those still in the race
        #: (the heuristic's choice always stays)
        self.race = race
        #: the flat search leaves the heuristic's choice only for a candidate whose estimated advantage is also above
        #: this many points a hand (0: any advantage beyond ``z`` standard errors). With more determinizations the
        #: search acts on smaller and smaller advantages under its heuristic rollouts, where what the rollouts
        #: assume (every other player plays as ``hard``) outweighs the edge: without a floor ``ismcts:1s`` lost to
        #: ``ismcts:0.25s`` (−101 a deal), with 25 points it beats it (+159). At 0.25 s the small edges it refuses
        #: are mostly real: it costs −142 a deal against ``hard``, widens the gap to ``cheat`` by +120, and 1 s with
        #: it beats 0.25 s without it by only +30 (−66 … +126); at ``expert``'s 0.5 s it makes no measurable
        #: difference (+9, −98 … +115 without it): a trade kept open (docs/strength.md, "More time", "The floor at
        #: 0.25 s" and "The gap to the cheater")
        self.floor = floor
        #: with a time budget, the determinizations a decision runs at least, however long they take: on a machine
        #: whose cores are taken by other work the search runs late rather than weak (``expert`` and every timed
        #: spec: :func:`burraco.bots.players.dets_floor`; docs/strength.md, "A floor of determinizations")
        self.min_iterations = min_iterations
        #: how the other hands are sampled (:class:`~burraco.bots.infer.Inference`; None: uniformly)
        self.infer = Inference.of(infer)
        #: judge a finished rollout by the seat's own points against the other players' (:func:`player_outcome`)
        #: rather than by its side's total against the best other side's; None (the default): where the rules keep
        #: a total per player, 3 and 5 players (in italian-3p +364 a deal over the side objective: docs/strength.md)
        self.per_player = per_player
        #: the flat search: a rollout stopped after ``rollout_depth`` decisions is judged by this estimate rather
        #: than the static :func:`~burraco.bots.ismcts.evaluate` (None: that); not kept as a default (−125 a deal
        #: at 0.1 s: docs/strength.md, "A value estimate at a cut-off")
        self.value = value
        #: threads that play the flat search's rollouts on the native core at once (they release the GIL); the
        #: same determinizations and values as one thread at a fixed number of iterations, more of them in a budget
        self.threads = threads
        self._pool: ThreadPoolExecutor | None = None
        self._started = time.perf_counter()
        self._policy = HeuristicPlayer(level, seed=0)
        #: iterations (determinizations) run by the last search, and rollouts played (for measurement)
        self.last_iterations = 0
        self.last_rollouts = 0

    # ------------------------------------------------------------------------------------------------------------

    @property
    def _least(self) -> int:
        """The determinizations a decision runs whatever the time: the first (its candidates need values) and the
        floor's (:attr:`min_iterations`)."""
        return max(1, self.min_iterations)

    def choose(self, view: View, legal: list[Action]) -> Action:
        self._started = time.perf_counter()  # the budget counts from here: ranking and sampling set-up included
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        return self._search(view, legal, self._sampler(view))

    def _search(self, view: View, legal: list[Action], sample: Callable[[random.Random], Game]) -> Action:
        if self.search == "flat":
            return self._search_flat(view, legal, sample)
        return self._search_tree(view, legal, sample)

    # ----- the flat search with common random numbers -----------------------------------------------------------
    def root_candidates(self, view: View, legal: list[Action]) -> list[Action]:
        """The actions the flat search compares, the heuristic's choice first."""
        ranked = self._policy.scores(view, legal)
        out: list[Action] = []
        melds = discards = 0
        for _, a in ranked:
            if a.verb == DISCARD:
                if discards < self.discards_k:
                    out.append(a)
                    discards += 1
            elif melds < self.top_k:
                out.append(a)
                melds += 1
        return out

    def _rollout(self, g: Game, players: list[HeuristicPlayer]) -> None:
        if native_rollouts and native.heuristic_rollout(g, self.level, [p.rng for p in players], self.rollout_depth):
            return  # played on the native core: the same decisions, g and the players' generators as below
        depth = self.rollout_depth
        steps = 0
        while g.end is None and (depth is None or steps < depth):
            s = g.current_seat
            glegal = g.legal_actions()
            g.apply(glegal[0] if len(glegal) == 1 else players[s].choose(g.view(s), glegal))
            steps += 1

    def _search_flat(self, view: View, legal: list[Action], sample: Callable[[random.Random], Game]) -> Action:
        cands = self.root_candidates(view, legal)
        if len(cands) == 1:
            self.last_iterations = 0
            return cands[0]
        values = self.flat_values(view, cands, sample)
        return cands[pick_best(values, self.z, self.floor / REWARD_SCALE)]

    def candidate_values(
        self, view: View, candidates: list[Action], sample: Callable[[random.Random], Game] | None = None
    ) -> list[list[float]]:
        """Per candidate, its outcome (in units of :data:`REWARD_SCALE`, for the view's seat) on each sampled
        determinization of the view, every candidate on the same hidden cards and the same later luck — the flat
        search's evaluation, for analysing a decision (:mod:`burraco.analysis`). ``sample`` draws the
        determinizations instead of this player's model of the hands (for measurement: benchmarks/deviations.py)."""
        self._started = time.perf_counter()
        return self.flat_values(view, candidates, sample or self._sampler(view))

    def _per_player(self, view: View) -> bool:
        """Whether rollouts are judged per player (:attr:`per_player`)."""
        return view.rules.players in (3, 5) if self.per_player is None else self.per_player

    def _sampler(self, view: View) -> _Sampler:
        """The determinizations of ``view`` as this player samples them (:attr:`infer`)."""
        if self.infer is None:
            return _Sampler(view, None, None)
        return _Sampler(view, *self.infer.sample_args(view))

    def flat_values(
        self, view: View, cands: list[Action], sample: Callable[[random.Random], Game]
    ) -> list[list[float]]:
        """The common-random-numbers evaluation of the flat search (see the module's notes)."""
        rng = self.rng
        per_player = self._per_player(view)
        players = [HeuristicPlayer(self.level, seed=0) for _ in range(view.players)]
        values: list[list[float]] = [[] for _ in cands]
        rollouts = 0
        t0 = self._started  # the decision's start (choose, candidate_values)
        loop = time.perf_counter()
        # with a time budget, a determinization still running at the deadline is dropped between two of its
        # rollouts (its candidates' values must come from the same cards): the move ends within one rollout of it
        deadline = math.inf if self.iterations is not None else t0 + self.time_budget
        least = self._least
        it = 0
        active = list(range(len(cands)))
        checkpoint = 16
        # on the native core where it takes the rules: the determinizations of the view and the rollouts there, the
        # search's generator copied into the core for the loop and given back after it (the same draws)
        dets: native.Determinizer | None = None
        tw: native.Twister | None = None
        if native_rollouts and isinstance(sample, _Sampler) and sample.native_ok():
            dets = native.Determinizer(view, sample.weights, sample.avoid)
            tw = native.Twister(rng)
            if self.threads > 1:
                return self._flat_values_threads(view, cands, dets, tw, t0)
        while True:
            if self.iterations is not None:
                if it >= self.iterations:
                    break
            elif it >= least:
                # stop unless one more iteration, at the mean cost so far, fits in the budget: the budget is a
                # ceiling on the time per decision, not a point after which the last iteration may run
                now = time.perf_counter()
                if now - t0 + (now - loop) / it > self.time_budget:
                    break
            it += 1
            base: native.NativeHand | None
            if dets is not None and tw is not None:
                base = self._draw(dets, tw, view.seat)
                seed = tw.getrandbits(32)
            else:
                det = sample(rng)
                seed = rng.getrandbits(32)
                fast = native_rollouts and native.available() and native.supported(det.rules) is None
                base = native.NativeHand.from_game(det) if fast else None
            late = False
            for j in active:
                a = cands[j]
                if it > least and time.perf_counter() > deadline:
                    late = True
                    for k in active:
                        if k == j:
                            break
                        values[k].pop()
                    break
                if base is not None:
                    # the same rollout on the native core: the same decisions, the same generators afterwards
                    h = base.clone()
                    h.apply(a)
                    h.seeded_heuristic_playout(self.level, seed, self.rollout_depth)
                    values[j].append(_native_outcome(h, view.seat, per_player, self.value))
                    rollouts += 1
                    continue
                g = det.clone()
                g.apply(a)
                for k, p in enumerate(players):
                    p.rng.seed(seed + k)  # the same later luck for every candidate
                self._rollout(g, players)
                values[j].append(_cut_off(g, view.seat, per_player, self.value))
                rollouts += 1
            if late:
                it -= 1
                break
            if self.race and it == checkpoint and len(active) > 2:
                active = still_racing(values, active, it, self.race)
                checkpoint *= 2
        if tw is not None:
            tw.give_back(rng)
        self.last_iterations = it
        self.last_rollouts = rollouts
        return values

    def _draw(self, dets: native.Determinizer, tw: native.Twister, seat: int) -> native.NativeHand:
        """One determinization from the core: with :attr:`Inference.discards`, one of ``discard_samples`` drawn,
        kept in proportion to the likelihood of the discards the pile shows (sampling-importance-resampling)."""
        inf = self.infer
        if inf is None or inf.discards <= 0.0 or inf.discard_samples < 2:
            return dets.sample_from(tw)
        hands = [dets.sample_from(tw) for _ in range(inf.discard_samples)]
        ll = [h.discard_loglik(seat, self.level, inf.discards) for h in hands]
        return hands[pick_weighted(ll, tw.getrandbits(32) / 4294967296.0)]

    def _flat_values_threads(
        self, view: View, cands: list[Action], dets: native.Determinizer, tw: native.Twister, t0: float
    ) -> list[list[float]]:
        """:meth:`flat_values` on the native core with :attr:`threads` threads: the determinizations and their
        rollout seeds are drawn in order here, each one's rollouts (every candidate) run in a worker, and the values
        are taken back in the order drawn, so a fixed number of iterations gives the values of one thread. With a
        time budget a determinization is started only while one more, at the mean time one has taken, still ends
        within the budget, and one whose worker finds the deadline passed between two rollouts is dropped (a
        ceiling on the move's time: the threads in flight end within a rollout of it)."""
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=self.threads, thread_name_prefix="ismcts")
        pool = self._pool
        level, depth, seat, value = self.level, self.rollout_depth, view.seat, self.value
        per_player = self._per_player(view)
        deadline = math.inf if self.iterations is not None else t0 + self.time_budget
        least = self._least

        def work(base: native.NativeHand, seed: int, kept: bool, which: list[int]) -> tuple[list[float] | None, float]:
            start = time.perf_counter()
            out = []
            for j in which:
                a = cands[j]
                if not kept and time.perf_counter() > deadline:
                    return None, time.perf_counter() - start  # past the budget: this determinization is dropped
                h = base.clone()
                h.apply(a)
                h.seeded_heuristic_playout(level, seed, depth)  # the GIL released
                out.append(_native_outcome(h, seat, per_player, value))
            return out, time.perf_counter() - start

        values: list[list[float]] = [[] for _ in cands]
        pending: deque[tuple[list[int], Future[tuple[list[float] | None, float]]]] = deque()
        it = done = dropped = rollouts = 0
        active = list(range(len(cands)))  # racing (self.race) drops candidates from what later workers play
        checkpoint = 16
        cost = 0.0  # the time the determinizations taken back took, each in its worker
        while True:
            while len(pending) < self.threads:
                if self.iterations is not None:
                    if it >= self.iterations:
                        break
                elif it >= least and (
                    done == 0 or time.perf_counter() - t0 + cost / done > self.time_budget
                ):  # the first determinization always (and the floor's); more only once one has come back and fits
                    break
                base = self._draw(dets, tw, seat)
                which = list(active)
                kept = it < least  # never dropped at the deadline
                pending.append((which, pool.submit(work, base, tw.getrandbits(32), kept, which)))
                it += 1
            if not pending:
                break
            which, job = pending.popleft()
            row, took = job.result()
            if row is None:
                dropped += 1
                continue
            for j, v in zip(which, row, strict=True):  # in the order drawn: every candidate's values stay paired by column
                if j in active:  # one dropped by the race while this was in flight keeps what one thread gives it
                    values[j].append(v)
            done += 1
            rollouts += len(row)
            cost += took
            if self.race and done == checkpoint and len(active) > 2:
                active = still_racing(values, active, done, self.race)
                checkpoint *= 2
        tw.give_back(self.rng)
        self.last_iterations = it - dropped
        self.last_rollouts = rollouts
        return values

    def __getstate__(self) -> dict[str, object]:
        state = self.__dict__.copy()
        state["_pool"] = None  # threads are not copied: a copy makes its own
        return state

    def close(self) -> None:
        """Stop the worker threads (a search started afterwards makes them again)."""
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    # ----- the tree search ----------------------------------------------------------------------------------------
    def _candidates(self, view: View, legal: list[Action], root: bool) -> list[tuple[Action, float]]:
        """The actions searched at a tree node, best first by the heuristic, each with its prior in (0, 1]."""
        if len(legal) <= 2:
            return [(a, 1.0) for a in legal]
        # best first; equal scores keep the legal list's (canonical) order
        ranked = self._policy.scores(view, legal)
        out: list[Action] = []
        if root:
            k = 0
            for _, a in ranked:
                if a.verb == DISCARD:
                    out.append(a)
                elif k < 8:
                    out.append(a)
                    k += 1
        else:
            out = [a for _, a in ranked[: self.inner_k]]
        return [(a, 1.0 / (1.0 + i)) for i, a in enumerate(out)]

    def _search_tree(self, view: View, legal: list[Action], sample: Callable[[random.Random], Game]) -> Action:
        rng = self.rng
        root = _Node()
        root_cands = self._candidates(view, legal, root=True)
        if len(root_cands) == 1:
            return root_cands[0][0]
        players = [HeuristicPlayer(self.level, seed=rng.getrandbits(32)) for _ in range(view.players)]
        deadline = math.inf if self.iterations is not None else self._started + self.time_budget
        least = self._least
        budget = self.iterations
        it = 0
        while True:
            if budget is not None:
                if it >= budget:
                    break
            elif it >= least and time.perf_counter() >= deadline:
                break
            it += 1
            g = sample(rng)
            node = root
            path: list[tuple[_Node, int]] = []  # (node entered, seat that chose the action into it)
            expanded = False
            while g.end is None:
                s = g.current_seat
                glegal = g.legal_actions()
                if node is root:
                    cands = root_cands
                elif len(glegal) == 1:
                    cands = [(glegal[0], 1.0)]
                else:
                    cands = self._candidates(g.view(s), glegal, root=False)
                untried = [(a, p) for a, p in cands if a not in node.children]
                if untried:
                    a, p = untried[0]
                    child = _Node(p)
                    node.children[a] = child
                    for b, _ in cands:
                        ch = node.children.get(b)
                        if ch is not None:
                            ch.avail += 1
                    g.apply(a)
                    path.append((child, s))
                    expanded = True
                    break
                best: _Node | None = None
                best_a: Action | None = None
                best_u = -math.inf
                for b, _ in cands:
                    ch = node.children[b]
                    ch.avail += 1
                    u = (
                        ch.total / ch.visits
                        + self.c * math.sqrt(math.log(ch.avail) / ch.visits)
                        + self.bias * ch.prior / (1 + ch.visits)
                    )
                    if u > best_u:
                        best_u, best, best_a = u, ch, b
                assert best is not None and best_a is not None
                g.apply(best_a)
                path.append((best, s))
                node = best
            if expanded:
                self._rollout(g, players)
            # every node's reward from the side of the seat that chose it, as the sides stand at the end
            vals: dict[int, float] = {}
            for n, seat in path:
                side = g.side_of(seat)
                v = vals.get(side)
                if v is None:
                    v = vals[side] = evaluate(g, side)
                n.visits += 1
                n.total += v
        self.last_iterations = it
        # the most visited root action; ties go to the better mean, then to the heuristic's order
        order = {a: i for i, (a, _) in enumerate(root_cands)}
        best_action = max(
            root.children.items(),
            key=lambda kv: (kv[1].visits, kv[1].total / max(1, kv[1].visits), -order[kv[0]]),
        )[0]
        return best_action


class CheatingISMCTSPlayer(ISMCTSPlayer):
    """The same search with perfect information: every iteration starts from a copy of the **true** state.

    For measurement only (the ceiling that tells how much the honest search leaves on the table); it is never
    offered to human players. It needs the full state: callers that see ``needs_state`` call
    :meth:`choose_with_state`. Called through :meth:`choose` with a view only, it falls back to the honest search.
    """

    needs_state = True
    NAME = "cheating"

    def choose_with_state(self, game: Game, legal: list[Action]) -> Action:
        self._started = time.perf_counter()
        if len(legal) == 1:
            return legal[0]
        view = game.view(game.current_seat)
        return self._search(view, legal, lambda rng: game.clone())


__all__ = [
    "DEFAULT_FLOOR",
    "ISMCTSPlayer",
    "CheatingISMCTSPlayer",
    "ValueEstimate",
    "evaluate",
    "outcome",
    "paired",
    "pick_best",
    "player_outcome",
    "side_outcome",
    "side_value",
]

"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley & Whitehouse 2012).

Every iteration samples one full state consistent with the seat's :class:`~burraco.view.View`
(:func:`~burraco.view.determinize`: the seat's hand, the table, the visible pile and the cards others were seen
to pick up stay where they are; the rest is dealt at random), then

1. **selects** down one tree whose nodes are keyed by actions: the children available are the legal candidates in
   *this* determinization, and a child is chosen by UCB1 with availability counts (the ``ln`` term uses how often
   the child was available, not how often its parent was visited) plus a small progressive bias toward the
   heuristic's own order;
2. **expands** one untried candidate (the heuristic's best first);
3. **rolls out** with :class:`~burraco.bots.heuristic.HeuristicPlayer` at every seat for at most ``rollout_depth``
   decisions or to the end of the hand;
4. **evaluates** the reached state as a side's score difference as things stand (``Game.side_score``, with the
   cards still in hand counted at half their value and the progress of unfinished melds toward a burraco
   credited), scaled to about [-1, 1], and backs it up from the point of view of the side that chose each action
   (partners share their side's value).

Macro-actions: a play phase offers many melds and attachments, most of them poor; at the root only the heuristic's
best ``top_k`` non-discard actions plus every discard are searched, deeper in the tree only the heuristic's best
``inner_k`` actions. Draw phases (draw or pick up) are searched in full.

The search never looks at the true state: :class:`ISMCTSPlayer` sees only the view. :class:`CheatingISMCTSPlayer`
runs the same search on copies of the true state (plain perfect-information MCTS); it is a measuring stick for how
much hidden information costs, **never** a player offered to humans.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from ..actions import DISCARD, Action
from ..game import Game
from ..melds import CLEAN, SET, Meld
from ..view import View, determinize
from .heuristic import LEVELS, HeuristicPlayer

#: score difference (points) mapped to a reward of 1
REWARD_SCALE = 500.0
#: weight of the cards still held when a rollout stops before the end of the hand
HAND_WEIGHT = 0.5


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
    """``side``'s score difference against the other side, scaled to [-1, 1]."""
    d = (side_value(g, side) - side_value(g, 1 - side)) / REWARD_SCALE
    return max(-1.0, min(1.0, d))


class ISMCTSPlayer:
    """Single-observer ISMCTS over determinizations of the seat's view.

    ``iterations`` fixes the number of iterations per decision (deterministic for a given ``seed``); without it
    the search runs ``time_budget`` seconds per decision. Decisions with one legal action cost nothing.
    """

    needs_state = False
    #: the player's name (``name`` of the Player protocol)
    NAME = "ismcts"

    def __init__(
        self,
        seed: int | None = None,
        iterations: int | None = None,
        time_budget: float = 1.0,
        rollout_depth: int = 8,
        level: str = "hard",
        top_k: int = 8,
        inner_k: int = 4,
        c: float = 0.7,
        bias: float = 0.3,
    ) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r} (levels are {', '.join(LEVELS)})")
        if iterations is not None and iterations < 1:
            raise ValueError("iterations must be at least 1")
        self.name = self.NAME
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.time_budget = time_budget
        self.rollout_depth = rollout_depth
        self.level = level
        self.top_k = top_k
        self.inner_k = inner_k
        self.c = c
        self.bias = bias
        self._policy = HeuristicPlayer(level, seed=0)
        #: iterations run by the last search (for measurement)
        self.last_iterations = 0

    # ------------------------------------------------------------------------------------------------------------
    def choose(self, view: View, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        return self._search(view, legal, lambda rng: determinize(view, rng))

    # ------------------------------------------------------------------------------------------------------------
    def _candidates(self, view: View, legal: list[Action], root: bool) -> list[tuple[Action, float]]:
        """The actions searched at a node, best first by the heuristic, each with its prior in (0, 1]."""
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
                elif k < self.top_k:
                    out.append(a)
                    k += 1
        else:
            out = [a for _, a in ranked[: self.inner_k]]
        return [(a, 1.0 / (1.0 + i)) for i, a in enumerate(out)]

    def _search(self, view: View, legal: list[Action], sample: Callable[[random.Random], Game]) -> Action:
        rng = self.rng
        root = _Node()
        root_cands = self._candidates(view, legal, root=True)
        if len(root_cands) == 1:
            return root_cands[0][0]
        players = [HeuristicPlayer(self.level, seed=rng.getrandbits(32)) for _ in range(view.players)]
        deadline = math.inf if self.iterations is not None else time.perf_counter() + self.time_budget
        budget = self.iterations
        it = 0
        while True:
            if budget is not None:
                if it >= budget:
                    break
            elif it > 0 and time.perf_counter() >= deadline:
                break
            it += 1
            g = sample(rng)
            node = root
            path: list[tuple[_Node, int]] = []  # (node entered, side that chose the action into it)
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
                side = g.side_of(s)
                if untried:
                    a, p = untried[0]
                    child = _Node(p)
                    node.children[a] = child
                    for b, _ in cands:
                        ch = node.children.get(b)
                        if ch is not None:
                            ch.avail += 1
                    g.apply(a)
                    path.append((child, side))
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
                path.append((best, side))
                node = best
            if expanded:
                for _ in range(self.rollout_depth):
                    if g.end is not None:
                        break
                    s = g.current_seat
                    glegal = g.legal_actions()
                    a = glegal[0] if len(glegal) == 1 else players[s].choose(g.view(s), glegal)
                    g.apply(a)
            v0 = evaluate(g, 0)
            for n, side in path:
                n.visits += 1
                n.total += v0 if side == 0 else -v0
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
        if len(legal) == 1:
            return legal[0]
        view = game.view(game.current_seat)
        return self._search(view, legal, lambda rng: game.clone())


__all__ = ["ISMCTSPlayer", "CheatingISMCTSPlayer", "evaluate", "side_value"]

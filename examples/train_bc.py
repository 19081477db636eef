#!/usr/bin/env python3
"""A baseline that learns something real: behaviour cloning of ``heuristic:hard`` over action features, on the CPU.

    pip install "burraco[train]"           # CPU PyTorch 2.13.0, numpy …
    python examples/train_bc.py --deals 300 --epochs 6 --hidden 64 96 48 --rank listwise --temperature 10 \
        --ce-weight 0.2 --dagger 2 --dagger-deals 150 --dagger-mix 0.7 --dagger-epochs 2 --holdout 30 --out bc.npz
    burraco arena --a policy:bc.npz --b heuristic:easy --deals 300

What it does:

1. plays ``--deals`` duplicate deals of ``heuristic:hard`` against itself (:func:`burraco.arena.play_game`, the
   arena's own loop, so the policy later sees views made exactly as in the arena) and records, at every decision
   with more than one legal action, the seat's observation (:func:`burraco.envs.observation.encode_view` of its
   view), the legal actions as feature rows (:func:`burraco.envs.features.action_features`) and which one the
   heuristic took, with the heuristic's own score of every recorded legal action
   (:meth:`burraco.bots.heuristic.HeuristicPlayer.choose_scored`);
2. trains the scorer of :mod:`burraco.envs.policy` (an observation embedding ``e = relu(W_e·obs + b_e)``, then
   ``relu(W1·[e, row] + b1) → relu(W2·h1 + b2) → w3·h2 + b3``, sizes ``--hidden E H1 H2``) with Adam,
   ``--epochs`` passes, and a loss chosen by ``--rank``: ``listwise`` (the default) is the cross-entropy between
   the softmax of the policy's scores over a decision's legal rows and the softmax of the heuristic's scores of
   the same actions divided by ``--temperature`` (so the policy learns the teacher's preferences among all the
   actions, not only its first choice), plus ``--ce-weight`` × the cross-entropy of the teacher's choice;
   ``pairwise`` is a logistic loss of the chosen action's score against each other one (plus the same
   ``--ce-weight`` term); ``ce`` the cross-entropy of the choice alone. Decisions with more than ``--max-rows``
   legal actions keep the chosen one and a random sample of the rest;
   then ``--dagger`` rounds of DAgger: ``--dagger-deals`` more deals where the policy being trained plays (each
   decision with probability ``--dagger-mix``, the heuristic otherwise) and the heuristic labels every decision
   (so the policy learns what to do in the states its own mistakes lead to), ``--dagger-epochs`` passes over
   all the data after each round; ``--holdout N`` deals (other seeds, never trained on) measure the agreement
   with the teacher's choice and the regret (the teacher's best score minus its score of the policy's choice);
3. writes the weights as ``.npz`` (numpy; playing needs no PyTorch): ``policy:PATH`` seats it anywhere a player
   spec is read (``burraco arena``, ``burraco play``, the environments' ``opponents``);
4. with ``--eval-deals N``: duplicate arena runs of the greedy policy against ``--eval`` players (default
   ``random``, ``heuristic:easy``, ``heuristic:medium``) with the arena's 95 % intervals, printed and written to
   ``--json``.

The policy decides from its seat's view only (it is a :class:`burraco.bots.base.Player` given a view).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from burraco import Game, preset
from burraco.actions import Action
from burraco.arena import play_game, player_seed, run_arena
from burraco.bots.heuristic import HeuristicPlayer
from burraco.deal import deal_from_seed
from burraco.envs.features import ACTION_FEATURES, action_features
from burraco.envs.layout import layout_for
from burraco.envs.observation import encode_view
from burraco.envs.policy import PolicyNet, PolicyPlayer
from burraco.envs.torch_policy import RowScorer
from burraco.view import View

Sample = tuple[np.ndarray, np.ndarray, int, np.ndarray]


class Recorder:
    """A heuristic player that records every decision it makes (observation, legal rows, choice, its scores)."""

    def __init__(self, inner: HeuristicPlayer, out: list[Sample], rng: random.Random, max_rows: int,
                 actor: PolicyPlayer | None = None, mix: float = 0.0) -> None:
        self.inner = inner
        self.actor = actor
        self.mix = mix
        self.name = inner.name
        self.out = out
        self.rng = rng
        self.max_rows = max_rows

    def choose(self, view: View, legal: list[Action]) -> Action:
        a, values = self.inner.choose_scored(view, legal)
        if len(legal) > 1:
            k = legal.index(a)
            idx = list(range(len(legal)))
            if len(legal) > self.max_rows:
                rest = [i for i in idx if i != k]
                idx = [k] + self.rng.sample(rest, self.max_rows - 1)
            rows = action_features(view, [legal[i] for i in idx])
            self.out.append((encode_view(view).astype(np.float16), rows.astype(np.float16), idx.index(k),
                             np.array([values[i] for i in idx], dtype=np.float32)))
            if self.actor is not None and self.rng.random() < self.mix:
                return self.actor.choose(view, legal)
        return a


def collect(rules_name: str, deals: int, seed: int, max_rows: int, level: str, actor: PolicyPlayer | None = None,
            mix: float = 0.0, data: list[Sample] | None = None) -> list[Sample]:
    rules = preset(rules_name)
    data = [] if data is None else data
    rng = random.Random(seed)
    n = rules.players
    first = (n - 1 + rules.direction) % n
    for d in range(deals):
        cards = deal_from_seed(rules, random.Random(seed * 1_000_003 + d))
        players = [Recorder(HeuristicPlayer(level, player_seed(seed, d, 0, s)), data, rng, max_rows, actor, mix)
                   for s in range(n)]
        g = Game(rules, cards, first, check=False)
        play_game(rules, g, players, set(), [0.0, 0.0], [0, 0])  # type: ignore[arg-type]
    return data


class Scorer(RowScorer):
    """The network of :class:`burraco.envs.policy.PolicyNet`, trainable (:class:`burraco.envs.torch_policy.RowScorer`
    on the raw observation, as behaviour cloning's weights files have it)."""

    def __init__(self, obs_size: int, emb: int, h1: int, h2: int) -> None:
        super().__init__(obs_size, emb, h1, h2, log_obs=False)


def batches(data: list[Sample], size: int, rng: random.Random | None) -> Any:
    order = list(range(len(data)))
    if rng is not None:
        rng.shuffle(order)
    for i in range(0, len(order), size):
        part = [data[j] for j in order[i : i + size]]
        L = max(r.shape[0] for _, r, _, _ in part)
        obs = torch.from_numpy(np.stack([o for o, _, _, _ in part]).astype(np.float32))
        rows = np.zeros((len(part), L, ACTION_FEATURES), dtype=np.float32)
        mask = np.zeros((len(part), L), dtype=bool)
        teach = np.full((len(part), L), -np.inf, dtype=np.float32)
        for b, (_, r, _, v) in enumerate(part):
            rows[b, : r.shape[0]] = r
            mask[b, : r.shape[0]] = True
            teach[b, : r.shape[0]] = v
        yield (obs, torch.from_numpy(rows), torch.from_numpy(mask), torch.tensor([k for _, _, k, _ in part]),
               torch.from_numpy(teach))


def loss_of(s: torch.Tensor, mask: torch.Tensor, k: torch.Tensor, teach: torch.Tensor, rank: str,
            temperature: float, ce_weight: float) -> torch.Tensor:
    """The training loss of one batch (``s``: the policy's scores, already -1e9 off the mask)."""
    ce = nn.functional.cross_entropy(s, k)
    if rank == "ce":
        return ce
    if rank == "listwise":
        target = torch.softmax(teach / temperature, dim=1)  # -inf off the mask: 0
        logp = torch.log_softmax(s, dim=1)
        lst = -(target * logp.masked_fill(~mask, 0.0)).sum(1).mean()
        return lst + ce_weight * ce
    # pairwise: the chosen action above each other legal one (logistic)
    chosen = s.gather(1, k.unsqueeze(1))
    others = mask.clone()
    others[torch.arange(len(k)), k] = False
    pair = nn.functional.softplus(s - chosen).masked_fill(~others, 0.0).sum(1) / others.sum(1).clamp(min=1)
    return pair.mean() + ce_weight * ce


def train(data: list[Sample], obs_size: int, epochs: int, hidden: tuple[int, int, int], lr: float, seed: int,
          args: Any, log: Any = print, model: Scorer | None = None, opt: Any = None
          ) -> tuple[Scorer, Any, list[float]]:
    torch.manual_seed(seed)
    rng = random.Random(seed)
    model = Scorer(obs_size, *hidden) if model is None else model
    opt = torch.optim.Adam(model.parameters(), lr=lr) if opt is None else opt
    accs: list[float] = []
    for ep in range(epochs):
        tot, right, loss_sum = 0, 0, 0.0
        for obs, rows, mask, k, teach in batches(data, 128, rng):
            s = model(obs, rows).masked_fill(~mask, -1e9)
            loss = loss_of(s, mask, k, teach, args.rank, args.temperature, args.ce_weight)
            opt.zero_grad()
            loss.backward()
            opt.step()
            loss_sum += loss.item() * len(k)
            right += int((s.argmax(1) == k).sum())
            tot += len(k)
        accs.append(right / max(tot, 1))
        log(f"epoch {ep + 1}: loss {loss_sum / max(tot, 1):.3f}, agrees with the heuristic on {accs[-1]:.1%}")
    return model, opt, accs


def held_out(model: Scorer, data: list[Sample]) -> dict[str, float]:
    """Agreement with the teacher's choice and regret (its best score minus its score of the policy's choice) on
    decisions never trained on."""
    right, tot, regret = 0, 0, 0.0
    with torch.no_grad():
        for obs, rows, mask, k, teach in batches(data, 256, None):
            pick = model(obs, rows).masked_fill(~mask, -1e9).argmax(1)
            right += int((pick == k).sum())
            tot += len(k)
            best = teach.max(1).values
            regret += float((best - teach.gather(1, pick.unsqueeze(1)).squeeze(1)).clamp(min=0).sum())
    return {"decisions": tot, "agreement": right / max(tot, 1), "regret": regret / max(tot, 1)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--rules", default="italian")
    ap.add_argument("--deals", type=int, default=300, help="deals of heuristic games to learn from")
    ap.add_argument("--teacher", default="hard", help="heuristic level imitated")
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--hidden", type=int, nargs=3, default=(64, 96, 48), metavar=("E", "H1", "H2"),
                    help="the observation embedding and the two hidden layers")
    ap.add_argument("--rank", choices=("listwise", "pairwise", "ce"), default="listwise", help="the loss")
    ap.add_argument("--temperature", type=float, default=10.0, help="listwise: the teacher's scores / this")
    ap.add_argument("--ce-weight", type=float, default=0.2, help="the weight of the choice's cross-entropy")
    ap.add_argument("--holdout", type=int, default=0, help="held-out deals for agreement and regret (0: none)")
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--max-rows", type=int, default=128)
    ap.add_argument("--init", default=None, help="start from this weights file (its hidden sizes)")
    ap.add_argument("--dagger", type=int, default=0, help="DAgger rounds after the first training")
    ap.add_argument("--dagger-deals", type=int, default=100)
    ap.add_argument("--dagger-mix", type=float, default=0.5)
    ap.add_argument("--dagger-epochs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--out", default="bc-policy.npz")
    ap.add_argument("--eval-deals", type=int, default=0, help="duplicate deals per evaluation opponent (0: none)")
    ap.add_argument("--eval", nargs="*", default=["random", "heuristic:easy", "heuristic:medium"])
    ap.add_argument("--eval-seed", type=int, default=12345)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--json", default=None, help="write the figures here")
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    rules = preset(args.rules)
    t0 = time.perf_counter()
    data = collect(args.rules, args.deals, args.seed, args.max_rows, args.teacher)
    t_collect = time.perf_counter() - t0
    print(f"{len(data)} decisions from {args.deals} deals of heuristic:{args.teacher} in {t_collect:.0f} s")
    obs_size = layout_for(rules).obs_size
    hidden = (args.hidden[0], args.hidden[1], args.hidden[2])
    start: Scorer | None = None
    if args.init:
        net0 = PolicyNet.load(args.init)
        hidden = net0.hidden
        start = Scorer(obs_size, *hidden)
        start.load_policy(net0)
    hold: list[Sample] = []
    if args.holdout:
        hold = collect(args.rules, args.holdout, args.seed + 777_777, 1 << 30, args.teacher)
    model, opt, accs = train(data, obs_size, args.epochs, hidden, args.lr, args.seed, args, model=start)
    for rnd in range(args.dagger):
        before = len(data)
        actor = PolicyPlayer(model.to_policy(), seed=rnd)
        collect(args.rules, args.dagger_deals, args.seed + 1000 * (rnd + 1), args.max_rows, args.teacher, actor,
                args.dagger_mix, data)
        print(f"DAgger round {rnd + 1}: {len(data) - before} decisions labelled by heuristic:{args.teacher}")
        model, opt, more = train(data, obs_size, args.dagger_epochs, hidden, args.lr, args.seed + rnd + 1, args,
                                 model=model, opt=opt)
        accs += more
    holdout: dict[str, float] | None = None
    if hold:
        holdout = held_out(model, hold)
        print(f"held out ({args.holdout} deals, {holdout['decisions']} decisions): agrees on "
              f"{holdout['agreement']:.1%}, regret {holdout['regret']:.2f} (the teacher's score units)")
    t_train = time.perf_counter() - t0 - t_collect
    net = model.to_policy()
    net.save(args.out, half=True)
    print(f"trained in {t_train:.0f} s; weights written to {args.out} ({Path(args.out).stat().st_size} bytes)")
    out: dict[str, Any] = {
        "rules": args.rules, "init": args.init, "deals": args.deals, "decisions": len(data), "epochs": args.epochs,
        "hidden": list(hidden), "rank": args.rank, "temperature": args.temperature, "ce_weight": args.ce_weight,
        "lr": args.lr, "seed": args.seed, "dagger": args.dagger, "dagger_deals": args.dagger_deals,
        "dagger_mix": args.dagger_mix, "dagger_epochs": args.dagger_epochs, "agreement": accs,
        "holdout_deals": args.holdout, "holdout": holdout, "collect_s": t_collect, "train_s": t_train,
        "weights_bytes": Path(args.out).stat().st_size, "eval_seed": args.eval_seed, "eval": {},
    }
    if args.eval_deals:
        for opp in args.eval:
            res = run_arena(rules, f"policy:{args.out}", opp, args.eval_deals, seed=args.eval_seed,
                            workers=args.workers)
            keep = {k: res[k] for k in ("deals", "mean_diff", "ci95", "a_win_rate", "a_win_rate_ci95", "a_ms_per_move") if k in res}
            out["eval"][opp] = keep
            print(f"policy vs {opp}: {json.dumps(keep)}")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

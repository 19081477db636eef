#!/usr/bin/env python3
"""A baseline that learns something real: behaviour cloning of ``heuristic:hard`` over action features, on the CPU.

    pip install "burraco[train]"           # CPU PyTorch 2.13.0, numpy …
    python examples/train_bc.py --deals 300 --epochs 6 --out bc.npz
    burraco arena --a policy:bc.npz --b heuristic:easy --deals 200

What it does:

1. plays ``--deals`` duplicate deals of ``heuristic:hard`` against itself (:func:`burraco.arena.play_game`, the
   arena's own loop, so the policy later sees views made exactly as in the arena) and records, at every decision
   with more than one legal action, the seat's observation (:func:`burraco.envs.encoding.encode_view` of its
   view), the legal actions as feature rows (:func:`burraco.envs.features.action_features`) and which one the
   heuristic took;
2. trains the scorer of :mod:`burraco.envs.policy` (``relu(W_obs·obs + W_act·row + b1) → relu(W2·h1 + b2) →
   w3·h2 + b3``) with the cross-entropy of a softmax over each decision's legal rows (Adam, ``--epochs`` passes);
   decisions with more than ``--max-rows`` legal actions keep the chosen one and a random sample of the rest;
   then ``--dagger`` rounds of DAgger: ``--dagger-deals`` more deals where the policy being trained plays (each
   decision with probability ``--dagger-mix``, the heuristic otherwise) and the heuristic labels every decision
   (so the policy learns what to do in the states its own mistakes lead to), ``--dagger-epochs`` passes over
   all the data after each round;
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
from burraco.envs.encoding import encode_view, layout_for
from burraco.envs.features import ACTION_FEATURES, action_features
from burraco.envs.policy import PolicyNet, PolicyPlayer
from burraco.view import View


class Recorder:
    """A heuristic player that records every decision it makes (observation, legal rows, choice)."""

    def __init__(self, inner: HeuristicPlayer, out: list[tuple[np.ndarray, np.ndarray, int]], rng: random.Random,
                 max_rows: int, actor: PolicyPlayer | None = None, mix: float = 0.0) -> None:
        self.inner = inner
        self.actor = actor
        self.mix = mix
        self.name = inner.name
        self.out = out
        self.rng = rng
        self.max_rows = max_rows

    def choose(self, view: View, legal: list[Action]) -> Action:
        a = self.inner.choose(view, legal)
        if len(legal) > 1:
            k = legal.index(a)
            idx = list(range(len(legal)))
            if len(legal) > self.max_rows:
                rest = [i for i in idx if i != k]
                idx = [k] + self.rng.sample(rest, self.max_rows - 1)
            rows = action_features(view, [legal[i] for i in idx])
            self.out.append((encode_view(view).astype(np.float16), rows.astype(np.float16), idx.index(k)))
            if self.actor is not None and self.rng.random() < self.mix:
                return self.actor.choose(view, legal)
        return a


def collect(rules_name: str, deals: int, seed: int, max_rows: int, level: str, actor: PolicyPlayer | None = None,
            mix: float = 0.0, data: list[tuple[np.ndarray, np.ndarray, int]] | None = None
            ) -> list[tuple[np.ndarray, np.ndarray, int]]:
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


class Scorer(nn.Module):
    """The network of :class:`burraco.envs.policy.PolicyNet`, trainable."""

    def __init__(self, obs_size: int, h1: int, h2: int) -> None:
        super().__init__()
        self.obs = nn.Linear(obs_size, h1)
        self.act = nn.Linear(ACTION_FEATURES, h1, bias=False)
        self.l2 = nn.Linear(h1, h2)
        self.l3 = nn.Linear(h2, 1)

    def forward(self, obs: torch.Tensor, rows: torch.Tensor) -> torch.Tensor:
        # obs: B × O, rows: B × L × F → scores B × L
        h = torch.relu(self.obs(obs).unsqueeze(1) + self.act(rows))
        return self.l3(torch.relu(self.l2(h))).squeeze(-1)

    def load_policy(self, net: PolicyNet) -> None:
        """Start from a weights file (``--init``: fine-tune an earlier run)."""
        w = {k: torch.from_numpy(v.copy()) for k, v in net.w.items()}
        self.load_state_dict(
            {
                "obs.weight": w["W_obs"], "obs.bias": w["b1"], "act.weight": w["W_act"], "l2.weight": w["W2"],
                "l2.bias": w["b2"], "l3.weight": w["w3"].unsqueeze(0), "l3.bias": w["b3"],
            }
        )

    def to_policy(self) -> PolicyNet:
        t = {k: v.detach().cpu().numpy().astype(np.float32) for k, v in self.state_dict().items()}
        return PolicyNet(
            {
                "W_obs": t["obs.weight"], "b1": t["obs.bias"], "W_act": t["act.weight"],
                "W2": t["l2.weight"], "b2": t["l2.bias"], "w3": t["l3.weight"][0], "b3": t["l3.bias"],
            }
        )


def batches(data: list[Any], size: int, rng: random.Random) -> Any:
    order = list(range(len(data)))
    rng.shuffle(order)
    for i in range(0, len(order), size):
        part = [data[j] for j in order[i : i + size]]
        L = max(r.shape[0] for _, r, _ in part)
        obs = torch.from_numpy(np.stack([o for o, _, _ in part]).astype(np.float32))
        rows = np.zeros((len(part), L, ACTION_FEATURES), dtype=np.float32)
        mask = np.zeros((len(part), L), dtype=bool)
        for b, (_, r, _) in enumerate(part):
            rows[b, : r.shape[0]] = r
            mask[b, : r.shape[0]] = True
        yield obs, torch.from_numpy(rows), torch.from_numpy(mask), torch.tensor([k for _, _, k in part])


def train(data: list[Any], obs_size: int, epochs: int, h1: int, h2: int, lr: float, seed: int,
          log: Any = print, model: Scorer | None = None, opt: Any = None) -> tuple[Scorer, Any, list[float]]:
    torch.manual_seed(seed)
    rng = random.Random(seed)
    model = Scorer(obs_size, h1, h2) if model is None else model
    opt = torch.optim.Adam(model.parameters(), lr=lr) if opt is None else opt
    accs: list[float] = []
    for ep in range(epochs):
        tot, right, loss_sum = 0, 0, 0.0
        for obs, rows, mask, k in batches(data, 128, rng):
            s = model(obs, rows).masked_fill(~mask, -1e9)
            loss = nn.functional.cross_entropy(s, k)
            opt.zero_grad()
            loss.backward()
            opt.step()
            loss_sum += loss.item() * len(k)
            right += int((s.argmax(1) == k).sum())
            tot += len(k)
        accs.append(right / max(tot, 1))
        log(f"epoch {ep + 1}: loss {loss_sum / max(tot, 1):.3f}, agrees with the heuristic on {accs[-1]:.1%}")
    return model, opt, accs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--rules", default="italian")
    ap.add_argument("--deals", type=int, default=300, help="deals of heuristic games to learn from")
    ap.add_argument("--teacher", default="hard", help="heuristic level imitated")
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--hidden", type=int, nargs=2, default=(64, 32), metavar=("H1", "H2"))
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--max-rows", type=int, default=128)
    ap.add_argument("--init", default=None, help="start from this weights file (its hidden sizes)")
    ap.add_argument("--dagger", type=int, default=0, help="DAgger rounds after the first training")
    ap.add_argument("--dagger-deals", type=int, default=100)
    ap.add_argument("--dagger-mix", type=float, default=0.5)
    ap.add_argument("--dagger-epochs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=2)
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
    start: Scorer | None = None
    if args.init:
        net0 = PolicyNet.load(args.init)
        start = Scorer(obs_size, net0.w["W2"].shape[1], net0.w["W2"].shape[0])
        start.load_policy(net0)
    model, opt, accs = train(data, obs_size, args.epochs, args.hidden[0], args.hidden[1], args.lr, args.seed,
                             model=start)
    for rnd in range(args.dagger):
        before = len(data)
        actor = PolicyPlayer(model.to_policy(), seed=rnd)
        collect(args.rules, args.dagger_deals, args.seed + 1000 * (rnd + 1), args.max_rows, args.teacher, actor,
                args.dagger_mix, data)
        print(f"DAgger round {rnd + 1}: {len(data) - before} decisions labelled by heuristic:{args.teacher}")
        model, opt, more = train(data, obs_size, args.dagger_epochs, 0, 0, args.lr, args.seed + rnd + 1,
                                 model=model, opt=opt)
        accs += more
    t_train = time.perf_counter() - t0 - t_collect
    net = model.to_policy()
    net.save(args.out, half=True)
    print(f"trained in {t_train:.0f} s; weights written to {args.out} ({Path(args.out).stat().st_size} bytes)")
    out: dict[str, Any] = {
        "rules": args.rules, "init": args.init, "deals": args.deals, "decisions": len(data), "epochs": args.epochs,
        "hidden": list(args.hidden), "dagger": args.dagger, "dagger_deals": args.dagger_deals,
        "dagger_mix": args.dagger_mix, "agreement": accs, "collect_s": t_collect, "train_s": t_train, "eval": {},
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

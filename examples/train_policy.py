#!/usr/bin/env python3
"""PPO over the legal actions' feature rows, in one file (CleanRL-style), on the CPU: a policy that learns Burraco
from scratch against the computer players, measured in the duplicate arena.

    pip install "burraco[train]"          # CPU PyTorch 2.13.0, numpy, gymnasium, matplotlib
    python examples/train_policy.py --rules italian-2p --opponents easy --cpu-minutes 15 \\
        --out ppo-easy --json ppo-easy.json --plot ppo-easy.png
    burraco arena --rules italian-2p --a policy:ppo-easy.npz --b easy --deals 200

Three recipes, each labelled in its printouts and JSON (``recipe``):

* ``ppo`` (the default): PPO from scratch against ``--opponents`` (one spec, or several drawn per hand with
  ``--weights``: :class:`burraco.envs.gymnasium_env.OpponentPool`);
* ``bc+ppo`` (``--init weights.npz``): the same, starting from a behaviour-cloning policy
  (``examples/train_bc.py``; the numpy weights file of :mod:`burraco.envs.policy`);
* ``self-play`` (``--self-play N``): every N updates a frozen copy of the policy joins the opponents' pool
  (``--pool-size`` keeps the newest ones; the ``--opponents`` stay in it).

What it does:

* ``--envs`` tables of ``gymnasium.make("burraco/Burraco-v0", rules=..., opponents=..., reward=...)``, the learner
  at North; every decision is the seat's observation vector (:mod:`burraco.envs.observation`) and its legal actions as
  feature rows (``env.action_features()``, :mod:`burraco.envs.features`), decisions with one legal action are
  played at once (their rewards go to the decision before);
* the policy (:class:`burraco.envs.torch_policy.RowActorCritic`) scores every legal row (an observation embedding
  64, then 96 → 48 → 1 per row, ~300 000 weights) and samples from the softmax of the scores; a separate value head
  on the observation (``--critic full``: on every seat's observation, the other hands included -- the value head
  is used in training only, so the policy still decides from its own view);
* the reward (``--reward progress``, the default) is the hand's score difference / 1000 spread over the steps: after
  every decision the change of the score difference "if the hand ended now" (:meth:`burraco.envs._core.Table.potential`,
  computed by the environment from the true cards; the policy never sees them), and at the end the final
  difference less the last potential -- a potential-based reward, whose sum over a hand is the final difference
  less the deal's first potential, so the best policy is the one for the final score; ``--reward score`` gives the
  final difference at the end alone; ``--hand-weight W`` shapes the score reward with the same potential but the
  cards held counted at W of their points (1: ``progress``; 0: the melds, bonuses and pozzetti alone, so taking the
  pile costs nothing at once and a discard earns nothing), computed by this script from the same true state;
* PPO (clipped objective, GAE(γ, λ), advantage normalisation, value loss, entropy bonus, Adam, gradient clipping)
  on ``--envs × --steps`` decisions per update;
* the budget is CPU time of this process (``--cpu-minutes``; one torch thread: one core; ``kill -TERM`` ends the
  training early after the update in progress, and the final evaluation and files follow), evaluations excluded:
  every ``--eval-every`` CPU seconds the greedy policy plays ``--eval-deals`` duplicate deals against the first
  opponent (:func:`burraco.arena.play_duplicate`: each deal twice, seats swapped), and at the end ``--final-deals``
  fresh duplicate deals (seeds never trained on) give the result with its 95 % interval;
* ``--out PREFIX`` writes ``PREFIX.pt`` (the scorer, :func:`burraco.envs.torch_policy.save_checkpoint`) and
  ``PREFIX.npz`` (the same scorer as numpy weights): both play as ``policy:PATH`` in ``burraco arena``, ``ladder``
  and ``play``.

Everything the policy sees comes from its seat's view.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import sys
import time
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import torch
from torch import nn

import burraco.envs  # noqa: F401  (registers burraco/Burraco-v0)
from burraco.arena import play_duplicate
from burraco.bots.players import canonical_player, parse_player
from burraco.envs._core import make_rules
from burraco.envs.features import ACTION_FEATURES
from burraco.envs.gymnasium_env import OpponentPool
from burraco.envs.policy import PolicyNet, PolicyPlayer
from burraco.envs.torch_policy import RowActorCritic, ValueHead, save_checkpoint


def hand_potential(hand_weight: float) -> Any:
    """A potential for ``--hand-weight``: the seat's side's score difference as things stand (as
    :meth:`burraco.envs._core.Table.potential`) with the cards held counted at ``hand_weight`` of their points
    (1: the environment's ``progress`` potential; 0: the table alone), times the table's reward scale."""

    def phi(u: Any) -> float:
        t = u.table
        if t.over:
            return 0.0
        g = t.game
        own = g.side_of(u.seat)
        out = 0.0
        for side, sign in ((own, 1.0), (1 - own, -1.0)):
            sc = g.side_score(side)
            out += sign * (sc["total"] - (1.0 - hand_weight) * sc["hand"])
        return out * t.reward_scale

    return phi


class Table:
    """One learner table: the environment and the decision it waits on (forced moves already played). With
    ``shaping`` (a potential of the unwrapped environment; its reward is then ``score``) every decision's reward is
    the score reward plus the potential's change."""

    def __init__(self, env: Any, seed: int, shaping: Any = None) -> None:
        self.env = env
        self.shaping = shaping
        self.ret = 0.0  # the rewards of the episode so far
        self.start = self._reset(seed)

    def _reset(self, seed: int | None = None) -> float:
        obs, _ = self.env.reset(seed=seed)
        self.obs = obs
        u = self.env.unwrapped
        if self.shaping is not None:
            self.phi = self.shaping(u)
            return 0.0
        return u.table.potential(u.seat) if u.table.reward == "progress" else 0.0

    def critic_obs(self) -> np.ndarray:
        """What ``--critic full`` gives the value head: the learner's observation and every other seat's, as that seat
        sees the table (their hands included). Training only: the policy never sees it."""
        u = self.env.unwrapped
        t = u.table
        if t.over:
            return np.concatenate([self.obs] * t.n)
        others = [t.observation(s) for s in range(t.n) if s != u.seat]
        return np.concatenate([self.obs, *others])

    def decision(self) -> tuple[np.ndarray, np.ndarray, list[int]]:
        u = self.env.unwrapped
        return self.obs, u.action_features(), u.legal_indices()

    def step(self, index: int) -> tuple[float, bool, float | None]:
        """Play the index and any forced moves after it: (reward, done, the finished hand's score difference
        scaled or None)."""
        u = self.env.unwrapped
        total = 0.0
        while True:
            obs, r, term, trunc, _ = self.env.step(index)
            total += float(r)
            self.obs = obs
            if term or trunc:
                self.ret += total
                final = self.ret + self.start  # the rewards add up to the final difference less the first potential
                self.ret = 0.0
                if self.shaping is not None:
                    total -= self.phi  # the potential of the end is 0
                self.start = self._reset()
                return total, True, final
            idx = u.legal_indices()
            if len(idx) > 1:
                self.ret += total
                if self.shaping is not None:
                    phi = self.shaping(u)
                    total += phi - self.phi
                    self.phi = phi
                return total, False, None
            index = idx[0]


def pad(rows: list[np.ndarray]) -> tuple[torch.Tensor, torch.Tensor]:
    """Rows of several decisions as one B×L×F tensor and its B×L mask."""
    L = max(r.shape[0] for r in rows)
    out = np.zeros((len(rows), L, ACTION_FEATURES), dtype=np.float32)
    mask = np.zeros((len(rows), L), dtype=bool)
    for b, r in enumerate(rows):
        out[b, : r.shape[0]] = r
        mask[b, : r.shape[0]] = True
    return torch.from_numpy(out), torch.from_numpy(mask)


def _ci(lo: float, hi: float) -> list[float] | None:
    """An interval for the JSON (None where there is none)."""
    return None if lo != lo else [round(lo, 1), round(hi, 1)]


def evaluate(net: PolicyNet, rules: Any, opponent: str, deals: int, seed: int) -> dict[str, Any]:
    """The greedy policy against ``opponent`` in duplicate deals."""
    return play_duplicate(rules, lambda s: PolicyPlayer(net, s), parse_player(opponent), deals, seed)


def checkpoint(scorer: Any, seed: int) -> PolicyPlayer:
    """A frozen copy of the scorer as a player of the opponents' pool (self-play): it samples its moves (temperature
    1) with its own seeded random source. A :class:`~burraco.envs.gymnasium_env.OpponentPool` member is a spec, a
    player or a policy function ``(view, legal) -> action``; one player serves every table and seat it is drawn for
    (it keeps no state between moves but its random source)."""
    return PolicyPlayer(scorer.to_policy(), seed, temperature=1.0, name="checkpoint")  # numpy copies: frozen


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="italian-2p", help="a preset (default italian-2p)")
    ap.add_argument("--opponents", nargs="+", default=["easy"],
                    help="player specs of the other seats: one, or several drawn per hand (default easy); the "
                         "first is the one the evaluations play")
    ap.add_argument("--weights", nargs="+", type=float, help="draw weights of --opponents (default equal)")
    ap.add_argument("--reward", choices=("progress", "score"), default="progress")
    ap.add_argument("--hand-weight", type=float, default=None, metavar="W",
                    help="shape the score reward with the score difference as things stand, the cards held counted "
                         "at W of their points (1: as --reward progress; 0: the melds, bonuses and pozzetti alone)")
    ap.add_argument("--cpu-minutes", type=float, default=15.0, help="training budget in CPU minutes of this process")
    ap.add_argument("--max-updates", type=int, default=0, help="stop after this many updates (0: the budget alone)")
    ap.add_argument("--envs", type=int, default=16)
    ap.add_argument("--steps", type=int, default=64, help="decisions per table per update")
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--minibatch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=1e-3,
                    help="Adam's step size (default 1e-3; 3e-4 learned far slower, docs/research.md)")
    ap.add_argument("--gamma", type=float, default=1.0)
    ap.add_argument("--lam", type=float, default=0.95)
    ap.add_argument("--clip", type=float, default=0.2)
    ap.add_argument("--ent", type=float, default=0.01)
    ap.add_argument("--vf", type=float, default=0.5)
    ap.add_argument("--critic", choices=("view", "full"), default="view",
                    help="what the value head sees: the learner's view (default) or every seat's (training only; "
                         "the policy sees its view alone)")
    ap.add_argument("--hidden", nargs=3, type=int, default=[64, 96, 48], metavar=("E", "H1", "H2"))
    ap.add_argument("--init", default="", help="start from these numpy weights (.npz of train_bc.py): bc+ppo")
    ap.add_argument("--self-play", type=int, default=0, metavar="N",
                    help="every N updates a frozen copy of the policy joins the opponents' pool")
    ap.add_argument("--pool-size", type=int, default=5, help="self-play checkpoints kept in the pool")
    ap.add_argument("--eval-every", type=float, default=90.0, help="CPU seconds of training between evaluations")
    ap.add_argument("--eval-deals", type=int, default=40)
    ap.add_argument("--final-deals", type=int, default=200)
    ap.add_argument("--final-seed", type=int, default=20_000, help="arena seed of the final evaluation")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1, help="torch threads (1: one core)")
    ap.add_argument("--out", default="", help="write PREFIX.pt and PREFIX.npz")
    ap.add_argument("--json", default="", help="write the curve and the final figures here")
    ap.add_argument("--plot", default="", help="draw the learning curve here (matplotlib)")
    args = ap.parse_args(argv)

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    rng = np.random.default_rng(args.seed)
    rules = make_rules(args.rules)
    specs = [canonical_player(s) for s in args.opponents]
    versus = specs[0]
    recipe = "self-play" if args.self_play else ("bc+ppo" if args.init else "ppo")
    pool = None
    if len(specs) > 1 or args.self_play:
        pool = OpponentPool(specs, weights=args.weights, max_size=args.pool_size)
    opponents: Any = pool if pool is not None else versus
    shaping = None if args.hand_weight is None else hand_potential(args.hand_weight)
    reward = "score" if shaping is not None else args.reward
    reward_label = args.reward if shaping is None else f"score shaped (hand weight {args.hand_weight:g})"
    envs = [
        gymnasium.make("burraco/Burraco-v0", rules=rules, opponents=opponents, reward=reward,
                       mask_in_obs=False, illegal="raise")
        for _ in range(args.envs)
    ]
    obs_size = envs[0].unwrapped.table.layout.obs_size
    model = RowActorCritic(obs_size, *args.hidden)
    full = args.critic == "full"
    critic_size = obs_size * (rules.players if full else 1)
    if full:
        model.value = ValueHead(critic_size)
    if args.init:
        model.scorer.load_policy(PolicyNet.load(args.init))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr, eps=1e-5)
    tables = [Table(e, args.seed * 1_000_003 + i, shaping) for i, e in enumerate(envs)]

    def log(text: str) -> None:
        print(text, flush=True)

    against = f"{' / '.join(specs)}{' + its own checkpoints' if args.self_play else ''}"  # what training plays
    log(f"recipe {recipe}: PPO over action rows, {rules.name}, learner North against "
        f"{against}, reward {reward_label}, "
        f"{args.envs} tables x {args.steps} decisions per update, budget {args.cpu_minutes:g} CPU minutes")
    cpu0 = time.process_time()
    wall0 = time.perf_counter()
    eval_cpu = 0.0
    curve: list[dict[str, Any]] = []
    hands_diff: list[float] = []
    updates = decisions = hands = 0

    def train_cpu() -> float:
        return time.process_time() - cpu0 - eval_cpu

    def run_eval(deals: int, seed: int, final: bool = False) -> dict[str, Any]:
        nonlocal eval_cpu
        c = time.process_time()
        res = evaluate(model.scorer.to_policy(), rules, versus, deals, seed)
        eval_cpu += time.process_time() - c
        lo, hi = res["ci95"] or (float("nan"), float("nan"))  # no interval from a single deal
        point = {
            "train_cpu_s": round(train_cpu(), 1), "updates": updates, "decisions": decisions, "hands": hands,
            "deals": deals, "mean_diff": round(res["mean_diff"], 1), "ci95": _ci(lo, hi),
            "won": round(res["a_win_rate"], 3), "recent_hand_diff": round(float(np.mean(hands_diff[-200:])) * 1000, 1)
            if hands_diff else None,
        }
        if not final:
            curve.append(point)
        log(f"[{train_cpu():6.0f} CPU s] {updates} updates, {hands} hands: greedy policy vs {versus} "
            f"{res['mean_diff']:+.0f} a deal ({lo:+.0f} .. {hi:+.0f}), won {100 * res['a_win_rate']:.0f}% of "
            f"{deals} duplicate deals; training hands vs {against} lately "
            f"{point['recent_hand_diff'] if point['recent_hand_diff'] is not None else 0:+.0f} a hand")
        return res

    run_eval(args.eval_deals, 10_000)
    next_eval = args.eval_every
    budget = args.cpu_minutes * 60
    n, T = args.envs, args.steps
    stop = []  # SIGTERM ends the training after the update in progress: the final evaluation and files follow
    signal.signal(signal.SIGTERM, lambda signum, frame: stop.append(signum))
    while train_cpu() < budget and not (args.max_updates and updates >= args.max_updates) and not stop:
        b_obs = np.zeros((T, n, obs_size), dtype=np.float32)
        b_cobs = np.zeros((T, n, critic_size), dtype=np.float32) if full else b_obs
        b_rows: list[np.ndarray] = []
        b_act = np.zeros((T, n), dtype=np.int64)
        b_logp = np.zeros((T, n), dtype=np.float32)
        b_val = np.zeros((T + 1, n), dtype=np.float32)
        b_rew = np.zeros((T, n), dtype=np.float32)
        b_done = np.zeros((T, n), dtype=np.float32)
        for t in range(T):
            dec = [tb.decision() for tb in tables]
            for i, (o, _, _) in enumerate(dec):
                b_obs[t, i] = o
            rows, mask = pad([r for _, r, _ in dec])
            with torch.no_grad():
                obs_t = torch.from_numpy(b_obs[t])
                logits = model.logits(obs_t, rows, mask)
                dist = torch.distributions.Categorical(logits=logits)
                k = dist.sample()
                b_logp[t] = dist.log_prob(k).numpy()
                if full:
                    for i, tb in enumerate(tables):
                        b_cobs[t, i] = tb.critic_obs()
                b_val[t] = model.value(torch.from_numpy(b_cobs[t])).numpy()
            for i, tb in enumerate(tables):
                b_rows.append(dec[i][1])
                j = int(k[i])
                b_act[t, i] = j
                r, done, final = tb.step(dec[i][2][j])
                b_rew[t, i] = r
                b_done[t, i] = float(done)
                if final is not None:
                    hands += 1
                    hands_diff.append(final)
            decisions += n
        with torch.no_grad():
            last_obs = [tb.critic_obs() if full else tb.obs for tb in tables]
            b_val[T] = model.value(torch.from_numpy(np.stack(last_obs))).numpy()
        adv = np.zeros((T, n), dtype=np.float32)
        last = np.zeros(n, dtype=np.float32)
        for t in reversed(range(T)):
            nonterm = 1.0 - b_done[t]
            delta = b_rew[t] + args.gamma * b_val[t + 1] * nonterm - b_val[t]
            last = delta + args.gamma * args.lam * nonterm * last
            adv[t] = last
        ret = adv + b_val[:T]
        f_obs = torch.from_numpy(b_obs.reshape(T * n, obs_size))
        f_cobs = torch.from_numpy(b_cobs.reshape(T * n, critic_size)) if full else f_obs
        f_act = torch.from_numpy(b_act.reshape(-1))
        f_logp = torch.from_numpy(b_logp.reshape(-1))
        f_adv = torch.from_numpy(adv.reshape(-1))
        f_ret = torch.from_numpy(ret.reshape(-1))
        total = T * n
        for _ in range(args.epochs):
            order = rng.permutation(total)
            for s in range(0, total, args.minibatch):
                mb = order[s : s + args.minibatch]
                rows, mask = pad([b_rows[int(x)] for x in mb])
                mbt = torch.from_numpy(mb)
                logits = model.logits(f_obs[mbt], rows, mask)
                dist = torch.distributions.Categorical(logits=logits)
                logp = dist.log_prob(f_act[mbt])
                ratio = torch.exp(logp - f_logp[mbt])
                a = f_adv[mbt]
                a = (a - a.mean()) / (a.std() + 1e-8)
                pg = torch.max(-a * ratio, -a * torch.clamp(ratio, 1 - args.clip, 1 + args.clip)).mean()
                v = model.value(f_cobs[mbt])
                vloss = 0.5 * ((v - f_ret[mbt]) ** 2).mean()
                ent = dist.entropy().mean()
                loss = pg + args.vf * vloss - args.ent * ent
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(model.parameters(), 0.5)
                opt.step()
        updates += 1
        if args.self_play and pool is not None and updates % args.self_play == 0:
            pool.add(checkpoint(model.scorer, args.seed + updates), label=f"update {updates}")
        if train_cpu() >= next_eval:
            run_eval(args.eval_deals, 10_000)
            next_eval = train_cpu() + args.eval_every
    trained = train_cpu()
    wall = time.perf_counter() - wall0
    if not curve or curve[-1]["updates"] != updates:
        run_eval(args.eval_deals, 10_000)
    if stop:
        log(f"\nstopped by SIGTERM after {trained / 60:.1f} of {args.cpu_minutes:g} CPU minutes")
    log(f"\ntrained {trained / 60:.1f} CPU minutes ({wall / 60:.1f} wall minutes with the evaluations, "
        f"{eval_cpu / 60:.1f} CPU minutes of them): {updates} updates, {decisions} decisions, {hands} hands")
    final = run_eval(args.final_deals, args.final_seed, final=True)
    lo, hi = final["ci95"] or (float("nan"), float("nan"))
    verdict = "beats" if lo > 0 else ("loses to" if hi < 0 else "is level with")
    log(f"recipe {recipe}: the greedy policy {verdict} {versus}: {final['mean_diff']:+.0f} a deal "
        f"(95% interval {lo:+.0f} .. {hi:+.0f}), won {100 * final['a_win_rate']:.1f}% of {args.final_deals} fresh "
        f"duplicate deals (arena seed {args.final_seed})")
    if args.out:
        save_checkpoint(model.scorer, Path(args.out + ".pt"), {"recipe": recipe, "rules": rules.name})
        model.scorer.to_policy().save(Path(args.out + ".npz"), half=True)
        log(f"weights: {args.out}.pt, {args.out}.npz (policy:{args.out}.npz)")
    result = {
        "recipe": recipe, "rules": rules.name, "opponents": specs, "versus": versus, "reward": reward_label,
        "init": args.init or None, "self_play": args.self_play, "seed": args.seed,
        "settings": {k: v for k, v in vars(args).items() if k not in ("json", "plot", "out")},
        "train_cpu_minutes": round(trained / 60, 2), "stopped_early": bool(stop), "eval_cpu_minutes": round(eval_cpu / 60, 2),
        "wall_minutes": round(wall / 60, 2), "updates": updates, "decisions": decisions, "hands": hands,
        "curve": curve,
        "final": {"deals": args.final_deals, "seed": args.final_seed, "mean_diff": round(final["mean_diff"], 1),
                  "ci95": _ci(lo, hi), "won": round(final["a_win_rate"], 3)},
        "hand_diff_per_100": [round(float(np.mean(hands_diff[i : i + 100])) * 1000, 1)
                              for i in range(0, len(hands_diff), 100)],
    }
    if pool is not None:
        result["pool_draws"] = dict(pool.counts)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    if args.plot:
        plot(result, args.plot)
        log(f"plot: {args.plot}")
    return 0


def plot(result: dict[str, Any], path: str) -> None:
    """The learning curve: the greedy policy's arena result by training CPU time, and the training hands."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    c = result["curve"]
    x = [p["train_cpu_s"] / 60 for p in c]
    fig, ax = plt.subplots(1, 2, figsize=(11, 4))
    ax[0].plot(x, [p["mean_diff"] for p in c], marker="o")
    ci = [p["ci95"] or [p["mean_diff"], p["mean_diff"]] for p in c]
    ax[0].fill_between(x, [lo for lo, _ in ci], [hi for _, hi in ci], alpha=0.2)
    ax[0].axhline(0, color="grey", linewidth=0.8)
    f = result["final"]
    flo, fhi = f["ci95"] or [f["mean_diff"], f["mean_diff"]]
    ax[0].errorbar([result["train_cpu_minutes"]], [f["mean_diff"]],
                   yerr=[[f["mean_diff"] - flo], [fhi - f["mean_diff"]]], fmt="s", color="C3",
                   label=f"final, {f['deals']} fresh deals")
    ax[0].set_xlabel("training CPU minutes (one core)")
    ax[0].set_ylabel(f"points a deal vs {result['versus']} (greedy, duplicate)")
    ax[0].legend(loc="lower right")
    h = result["hand_diff_per_100"]
    ax[1].plot([100 * (i + 1) for i in range(len(h))], h)
    ax[1].axhline(0, color="grey", linewidth=0.8)
    ax[1].set_xlabel("training hands")
    ax[1].set_ylabel("hand score difference (mean of 100, sampling)")
    pool = " + its own checkpoints" if result["self_play"] else ""
    fig.suptitle(f"{result['recipe']}: {result['rules']}, training vs {' / '.join(result['opponents'])}{pool}")
    fig.tight_layout()
    fig.savefig(path, dpi=80)


if __name__ == "__main__":
    sys.exit(main())

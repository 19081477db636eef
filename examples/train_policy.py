#!/usr/bin/env python3
"""Train a small masked policy for Burraco with PyTorch on the CPU, against the random player, and show that it
beats random in duplicate deals.

    pip install "burraco[train]"          # CPU PyTorch 2.13.0, numpy, gymnasium, pettingzoo, matplotlib
    python examples/train_policy.py --minutes 20 --plot learning-curve.png

What it does:

* the environment is ``gymnasium.make("burraco/Burraco-v0", rules="italian-2p", opponents="random")``: the agent
  plays North, the random player South, one hand per episode, reward = the hand's score difference / 1000;
* the policy is *masked*: it scores only the legal indices of the fixed action space (``info["action_mask"]``),
  each from the observation vector and a few features of the action the index names
  (:func:`burraco.envs.encoding.decode_action`): its part of the action space, the cards it lays and their
  points, the size of the meld it makes, the card it discards. Observation encoder 4250 -> 64, scorer 64+29 -> 64
  -> 1, a value head for the baseline: about 278 000 weights;
* REINFORCE with a learned baseline and a little entropy, 16 hands per update, Adam; each decision is credited
  with the final score difference minus the difference "if the hand ended now" before it (a potential-based
  reward-to-go: the same optimum, less variance; the policy itself never sees the opponent's cards);
* every ``--eval-every`` seconds it plays duplicate deals against random with :func:`burraco.arena.play_duplicate`
  (every deal twice, seats swapped; the policy samples its actions as in training) and records the share of deals won: the learning curve, printed
  as text and drawn with matplotlib (``--plot``). A final evaluation plays ``--final-deals`` duplicate deals.

Everything the policy sees comes from its seat's view: the observation is ``encode_view`` / ``encode_game`` of
that seat and the action features use only the action's own cards and the side's melds (public).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from typing import Any

import gymnasium
import numpy as np
import torch
from torch import nn

import burraco.envs  # noqa: F401  (registers burraco/Burraco-v0)
from burraco import preset
from burraco.actions import Action
from burraco.arena import parse_player, play_duplicate
from burraco.envs import encoding as enc
from burraco.view import View

PARTS = ("draw", "pick", "redraw", "discard", "meld", "add", "swap")
ACT_FEATURES = 7 + 6 + 13 + 3


def obs_features(obs: np.ndarray) -> torch.Tensor:
    """Signed log scaling keeps counts, sizes and points in a small range."""
    return torch.from_numpy(np.sign(obs) * np.log1p(np.abs(obs)))


def action_features(
    indices: list[int],
    actions: list[Action],
    melds: Any,
    hand: np.ndarray,
    values: tuple[int, ...],
    pile_size: float,
) -> torch.Tensor:
    """A few features per legal action, from the action and the seat's public/own information only."""
    out = np.zeros((len(indices), ACT_FEATURES), dtype=np.float32)
    for i, (idx, a) in enumerate(zip(indices, actions, strict=True)):
        part, slot, _pos = enc.describe_index(idx)
        out[i, PARTS.index(part)] = 1.0
        if part in ("meld", "add"):
            pts = sum(values[c] for c in a.cards)
            size = len(a.cards) + (melds[slot - 1].size if part == "add" else 0)
            wild = any(c == 52 or c % 13 == 1 for c in a.cards)
            out[i, 7] = len(a.cards) / 5
            out[i, 8] = pts / 50
            out[i, 9] = size / 7
            out[i, 10] = 1.0 if size >= 7 else 0.0
            out[i, 11] = 1.0 if wild else 0.0
            out[i, 12] = 1.0 if part == "add" and melds[slot - 1].size < 7 <= size else 0.0
        elif part == "discard":
            c = a.cards[0]
            out[i, 7] = values[c] / 30
            out[i, 11] = 1.0 if c == 52 or c % 13 == 1 else 0.0
            if c != 52:
                out[i, 13 + c % 13] = 1.0
            out[i, 26] = hand[c] / 2  # a pair kept or broken
            out[i, 27] = 1.0 if c == 52 else 0.0
        elif part == "pick":
            out[i, 28] = pile_size / 10
    return torch.from_numpy(out)


class Policy(nn.Module):
    """Scores each legal action; the softmax over the legal ones is the masked policy."""

    def __init__(self) -> None:
        super().__init__()
        self.obs = nn.Sequential(nn.Linear(enc.OBS_SIZE, 64), nn.ReLU())
        self.score = nn.Sequential(nn.Linear(64 + ACT_FEATURES, 64), nn.ReLU(), nn.Linear(64, 1))
        self.value = nn.Linear(64, 1)

    def forward(self, obs: torch.Tensor, acts: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.obs(obs)
        x = torch.cat([h.expand(acts.shape[0], -1), acts], dim=1)
        return self.score(x).squeeze(1), self.value(h).squeeze(0)


class PolicyPlayer:
    """The trained policy as an arena player: it gets a view and the legal actions, nothing else, and samples
    its action from the policy (seeded), as in training."""

    name = "policy"

    def __init__(self, model: Policy, seed: int = 0) -> None:
        self.model = model
        self.gen = torch.Generator().manual_seed(seed)

    def choose(self, view: View, legal: list[Action]) -> Action:
        melds = view.melds[view.side_of(view.seat)]
        obs = enc.encode_view(view)
        idx = enc.legal_indices(legal, melds)
        hand = obs[: enc.NUM_TYPES]
        feats = action_features(idx, legal, melds, hand, view.rules.card_values(), view.pile_size)
        with torch.no_grad():
            logits, _ = self.model(obs_features(obs), feats)
            k = torch.multinomial(torch.softmax(logits, 0), 1, generator=self.gen)
        return legal[int(k)]


def evaluate(model: Policy, deals: int, seed: int) -> dict[str, Any]:
    model.eval()
    res = play_duplicate(
        preset("italian-2p"), lambda s: PolicyPlayer(model, s), parse_player("random"), deals, seed
    )
    model.train()
    return res


def ascii_curve(xs: list[float], ys: list[float], width: int = 60, height: int = 12, label: str = "") -> str:
    """A small text plot (the learning curve in the terminal)."""
    if not ys:
        return ""
    lo, hi = 0.0, 1.0
    grid = [[" "] * width for _ in range(height)]
    x0, x1 = xs[0], max(xs[-1], xs[0] + 1e-9)
    for x, y in zip(xs, ys, strict=True):
        c = min(width - 1, int((x - x0) / (x1 - x0) * (width - 1)))
        r = min(height - 1, round((y - lo) / (hi - lo) * (height - 1)))
        grid[height - 1 - r][c] = "*"
    lines = [f"{label}"]
    for i, row in enumerate(grid):
        yv = hi - (hi - lo) * i / (height - 1)
        lines.append(f"{yv:5.2f} |" + "".join(row))
    lines.append("      +" + "-" * width)
    lines.append(f"       0 s{' ' * (width - 14)}{x1:7.0f} s")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=20.0, help="training time budget (wall clock)")
    ap.add_argument("--batch", type=int, default=16, help="hands per update")
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--entropy", type=float, default=0.01)
    ap.add_argument("--eval-every", type=float, default=90.0, help="seconds between evaluations")
    ap.add_argument("--eval-deals", type=int, default=30)
    ap.add_argument("--final-deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1, help="torch threads (1: leave the other cores alone)")
    ap.add_argument("--plot", default="", help="write the learning curve to this image (needs matplotlib)")
    ap.add_argument("--save", default="", help="save the trained weights here")
    ap.add_argument("--json", default="", help="write the curve and the final figures as JSON here")
    args = ap.parse_args()

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    env = gymnasium.make("burraco/Burraco-v0", rules="italian-2p", opponents="random")
    table = env.unwrapped.table
    values = table.rules.card_values()
    model = Policy()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    t0 = time.perf_counter()
    deadline = t0 + args.minutes * 60
    curve_t: list[float] = []
    curve_win: list[float] = []
    curve_reward: list[float] = []
    first = evaluate(model, args.eval_deals, seed=10_000)
    curve_t.append(0.0)
    curve_win.append(first["a_win_rate"])
    print(
        f"[    0 s] before training: wins {100 * first['a_win_rate']:.0f}% of {args.eval_deals} duplicate deals"
    )
    next_eval = t0 + args.eval_every
    hands = updates = 0
    episode_seed = args.seed * 1_000_003
    while time.perf_counter() < deadline:
        losses = []
        rewards = []
        for _ in range(args.batch):
            obs, info = env.reset(seed=episode_seed)
            episode_seed += 1
            logps, values_t, ents = [], [], []
            phis: list[float] = []
            total = 0.0
            done = False
            while not done:
                idx = env.unwrapped.legal_indices()
                legal = [table.action_of(i) for i in idx]
                g = table.game
                melds = g.melds[g.side_of(0)]
                x = obs_features(obs["observation"])
                feats = action_features(
                    idx, legal, melds, obs["observation"][: enc.NUM_TYPES], values, len(g.pile)
                )
                # the score difference if the hand ended now: the return still to come is the final difference
                # minus it (potential-based credit; the policy never sees it, only the loss does)
                phis.append((g.side_score(0)["total"] - g.side_score(1)["total"]) / 1000)
                logits, v = model(x, feats)
                dist = torch.distributions.Categorical(logits=logits)
                k = dist.sample()
                logps.append(dist.log_prob(k))
                ents.append(dist.entropy())
                values_t.append(v)
                obs, r, term, trunc, info = env.step(idx[int(k)])
                total += r
                done = term or trunc
            hands += 1
            rewards.append(total)
            if logps:
                lp = torch.stack(logps)
                vv = torch.stack(values_t)
                togo = total - torch.tensor(phis)
                adv = togo - vv.detach()
                losses.append(
                    -(lp * adv).sum()
                    + 0.5 * ((vv - togo) ** 2).sum()
                    - args.entropy * torch.stack(ents).sum()
                )
        opt.zero_grad()
        loss = torch.stack(losses).sum() / args.batch
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        updates += 1
        curve_reward.append(float(np.mean(rewards)))
        now = time.perf_counter()
        if now >= next_eval or now >= deadline:
            res = evaluate(model, args.eval_deals, seed=10_000)
            curve_t.append(now - t0)
            curve_win.append(res["a_win_rate"])
            print(
                f"[{now - t0:5.0f} s] {hands} hands, {updates} updates: mean hand diff vs random "
                f"{1000 * np.mean(curve_reward[-20:]):+.0f}, wins {100 * res['a_win_rate']:.0f}% of "
                f"{args.eval_deals} duplicate deals",
                flush=True,
            )
            next_eval = now + args.eval_every
    train_s = time.perf_counter() - t0
    final = evaluate(model, args.final_deals, seed=20_000)
    lo, hi = final["ci95"]
    print(
        f"\nafter {train_s / 60:.1f} min ({hands} hands): the policy beats random in "
        f"{100 * final['a_win_rate']:.1f}% of {args.final_deals} duplicate deals (new deals), mean score difference "
        f"{final['mean_diff']:+.0f} per deal (95% CI {lo:+.0f} .. {hi:+.0f})\n"
    )
    print(
        ascii_curve(curve_t, curve_win, label="share of duplicate deals won against random, by training time")
    )
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(1, 2, figsize=(11, 4))
        ax[0].plot(curve_t, curve_win, marker="o")
        ax[0].axhline(0.9, color="grey", linestyle="--", linewidth=0.8)
        ax[0].set_xlabel("training time (s)")
        ax[0].set_ylabel("duplicate deals won vs random")
        ax[0].set_ylim(0, 1.02)
        k = max(1, len(curve_reward) // 50)
        sm = [float(np.mean(curve_reward[i : i + k])) * 1000 for i in range(0, len(curve_reward), k)]
        ax[1].plot([i * k for i in range(len(sm))], sm)
        ax[1].set_xlabel("update")
        ax[1].set_ylabel("mean hand score difference vs random")
        fig.suptitle("masked policy, italian-2p, REINFORCE vs random")
        fig.tight_layout()
        fig.savefig(args.plot, dpi=100)
        print(f"plot: {args.plot}")
    if args.save:
        torch.save(model.state_dict(), args.save)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(
                {
                    "minutes": train_s / 60,
                    "hands": hands,
                    "updates": updates,
                    "curve_seconds": curve_t,
                    "curve_win_rate": curve_win,
                    "final_deals": args.final_deals,
                    "final_win_rate": final["a_win_rate"],
                    "final_mean_diff": final["mean_diff"],
                    "final_ci95": final["ci95"],
                    "reward_per_update": curve_reward,
                },
                f,
            )
    assert math.isfinite(final["mean_diff"])


if __name__ == "__main__":
    main()

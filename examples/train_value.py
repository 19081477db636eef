#!/usr/bin/env python3
"""Train the search's value estimate at a cut-off (burraco.envs.value) by self-play of heuristic:hard, on the CPU.

    pip install "burraco[train]"
    python examples/train_value.py --hands 3000 --epochs 8 --out value-italian.npz
    python benchmarks/search_variants.py --a '{"value": "value-italian.npz", "rollout_depth": 12}' --b '{}' \
        --budget 0.1 --deals 100

What it does:

1. plays ``--hands`` hands of ``--rules`` on the native core with heuristic:hard at every seat (the search's own
   rollout policy, so the states are those a cut-off meets) and, at every ``--every``-th decision, records one
   seat's observation (the core's encoder: :func:`burraco.envs.observation.encode_view`'s vector), a seat drawn at
   random; the target is what the search would score for that seat once the hand is over: its side's total
   against the best other side's, in units of ``REWARD_SCALE`` (500 points);
2. trains ``relu(W1·obs + b1) → relu(W2·h + b2) → w3·h + b3`` (sizes ``--hidden H1 H2``) on the observations
   standardised (folded into ``W1`` and ``b1`` when saved) with AdamW (``--weight-decay``) on the mean squared
   error, ``--epochs`` passes at most, keeping the weights of the pass with the least error on a tenth of the hands
   (validation); another tenth is held out for the figures;
3. prints, on the held-out hands, the error of the network, of the search's static estimate at a cut-off
   (:func:`burraco.bots.ismcts.evaluate`, which the network would replace) and of the mean, by the share of the
   hand played, and writes the weights (``--out``, numpy ``.npz``; playing needs no PyTorch) and the figures
   (``--json``).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

from burraco import native, preset
from burraco.bots.ismcts import REWARD_SCALE, evaluate
from burraco.envs.layout import layout_for
from burraco.envs.native_env import native_encoding
from burraco.envs.value import ValueNet


def self_play(rules_name: str, hands: int, every: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                                                np.ndarray, np.ndarray]:
    """Observations, targets, the static estimates, the share of the hand played and the hand of each sample."""
    rules = preset(rules_name)
    enc = native_encoding(rules)
    if enc is None:
        raise SystemExit("the native core is not built (or does not take these rules)")
    size = layout_for(rules).obs_size
    rng = random.Random(seed)
    obs: list[np.ndarray] = []
    target: list[float] = []
    static: list[float] = []
    part: list[float] = []
    hand_of: list[int] = []
    buf = np.zeros(size, dtype=np.float32)
    for k in range(hands):
        h = native.NativeHand.new(rules, seed * 1_000_003 + k)
        rows: list[tuple[np.ndarray, int, float, int]] = []
        step = 0
        while not h.is_over:
            if step % every == k % every:
                seat = rng.randrange(rules.players)
                enc.encode(h._h, seat, buf)
                rows.append((buf.copy(), seat, evaluate(h.to_game(), h.side_of(seat)), step))
            h.seeded_heuristic_playout("hard", rng.getrandbits(32), 1)
            step += 1
        totals = h.totals()
        assert totals is not None
        for o, seat, st, at in rows:
            side = h.side_of(seat)
            best = max(t for s, t in enumerate(totals) if s != side)
            obs.append(o)
            target.append((totals[side] - best) / REWARD_SCALE)
            static.append(st)
            part.append(at / step)
            hand_of.append(k)
    return (np.stack(obs), np.array(target, np.float32), np.array(static, np.float32), np.array(part, np.float32),
            np.array(hand_of))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", default="italian")
    p.add_argument("--hands", type=int, default=3000)
    p.add_argument("--every", type=int, default=3, help="record every N-th decision (default 3)")
    p.add_argument("--hidden", type=int, nargs=2, default=[64, 32])
    p.add_argument("--epochs", type=int, default=8)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--weight-decay", type=float, default=0.05)
    p.add_argument("--dropout", type=float, default=0.2, help="dropout after the first layer while training")
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=1, help="PyTorch's threads (default 1)")
    p.add_argument("--out", default="value.npz")
    p.add_argument("--json", default=None, help="write the figures here")
    a = p.parse_args()
    torch.manual_seed(a.seed)
    torch.set_num_threads(a.threads)
    t0 = time.perf_counter()
    x, y, st, part, hand = self_play(a.rules, a.hands, a.every, a.seed)
    made = time.perf_counter() - t0
    held = hand >= int(a.hands * 0.9)
    val = (hand >= int(a.hands * 0.8)) & ~held
    train = ~held & ~val
    mu = x[train].mean(axis=0)
    sd = x[train].std(axis=0) + 1e-3
    x = (x - mu) / sd  # standardised; folded back into W1 and b1 below
    xt, yt = torch.from_numpy(x[train]), torch.from_numpy(y[train])
    xv, yv = torch.from_numpy(x[val]), torch.from_numpy(y[val])
    h1, h2 = a.hidden
    net = nn.Sequential(nn.Linear(x.shape[1], h1), nn.ReLU(), nn.Dropout(a.dropout), nn.Linear(h1, h2), nn.ReLU(),
                        nn.Linear(h2, 1))
    opt = torch.optim.AdamW(net.parameters(), lr=a.lr, weight_decay=a.weight_decay)
    n = xt.shape[0]
    best, best_state = float("inf"), None
    for epoch in range(a.epochs):
        net.train()
        perm = torch.randperm(n)
        total = 0.0
        for i in range(0, n, a.batch):
            j = perm[i : i + a.batch]
            loss = ((net(xt[j]).squeeze(1) - yt[j]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(j)
        net.eval()
        with torch.no_grad():
            v = ((net(xv).squeeze(1) - yv) ** 2).mean().item()
        print(f"epoch {epoch + 1}: training mse {total / n:.4f}, validation {v:.4f}", flush=True)
        if v < best:
            best, best_state = v, {k: t.clone() for k, t in net.state_dict().items()}
    assert best_state is not None
    net.load_state_dict(best_state)
    net.eval()
    with torch.no_grad():
        pred = net(torch.from_numpy(x[held])).squeeze(1).numpy()
    yh, sh, ph = y[held], st[held], part[held]
    mean = float(y[train].mean())
    figures: dict[str, object] = {
        "rules": a.rules,
        "hands": a.hands,
        "samples": int(n),
        "validation_mse": round(best, 4),
        "held_out": int(held.sum()),
        "self_play_s": round(made, 1),
        "train_s": round(time.perf_counter() - t0 - made, 1),
    }
    for name, lo, hi in (("all", 0.0, 1.0), ("early", 0.0, 1 / 3), ("middle", 1 / 3, 2 / 3), ("late", 2 / 3, 1.01)):
        m = (ph >= lo) & (ph < hi)
        figures[name] = {
            "samples": int(m.sum()),
            "mse_network": round(float(((pred[m] - yh[m]) ** 2).mean()), 4),
            "mse_static": round(float(((sh[m] - yh[m]) ** 2).mean()), 4),
            "mse_mean": round(float(((mean - yh[m]) ** 2).mean()), 4),
        }
    print(json.dumps(figures))
    lin = [m for m in net if isinstance(m, nn.Linear)]
    w1 = lin[0].weight.detach().numpy() / sd  # on raw observations: W1·((obs - mu) / sd) + b1
    weights = {
        "format": np.array([1], dtype=np.int32),
        "W1": w1.astype(np.float32), "b1": (lin[0].bias.detach().numpy() - w1 @ mu).astype(np.float32),
        "W2": lin[1].weight.detach().numpy(), "b2": lin[1].bias.detach().numpy(),
        "w3": lin[2].weight.detach().numpy().reshape(-1), "b3": lin[2].bias.detach().numpy(),
    }
    ValueNet(weights).save(a.out)
    print(f"wrote {a.out} ({Path(a.out).stat().st_size // 1024} KiB)")
    if a.json:
        Path(a.json).write_text(json.dumps(figures, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
